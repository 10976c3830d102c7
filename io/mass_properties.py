# SPDX-License-Identifier: GPL-3.0-or-later
"""Volume, centroid and inertia of collision shapes and of a body's colliders. Pure numpy.

What engines compute when a file leaves a body's centre of mass or inertia to them: every
collider counts with uniform density (triggers and planes do not count). A part keeps its
volume, its centroid and its second moment of volume about the centroid, C = ∫ r rᵀ dV;
the inertia tensor of unit density is tr(C)·1 − C. C is exact under any affine map, so a
scaled, rotated and moved shape needs no special case, and the parallel-axis rule is a sum.
Shapes are in glTF space: capsules and cylinders run along +Y.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

import numpy as np

from . import capsule
from .diagnostics import Report
from .model import MESH_SHAPES, Shape
from .rules import has_simulated_centre

#: Samples along the axis of a capsule or cylinder (a tapered one has no closed form here).
AXIAL_SAMPLES = 4096
#: A body whose colliders hold less volume than this has no centre or inertia of its own.
MIN_VOLUME = 1e-12
#: Centres closer than this to a node's origin are the origin (metres).
ORIGIN_EPSILON = 1e-6
#: Density assumed for an automatic mass when an inertia must be written (kg/m³, water).
ASSUMED_DENSITY: Final = 1000.0


@dataclass(frozen=True, slots=True)
class MassPart:
    """A solid: its volume, centroid and second moment of volume about the centroid."""

    volume: float
    centroid: np.ndarray
    second_moment: np.ndarray

    def inertia(self, mass: float) -> np.ndarray:
        """The inertia tensor about the centroid for a total `mass` spread uniformly."""
        c = self.second_moment * (mass / self.volume)
        return np.trace(c) * np.eye(3) - c


def shape_part(shape: Shape, triangles: np.ndarray | None = None) -> MassPart | None:
    """The solid of one shape centred on its node; None for a plane (no volume).

    Convex and triangle-mesh shapes need `triangles` (n×3×3, closed and outward wound;
    for a convex shape, the triangles of its hull)."""
    if shape.kind == "box":
        a, b, c = shape.size
        volume = a * b * c
        return _centred(volume, np.diag([a * a, b * b, c * c]) * volume / 12.0)
    if shape.kind == "sphere":
        volume = 4.0 / 3.0 * math.pi * shape.radius ** 3
        return _centred(volume, np.eye(3) * volume * shape.radius ** 2 / 5.0)
    if shape.kind in ("capsule", "cylinder"):
        return _revolved(shape)
    if shape.kind in MESH_SHAPES and triangles is not None:
        return mesh_part(triangles)
    return None


def _centred(volume: float, second_moment: np.ndarray) -> MassPart:
    return MassPart(volume, np.zeros(3), second_moment)


def _revolved(shape: Shape) -> MassPart | None:
    """A capsule (the hull of its capping spheres: `io/capsule.py`) or cylinder as a solid
    of revolution about +Y, integrated in slices."""
    half = shape.height / 2.0
    top, bottom = shape.radius_top, shape.radius_bottom
    is_capsule = shape.kind == "capsule"
    low, high = (min(-half - bottom, half - top), max(half + top, -half + bottom)) \
        if is_capsule else (-half, half)
    if high <= low:
        return None
    step = (high - low) / AXIAL_SAMPLES
    y = low + step * (np.arange(AXIAL_SAMPLES) + 0.5)
    if is_capsule:
        r = capsule.radii(y, half, bottom, top)
    else:
        t = np.clip((y + half) / (2.0 * half), 0.0, 1.0) if half > 0 else np.full_like(y, 0.5)
        r = bottom + (top - bottom) * t
    area = math.pi * r * r
    volume = float(area.sum() * step)
    if volume <= 0:
        return None
    cy = float((area * y).sum() * step / volume)
    radial = float((math.pi * r ** 4 / 4.0).sum() * step)  # ∫x² dV = ∫z² dV per disc
    axial = float((area * (y - cy) ** 2).sum() * step)
    return MassPart(volume, np.array([0.0, cy, 0.0]), np.diag([radial, axial, radial]))


def mesh_part(triangles: np.ndarray) -> MassPart | None:
    """The solid a closed triangle mesh encloses (tetrahedra from the origin)."""
    tri = np.asarray(triangles, dtype=float).reshape(-1, 3, 3)
    if len(tri) == 0:
        return None
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    signed = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    volume = float(signed.sum())
    if volume < 0:  # wound inward: the same solid
        signed, volume = -signed, -volume
    if volume <= MIN_VOLUME:
        return None
    s = a + b + c
    centroid = (signed[:, None] * s).sum(axis=0) / (4.0 * volume)
    outer = (np.einsum("i,ij,ik->jk", signed, a, a) + np.einsum("i,ij,ik->jk", signed, b, b)
             + np.einsum("i,ij,ik->jk", signed, c, c) + np.einsum("i,ij,ik->jk", signed, s, s))
    about_origin = outer / 20.0
    return MassPart(volume, centroid, about_origin - volume * np.outer(centroid, centroid))


def placed(part: MassPart, matrix: np.ndarray) -> MassPart:
    """The part moved by an affine 4×4 `matrix` (rotation, translation, any scale)."""
    linear = np.asarray(matrix, dtype=float)[:3, :3]
    scale = abs(float(np.linalg.det(linear)))
    return MassPart(
        part.volume * scale,
        linear @ part.centroid + np.asarray(matrix, dtype=float)[:3, 3],
        scale * linear @ part.second_moment @ linear.T,
    )


def combined(parts: Iterable[MassPart]) -> MassPart | None:
    """One solid of all parts (parallel-axis rule); None when they hold no volume."""
    parts = [p for p in parts if p.volume > 0]
    volume = sum(p.volume for p in parts)
    if volume <= MIN_VOLUME:
        return None
    centroid = sum((p.volume * p.centroid for p in parts), np.zeros(3)) / volume
    moment = np.zeros((3, 3))
    for p in parts:
        d = p.centroid - centroid
        moment += p.second_moment + p.volume * np.outer(d, d)
    return MassPart(volume, centroid, moment)


def centre_of(part: MassPart | None) -> tuple[float, float, float]:
    """The centre an engine computes for a body with this solid: its centroid, or the body
    origin when it has no volume (or its centroid is within ORIGIN_EPSILON of the origin)."""
    if part is None or float(np.abs(part.centroid).max()) < ORIGIN_EPSILON:
        return (0.0, 0.0, 0.0)
    return tuple(float(c) for c in part.centroid)  # type: ignore[return-value]


def centred_on_origin(part: MassPart | None) -> bool:
    """True when the solid holds volume and its centroid is the origin."""
    return part is not None and centre_of(part) == (0.0, 0.0, 0.0)


def centre_in_target(
    centre: tuple[float, float, float] | None, target: str,
    solid: Callable[[], MassPart | None], kind: str,
    report: Report | None = None, where: str = "",
) -> tuple[float, float, float] | None:
    """The centre of mass a body of motion `kind` is written with in `target` ("OMI"/"KHR"):
    OMI has no computed centre, so a moving body gets the one engines compute (a static
    body none: `rules.has_simulated_centre`); without collider volume that is the body's
    origin, said in `report` (`centre-at-origin`). A KHR centre at the origin is left to the
    engine when the colliders are centred there too. `solid` (the body's colliders) is
    asked only when needed."""
    if target == "OMI" and centre is None:
        if not has_simulated_centre(kind):
            return None
        part = solid()
        if part is None and report is not None:
            report.warn("centre-at-origin", where, "its colliders hold no volume (flat or "
                        "open meshes, planes, or none): OMI's centre of mass, which the "
                        "engine does not compute, is written at the body's origin")
        return centre_of(part)
    if target == "KHR" and centre == (0.0, 0.0, 0.0) and centred_on_origin(solid()):
        return None
    return centre


def body_moments(
    part: MassPart | None, mass: float | None, centre: tuple[float, float, float] | None,
    report: Report, where: str,
) -> tuple[float, float, float] | None:
    """The moments of inertia about the body axes through the centre of mass `centre` (the
    centroid when None) of colliders `part`; None without collider volume. A mass that is
    not positive and finite (computed, infinite, OMI's 0 or less) is the colliders' volume
    at ASSUMED_DENSITY, reported."""
    if part is None or not part.volume > MIN_VOLUME:  # (a body scaled flat has none)
        return None
    if mass is None or not 0 < mass < math.inf:
        mass = part.volume * ASSUMED_DENSITY
        report.warn("inertia-assumed-density", where,
                    f"rotation locked without a positive mass: moments written for "
                    f"{ASSUMED_DENSITY:g} kg/m³ ({mass:.4g} kg)")
    inertia = part.inertia(mass)
    if centre is not None:  # the parallel-axis rule, from the centroid to the centre
        offset = part.centroid - np.asarray(centre, dtype=float)
        inertia = inertia + mass * (float(offset @ offset) * np.eye(3) - np.outer(offset, offset))
    return tuple(float(m) for m in np.diag(inertia))  # type: ignore[return-value]


def principal(inertia: np.ndarray) -> tuple[tuple[float, float, float],
                                             tuple[float, float, float, float]]:
    """Principal moments and the rotation (xyzw) from the principal axes to the body frame."""
    values, vectors = np.linalg.eigh((inertia + inertia.T) / 2.0)
    if np.linalg.det(vectors) < 0:
        vectors[:, 2] = -vectors[:, 2]
    moments = tuple(float(max(v, 0.0)) for v in values)
    return moments, quaternion_of(vectors)  # type: ignore[return-value]


def quaternion_of(m: np.ndarray) -> tuple[float, float, float, float]:
    """The unit quaternion (xyzw, w ≥ 0) of a proper rotation matrix."""
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2.0
        q = ((m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4)
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2.0
        q = (s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s)
    elif m[1, 1] > m[2, 2]:
        s = math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2.0
        q = ((m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s)
    else:
        s = math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2.0
        q = ((m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s)
    if q[3] < 0:
        q = tuple(-v for v in q)
    return tuple(float(v) for v in q)  # type: ignore[return-value]
