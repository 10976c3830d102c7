# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicle operators: add wheels to a vehicle."""

import math

import bpy
from mathutils import Matrix, Vector

from ..io.blender.bridge.fitting import local_bounds
from ..io.blender.bridge.vehicle_bridge import has_vehicle_data
from ..io.blender.exporter.mass_bridge import ASSUMED_DENSITY
from ..io.blender.gravity.bridge import has_gravity
from ..io.blender.settings.properties import MOTION_KIND
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.blender.tools.ownership import WHEEL, link_like, made_by, mark
from ..io.diagnostics import listing
from ..io.rules import is_vehicle_body
from .context_checks import has_scene, in_view_layer, select_only

STEERING_ANGLE = 0.6  # rad, front wheels
DRIVE_FORCE_PER_KG = 5.0  # N of propulsion per kg of vehicle mass, shared by the rear wheels
#: kg the drive is sized for when the body's mass is not a value and its bounds hold no volume
DEFAULT_ASSUMED_MASS = 1000.0


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
        return has_scene(cls, context) and poll_refusal(cls, [obj])

    def execute(self, context: bpy.types.Context) -> set[str]:
        vehicle = context.active_object
        if refuse(self, [vehicle]):
            return {"CANCELLED"}
        problem = _refusal(context, vehicle)
        if problem:
            self.report({"ERROR"}, f"{problem}; nothing was changed")
            return {"CANCELLED"}
        markers, skipped = _markers(context, vehicle)
        # Wheels live in the vehicle's frame without its scale: their radius is in metres.
        # (The axes' lengths: a mirrored vehicle's `to_scale` is negative on every axis.)
        scale = Matrix.Diagonal(_axis_lengths(vehicle)).to_4x4()
        placed = self._spots(vehicle, markers, scale)
        if placed is None:
            self.report({"ERROR"}, f"{vehicle.name} has no geometry to place wheels on: "
                        "select Empties where the wheels go; nothing was changed")
            return {"CANCELLED"}
        spots, radius = placed
        mass, assumed = _drive_mass(vehicle)
        vehicle.gltf_physics.is_vehicle = True
        center_y = sum(s.y for s in spots) / len(spots)
        force = mass * DRIVE_FORCE_PER_KG / max(sum(s.y >= center_y for s in spots), 1)
        wheels = [
            self._wheel(context, vehicle, f"{vehicle.name}.wheel{number}", spot, radius,
                        front=spot.y < center_y, force=force, unscale=scale.inverted_safe())
            for number, spot in enumerate(spots)
        ]
        select_only(context, wheels)
        notes = [f"drive sized for an assumed {mass:.6g} kg ({assumed})" if assumed else "",
                 f"skipped {skipped} selected Empty(s) that instance a collection or carry "
                 "physics" if skipped else ""]
        self.report({"INFO"}, "; ".join([f"Added {len(spots)} wheels to {vehicle.name}",
                                         *filter(None, notes)]))
        return {"FINISHED"}

    def _spots(self, vehicle, markers, scale) -> tuple[list[Vector], float] | None:
        """Where the wheels go (in the vehicle's unscaled frame) and their radius: at the
        markers, or at the corners of the bounds; None without markers or geometry."""
        if markers:
            unscaled = vehicle.matrix_world @ scale.inverted_safe()
            spots = [unscaled.inverted_safe() @ m.matrix_world.translation for m in markers]
            return spots, self.radius or 0.25
        bounds = local_bounds(vehicle)
        if bounds is None or bounds[0] == bounds[1]:  # an Empty, no vertices or one
            return None
        lo, hi = (scale @ Vector(b) for b in bounds)
        radius = self.radius or max((hi.z - lo.z) / 4, 0.05)
        return [Vector((x, y, lo.z + radius)) for y in (lo.y, hi.y) for x in (lo.x, hi.x)], \
            radius

    @staticmethod
    def _wheel(context, vehicle, name, spot, radius, front, force, unscale
               ) -> bpy.types.Object:
        wheel = bpy.data.objects.new(name, None)
        link_like(wheel, vehicle, context.scene)
        mark(wheel, WHEEL, vehicle)
        wheel.parent = vehicle
        wheel.matrix_parent_inverse = unscale
        wheel.location = spot
        wheel.empty_display_type = "PLAIN_AXES"
        wheel.empty_display_size = radius / 2  # the overlay draws the wheel itself
        props = wheel.gltf_physics
        props.vehicle_part = "WHEEL"
        props.wheel_radius = radius
        props.wheel_width = radius / 2
        if front:
            props.wheel_max_steering_angle = STEERING_ANGLE
        else:
            props.wheel_max_propulsion_force = force
        return wheel


