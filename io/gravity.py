# SPDX-License-Identifier: GPL-3.0-or-later
"""Gravity volumes and world gravity (OMI_physics_gravity) as format-neutral data, and the
pull they exert. Pure (numpy only).

Values are in the volume node's frame, glTF axes (+Y up): a directional volume's `direction`,
a line's `points`, the disc and torus circles in the local XZ plane, the shaped volume's
`shape` centred on the node. Spec: ../shared/specs/omi/OMI_physics_gravity.

The pull at a world point (`pull`, `combined_pull`) is what the spec defines: towards the
nearest point of the type's figure (or along the direction), `gravity` m/s² at `unit_distance`
with inverse-square falloff (constant when 0), volumes combined in priority order with
replace and stop, the world gravity last. The figure is taken in the node's frame and the
nearest point mapped back through the node's world matrix; with non-uniform scale that is
this add-on's reading (the spec says nothing).

A convex or triangle-mesh shape's geometry lives in the file's meshes, not in the model: its
pull needs the triangles (`mesh_figure`) passed in. A convex shape is its points' solid hull
(a point inside is its own nearest point); a triangle mesh is its surface (this add-on's
reading: a triangle mesh has no inside).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

import numpy as np

from . import capsule
from .hull import hull_triangles
from .model import Shape, Vec3
from .rules import NORMAL_TOLERANCE

GravityKind = Literal["directional", "point", "disc", "torus", "line", "shaped"]
GRAVITY_KINDS: Final[tuple[GravityKind, ...]] = (
    "directional", "point", "disc", "torus", "line", "shaped",
)
DOWN: Final[Vec3] = (0.0, -1.0, 0.0)
#: The shapes a shaped volume can pull towards (OMI has no plane); the first four are
#: analytic, the mesh shapes need their triangles (`mesh_figure`).
SHAPED_KINDS: Final = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh")
ANALYTIC_SHAPED: Final = SHAPED_KINDS[:4]
#: The table rows (io/field_table.py GRAVITY) each type writes in its sub-object.
KIND_PARAMS: Final[dict[str, tuple[str, ...]]] = {
    "directional": ("direction",),
    "point": ("unit_distance",),
    "disc": ("radius", "unit_distance"),
    "torus": ("radius", "unit_distance"),
    "line": ("unit_distance",),
    "shaped": ("unit_distance",),
}


@dataclass(frozen=True, slots=True)
class Gravity:
    """A gravity volume on a trigger node. `gravity` has no default in the spec."""

    kind: GravityKind
    gravity: float
    priority: int = 0
    replace: bool = False
    stop: bool = False
    direction: Vec3 = DOWN
    unit_distance: float = 0.0
    radius: float = 1.0
    points: tuple[Vec3, ...] = ()
    shape: Shape | None = None


@dataclass(frozen=True, slots=True)
class WorldGravity:
    """The document's world gravity: always directional, in world (glTF) axes."""

    gravity: float
    direction: Vec3 = DOWN


@dataclass(slots=True)
class GravityScene:
    """Gravity of a whole document: world gravity (None: not set) and node → volume."""

    world: WorldGravity | None = None
    nodes: dict[Hashable, Gravity] = field(default_factory=dict)


def unit(v: Sequence[float]) -> Vec3:
    """`v` normalised; the zero vector stays zero."""
    length = math.sqrt(sum(c * c for c in v))
    if length == 0 or not math.isfinite(length):
        return (0.0, 0.0, 0.0)
    return (v[0] / length, v[1] / length, v[2] / length)


def is_normalised(v: Sequence[float]) -> bool:
    """True when `v` has length 1 (within NORMAL_TOLERANCE)."""
    return abs(math.sqrt(sum(c * c for c in v)) - 1.0) <= NORMAL_TOLERANCE


# -- the pull ---------------------------------------------------------------------------------


def mesh_figure(kind: str, triangles: np.ndarray) -> np.ndarray:
    """What a mesh shape pulls towards, as (n, 3, 3) triangles in the shape's frame: the
    convex hull of the mesh's points (outward wound) or the triangle mesh itself."""
    tris = np.asarray(triangles, float).reshape(-1, 3, 3)
    if kind == "convex":
        points = np.unique(tris.reshape(-1, 3), axis=0)
        return hull_triangles(points) if len(points) >= 4 else np.empty((0, 3, 3))
    return tris


