# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicle operators: add wheels to a vehicle."""

import bpy
from mathutils import Matrix, Vector

from ..io.blender.bridge.fitting import local_bounds
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.blender.tools.ownership import WHEEL, link_like, mark

STEERING_ANGLE = 0.6  # rad, front wheels
DRIVE_FORCE_PER_KG = 5.0  # N of propulsion per kg of vehicle mass, shared by the rear wheels


class GLTF_PHYSICS_OT_wheels_add(bpy.types.Operator):
    """Add wheels to the active vehicle: one at each selected Empty, or four at the corners of its bounds; front wheels (−Y) steer, rear wheels drive"""

    bl_idname = "gltf_physics.wheels_add"
    bl_label = "Add Wheels"
    bl_options = {"REGISTER", "UNDO"}

    radius: bpy.props.FloatProperty(
        name="Radius", description="Wheel radius (0: a quarter of the vehicle's height)",
        default=0.0, min=0.0, unit="LENGTH",
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.active_object
        if obj is None or obj.gltf_physics.motion_type != "DYNAMIC":
            cls.poll_message_set("The active object must be a Dynamic body")
            return False
        return poll_refusal(cls, [obj])

    def execute(self, context: bpy.types.Context) -> set[str]:
        vehicle = context.active_object
        if refuse(self, [vehicle]):
            return {"CANCELLED"}
        markers = [o for o in context.selected_objects if o.type == "EMPTY" and o != vehicle]
        # Wheels live in the vehicle's frame without its scale: their radius is in metres.
        # (The axes' lengths: a mirrored vehicle's `to_scale` is negative on every axis.)
        lengths = [column.length for column in vehicle.matrix_world.to_3x3().col]
        scale = Matrix.Diagonal(lengths).to_4x4()
        unscaled = vehicle.matrix_world @ scale.inverted_safe()
        spots = [unscaled.inverted_safe() @ m.matrix_world.translation for m in markers]
        radius = self.radius
        if not spots:
            bounds = local_bounds(vehicle)
            if bounds is None:
                self.report({"ERROR"}, "Select Empties where the wheels go: the vehicle has "
                            "no mesh bounds")
                return {"CANCELLED"}
            lo, hi = (scale @ Vector(b) for b in bounds)
            radius = radius or max((hi.z - lo.z) / 4, 0.05)
            spots = [Vector((x, y, lo.z + radius)) for y in (lo.y, hi.y) for x in (lo.x, hi.x)]
        radius = radius or 0.25
        vehicle.gltf_physics.is_vehicle = True
        center_y = sum(s.y for s in spots) / len(spots)
        rear = [s for s in spots if s.y >= center_y]
        force = vehicle.gltf_physics.mass * DRIVE_FORCE_PER_KG / max(len(rear), 1)
        for obj in context.selected_objects:
            obj.select_set(False)
        for number, spot in enumerate(spots):
            wheel = self._wheel(context, vehicle, f"{vehicle.name}.wheel{number}", spot,
                                radius, front=spot.y < center_y, force=force)
            wheel.matrix_parent_inverse = scale.inverted_safe()
        self.report({"INFO"}, f"Added {len(spots)} wheels to {vehicle.name}")
        return {"FINISHED"}

    @staticmethod
    def _wheel(context, vehicle, name, spot, radius, front, force) -> bpy.types.Object:
        wheel = bpy.data.objects.new(name, None)
        link_like(wheel, vehicle, context.scene)
        mark(wheel, WHEEL, vehicle)
        wheel.parent = vehicle
        wheel.location = spot
        wheel.empty_display_type = "PLAIN_AXES"
        wheel.empty_display_size = radius / 2  # the overlay draws the wheel itself
        wheel.select_set(True)
        props = wheel.gltf_physics
        props.vehicle_part = "WHEEL"
        props.wheel_radius = radius
        props.wheel_width = radius / 2
        if front:
            props.wheel_max_steering_angle = STEERING_ANGLE
        else:
            props.wheel_max_propulsion_force = force
        return wheel


CLASSES = (GLTF_PHYSICS_OT_wheels_add,)
