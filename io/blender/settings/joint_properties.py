# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint storage: the limit and drive groups, and the joint fields of `Object.gltf_physics`."""

import math

import bpy
from bpy.props import (
    BoolProperty,
    BoolVectorProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

JOINT_ITEMS = (
    ("NONE", "None", "Not a joint"),
    ("FIXED", "Fixed", "Weld: the two bodies move as one"),
    ("PIN", "Pin", "Ball and socket: the frames share a point, rotation is free"),
    ("HINGE", "Hinge", "Rotation about one axis only, optionally within an angle range"),
    ("SLIDER", "Slider", "Sliding along one axis only, optionally within a distance range"),
    ("CONE_TWIST", "Cone Twist", "A pin whose swing stays in a cone, with an optional twist range"),
    ("CUSTOM", "Custom", "Your own list of limits"),
)
AXIS_ITEMS = (
    ("X", "X", "The joint object's local X axis"),
    ("Y", "Y", "The joint object's local Y axis"),
    ("Z", "Z", "The joint object's local Z axis"),
)
AXIS_KIND_ITEMS = (
    ("LINEAR", "Linear", "Movement along axes (metres)"),
    ("ANGULAR", "Angular", "Rotation about axes (angles)"),
)
DEG45 = math.pi / 4


def _poll_body(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.gltf_physics.motion_type != "NONE"


class GltfPhysicsJointLimitProperties(bpy.types.PropertyGroup):
    """One joint limit: a range on one to three linear or angular axes."""

    kind: EnumProperty(name="Kind", description="What the limit restricts", items=AXIS_KIND_ITEMS)
    axes: BoolVectorProperty(
        name="Axes", description="Axes of the joint frame this limit applies to (one axis: a "
        "signed range; two: distance from a line or a cone; three: distance or total angle)",
        size=3, default=(True, False, False), subtype="XYZ",
    )
    use_min: BoolProperty(name="Min", description="Bound the low end of the range", default=True)
    use_max: BoolProperty(name="Max", description="Bound the high end of the range", default=True)
    min_distance: FloatProperty(
        name="Min", description="Lowest allowed offset", unit="LENGTH", default=0.0,
    )
    max_distance: FloatProperty(
        name="Max", description="Highest allowed offset", unit="LENGTH", default=0.0,
    )
    min_angle: FloatProperty(
        name="Min", description="Lowest allowed angle", subtype="ANGLE", default=0.0,
    )
    max_angle: FloatProperty(
        name="Max", description="Highest allowed angle", subtype="ANGLE", default=0.0,
    )
    use_stiffness: BoolProperty(
        name="Soft", description="A spring-like limit instead of a hard stop",
    )
    stiffness: FloatProperty(
        name="Stiffness", description="Spring strength beyond the limit (N/m or N·m/rad)",
        default=100.0, min=0.0,
    )
    damping: FloatProperty(
        name="Damping", description="Damping beyond the limit (N·s/m or N·m·s/rad)",
        default=0.0, min=0.0,
    )


class GltfPhysicsJointDriveProperties(bpy.types.PropertyGroup):
    """One joint drive: a motor or spring acting on one axis."""

    kind: EnumProperty(name="Kind", description="What the drive moves", items=AXIS_KIND_ITEMS)
    mode: EnumProperty(
        name="Mode", description="How the drive strength is interpreted",
        items=(("force", "Force", "Stiffness and damping produce a force or torque"),
               ("acceleration", "Acceleration", "Stiffness and damping produce an acceleration, "
                "independent of mass")),
    )
    axis: EnumProperty(name="Axis", description="Axis of the joint frame", items=AXIS_ITEMS)
    use_max_force: BoolProperty(name="Limit Force", description="Cap the drive's force")
    max_force: FloatProperty(
        name="Max Force", description="Largest force (N) or torque (N·m)", default=100.0, min=0.0,
    )
    use_position_target: BoolProperty(
        name="Position Target", description="Spring towards a target position or angle",
    )
    position_target_distance: FloatProperty(
        name="Target", description="Target offset along the axis", unit="LENGTH",
    )
    position_target_angle: FloatProperty(
        name="Target", description="Target angle about the axis", subtype="ANGLE",
    )
    stiffness: FloatProperty(
        name="Stiffness", description="Strength of the pull towards the target position",
        default=0.0, min=0.0,
    )
    use_velocity_target: BoolProperty(
        name="Velocity Target", description="Drive towards a target speed (a motor)",
    )
    velocity_target: FloatProperty(
        name="Target Velocity", description="Target speed (m/s or rad/s)",
    )
    damping: FloatProperty(
        name="Damping", description="Strength of the pull towards the target velocity",
        default=0.0, min=0.0,
    )


class GltfPhysicsJointFields:
    """The joint fields of the object group (mixed into it)."""

    joint_type: EnumProperty(
        name="Joint", description="Joint type; this object's transform is the joint frame",
        items=JOINT_ITEMS,
    )
    joint_connected_body: PointerProperty(
        name="Connected Body", type=bpy.types.Object, poll=_poll_body,
        description="The body this joint attaches to (the other body is the one this object is "
        "parented under)",
    )
    joint_attachment: PointerProperty(
        name="Connected Frame", type=bpy.types.Object,
        description="Optional object under the connected body whose transform is the frame on "
        "that side; empty: generated at export at this object's position",
    )
    joint_name: StringProperty(
        name="Joint Name", description="Name written with this joint's limits and drives in the "
        "glTF file (optional; empty writes none)",
    )
    joint_enable_collision: BoolProperty(
        name="Collide Connected", description="Let the two joined bodies collide with each other",
    )
    joint_axis: EnumProperty(
        name="Axis", description="Hinge, slider or twist axis of the joint frame",
        items=AXIS_ITEMS, default="Z",
    )
    joint_use_limit: BoolProperty(
        name="Limit", description="Restrict the motion along or about the axis to a range",
    )
    joint_angle_min: FloatProperty(
        name="Min Angle", description="Lowest angle about the axis", subtype="ANGLE",
        default=-DEG45,
    )
    joint_angle_max: FloatProperty(
        name="Max Angle", description="Highest angle about the axis", subtype="ANGLE",
        default=DEG45,
    )
    joint_distance_min: FloatProperty(
        name="Min Distance", description="Lowest offset along the axis", unit="LENGTH",
        default=-0.5,
    )
    joint_distance_max: FloatProperty(
        name="Max Distance", description="Highest offset along the axis", unit="LENGTH",
        default=0.5,
    )
    joint_slider_rotates: BoolProperty(
        name="Rotate About Axis", description="Let the slider also spin about its axis",
    )
    joint_cone_angle: FloatProperty(
        name="Cone Angle", description="Largest swing away from the twist axis",
        subtype="ANGLE", default=DEG45, min=0.0, max=math.pi,
    )
    joint_limits: CollectionProperty(type=GltfPhysicsJointLimitProperties, name="Limits")
    joint_active_limit: IntProperty(name="Active Limit", description="Selected limit")
    joint_drives: CollectionProperty(type=GltfPhysicsJointDriveProperties, name="Drives")
    joint_active_drive: IntProperty(name="Active Drive", description="Selected drive")
