# SPDX-License-Identifier: GPL-3.0-or-later
"""Wireframe line segments of collision shapes, for viewport drawing. Pure numpy.

Shapes are in Blender's object frame: capsules and cylinders along +Z, planes facing +Z.
Every function returns an (N, 2, 3) float32 array of segment end points.
"""

from __future__ import annotations

import numpy as np

from . import capsule

SEGMENTS = 32
INFINITE_PLANE_DRAW = 10.0


def _circle(radius: float, z: float, axis: int = 2, segments: int = SEGMENTS) -> np.ndarray:
    angles = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    ring = np.zeros((segments + 1, 3), dtype=np.float32)
    a, b = [i for i in range(3) if i != axis]
    ring[:, a] = radius * np.cos(angles)
    ring[:, b] = radius * np.sin(angles)
    ring[:, axis] = z
    return np.stack([ring[:-1], ring[1:]], axis=1)


def _arc(radius: float, center_z: float, start: float, end: float, plane_axis: int
         ) -> np.ndarray:
    """A circle's arc from angle `start` to `end` (0 along `plane_axis`, π/2 along +Z) in
    the plane of Z and `plane_axis`."""
    quarters = np.pi / 2 * np.arange(np.ceil(start / (np.pi / 2)), np.floor(end / (np.pi / 2)) + 1)
    angles = np.union1d(np.linspace(start, end, SEGMENTS // 2 + 1), quarters)  # (the extremes)
    points = np.zeros((len(angles), 3), dtype=np.float32)
    points[:, plane_axis] = radius * np.cos(angles)
    points[:, 2] = center_z + radius * np.sin(angles)
    return np.stack([points[:-1], points[1:]], axis=1)


def box_lines(size: tuple[float, float, float]) -> np.ndarray:
    """The 12 edges of a box centred on the origin."""
    half = np.asarray(size, dtype=np.float32) / 2
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)],
                       dtype=np.float32) * half
    edges = [(i, j) for i in range(8) for j in range(i + 1, 8)
             if bin(i ^ j).count("1") == 1]
    return np.stack([corners[[i for i, _ in edges]], corners[[j for _, j in edges]]], axis=1)


def sphere_lines(radius: float) -> np.ndarray:
    """Three great circles."""
    return np.concatenate([_circle(radius, 0.0, axis) for axis in range(3)])


def round_lines(kind: str, height: float, top: float, bottom: float) -> np.ndarray:
    """A capsule (height between its capping spheres' centres; the convex hull of the two
    spheres) or cylinder/cone (full height)."""
    half = height / 2
    if kind != "capsule":
        return np.concatenate([_circle(top, half), _circle(bottom, -half),
                               _sides((top, half), (bottom, -half))]).astype(np.float32)
    touch = capsule.side(half, bottom, top)
    if touch is None:  # one sphere holds the other
        radius, z = (bottom, -half) if bottom >= top else (top, half)
        return (sphere_lines(radius) + np.float32((0.0, 0.0, z))).astype(np.float32)
    lower, upper, turn = touch
    parts = [_circle(upper[0], upper[1]), _circle(lower[0], lower[1]), _sides(upper, lower)]
    for axis in (0, 1):
        if top > 0:
            parts.append(_arc(top, half, turn, np.pi - turn, axis))
        if bottom > 0:
            parts.append(_arc(bottom, -half, np.pi - turn, 2.0 * np.pi + turn, axis))
    return np.concatenate(parts).astype(np.float32)


def _sides(upper: tuple[float, float], lower: tuple[float, float]) -> np.ndarray:
    """The four straight side lines from `lower` to `upper` ((radius, z) each), in the
    planes of Z and X and of Z and Y."""
    sides = np.zeros((4, 2, 3), dtype=np.float32)
    for row, (axis, sign) in enumerate((a, s) for a in (0, 1) for s in (-1.0, 1.0)):
        sides[row, 0, axis], sides[row, 0, 2] = sign * lower[0], lower[1]
        sides[row, 1, axis], sides[row, 1, 2] = sign * upper[0], upper[1]
    return sides


def plane_lines(size_x: float, size_y: float) -> np.ndarray:
    """A rectangle (0 = infinite, drawn 10 m wide) with its +Z normal."""
    sx = (size_x or INFINITE_PLANE_DRAW) / 2
    sy = (size_y or INFINITE_PLANE_DRAW) / 2
    corners = np.array([[-sx, -sy, 0], [sx, -sy, 0], [sx, sy, 0], [-sx, sy, 0]],
                       dtype=np.float32)
    rim = np.stack([corners, np.roll(corners, -1, axis=0)], axis=1)
    normal = np.array([[[0, 0, 0], [0, 0, min(sx, sy) / 2]]], dtype=np.float32)
    return np.concatenate([rim, normal])


def mesh_lines(vertices: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The edges of a mesh: (V, 3) vertices and (E, 2) vertex indices."""
    vertices = np.asarray(vertices, dtype=np.float32).reshape(-1, 3)
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return vertices[edges]


def offset(lines: np.ndarray, translation: tuple[float, float, float]) -> np.ndarray:
    """Segments moved by a translation."""
    return lines + np.asarray(translation, dtype=np.float32)


def wheel_lines(radius: float, width: float) -> np.ndarray:
    """A wheel: two circles in planes parallel to YZ, `width` apart along X, and spokes."""
    half = width / 2
    parts = [_circle(radius, x, axis=0) for x in (-half, half)]
    spokes = np.array([[[0, 0, -radius], [0, 0, radius]], [[0, -radius, 0], [0, radius, 0]]],
                      dtype=np.float32)
    return np.concatenate([*parts, spokes])
