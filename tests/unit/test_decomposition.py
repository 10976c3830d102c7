# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex decomposition core (io/decomposition.py) and the worker thread (io/background_job.py)."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from gltf_physics.io import background_job, decomposition
from gltf_physics.io.hull import hull_volume
from scripts import bench_decompose as meshes


def triangles_of(quads: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    return np.vstack([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]], triangles])


def small_torus() -> tuple[np.ndarray, np.ndarray]:
    points, quads, tris = meshes.torus(1.0, 0.3, 16, 8)
    return points, triangles_of(quads, tris)


def grid(size: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """A flat square of size × size quads at z = 0."""
    xs = np.linspace(0, 1, size + 1)
    points = np.array([[x, y, 0.0] for y in xs for x in xs])
    quads = np.array([[j * (size + 1) + i, j * (size + 1) + i + 1, (j + 1) * (size + 1) + i + 1,
                       (j + 1) * (size + 1) + i] for j in range(size) for i in range(size)])
    return points, triangles_of(quads, np.empty((0, 3), dtype=int))


# -- mesh checks --------------------------------------------------------------------------


def test_closed_torus_is_watertight_with_its_volume():
    points, quads, tris = meshes.torus(**meshes.TORUS)
    check = decomposition.check_mesh(points, triangles_of(quads, tris))
    assert len(points) == 4608
    assert check.closed and not check.flat
    assert check.volume == pytest.approx(meshes.torus_volume(1.0, 0.3), rel=0.01)


def test_bowl_meshes_are_closed_with_the_expected_face_count():
    points, quads, tris = meshes.bowl(**meshes.BOWL)
    assert len(quads) + len(tris) == 20_000
    check = decomposition.check_mesh(points, triangles_of(quads, tris))
    exact = 2 / 3 * np.pi * (1.0 - 0.9 ** 3)
    assert check.closed and check.volume == pytest.approx(exact, rel=0.01)


def test_holes_and_shared_edges_are_counted():
    points, tris = small_torus()
    opened = decomposition.check_mesh(points, tris[1:])  # one triangle removed
    assert (opened.open_edges, opened.shared_edges, opened.closed) == (3, 0, False)
    fin = np.vstack([tris, [[tris[0][0], tris[0][1], len(points)]]])
    extra = decomposition.check_mesh(np.vstack([points, [[5.0, 5.0, 5.0]]]), fin)
    assert extra.shared_edges == 1 and extra.open_edges == 2


def test_flat_and_empty_meshes_have_no_volume():
    assert decomposition.check_mesh(*grid()).flat
    tilted = grid()[0] @ np.array([[1, 0, 0], [0, 0.6, 0.8], [0, -0.8, 0.6]])
    assert decomposition.check_mesh(tilted, grid()[1]).flat
    empty = decomposition.check_mesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=int))
    assert empty.triangles == 0 and empty.flat


def test_input_messages_follow_the_settings():
    points, tris = small_torus()
    closed = decomposition.check_mesh(points, tris)
    opened = decomposition.check_mesh(points, tris[1:])
    auto, off = decomposition.Settings(), decomposition.Settings(preprocess="off")
    assert decomposition.input_error(closed, off) == ""
    assert decomposition.input_error(opened, auto) == ""
    assert "not watertight (3 open edges)" in decomposition.input_error(opened, off)
    assert any("remeshes it" in w for w in decomposition.input_warnings(opened, auto))
    assert decomposition.input_warnings(closed, auto) == []
    assert "no volume" in decomposition.input_error(decomposition.check_mesh(*grid()), auto)
    big = decomposition.MeshCheck(decomposition.LARGE_TRIANGLES + 1, 0, 0, False, 1.0)
    assert any("may take minutes" in w for w in decomposition.input_warnings(big, auto))


def test_settings_map_to_coacd_arguments():
    arguments = decomposition.Settings(max_parts=0, seed=7).coacd_arguments()
    assert arguments["max_convex_hull"] == -1 and arguments["seed"] == 7
    assert decomposition.Settings(max_parts=12).coacd_arguments()["max_convex_hull"] == 12
    with pytest.raises(ValueError, match="preprocess"):
        decomposition.Settings(preprocess="sometimes").coacd_arguments()


def test_missing_coacd_gives_a_reason_naming_the_platform(monkeypatch):
    decomposition.missing_reason.cache_clear()
    monkeypatch.setitem(sys.modules, "coacd", None)  # import coacd now raises ImportError
    try:
        reason = decomposition.missing_reason()
        assert reason.startswith("Convex decomposition needs CoACD")
        platform = decomposition.platform_name()
        assert platform in reason or platform in decomposition.PLATFORMS_WITH_WHEEL
        with pytest.raises(decomposition.DecompositionError, match="needs CoACD"):
            decomposition.decompose(*small_torus(), decomposition.Settings())
    finally:
        decomposition.missing_reason.cache_clear()


