# SPDX-License-Identifier: GPL-3.0-or-later
"""Line segments that show a gravity volume's pull, for viewport drawing. Pure numpy.

The figure the volume pulls towards (the point, the disc or torus circle, the line, the
shaped volume's shape) and arrows at sample points around it, each pointing the way the
pull goes there (`io.gravity.pull`: negative gravity points them away). Segments are in the
volume's frame, glTF axes (+Y up) like the model; `to_blender` turns them to Blender axes.
Every function returns an (N, 2, 3) float32 array of segment end points.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import shape_lines
from .gravity import ANALYTIC_SHAPED, Gravity, mesh_figure, pull

#: The 14 directions arrows are sampled along: the axes and the cube's diagonals.
DIRECTIONS = np.array([d for d in itertools.product((-1.0, 0.0, 1.0), repeat=3)
                       if sum(map(abs, d)) in (1.0, 3.0)])
DIRECTIONS = DIRECTIONS / np.linalg.norm(DIRECTIONS, axis=1)[:, None]
HEAD = 0.25  # arrow head length, as a fraction of the arrow


def to_blender(lines: np.ndarray) -> np.ndarray:
    """glTF-axis segments (x, y, z) as Blender-axis ones (x, −z, y)."""
    out = lines[..., [0, 2, 1]].copy()
    out[..., 1] *= -1.0
    return out


def gravity_lines(volume: Gravity, mesh: np.ndarray | None = None) -> np.ndarray:
    """The volume's figure and its pull arrows, in its frame (glTF axes); `mesh`: a convex
    or triangle-mesh shape's triangles (n×3×3, the volume's frame)."""
    shape = volume.shape
    surface = (mesh_figure(shape.kind, mesh) if mesh is not None and shape is not None
               and volume.kind == "shaped" and shape.kind not in ANALYTIC_SHAPED else None)
    figure = _figure(volume) if surface is None else _edges(surface)
    reach = _reach(volume, figure)
    samples = (_grid(volume.direction, reach) if volume.kind == "directional"
               else list(DIRECTIONS * reach))
    identity = np.identity(4)
    arrows = [arrow(p, pull(volume, identity, p, surface), 0.35 * reach) for p in samples]
    parts = [figure, *[a for a in arrows if len(a)]]
    return np.concatenate(parts).astype(np.float32) if parts else np.zeros((0, 2, 3), np.float32)


def arrow(start: np.ndarray, direction: np.ndarray, length: float) -> np.ndarray:
    """A shaft from `start` along `direction` and a two-line head (nothing for no pull)."""
    norm = float(np.linalg.norm(direction))
    if norm == 0 or length <= 0:
        return np.zeros((0, 2, 3))
    d = direction / norm
    tip = start + d * length
    side = np.cross(d, (0.0, 1.0, 0.0) if abs(d[1]) < 0.9 else (1.0, 0.0, 0.0))
    side = side / np.linalg.norm(side) * HEAD * length * 0.5
    back = tip - d * HEAD * length
    return np.array([[start, tip], [tip, back + side], [tip, back - side]])


def _figure(volume: Gravity) -> np.ndarray:
    """What the volume pulls towards (nothing for directional)."""
    kind = volume.kind
    if kind == "point":
        return np.array([[-0.1 * axis, 0.1 * axis] for axis in np.identity(3)])
    if kind == "disc":
        angles = np.linspace(0.0, 2.0 * np.pi, 9)[:-1]
        rim = np.stack([np.cos(angles), np.zeros_like(angles), np.sin(angles)], 1)
        spokes = np.stack([np.zeros_like(rim), rim * volume.radius], axis=1)
        return np.concatenate([_xz_circle(volume.radius), spokes])
    if kind == "torus":
        return _xz_circle(volume.radius)
    if kind == "line":
        points = np.asarray(volume.points, float).reshape(-1, 3)
        return (np.stack([points[:-1], points[1:]], axis=1) if len(points) > 1
                else np.zeros((0, 2, 3)))
    if kind == "shaped" and volume.shape is not None:
        return _shape_figure(volume)
    return np.zeros((0, 2, 3))


def _edges(triangles: np.ndarray) -> np.ndarray:
    """Each edge of the triangles once (shared edges drawn once)."""
    if not len(triangles):
        return np.zeros((0, 2, 3))
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    a, b = edges[:, 0], edges[:, 1]
    differs = a != b
    axis = np.argmax(differs, axis=1)  # the first coordinate where the ends differ
    rows = np.arange(len(edges))
    flip = a[rows, axis] > b[rows, axis]
    return np.unique(np.where(flip[:, None, None], edges[:, ::-1], edges), axis=0)


def _xz_circle(radius: float, segments: int = shape_lines.SEGMENTS) -> np.ndarray:
    angles = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    ring = np.stack([radius * np.cos(angles), np.zeros_like(angles), radius * np.sin(angles)], 1)
    return np.stack([ring[:-1], ring[1:]], axis=1)


def _shape_figure(volume: Gravity) -> np.ndarray:
    """The shape's wireframe in glTF axes (shape_lines draws Blender axes)."""
    shape = volume.shape
    assert shape is not None
    if shape.kind == "box":
        x, y, z = shape.size
        lines = shape_lines.box_lines((x, z, y))
    elif shape.kind == "sphere":
        lines = shape_lines.sphere_lines(shape.radius)
    elif shape.kind in ("capsule", "cylinder"):
        lines = shape_lines.round_lines(shape.kind, shape.height, shape.radius_top,
                                        shape.radius_bottom)
    else:
        return np.zeros((0, 2, 3))
    out = lines[..., [0, 2, 1]].copy()  # Blender (x, y, z) → glTF (x, z, −y)
    out[..., 2] *= -1.0
    return out


def _reach(volume: Gravity, figure: np.ndarray) -> float:
    """How far from the figure's centre the arrows start (outside its farthest point)."""
    if volume.kind == "directional":
        return 1.0
    extent = float(np.linalg.norm(figure, axis=-1).max()) if len(figure) else 0.0
    return max(extent, volume.unit_distance, 0.5) * 1.5


def _grid(direction: tuple[float, float, float], spacing: float) -> list[np.ndarray]:
    """A 3×3 grid across the direction, centred so the arrows straddle the origin."""
    d = np.asarray(direction, float)
    norm = float(np.linalg.norm(d))
    d = d / norm if norm else np.array([0.0, -1.0, 0.0])
    u = np.cross(d, (0.0, 1.0, 0.0) if abs(d[1]) < 0.9 else (1.0, 0.0, 0.0))
    u /= np.linalg.norm(u)
    v = np.cross(d, u)
    return [(i * u + j * v) * spacing - d * 0.35 * spacing / 2
            for i in (-1, 0, 1) for j in (-1, 0, 1)]
