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
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

import numpy as np

from .model import Shape, Vec3
from .rules import NORMAL_TOLERANCE

GravityKind = Literal["directional", "point", "disc", "torus", "line", "shaped"]
GRAVITY_KINDS: Final[tuple[GravityKind, ...]] = (
    "directional", "point", "disc", "torus", "line", "shaped",
)
DOWN: Final[Vec3] = (0.0, -1.0, 0.0)
#: The shapes a shaped volume can pull towards (OMI has no plane); the first four have a
#: nearest point here, the mesh shapes do not (the preview cannot show them).
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


def _nearest_local(volume: Gravity, p: np.ndarray) -> np.ndarray | None:
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
    if kind == "shaped":
        return None if volume.shape is None else _nearest_on_shape(volume.shape, p)
    return None


def _nearest_on_line(points: Sequence[Vec3], p: np.ndarray) -> np.ndarray | None:
    if len(points) < 2:
        return None
    best: np.ndarray | None = None
    best_d = math.inf
    for a, b in itertools.pairwise(points):
        a_, b_ = np.asarray(a, float), np.asarray(b, float)
        ab = b_ - a_
        t = 0.0 if not ab.any() else float(np.clip(np.dot(p - a_, ab) / np.dot(ab, ab), 0, 1))
        q = a_ + t * ab
        d = float(np.linalg.norm(p - q))
        if d < best_d:
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
        radius = (shape.radius_top + shape.radius_bottom) / 2
        half = shape.height / 2
        y = float(np.clip(p[1], -half, half))
        radial = np.array([p[0], 0.0, p[2]])
        r = float(np.linalg.norm(radial))
        if shape.kind == "capsule":
            centre = np.array([0.0, y, 0.0])
            offset = p - centre
            d = float(np.linalg.norm(offset))
            return p.copy() if d <= radius else centre + offset * (radius / d)
        if r > radius:
            radial = radial * (radius / r)
        return np.array([radial[0], y, radial[2]])
    return None


def pull(volume: Gravity, matrix: np.ndarray, point: Sequence[float]) -> np.ndarray:
    """The acceleration the volume on a node with world `matrix` (4×4) gives at a world point."""
    m = np.asarray(matrix, float)
    if volume.kind == "directional":
        return volume.gravity * np.asarray(unit(m[:3, :3] @ np.asarray(volume.direction)))
    p_world = np.asarray(point, float)
    local = np.linalg.solve(m, np.append(p_world, 1.0))[:3]
    nearest = _nearest_local(volume, local)
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