def test_platform_names_follow_blender():
    system, _, machine = decomposition.platform_name().partition("-")
    assert system in {"linux", "windows", "macos"} and machine in {"x64", "arm64"}


def test_bad_input_is_refused_before_coacd_runs(monkeypatch):
    calls = []
    monkeypatch.setattr(decomposition, "run_coacd", lambda *a: calls.append(a) or [])
    settings = decomposition.Settings(preprocess="off")
    points, tris = small_torus()
    cases = {
        "NaN": (np.where(np.arange(len(points))[:, None] == 3, np.nan, points), tris),
        "missing vertices": (points, np.vstack([tris, [[0, 1, len(points) + 5]]])),
        "no volume": grid(),
        "not watertight": (points, tris[1:]),
        "no faces": (points, np.zeros((0, 3), dtype=int)),
    }
    for expected, (vertices, triangles) in cases.items():
        with pytest.raises(decomposition.DecompositionError, match=expected):
            decomposition.decompose(vertices, triangles, settings)
    assert calls == []


# -- with CoACD -----------------------------------------------------------------------------


def test_small_torus_decomposes_into_limited_convex_parts():
    pytest.importorskip("coacd")
    stages = []
    result = decomposition.decompose(*small_torus(), decomposition.Settings(max_points=12),
                                     lambda stage, fraction: stages.append((stage, fraction)))
    assert len(result.parts) >= 4
    assert all(4 <= len(part) <= 12 for part in result.parts)
    assert result.volumes == pytest.approx([hull_volume(p) for p in result.parts])
    assert result.volume == pytest.approx(meshes.torus_volume(1.0, 0.3), rel=0.25)
    assert stages[0] == ("CoACD", 0.0) and stages[-1] == ("done", 1.0)
    assert 0.0 <= result.simplification_error < 0.5


def test_the_same_seed_gives_the_same_parts():
    pytest.importorskip("coacd")
    settings = decomposition.Settings(seed=3)
    first = decomposition.decompose(*small_torus(), settings)
    again = decomposition.decompose(*small_torus(), settings)
    assert len(first.parts) == len(again.parts)
    for a, b in zip(first.parts, again.parts, strict=True):
        np.testing.assert_allclose(a, b)


def test_loose_vertices_do_not_join_the_parts():
    pytest.importorskip("coacd")
    points, tris = small_torus()
    loose = np.vstack([points, [[40.0, 0.0, 0.0], [0.0, -40.0, 3.0]]])
    result = decomposition.decompose(loose, tris, decomposition.Settings())
    assert max(np.abs(part).max() for part in result.parts) < 1.31
    assert result.volume == pytest.approx(meshes.torus_volume(1.0, 0.3), rel=0.25)


def test_a_failure_inside_coacd_is_a_message(monkeypatch):
    pytest.importorskip("coacd")
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "raise")  # the child's coacd call raises
    with pytest.raises(decomposition.DecompositionError, match="CoACD failed: test failure"):
        decomposition.decompose(*small_torus(), decomposition.Settings())
    monkeypatch.delenv("GLTF_PHYSICS_TEST_COACD")
    monkeypatch.setattr(decomposition.coacd_child, "run_coacd", lambda *_a, **_k: [])
    with pytest.raises(decomposition.DecompositionError, match="no part with volume"):
        decomposition.decompose(*small_torus(), decomposition.Settings())


# -- background job -------------------------------------------------------------------------


def test_job_returns_its_value_and_reports_progress():
    seen = threading.Event()

    def work(update):
        update("half", 0.5)
        seen.wait(5)
        update("over", 7.0)
        return 42

    job = background_job.BackgroundJob(work).start()
    while job.stage != "half":
        job.wait(0.01)
    assert (job.fraction, job.done) == (0.5, False)
    with pytest.raises(RuntimeError, match="still running"):
        job.result()
    seen.set()
    assert job.wait(5) and job.result() == 42 and job.fraction == 1.0 and job.elapsed > 0


def test_a_job_cancelled_before_its_thread_runs_never_starts():
    started = []
    job = background_job.BackgroundJob(lambda update: started.append(1))
    job.cancel()
    job.start().wait(5)
    assert started == [] and job.done
    with pytest.raises(background_job.JobCancelledError):
        job.result()


def test_job_errors_reach_the_main_thread_and_cancel_stops_at_the_next_update():
    failing = background_job.BackgroundJob(lambda update: 1 / 0).start()
    failing.wait(5)
    with pytest.raises(ZeroDivisionError):
        failing.result()
    gate = threading.Event()
    steps = []

    def work(update):
        gate.wait(5)
        update("first", 0.1)
        steps.append("after first")

    job = background_job.BackgroundJob(work).start()
    job.cancel()
    gate.set()
    job.wait(5)
    assert job.cancelled and steps == []
    with pytest.raises(background_job.JobCancelledError):
        job.result()