def _refusal(context: bpy.types.Context, vehicle: bpy.types.Object) -> str | None:
    """Why no wheels are added: the vehicle is not in the view layer, or has wheels already
    (whoever made them: never replaced or doubled, they may have been tuned)."""
    if not in_view_layer(context, vehicle):
        return f"{vehicle.name} is not in this view layer (an excluded collection or " \
            "another scene): the wheels could not be shown or selected"
    wheels = _wheels_of(vehicle)
    if wheels:
        return f"{vehicle.name} already has {len(wheels)} wheel(s) " \
            f"({listing([w.name for w in wheels], 5)}), kept as they are (they may be " \
            "tuned): delete them to add new ones"
    return None


def _wheels_of(vehicle: bpy.types.Object) -> list[bpy.types.Object]:
    """The vehicle's wheels: its descendants that are wheel parts or Add Wheels made for it,
    and those of the collections it or they instance (a wheel kit; each listed once; those
    under a vehicle of their own are that one's)."""
    found, pending, seen = [], [*vehicle.children, *_instanced(vehicle)], {vehicle}
    while pending:
        obj = pending.pop(0)
        if obj in seen:
            continue
        seen.add(obj)
        props = obj.gltf_physics
        if props.vehicle_part == "WHEEL" or made_by(obj, WHEEL, vehicle):
            found.append(obj)
        if not is_vehicle_body(props.is_vehicle, MOTION_KIND.get(props.motion_type)):
            pending.extend((*obj.children, *_instanced(obj)))
    return sorted(found, key=lambda o: o.name)


def _instanced(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """The top objects of the collection `obj` instances (their children follow them)."""
    kit = obj.instance_collection if obj.instance_type == "COLLECTION" else None
    return [] if kit is None else [o for o in kit.all_objects if o.parent is None]


def _markers(context: bpy.types.Context, vehicle: bpy.types.Object
             ) -> tuple[list[bpy.types.Object], int]:
    """The selected Empties marking wheel spots, and how many other selected Empties were
    skipped (collection instances, joints, seats, bodies, shapes, wheels...)."""
    empties = [o for o in context.selected_objects if o.type == "EMPTY" and o != vehicle]
    markers = [o for o in empties
               if o.instance_type != "COLLECTION" and not _carries_physics(o.gltf_physics)]
    return markers, len(empties) - len(markers)


def _carries_physics(props: bpy.types.PropertyGroup) -> bool:
    return props.motion_type != "NONE" or props.shape_type != "NONE" \
        or props.is_compound_trigger or props.joint_type != "NONE" \
        or has_vehicle_data(props) or has_gravity(props)


def _axis_lengths(obj: bpy.types.Object) -> list[float]:
    return [column.length for column in obj.matrix_world.to_3x3().col]


def _drive_mass(vehicle: bpy.types.Object) -> tuple[float, str]:
    """The mass the drive force is sized for, and why it is assumed ("" when it is the
    body's own): for an Auto or Infinite mass, the bounds' volume at water's density."""
    props = vehicle.gltf_physics
    if props.mass_mode == "VALUE":
        return props.mass, ""
    bounds = local_bounds(vehicle)
    volume = 0.0 if bounds is None else math.prod(
        (hi - lo) * length
        for lo, hi, length in zip(*bounds, _axis_lengths(vehicle), strict=True))
    why = f"its mass is {props.mass_mode.title()}"
    if volume > 0:
        return volume * ASSUMED_DENSITY, f"{why}: its bounds at {ASSUMED_DENSITY:g} kg/m³"
    return DEFAULT_ASSUMED_MASS, f"{why} and its bounds hold no volume"


CLASSES = (GLTF_PHYSICS_OT_wheels_add,)
