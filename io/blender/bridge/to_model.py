# SPDX-License-Identifier: GPL-3.0-or-later
"""Object properties → the neutral model (glTF space). Reads bpy data, writes nothing."""

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

import bpy
from mathutils import Quaternion

from ... import axes
from ...model import INFINITE, CollisionFilter, Motion, PhysicsMaterial, Shape
from ..settings.field_props import sharing_key, values_of
from ..settings.properties import MESH_SHAPE_ITEMS, MOTION_KIND, SHAPE_KIND
from .fitting import Fit, fit_shape, local_bounds

OFFSET_EPSILON = 1e-6
ROTATION_EPSILON = 1e-6
ROUND_SHAPES = frozenset({"CAPSULE", "CYLINDER"})
#: What `motion_of` reads besides the table's motion rows (the export sharing key uses both).
MOTION_INPUTS = ("motion_type", "mass_mode", "mass", "center_of_mass_mode", "center_of_mass",
                 "inertia_mode", "inertia_diagonal", "inertia_orientation", "lock_rotation")
#: What a shape's collider or trigger reads besides its shape and the table's material rows.
SHAPE_PART_INPUTS = ("shape_role", "use_material", "use_filter", "filter_layers",
                     "filter_mode", "filter_targets", "filter_name")
MOTION_KEY = sharing_key(MOTION_INPUTS, "motion")
SHAPE_PART_KEY = sharing_key(SHAPE_PART_INPUTS, "material")
#: +90° about X: turns a shape's +Y axis onto Blender's +Z when no Y-up conversion happens.
Z_ALIGN_XYZW = (0.7071067811865476, 0.0, 0.0, 0.7071067811865476)


@dataclass(frozen=True, slots=True)
class ShapePlacement:
    """A shape and, when it does not sit at the object origin, its child-node transform."""

    shape: Shape
    translation: tuple[float, float, float] | None = None
    rotation: tuple[float, float, float, float] | None = None

    @property
    def needs_child(self) -> bool:
        """True when the shape must go on its own child node."""
        return self.translation is not None or self.rotation is not None


def motion_of(props: bpy.types.PropertyGroup, yup: bool) -> Motion | None:
    """The body's motion, or None when the object is not a body."""
    if props.motion_type == "NONE":
        return None
    custom_com = props.center_of_mass_mode == "CUSTOM"
    custom_inertia = props.inertia_mode == "CUSTOM"
    return Motion(
        kind=MOTION_KIND[props.motion_type],
        mass=mass_of(props),
        center_of_mass=(
            axes.vector_to_gltf(tuple(props.center_of_mass), yup) if custom_com else None
        ),
        inertia_diagonal=(
            axes.extent_swap(locked(props.inertia_diagonal, props.lock_rotation), yup)
            if custom_inertia else None
        ),
        inertia_orientation=(  # (a file may state one without moments: kept; locked
            # axes with computed moments are the object's, so then none is written)
            axes.quat_to_gltf(tuple(props.inertia_orientation), yup)
            if custom_inertia or not any(props.lock_rotation) else (0.0, 0.0, 0.0, 1.0)
        ),
        **values_of(props, "motion", yup),
    )


def mass_of(props: bpy.types.PropertyGroup) -> float | None:
    """The body's mass: a value, None (computed by the engine) or infinite."""
    if props.mass_mode == "AUTO":
        return None
    return INFINITE if props.mass_mode == "INFINITE" else props.mass


def locked(values: Any, locks: Any) -> tuple[float, float, float]:
    """Per-axis values with the locked axes made infinite."""
    return tuple(INFINITE if lock else v for v, lock in zip(values, locks, strict=True))


def material_of(props: bpy.types.PropertyGroup) -> PhysicsMaterial | None:
    """The shape's physics material, or None for the engine default."""
    if not props.use_material:
        return None
    return PhysicsMaterial(**values_of(props, "material"))


def compound_trigger_members(obj: bpy.types.Object) -> tuple[bpy.types.Object, ...]:
    """The shapes a compound trigger on `obj` is made of: every descendant trigger shape
    that has not opted out (`join_compound_trigger`). The export and the Fixes ask this."""
    return tuple(
        child for child in obj.children_recursive
        if child.gltf_physics.shape_type != "NONE"
        and child.gltf_physics.shape_role == "TRIGGER"
        and child.gltf_physics.join_compound_trigger
    )


def filter_of(
    props: bpy.types.PropertyGroup, layer_names: list[str],
    cache: dict[tuple[bool, ...], tuple[str, ...]] | None = None,
) -> CollisionFilter | None:
    """The shape's collision filter, layer bits turned into layer names."""
    if not props.use_filter:
        return None
    cache = {} if cache is None else cache

    def names(bits: tuple[bool, ...]) -> tuple[str, ...]:
        if bits not in cache:
            cache[bits] = tuple(name for name, on in zip(layer_names, bits, strict=False) if on)
        return cache[bits]

    targets = names(tuple(props.filter_targets[:]))
    return CollisionFilter(
        collision_systems=names(tuple(props.filter_layers[:])),
        collide_with_systems=targets if props.filter_mode == "ONLY" else (),
        not_collide_with_systems=targets if props.filter_mode == "EXCEPT" else (),
        name=props.filter_name,
    )


