# SPDX-License-Identifier: GPL-3.0-or-later
"""CoACD in a child process (io/coacd_child.py, io/coacd_worker.py): a crash, a hang, memory
past the budget and a cancel end the child, never this process; Blender's Python is found."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest

from gltf_physics.io import coacd_child, decomposition
from scripts import bench_decompose as meshes

pytest.importorskip("coacd", reason="coacd is not installed: make setup")
ARGUMENTS = decomposition.Settings().coacd_arguments()


def mesh(kind: str = "torus") -> tuple[np.ndarray, np.ndarray]:
    points, quads, tris = {"torus": lambda: meshes.torus(**meshes.TORUS),
                           "small": lambda: meshes.torus(1.0, 0.3, 16, 8),
                           "bowl": lambda: meshes.bowl(**meshes.BOWL)}[kind]()
    return points, np.vstack([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]], tris]).astype(np.int32)


@pytest.fixture
def children(monkeypatch):
    """The child processes started, recorded."""
    started: list[subprocess.Popen] = []
    real = subprocess.Popen

    def recording(*args, **kwargs):
        started.append(real(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(coacd_child.subprocess, "Popen", recording)
    return started


def test_the_parts_come_back_from_an_isolated_child(children):
    parts = coacd_child.run_coacd(*mesh("small"), ARGUMENTS)
    assert len(parts) >= 4 and all(p.ndim == 2 and p.shape[1] == 3 for p in parts)
    command = children[0].args
    assert command[0] == sys.executable and command[1] == "-I"
    assert command[2].endswith("coacd_worker.py") and children[0].returncode == 0


def test_a_crash_in_the_child_is_a_message(monkeypatch, children):
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "abort")
    with pytest.raises(coacd_child.ChildError, match=r"CoACD crashed \(SIGABRT\)"):
        coacd_child.run_coacd(*mesh(), ARGUMENTS)
    assert children[0].returncode < 0  # it died; this process did not


def test_a_hang_past_the_time_budget_kills_the_child(monkeypatch, children):
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "hang")
    started = time.monotonic()
    with pytest.raises(coacd_child.ChildError, match="longer than its budget of 1 s"):
        coacd_child.run_coacd(*mesh(), ARGUMENTS, budget=coacd_child.Budget(seconds=1.0))
    assert time.monotonic() - started < 5 and children[0].returncode == -9


@pytest.mark.skipif(os.name != "posix", reason="the memory budget is an RLIMIT_AS (POSIX)")
@pytest.mark.parametrize("megabytes", [140, 200])
def test_memory_past_the_budget_ends_the_child(megabytes):
    """Importing numpy and coacd takes ~160 MiB of address space, CoACD on the bowl more."""
    with pytest.raises(coacd_child.ChildError,
                       match=rf"ran out of memory \(budget {megabytes} MiB\)"):
        coacd_child.run_coacd(*mesh("bowl"), ARGUMENTS,
                              budget=coacd_child.Budget(memory=megabytes << 20))


def test_a_cancel_kills_the_child_at_once(children):
    class CancelledError(Exception):
        pass

    started = time.monotonic()

    def poll():
        if time.monotonic() - started > 0.5:
            raise CancelledError

    with pytest.raises(CancelledError):
        coacd_child.run_coacd(*mesh(), ARGUMENTS, poll)
    assert time.monotonic() - started < 1.5  # the torus alone takes ~5 s
    assert children[0].returncode == -9


def test_blenders_python_is_found_beside_an_older_blender_binary(tmp_path, monkeypatch):
    binary = tmp_path / "blender"
    python = tmp_path / "4.2" / "python" / "bin" / "python3.11"
    python.parent.mkdir(parents=True)
    for path in (binary, python):
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    monkeypatch.setattr(coacd_child.sys, "executable", str(binary))
    assert coacd_child.interpreter() == str(python)
    python.unlink()
    with pytest.raises(coacd_child.ChildError, match="Python was not found beside"):
        coacd_child.interpreter()

