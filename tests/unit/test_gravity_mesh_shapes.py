# SPDX-License-Identifier: GPL-3.0-or-later
"""Shaped gravity towards a convex or triangle-mesh shape: the model's nearest point on the
mesh (the convex hull solid, the triangle mesh's surface) and the pull it gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gltf_physics.io.gravity import Gravity, _nearest_on_triangles, mesh_figure, pull
from gltf_physics.io.model import Shape
from tests.unit.test_meaning import CUBE_POINTS, CUBE_TRIANGLES

CUBE = CUBE_POINTS[CUBE_TRIANGLES.reshape(-1, 3)]  # (12, 3, 3), a unit cube
MATRIX = np.array([[0.0, 0.0, 2.0, 1.0], [0.0, 1.0, 0.0, -2.0], [-2.0, 0.0, 0.0, 0.5],
                   [0.0, 0.0, 0.0, 1.0]])  # turned, scaled ×2, moved
PROBES = [np.array(p) for p in ((3.0, 0.2, -1.0), (1.0, -2.0, 0.5), (1.4, -1.8, 0.7),
                                (-4.0, 5.0, 6.0), (1.2, -2.3, 0.3))]  # 2nd, 3rd, last inside
OUTSIDE = [PROBES[0], PROBES[3]]


def volume(kind: str, **shape: object) -> Gravity:
    return Gravity("shaped", 9.0, unit_distance=0.5, shape=Shape(kind, **shape))  # type: ignore


def test_a_convex_cube_pulls_exactly_like_the_box_inside_and_out() -> None:
    box, convex = volume("box", size=(1.0, 1.0, 1.0)), volume("convex", mesh=0)
    figure = mesh_figure("convex", CUBE[::-1])  # any triangles: the hull of their points
    assert figure.shape == (12, 3, 3)
    for probe in PROBES:
        assert np.allclose(pull(convex, MATRIX, probe, figure), pull(box, MATRIX, probe))
    inside = MATRIX @ np.array([0.1, 0.2, -0.3, 1.0])
    assert np.allclose(pull(convex, MATRIX, inside[:3], figure), 0.0)  # its own nearest


def test_a_triangle_mesh_is_its_surface() -> None:
    box, trimesh = volume("box", size=(1.0, 1.0, 1.0)), volume("trimesh", mesh=0)
    figure = mesh_figure("trimesh", CUBE)
    for probe in OUTSIDE:  # the surface is the box's nearest point
        assert np.allclose(pull(trimesh, MATRIX, probe, figure), pull(box, MATRIX, probe))
    inside = (MATRIX @ np.array([0.1, 0.35, -0.1, 1.0]))[:3]
    towards_top = (MATRIX @ np.array([0.1, 0.5, -0.1, 1.0]))[:3] - inside  # nearest: y = 0.5
    expected = 9.0 * (0.5 / np.linalg.norm(towards_top)) ** 2 * towards_top / np.linalg.norm(
        towards_top)
    assert np.allclose(pull(trimesh, MATRIX, inside, figure), expected)


def test_a_mesh_shape_without_its_triangles_pulls_nowhere() -> None:
    assert np.allclose(pull(volume("convex", mesh=0), MATRIX, PROBES[0]), 0.0)
    assert np.allclose(pull(volume("trimesh", mesh=0), MATRIX, PROBES[0], np.empty((0, 3, 3))),
                       0.0)
    assert mesh_figure("convex", CUBE[:1]).shape == (0, 3, 3)  # 3 points: flat, no hull


coordinate = st.floats(-3.0, 3.0, allow_nan=False)
point = st.tuples(coordinate, coordinate, coordinate)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(point, point, point), min_size=1, max_size=4), point)
def test_nearest_point_on_triangles_is_no_farther_than_any_sample(triangles, probe) -> None:
    tris, p = np.array(triangles, float), np.array(probe, float)
    nearest = _nearest_on_triangles(tris, p)
    weights = np.array([(u, v, 1 - u - v) for u in np.linspace(0, 1, 21)
                        for v in np.linspace(0, 1, 21) if u + v <= 1 + 1e-12])
    for tri, q in zip(tris, nearest, strict=True):
        samples = weights @ tri
        assert np.isfinite(q).all()
        # on the triangle: its distance from the plane is ~0 and it is no farther than a sample
        assert np.linalg.norm(q - p) <= np.linalg.norm(samples - p, axis=1).min() + 1e-9
        assert np.linalg.norm(samples - q, axis=1).min() <= 0.15 * max(
            1.0, np.ptp(tri, axis=0).max())


def test_overlay_draws_the_mesh_and_arrows_the_way_it_pulls() -> None:
    from gltf_physics.io.gravity_lines import DIRECTIONS, gravity_lines

    for kind in ("convex", "trimesh"):
        shaped = volume(kind, mesh=0)
        lines = gravity_lines(shaped, CUBE * 2.0)
        figure, arrows = lines[:18], lines[18:].reshape(-1, 3, 2, 3)
        assert np.allclose(np.abs(figure).max(axis=(0, 1)), 1.0)  # the 2 m cube's 18 edges
        assert len(np.unique(figure, axis=0)) == 18 and len(arrows) == len(DIRECTIONS)
        surface = mesh_figure(kind, CUBE * 2.0)
        for (start, tip), *_head in arrows:
            expected = pull(shaped, np.identity(4), start, surface)
            assert np.allclose((tip - start) / np.linalg.norm(tip - start),
                               expected / np.linalg.norm(expected), atol=1e-5)
    assert len(gravity_lines(volume("convex", mesh=0))) == 0  # no geometry: nothing drawn


def test_an_edge_too_short_to_square_has_a_nearest_point() -> None:
    # (hypothesis found it: an edge of 1e-306 squares to 0; the division gave NaN, and the
    # nearest of a flat triangle's edges failed on the edge that had none)
    from gltf_physics.io.gravity import _nearest_on_edges

    tri = np.array([[0.0, 0.0, 0.0], [1e-306, 0.0, 0.0], [1.0, 0.0, 0.0]])
    nearest = _nearest_on_edges(tri, np.array([0.0, 2.0, 3.0]))  # square to the edges
    assert np.isfinite(nearest).all() and np.linalg.norm(nearest) < 1e-300


def test_a_point_too_far_to_measure_still_has_a_nearest_edge_point() -> None:
    from gltf_physics.io.gravity import _nearest_on_edges

    tri = np.array([[0.0, 0.0, 0.0], [1e-306, 0.0, 0.0], [1.0, 0.0, 0.0]])
    nearest = _nearest_on_edges(tri, np.array([1e200, 1e200, 0.0]))  # distances overflow
    assert np.isfinite(nearest).all()