def _nearest_local(volume: Gravity, p: np.ndarray, mesh: np.ndarray | None = None
                   ) -> np.ndarray | None:
    """The nearest point of the volume's figure to local point `p` (None: no figure)."""
    kind = volume.kind
    if kind == "point":
        return np.zeros(3)
    if kind in ("disc", "torus"):
        radial = np.array([p[0], 0.0, p[2]])
        r = float(np.linalg.norm(radial))
        if kind == "disc" and r <= volume.radius:
            return radial
        if r == 0:
            return None if kind == "torus" else radial  # the torus axis: every point is nearest
        return radial * (volume.radius / r)
    if kind == "line":
        return _nearest_on_line(volume.points, p)
    if kind == "shaped" and volume.shape is not None:
        if volume.shape.kind in ANALYTIC_SHAPED:
            return _nearest_on_shape(volume.shape, p)
        if mesh is not None and len(mesh):
            return _nearest_on_mesh(volume.shape.kind, np.asarray(mesh, float), p)
    return None


def _nearest_on_line(points: Sequence[Vec3], p: np.ndarray) -> np.ndarray | None:
    if len(points) < 2:
        return None
    best: np.ndarray | None = None
    best_d = math.inf
    for a, b in itertools.pairwise(points):
        a_, b_ = np.asarray(a, float), np.asarray(b, float)
        ab = b_ - a_
        length2 = float(np.dot(ab, ab))  # (0 also when the points are too near to square)
        t = 0.0 if length2 == 0.0 else float(np.clip(np.dot(p - a_, ab) / length2, 0, 1))
        q = a_ + t * ab
        d = float(np.linalg.norm(p - q))
        if best is None or d < best_d:  # (the first when every distance overflows)
            best, best_d = q, d
    return best


def _nearest_on_shape(shape: Shape, p: np.ndarray) -> np.ndarray | None:
    """Nearest point of the solid shape (a point inside is its own nearest point)."""
    if shape.kind == "box":
        half = np.asarray(shape.size, float) / 2
        return np.clip(p, -half, half)
    if shape.kind == "sphere":
        r = float(np.linalg.norm(p))
        return p.copy() if r <= shape.radius else p * (shape.radius / r)
    if shape.kind in ("capsule", "cylinder"):
        radial = np.array([p[0], 0.0, p[2]])
        r = math.hypot(p[0], p[2])  # (no underflow for a point a hair off the axis)
        near_r, near_y = _nearest_in_profile(shape, r, float(p[1]))
        if near_r == r and near_y == p[1]:
            return p.copy()  # (inside)
        out = radial / r if r > 0 else np.array([1.0, 0.0, 0.0])  # (on the axis: any side)
        return out * near_r + np.array([0.0, near_y, 0.0])
    return None


def _nearest_in_profile(shape: Shape, r: float, y: float) -> tuple[float, float]:
    """The nearest point (distance from the axis, height) of a capsule's or cylinder's
    half-section to (r, y): the point itself inside; else the nearest of its edges — a
    cylinder's two caps and slanted side, a capsule's two circles and the side touching
    both (`io/capsule.py`: it is the convex hull of its spheres)."""
    half, top, bottom = shape.height / 2, shape.radius_top, shape.radius_bottom
    if shape.kind == "capsule":
        low, high = min(-half - bottom, half - top), max(half + top, -half + bottom)
        inside = low <= y <= high \
            and r <= float(capsule.radii(np.array([y]), half, bottom, top)[0])
        edges = [_on_circle(r, y, -half, bottom), _on_circle(r, y, half, top)]
        touch = capsule.side(half, bottom, top)
        if touch is not None:
            edges.append(_on_segment(r, y, touch[0], touch[1]))
    else:
        t = min(max((y + half) / shape.height, 0.0), 1.0) if shape.height > 0 else 0.5
        inside = -half <= y <= half and r <= bottom + (top - bottom) * t
        edges = [_on_segment(r, y, (0.0, -half), (bottom, -half)),
                 _on_segment(r, y, (0.0, half), (top, half)),
                 _on_segment(r, y, (bottom, -half), (top, half))]
    if inside:
        return r, y
    return min(edges, key=lambda q: math.hypot(q[0] - r, q[1] - y))


def _on_circle(r: float, y: float, centre: float, radius: float) -> tuple[float, float]:
    d = math.hypot(r, y - centre)
    if d == 0.0:
        return radius, centre
    return r * radius / d, centre + (y - centre) * radius / d


def _on_segment(r: float, y: float, a: tuple[float, float], b: tuple[float, float]
                ) -> tuple[float, float]:
    dr, dy = b[0] - a[0], b[1] - a[1]
    length2 = dr * dr + dy * dy
    t = 0.0 if length2 == 0.0 else min(max(((r - a[0]) * dr + (y - a[1]) * dy) / length2,
                                           0.0), 1.0)
    return a[0] + t * dr, a[1] + t * dy