def placement_of(
    obj: bpy.types.Object, mesh_ref: Hashable | None, yup: bool,
    bounds_cache: dict[Hashable, Any] | None = None, props: Any = None,
) -> ShapePlacement | None:
    """The object's shape in glTF space, with its offset; None without a usable shape.

    `props` may be a settings snapshot of `obj` (default: its live settings). With
    `bounds_cache`, objects whose shape comes out the same share one placement."""
    props = obj.gltf_physics if props is None else props
    kind = props.shape_type
    if kind in MESH_SHAPE_ITEMS:
        if mesh_ref is None:
            return None
        return ShapePlacement(Shape(SHAPE_KIND[kind], mesh=mesh_ref, name=props.shape_name))
    key = _placement_key(obj, props, kind, yup) if bounds_cache is not None else None
    if key is not None and key in bounds_cache:  # type: ignore[operator]
        return bounds_cache[key]  # type: ignore[index]
    fit = dimensions_of(obj, kind, bounds_cache, props)
    shape = _analytic(kind, fit, yup, props.plane_double_sided)
    if props.shape_name:
        shape = replace(shape, name=props.shape_name)
    translation = None
    if any(abs(c) > OFFSET_EPSILON for c in fit.offset):
        translation = axes.vector_to_gltf(fit.offset, yup)
    placement = ShapePlacement(shape, translation, _shape_rotation(props, kind, yup))
    if key is not None:
        bounds_cache[key] = placement  # type: ignore[index]
    return placement


def _placement_key(obj: bpy.types.Object, props: Any, kind: str, yup: bool) -> tuple | None:
    """A key shared by objects whose placed shape is the same: the same unmodified mesh
    when fitted, the same numbers when custom."""
    if props.size_mode == "CUSTOM":
        return ("custom", kind, yup, props.plane_double_sided, tuple(props.box_size),
                props.radius, props.height, props.radius_top, props.radius_bottom,
                tuple(props.plane_size), tuple(props.shape_offset), tuple(props.shape_rotation),
                props.shape_name)
    if obj.type != "MESH" or obj.modifiers:
        return None
    data = obj.data
    if data.shape_keys is not None:
        return None
    return ("placement", data, kind, yup, props.plane_double_sided,  # data hashes by pointer
            props.shape_name)


def _shape_rotation(
    props: Any, kind: str, yup: bool
) -> tuple[float, float, float, float] | None:
    """The child-node rotation (glTF xyzw) an analytic shape needs, or None."""
    custom = Quaternion(props.shape_rotation) if props.size_mode == "CUSTOM" else Quaternion()
    custom.normalize()
    align = not yup and kind in ROUND_SHAPES | {"PLANE"}
    if align:  # the shape's +Y onto Blender's +Z
        x, y, z, w = Z_ALIGN_XYZW
        custom = custom @ Quaternion((w, x, y, z))
    if custom.rotation_difference(Quaternion()).angle < ROTATION_EPSILON:
        return None
    return axes.quat_to_gltf(tuple(custom), yup)


def dimensions_of(
    obj: bpy.types.Object, kind: str, bounds_cache: dict[Hashable, Any] | None = None,
    props: Any = None,
) -> Fit:
    """The analytic shape's dimensions and offset (object space): fitted or custom.
    `bounds_cache` shares the bounds of objects that show the same unmodified mesh; `props`
    may be a settings snapshot of `obj`."""
    props = obj.gltf_physics if props is None else props
    if props.size_mode == "FIT":
        bounds = local_bounds(obj, bounds_cache)
        if bounds is not None:
            return fit_shape(kind, bounds)
    return Fit(
        size=tuple(props.box_size), radius=props.radius, height=props.height,
        radius_top=props.radius_top, radius_bottom=props.radius_bottom,
        plane_size=tuple(props.plane_size), offset=tuple(props.shape_offset),
    )


def _analytic(kind: str, fit: Fit, yup: bool, double_sided: bool) -> Shape:
    if kind == "BOX":
        return Shape("box", size=axes.extent_swap(fit.size, yup))
    if kind == "SPHERE":
        return Shape("sphere", radius=fit.radius)
    if kind in ROUND_SHAPES:
        return Shape(
            SHAPE_KIND[kind], height=fit.height, radius_top=fit.radius_top,
            radius_bottom=fit.radius_bottom,
        )
    size_x, size_y = fit.plane_size
    return Shape(
        "plane", size_x=size_x or None, size_z=size_y or None, double_sided=double_sided
    )
