# SPDX-License-Identifier: GPL-3.0-or-later
"""The neutral model (glTF space) → object properties. Data API only, never bpy.ops."""

from collections.abc import Callable

import bpy

from .. import axes
from ..diagnostics import Report
from ..model import Collider, CollisionFilter, Motion, NodePhysics, PhysicsMaterial, Shape, Trigger
from .properties import MAX_LAYERS

MeshProxy = Callable[[bpy.types.Object, int], "bpy.types.Object | None"]
EMPTY_DISPLAY = {"box": "CUBE", "cylinder": "CUBE", "plane": "CUBE", "sphere": "SPHERE",
                 "capsule": "SPHERE"}


class PropertyWriter:
    """Writes decoded physics onto objects of one Blender scene."""

    def __init__(self, scene: bpy.types.Scene, report: Report, yup: bool = True) -> None:
        self.layers = scene.gltf_physics.layers
        self.report = report
        self.yup = yup

    def apply(
        self, obj: bpy.types.Object, physics: NodePhysics, own_mesh: int | None,
        make_proxy: MeshProxy, make_child: Callable[[bpy.types.Object, str], bpy.types.Object],
    ) -> None:
        """Set every physics property of `obj` from `physics` (unset ones to their defaults)."""
        props = obj.gltf_physics
        self._motion(props, physics.motion)
        props.is_compound_trigger = physics.trigger is not None and physics.trigger.shape is None
        shaped: list[tuple[Shape, Collider | Trigger]] = []
        if physics.collider is not None and physics.collider.shape is not None:
            shaped.append((physics.collider.shape, physics.collider))
        if physics.trigger is not None and physics.trigger.shape is not None:
            shaped.append((physics.trigger.shape, physics.trigger))
        props.shape_type = "NONE"
        for number, (shape, holder) in enumerate(shaped):
            # A node with both a collider and a trigger keeps the trigger on a child Empty.
            target = obj if number == 0 else make_child(obj, f"{obj.name}.trigger")
            self._shape(target, shape, own_mesh if target is obj else None, make_proxy)
            self._holder(target.gltf_physics, holder)

    def _motion(self, props: bpy.types.PropertyGroup, motion: Motion | None) -> None:
        if motion is None:
            props.motion_type = "NONE"
            return
        yup = self.yup
        props.motion_type = motion.kind.upper()
        props.mass = motion.mass if motion.mass is not None and motion.mass > 0 else 1.0
        props.center_of_mass_mode = "AUTO" if motion.center_of_mass is None else "CUSTOM"
        props.center_of_mass = axes.vector_to_blender(motion.center_of_mass or (0, 0, 0), yup)
        props.inertia_mode = "AUTO" if motion.inertia_diagonal is None else "CUSTOM"
        if motion.inertia_diagonal is not None:
            props.inertia_diagonal = axes.extent_swap(
                tuple(max(d, 1e-6) for d in motion.inertia_diagonal), yup
            )
        props.inertia_orientation = axes.quat_to_blender(motion.inertia_orientation, yup)
        props.linear_velocity = axes.vector_to_blender(motion.linear_velocity, yup)
        props.angular_velocity = axes.vector_to_blender(motion.angular_velocity, yup)
        props.gravity_factor = motion.gravity_factor

    def _shape(
        self, obj: bpy.types.Object, shape: Shape, own_mesh: int | None, make_proxy: MeshProxy
    ) -> None:
        props = obj.gltf_physics
        props.shape_type = shape.kind.upper()
        props.size_mode = "CUSTOM"
        props.shape_offset = (0.0, 0.0, 0.0)
        props.shape_rotation = (1.0, 0.0, 0.0, 0.0)
        if shape.kind in ("convex", "trimesh"):
            mesh = shape.mesh if isinstance(shape.mesh, int) else None
            if mesh is not None and mesh == own_mesh:
                props.mesh_source = "SELF"
            else:
                props.mesh_source = "OBJECT"
                props.mesh_object = None if mesh is None else make_proxy(obj, mesh)
            return
        if shape.kind == "box":
            props.box_size = axes.extent_swap(tuple(max(s, 1e-4) for s in shape.size), self.yup)
        props.radius = max(shape.radius, 1e-4)
        props.height = max(shape.height, 1e-4)
        props.radius_top = shape.radius_top
        props.radius_bottom = shape.radius_bottom
        props.plane_size = (shape.size_x or 0.0, shape.size_z or 0.0)
        props.plane_double_sided = shape.double_sided
        if obj.type == "EMPTY":
            _show_on_empty(obj, shape)

    def _holder(self, props: bpy.types.PropertyGroup, holder: Collider | Trigger) -> None:
        props.shape_role = "TRIGGER" if isinstance(holder, Trigger) else "COLLIDER"
        material = holder.material if isinstance(holder, Collider) else None
        self._material(props, material)
        self._filter(props, holder.filter)

    def write_material(
        self, props: bpy.types.PropertyGroup, material: PhysicsMaterial | None
    ) -> None:
        """Set (or clear) the object's physics material."""
        self._material(props, material)

    @staticmethod
    def _material(props: bpy.types.PropertyGroup, material: PhysicsMaterial | None) -> None:
        props.use_material = material is not None
        if material is None:
            return
        props.static_friction = material.static_friction
        props.dynamic_friction = material.dynamic_friction
        props.restitution = material.restitution
        props.friction_combine = material.friction_combine
        props.restitution_combine = material.restitution_combine

    def _filter(self, props: bpy.types.PropertyGroup, flt: CollisionFilter | None) -> None:
        props.use_filter = flt is not None
        if flt is None:
            return
        props.filter_layers = self._bits(flt.collision_systems)
        if flt.collide_with_systems:
            props.filter_mode, targets = "ONLY", flt.collide_with_systems
        elif flt.not_collide_with_systems:
            props.filter_mode, targets = "EXCEPT", flt.not_collide_with_systems
        else:
            props.filter_mode, targets = "ALL", ()
        props.filter_targets = self._bits(targets)

    def _bits(self, names: tuple[str, ...]) -> list[bool]:
        bits = [False] * MAX_LAYERS
        for name in names:
            index = self._layer_index(name)
            if index is not None:
                bits[index] = True
        return bits

    def _layer_index(self, name: str) -> int | None:
        for index, layer in enumerate(self.layers):
            if layer.name == name:
                return index
        if len(self.layers) >= MAX_LAYERS:
            self.report.warn("too-many-layers", name, f"more than {MAX_LAYERS} layers; dropped")
            return None
        self.layers.add().name = name
        return len(self.layers) - 1


def _show_on_empty(obj: bpy.types.Object, shape: Shape) -> None:
    """Make a mesh-less collider's Empty look like its shape."""
    obj.empty_display_type = EMPTY_DISPLAY.get(shape.kind, "PLAIN_AXES")
    if shape.kind == "box":
        size = max(shape.size) / 2
    elif shape.kind == "sphere":
        size = shape.radius
    elif shape.kind == "capsule":
        size = shape.height / 2 + max(shape.radius_top, shape.radius_bottom)
    elif shape.kind == "cylinder":
        size = max(shape.height / 2, shape.radius_top, shape.radius_bottom)
    else:
        size = max(shape.size_x or 1.0, shape.size_z or 1.0) / 2
    obj.empty_display_size = max(size, 1e-3)
