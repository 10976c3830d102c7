# SPDX-License-Identifier: GPL-3.0-or-later
"""Wireframe geometry of collision shapes (pure)."""

from __future__ import annotations

import numpy as np
import pytest

from gltf_physics.io import capsule, shape_lines


def extent(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    points = lines.reshape(-1, 3)
    return points.min(axis=0), points.max(axis=0)


def test_box_has_twelve_axis_aligned_edges_of_the_right_size() -> None:
    lines = shape_lines.box_lines((2.0, 4.0, 6.0))
    assert lines.shape == (12, 2, 3)
    lengths = sorted(np.linalg.norm(lines[:, 1] - lines[:, 0], axis=1).round(6))
    assert lengths == [2.0] * 4 + [4.0] * 4 + [6.0] * 4
    lo, hi = extent(lines)
    assert lo.tolist() == [-1, -2, -3] and hi.tolist() == [1, 2, 3]


def test_sphere_points_lie_on_the_sphere() -> None:
    lines = shape_lines.sphere_lines(0.75)
    assert np.allclose(np.linalg.norm(lines.reshape(-1, 3), axis=1), 0.75, atol=1e-6)


@pytest.mark.parametrize(("kind", "top_z"), [("capsule", 1.0 + 0.3), ("cylinder", 1.0)])
def test_round_shapes_run_along_z(kind: str, top_z: float) -> None:
    lines = shape_lines.round_lines(kind, 2.0, 0.3, 0.5)
    lo, hi = extent(lines)
    assert hi[2] == pytest.approx(top_z)
    assert lo[2] == pytest.approx(-1.0 - (0.5 if kind == "capsule" else 0.0))
    assert hi[0] == pytest.approx(0.5) and lo[1] == pytest.approx(-0.5)


def test_cone_has_no_top_arc() -> None:
    cone = shape_lines.round_lines("capsule", 1.0, 0.0, 0.5)
    assert extent(cone)[1][2] == pytest.approx(0.5)


def test_plane_and_infinite_plane() -> None:
    lo, hi = extent(shape_lines.plane_lines(4.0, 2.0))
    assert (lo[0], hi[0], lo[1], hi[1]) == (-2.0, 2.0, -1.0, 1.0)
    lo, hi = extent(shape_lines.plane_lines(0.0, 0.0))
    assert hi[0] == shape_lines.INFINITE_PLANE_DRAW / 2


def test_mesh_edges_and_offset() -> None:
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)
    lines = shape_lines.mesh_lines(vertices.ravel(), np.array([0, 1, 1, 2]))
    assert lines.shape == (2, 2, 3) and lines[1, 1].tolist() == [0, 1, 0]
    moved = shape_lines.offset(lines, (0, 0, 2))
    assert moved[:, :, 2].tolist() == [[2, 2], [2, 2]]


def test_wheel_lies_in_the_yz_plane_with_its_width_along_x() -> None:
    lo, hi = extent(shape_lines.wheel_lines(0.4, 0.2))
    assert lo.tolist() == pytest.approx([-0.1, -0.4, -0.4], abs=1e-6)
    assert hi.tolist() == pytest.approx([0.1, 0.4, 0.4], abs=1e-6)


@pytest.mark.parametrize(("height", "top", "bottom"), [
    (2.0, 0.3, 0.5), (1.0, 0.0, 0.5), (1.0, 0.5, 0.5), (0.2, 0.3, 1.0), (0.5, 0.9, 0.1)])
def test_a_capsule_is_drawn_on_the_hull_of_its_spheres(height, top, bottom) -> None:
    """Every drawn point lies on the capsule's surface (the hull of its two spheres), and
    its straight sides run between the points where they touch the spheres (off the
    spheres' equators when the radii differ)."""
    lines = shape_lines.round_lines("capsule", height, top, bottom).astype(float)
    points, half = lines.reshape(-1, 3), height / 2
    radial, z = np.hypot(points[:, 0], points[:, 1]), points[:, 2]
    assert np.all(radial <= capsule.radii(z, half, bottom, top) + 1e-5)
    on_a_sphere = [np.abs(np.hypot(radial, z - centre) - radius)
                   for centre, radius in ((-half, bottom), (half, top))]
    assert np.all(np.min(on_a_sphere, axis=0) < 1e-5)
    touch = capsule.side(half, bottom, top)
    if touch is None:  # one sphere holds the other: no side
        return
    (r0, z0), (r1, z1), _lean = touch
    for axis in (0, 1):
        for sign in (-1.0, 1.0):
            side = np.zeros((2, 3))
            side[0, axis], side[0, 2], side[1, axis], side[1, 2] = sign * r0, z0, sign * r1, z1
            assert any(np.allclose(line, side, atol=1e-6) for line in lines), (axis, sign)
