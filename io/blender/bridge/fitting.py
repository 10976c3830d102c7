# SPDX-License-Identifier: GPL-3.0-or-later
"""Fit analytic shapes to an object's evaluated local bounds (Blender axes, unscaled)."""

from dataclasses import dataclass, replace

import bpy
import numpy as np
from mathutils import Matrix

from ...rules import MIN_SIZE  # the fitted size floor is the degenerate-size bound

FITTABLE_TYPES = frozenset({"MESH", "CURVE", "SURFACE", "FONT", "META", "CURVES", "POINTCLOUD"})


@dataclass(frozen=True, slots=True)
class Fit:
    """Shape parameters in object space; `offset` is the shape centre."""

    size: tuple[float, float, float]
    radius: float
    height: float
    radius_top: float
    radius_bottom: float
    plane_size: tuple[float, float]
    offset: tuple[float, float, float]


Bounds = tuple[tuple[float, ...], tuple[float, ...]]


def local_bounds(obj: bpy.types.Object, cache: dict[int, Bounds] | None = None) -> Bounds | None:
    """(min, max) corners of the object's evaluated local bounding box, or None.

    With `cache`, objects showing the same mesh without modifiers or shape keys share one
    reading (a level's props usually share a few meshes).
    """
    if obj.type not in FITTABLE_TYPES:
        return None
    key = None
    if cache is not None and obj.type == "MESH" and not obj.modifiers \
            and obj.data.shape_keys is None:
        key = obj.data.as_pointer()
        if key in cache:
            return cache[key]
    corners = obj.bound_box
    lo = tuple(min(c[i] for c in corners) for i in range(3))
    hi = tuple(max(c[i] for c in corners) for i in range(3))
    if key is not None:
        cache[key] = (lo, hi)
    return lo, hi


def fit_shape(shape_type: str, bounds: tuple[tuple[float, ...], tuple[float, ...]]) -> Fit:
    """Shape parameters that enclose the bounds: capsule and cylinder along local Z."""
    lo, hi = bounds
    ex, ey, ez = (max(hi[i] - lo[i], MIN_SIZE) for i in range(3))
    center = tuple((hi[i] + lo[i]) / 2 for i in range(3))
    round_radius = max(ex, ey) / 2
    radius = max(ex, ey, ez) / 2 if shape_type == "SPHERE" else round_radius
    height = max(ez - 2 * round_radius, MIN_SIZE) if shape_type == "CAPSULE" else ez
    if shape_type == "PLANE":
        center = (center[0], center[1], hi[2])  # the plane sits on top of the bounds
    return Fit(
        size=(ex, ey, ez), radius=radius, height=height, radius_top=round_radius,
        radius_bottom=round_radius, plane_size=(ex, ey), offset=center,  # type: ignore[arg-type]
    )


def principal_fit(
    obj: bpy.types.Object, shape_type: str, vertices: np.ndarray
) -> tuple[Fit, tuple[float, float, float, float]] | None:
    """A fit in the frame of the vertices' principal axes (the longest becomes Z, the axis of
    capsules and cylinders): the fit with its offset in object space, and that frame's
    rotation (w, x, y, z). None for fewer than 3 vertices."""
    points = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    if len(points) < 3:
        return None
    centered = points - points.mean(axis=0)
    _, frame = np.linalg.eigh(centered.T @ centered)  # ascending variance: longest axis last
    if np.linalg.det(frame) < 0:
        frame[:, 0] = -frame[:, 0]
    local = points @ frame
    fit = fit_shape(shape_type, (tuple(local.min(axis=0)), tuple(local.max(axis=0))))
    offset = tuple(float(v) for v in frame @ np.asarray(fit.offset))
    rotation = Matrix(frame.tolist()).to_quaternion()
    return replace(fit, offset=offset), tuple(rotation)  # type: ignore[return-value]


def fit_signature(shape_type: str, fit: Fit) -> tuple[float, ...]:
    """The numbers that define an analytic shape of this type, its offset included."""
    if shape_type == "BOX":
        return (*fit.size, *fit.offset)
    if shape_type == "SPHERE":
        return (fit.radius, *fit.offset)
    return (fit.height, fit.radius_top, fit.radius_bottom, *fit.offset)


def apply_fit(
    props: bpy.types.PropertyGroup, fit: Fit,
    rotation: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0),
) -> None:
    """Store a fit (and the shape's rotation) in the object's custom dimensions."""
    props.box_size = fit.size
    props.radius = fit.radius
    props.height = fit.height
    props.radius_top = fit.radius_top
    props.radius_bottom = fit.radius_bottom
    props.plane_size = fit.plane_size
    props.shape_offset = fit.offset
    props.shape_rotation = rotation
