# SPDX-License-Identifier: GPL-3.0-or-later
"""Hull simplification (io/hull.py, pure numpy): limits, subsets, volumes, degenerate input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gltf_physics.io import hull

SETTINGS = settings(max_examples=80, deadline=None, database=None)
CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)


def sphere_points(count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(count, 3))
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def ball_points(count: int, seed: int = 0) -> np.ndarray:
    return sphere_points(count, seed) * np.random.default_rng(seed + 1).random((count, 1)) ** 0.5


def rows_of(points: np.ndarray) -> set[tuple[float, ...]]:
    return {tuple(row) for row in np.asarray(points, dtype=float).tolist()}


def hull_vertex_indices(points: np.ndarray) -> set[int]:
    """All hull vertices: a limit above their count lets the construction finish."""
    return set(hull.select_hull_points(points, len(points) - 1).tolist())


# -- volumes --------------------------------------------------------------------------------


def test_volume_of_known_solids():
    tetrahedron = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    assert hull.hull_volume(tetrahedron) == pytest.approx(1 / 6)
    assert hull.hull_volume(CUBE * [2, 3, 4] + 7) == pytest.approx(24)
    inside = np.random.default_rng(0).random((500, 3))
    assert hull.hull_volume(np.vstack([CUBE, inside])) == pytest.approx(1)


def test_volume_of_a_dense_sphere_is_close_to_the_ball():
    assert hull.hull_volume(sphere_points(3000)) == pytest.approx(4 / 3 * np.pi, rel=0.01)


def test_volume_ignores_rotation_translation_and_scale():
    points = ball_points(400)
    angle = 0.7
    rotation = np.array([[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0],
                         [0, 0, 1]])
    base = hull.hull_volume(points)
    assert hull.hull_volume(points @ rotation.T + [1e4, -2e4, 3e4]) == pytest.approx(base)
    assert hull.hull_volume(points * 1e-3) == pytest.approx(base * 1e-9)


# -- simplification -------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [4, 16, 100, 255])
def test_sphere_is_reduced_to_the_limit_with_a_subset_of_its_points(limit):
    points = sphere_points(4000)
    result = hull.simplify_hull(points, limit)
    assert len(result.points) == limit
    assert np.array_equal(result.points, points[result.indices])
    assert len(set(result.indices.tolist())) == limit
    assert 0.0 < result.volume_after < result.volume_before


def test_sphere_keeps_its_volume():
    result = hull.simplify_hull(sphere_points(4000), 255)
    assert result.volume_before == pytest.approx(hull.hull_volume(sphere_points(4000)))
    assert result.volume_after == pytest.approx(hull.hull_volume(result.points))
    assert 0.0 < result.volume_error <= 0.05


@pytest.mark.parametrize("scale", [(1, 1, 1), (4, 2, 0.5)])
def test_every_kept_point_is_a_vertex_of_the_kept_hull(scale):
    result = hull.simplify_hull(ball_points(3000) * scale, 60)
    volume = hull.hull_volume(result.points)
    for index in range(0, 60, 3):
        others = np.delete(result.points, index, axis=0)
        assert hull.hull_volume(others) < volume * (1 - 1e-9)


def test_all_points_kept_within_the_limit():
    points = ball_points(200)
    result = hull.simplify_hull(points, 255)
    assert result.points is points or np.array_equal(result.points, points)
    assert result.indices.tolist() == list(range(200))
    assert result.volume_before == result.volume_after > 0
    assert result.volume_error == 0.0


def test_cube_with_interior_points_keeps_its_eight_corners():
    inside = np.random.default_rng(1).uniform(0.01, 0.99, (2000, 3))
    points = np.vstack([inside[:1000], CUBE, inside[1000:]])
    result = hull.simplify_hull(points, 255)
    assert rows_of(result.points) == rows_of(CUBE)
    assert result.volume_before == result.volume_after == pytest.approx(1)
    assert result.volume_error == 0.0


def test_given_volume_before_is_reported():
    points = sphere_points(2000)
    result = hull.simplify_hull(points, 100, volume_before=4.0)
    assert result.volume_before == 4.0
    assert result.volume_error == pytest.approx(1 - result.volume_after / 4.0)


def test_selection_matches_simplification():
    points = sphere_points(1500, seed=3)
    selected = hull.select_hull_points(points, 80)
    assert np.array_equal(selected, hull.simplify_hull(points, 80).indices)


def test_float32_input_comes_back_as_float32_rows():
    points = sphere_points(1000).astype(np.float32)
    result = hull.simplify_hull(points, 50)
    assert result.points.dtype == np.float32
    assert rows_of(result.points) <= rows_of(points)


# -- pre-filter -----------------------------------------------------------------------------


def test_discard_interior_keeps_every_hull_vertex_and_drops_most_of_a_ball():
    points = ball_points(20000, seed=5)
    kept = set(hull.discard_interior(points).tolist())
    assert hull_vertex_indices(points) <= kept
    assert len(kept) < len(points) / 4
    assert hull.hull_volume(points[sorted(kept)]) == pytest.approx(hull.hull_volume(points))


def test_discard_interior_keeps_everything_on_a_sphere():
    points = sphere_points(20000)
    assert len(hull.discard_interior(points)) == len(points)


# -- degenerate and invalid input -----------------------------------------------------------


@pytest.mark.parametrize(
    "points",
    [
        np.empty((0, 3)),
        np.array([[0.0, 0, 0]]),
        np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]),
        np.zeros((300, 3)),  # one point, repeated
        np.column_stack([np.linspace(0, 1, 300), np.zeros(300), np.zeros(300)]),  # a line
        np.column_stack([np.random.default_rng(2).random((400, 2)), np.full(400, 3.0)]),  # plane
    ],
    ids=["empty", "one", "three", "duplicates", "line", "plane"],
)
def test_degenerate_input_is_returned_unchanged(points):
    result = hull.simplify_hull(points, 255)
    assert result.degenerate
    assert result.points is points
    assert result.volume_before == result.volume_after == result.volume_error == 0.0
    assert hull.hull_volume(points) == 0.0
    assert len(hull.select_hull_points(points, 255)) == len(points)


def test_tilted_plane_is_degenerate():
    flat = np.random.default_rng(3).random((500, 2))
    tilted = flat[:, :1] * [1, 1, 1] / 3**0.5 + flat[:, 1:] * [1, -1, 0] / 2**0.5
    assert hull.simplify_hull(tilted, 100).degenerate


def test_duplicated_points_do_not_duplicate_kept_points():
    points = np.repeat(sphere_points(500), 3, axis=0)
    result = hull.simplify_hull(points, 100)
    assert len(result.points) == 100
    assert len(rows_of(result.points)) == 100


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_coordinates_raise(bad):
    points = sphere_points(300)
    points[17, 1] = bad
    with pytest.raises(ValueError, match="NaN or infinite"):
        hull.simplify_hull(points)
    with pytest.raises(ValueError, match="NaN or infinite"):
        hull.discard_interior(points)


@pytest.mark.parametrize("shape", [(10,), (10, 2), (2, 3, 3)])
def test_wrong_shape_raises(shape):
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        hull.simplify_hull(np.zeros(shape))


def test_limit_below_four_raises():
    with pytest.raises(ValueError, match="at least 4"):
        hull.simplify_hull(sphere_points(100), 3)


# -- property: any small integer grid cloud -------------------------------------------------

grid_clouds = st.lists(
    st.tuples(*[st.integers(-3, 3)] * 3), min_size=0, max_size=120
).map(lambda rows: np.array(rows, dtype=float).reshape(-1, 3))


@SETTINGS
@given(points=grid_clouds, limit=st.integers(4, 40))
def test_any_cloud_respects_the_contract(points, limit):
    """Integer grids are full of coplanar faces and repeated points."""
    result = hull.simplify_hull(points, limit)
    if result.degenerate:
        assert result.points is points
        return
    total = hull.hull_volume(points)
    assert result.volume_before == pytest.approx(total)
    assert len(result.points) <= max(limit, len(points) if len(points) <= limit else 0)
    assert np.array_equal(result.points, points[result.indices])
    assert result.volume_after <= result.volume_before * (1 + 1e-9)
    assert result.volume_after == pytest.approx(hull.hull_volume(result.points))
    assert 0.0 <= result.volume_error <= 1.0


def test_spans_volume_only_for_solid_point_sets() -> None:
    tetrahedron = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float) + 50.0
    assert hull.spans_volume(tetrahedron)
    plane = tetrahedron.copy()
    plane[3, 2] = 50.0 + 1e-9  # within the tolerance of the others' plane
    assert not hull.spans_volume(plane)
    assert not hull.spans_volume(np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3.0]]))
    assert not hull.spans_volume(tetrahedron[:3])
    assert not hull.spans_volume(np.zeros((6, 3)))