def _nearest_on_mesh(kind: str, figure: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Nearest point of a `mesh_figure`: a point inside a convex hull is its own."""
    if kind == "convex":
        normals = np.cross(figure[:, 1] - figure[:, 0], figure[:, 2] - figure[:, 0])
        if np.all(np.einsum("ij,ij->i", normals, p - figure[:, 0]) <= 0):
            return p.copy()
    nearest = _nearest_on_triangles(figure, p)
    return nearest[int(np.argmin(np.linalg.norm(nearest - p, axis=1)))]


def _nearest_on_triangles(tris: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each triangle's nearest point to `p` (Voronoi regions of vertices, edges, face);
    a degenerate triangle's from its edges."""
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    ab, ac = b - a, c - a

    def dots(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.einsum("ij,ij->i", ab, p - q), np.einsum("ij,ij->i", ac, p - q)

    (d1, d2), (d3, d4), (d5, d6) = dots(a), dots(b), dots(c)
    va, vb, vc = d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2
    with np.errstate(divide="ignore", invalid="ignore"):
        total = va + vb + vc
        out = a + ab * (vb / total)[:, None] + ac * (vc / total)[:, None]
        # later regions win: the order is the reverse of the usual early returns
        regions = (
            ((va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0),
             b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))[:, None]),
            ((d6 >= 0) & (d5 <= d6), c),
            ((vb <= 0) & (d2 >= 0) & (d6 <= 0), a + ac * (d2 / (d2 - d6))[:, None]),
            ((vc <= 0) & (d1 >= 0) & (d3 <= 0), a + ab * (d1 / (d1 - d3))[:, None]),
            ((d3 >= 0) & (d4 <= d3), b),
            ((d1 <= 0) & (d2 <= 0), a),
        )
        for where, point in regions:
            out = np.where(where[:, None], point, out)
    bad = ~np.isfinite(out).all(axis=1)
    if bad.any():
        out[bad] = [_nearest_on_edges(t, p) for t in tris[bad]]
    return out


def _nearest_on_edges(tri: np.ndarray, p: np.ndarray) -> np.ndarray:
    edges = [_nearest_on_line((tuple(tri[i]), tuple(tri[(i + 1) % 3])), p) for i in range(3)]
    return min(edges, key=lambda q: float(np.linalg.norm(q - p)))


def pull(volume: Gravity, matrix: np.ndarray, point: Sequence[float],
         mesh: np.ndarray | None = None) -> np.ndarray:
    """The acceleration the volume on a node with world `matrix` (4×4) gives at a world point;
    `mesh`: a mesh shape's `mesh_figure` (without it, a mesh shape pulls nowhere)."""
    m = np.asarray(matrix, float)
    if volume.kind == "directional":
        return volume.gravity * np.asarray(unit(m[:3, :3] @ np.asarray(volume.direction)))
    p_world = np.asarray(point, float)
    local = np.linalg.solve(m, np.append(p_world, 1.0))[:3]
    nearest = _nearest_local(volume, local, mesh)
    if nearest is None:
        return np.zeros(3)
    towards = (m @ np.append(nearest, 1.0))[:3] - p_world
    distance = float(np.linalg.norm(towards))
    if distance <= 1e-12:
        return np.zeros(3)
    falloff = 1.0 if volume.unit_distance <= 0 else (volume.unit_distance / distance) ** 2
    return volume.gravity * falloff * towards / distance


def world_pull(world: WorldGravity | None) -> np.ndarray:
    """The world gravity's acceleration (zero when not set)."""
    if world is None:
        return np.zeros(3)
    return world.gravity * np.asarray(unit(world.direction))


def combined_pull(
    inside: Iterable[tuple[Gravity, np.ndarray]], world: WorldGravity | None,
    point: Sequence[float], default_world: Sequence[float] = (0.0, -9.80665, 0.0),
) -> np.ndarray:
    """The gravity at a point inside the given (volume, world matrix) pairs: highest priority
    first (ties in the given order), replace and stop, then the world gravity (or
    `default_world` when the document sets none) unless a volume stopped."""
    total = np.zeros(3)
    for volume, matrix in sorted(inside, key=lambda pair: -pair[0].priority):
        here = pull(volume, matrix, point)
        total = here if volume.replace else total + here
        if volume.stop:
            return total
    return total + (world_pull(world) if world is not None else np.asarray(default_world, float))
