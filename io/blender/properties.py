# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender-side storage: `Object.gltf_physics` and `Scene.gltf_physics`.

Property names are format-neutral; JSON keys live only in the codecs. Lengths are in the
object's local (unscaled) space, Blender axes: capsules and cylinders run along local Z.
"""

import math

import bpy
from bpy.props import (
    BoolProperty,
    BoolVectorProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..model import MESH_SHAPES
from ..vehicle_model import MAX_ANGLE

MAX_LAYERS = 32
#: The shape items that use a mesh (the model's MESH_SHAPES, in Blender's spelling).
MESH_SHAPE_ITEMS = frozenset(kind.upper() for kind in MESH_SHAPES)
MIN_SIZE = 1e-4

MOTION_ITEMS = (
    ("NONE", "None", "Not a body: a shape here joins the nearest body above, or is static"),
    ("STATIC", "Static", "A body that never moves"),
    ("KINEMATIC", "Kinematic", "Moved by animation or code, pushes dynamic bodies"),
    ("DYNAMIC", "Dynamic", "Simulated: falls, collides and reacts to forces"),
)
SHAPE_ITEMS = (
    ("NONE", "None", "No collision shape on this object"),
    ("BOX", "Box", "A box"),
    ("SPHERE", "Sphere", "A sphere"),
    ("CAPSULE", "Capsule", "A capsule along local Z, with separate top and bottom radii"),
    ("CYLINDER", "Cylinder", "A cylinder or cone along local Z"),
    ("CONVEX", "Convex Hull", "The convex hull of a mesh"),
    ("TRIMESH", "Triangle Mesh", "An exact triangle mesh (best for static level geometry)"),
    ("PLANE", "Plane", "A plane with normal +Z (KHR only; written as a thin box for OMI)"),
)
COMBINE_ITEMS = (
    ("average", "Average", "Average the two values"),
    ("minimum", "Minimum", "Use the smaller value"),
    ("maximum", "Maximum", "Use the larger value"),
    ("multiply", "Multiply", "Multiply the two values"),
    ("engine", "Default (Engine)", "Left to the engine (KHR: not written; OMI has no such "
     "choice and means Average)"),
)
#: The combine item that is not a mode of the file: the engine chooses.
ENGINE_COMBINE = "engine"
MASS_MODE_ITEMS = (
    ("VALUE", "Value", "The mass below"),
    ("AUTO", "Auto", "Computed by the engine from the colliders (KHR only; OMI writes 1 kg)"),
    ("INFINITE", "Infinite", "Forces and contacts never move the body, though it may still "
     "turn (KHR only; OMI writes a kinematic body)"),
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


def _poll_mesh_object(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == "MESH"


def _poll_body(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.gltf_physics.motion_type != "NONE"


def _poll_seat(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.gltf_physics.is_seat


PART_ITEMS = (
    ("NONE", "None", "Not a vehicle part"),
    ("WHEEL", "Wheel", "A wheel: a circle in the local YZ plane, width along X, rolling "
     "forward along −Y"),
    ("THRUSTER", "Thruster", "A thruster pushing along its local −Y (the nozzle points +Y)"),
    ("HOVER_THRUSTER", "Hover Thruster", "A hover thruster pushing along local −Y, stronger "
     "near the ground"),
)


def _rate(name: str, description: str, default: float = -1.0) -> FloatProperty:
    return FloatProperty(name=name, description=f"{description}; negative means instant",
                         default=default)


def _ratio(name: str, description: str, default: float = 0.0) -> FloatProperty:
    return FloatProperty(name=name, description=description, default=default, min=0.0, max=1.0)


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


class GltfPhysicsLayerProperties(bpy.types.PropertyGroup):
    """A named collision layer (a collision system in the file)."""

    name: StringProperty(name="Name", description="Name of the collision layer", default="Layer")


class GltfPhysicsObjectProperties(bpy.types.PropertyGroup):
    """Per-object rigid body, shape, material and filter settings."""

    motion_type: EnumProperty(name="Motion", description="How the body moves", items=MOTION_ITEMS)
    mass_mode: EnumProperty(
        name="Mass", description="Where the body's mass comes from", items=MASS_MODE_ITEMS,
    )
    mass: FloatProperty(
        name="Mass", description="Mass of the body in kilograms", default=1.0, min=0.001,
        soft_max=10000.0, unit="MASS",
    )
    center_of_mass_mode: EnumProperty(
        name="Center of Mass", description="Where the centre of mass is",
        items=(("AUTO", "Auto", "Computed by the engine from the shapes"),
               ("CUSTOM", "Custom", "At the given point in object space")),
    )
    center_of_mass: FloatVectorProperty(
        name="Center", description="Centre of mass in object space", size=3, subtype="TRANSLATION",
        unit="LENGTH",
    )
    inertia_mode: EnumProperty(
        name="Inertia", description="The body's resistance to rotation",
        items=(("AUTO", "Auto", "Computed by the engine from the shapes and mass"),
               ("CUSTOM", "Custom", "Principal moments and their orientation")),
    )
    inertia_diagonal: FloatVectorProperty(
        name="Principal Inertia", description="Principal moments of inertia (kg·m²), each > 0",
        size=3, default=(1.0, 1.0, 1.0), min=1e-6,
    )
    inertia_orientation: FloatVectorProperty(
        name="Inertia Orientation",
        description="Rotation from the principal axes to object space (quaternion w, x, y, z)",
        size=4, subtype="QUATERNION", default=(1.0, 0.0, 0.0, 0.0),
    )
    lock_rotation: BoolVectorProperty(
        name="Lock Rotation", description="Infinite moment of inertia about these axes: the "
        "body never turns about them (the principal axes with custom inertia, else object "
        "axes; KHR only, OMI writes a large moment)", size=3, subtype="XYZ",
    )
    linear_velocity: FloatVectorProperty(
        name="Linear Velocity", description="Initial velocity in object space (m/s)", size=3,
        subtype="VELOCITY", unit="VELOCITY",
    )
    angular_velocity: FloatVectorProperty(
        name="Angular Velocity", description="Initial angular velocity in object space (rad/s)",
        size=3,
    )
    gravity_factor: FloatProperty(
        name="Gravity Factor", description="Multiplier on gravity for this body (0 floats)",
        default=1.0, soft_min=-10.0, soft_max=10.0,
    )

    shape_type: EnumProperty(name="Shape", description="Collision shape", items=SHAPE_ITEMS)
    shape_role: EnumProperty(
        name="Role", description="Whether the shape collides or only detects overlaps",
        items=(("COLLIDER", "Collider", "A solid shape that collides"),
               ("TRIGGER", "Trigger", "A volume that reports overlaps and does not collide")),
    )
    size_mode: EnumProperty(
        name="Dimensions", description="Where the shape's dimensions come from",
        items=(("FIT", "Fit to Mesh", "Fitted to the object's evaluated mesh bounds at export"),
               ("CUSTOM", "Custom", "The values below, in object space")),
    )
    box_size: FloatVectorProperty(
        name="Size", description="Full box extents in object space", size=3,
        default=(1.0, 1.0, 1.0), min=MIN_SIZE, subtype="XYZ_LENGTH", unit="LENGTH",
    )
    radius: FloatProperty(
        name="Radius", description="Sphere radius", default=0.5, min=MIN_SIZE, unit="LENGTH",
    )
    height: FloatProperty(
        name="Height",
        description="Capsule: distance between the hemisphere centres. Cylinder: full height",
        default=1.0, min=MIN_SIZE, unit="LENGTH",
    )
    radius_top: FloatProperty(
        name="Top Radius", description="Radius at the +Z end", default=0.5, min=0.0, unit="LENGTH",
    )
    radius_bottom: FloatProperty(
        name="Bottom Radius", description="Radius at the −Z end", default=0.5, min=0.0,
        unit="LENGTH",
    )
    plane_size: FloatVectorProperty(
        name="Plane Size", description="Plane extents along X and Y; 0 means infinite", size=2,
        default=(0.0, 0.0), min=0.0, unit="LENGTH",
    )
    plane_double_sided: BoolProperty(
        name="Double Sided", description="Collide from both sides of the plane",
    )
    shape_offset: FloatVectorProperty(
        name="Offset", description="Shape centre relative to the object origin (custom dimensions)",
        size=3, subtype="TRANSLATION", unit="LENGTH",
    )
    shape_rotation: FloatVectorProperty(
        name="Rotation", description="Shape orientation relative to the object (custom "
        "dimensions; set by fitting to the principal axes)", size=4, subtype="QUATERNION",
        default=(1.0, 0.0, 0.0, 0.0),
    )
    mesh_source: EnumProperty(
        name="Mesh Source", description="Which mesh a convex hull or triangle mesh uses",
        items=(("SELF", "This Object", "This object's evaluated mesh"),
               ("OBJECT", "Other Object", "Another mesh object (a collision proxy)")),
    )
    mesh_object: PointerProperty(
        name="Proxy", description="Mesh object whose geometry is used as the collision mesh",
        type=bpy.types.Object, poll=_poll_mesh_object,
    )
    collision_only: BoolProperty(
        name="Collision Only",
        description="Use this object's mesh for collision only: it is not exported as visible "
        "geometry",
    )
    is_compound_trigger: BoolProperty(
        name="Compound Trigger",
        description="This object is one trigger made of the trigger shapes of its descendants",
    )
    join_compound_trigger: BoolProperty(
        name="Join Compound Trigger", default=True,
        description="A trigger shape below a compound trigger is one of its parts",
    )

    use_material: BoolProperty(
        name="Physics Material", description="Give the shape friction and restitution values",
    )
    static_friction: FloatProperty(
        name="Static Friction", description="Friction when at rest", default=0.6, min=0.0,
        soft_max=2.0,
    )
    dynamic_friction: FloatProperty(
        name="Dynamic Friction", description="Friction while sliding", default=0.6, min=0.0,
        soft_max=2.0,
    )
    restitution: FloatProperty(
        name="Restitution", description="Bounciness: 0 absorbs, 1 bounces back fully",
        default=0.0, min=0.0, soft_max=1.0,
    )
    friction_combine: EnumProperty(
        name="Friction Combine", description="How two touching shapes' frictions combine",
        items=COMBINE_ITEMS,
    )
    restitution_combine: EnumProperty(
        name="Restitution Combine", description="How two touching shapes' restitutions combine",
        items=COMBINE_ITEMS,
    )

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

    is_vehicle: BoolProperty(
        name="Vehicle", description="This dynamic body is a piloted vehicle (OMI_vehicle_body)",
    )
    vehicle_linear_activation: FloatVectorProperty(
        name="Linear Activation", description="Initial thrust input per axis, nominally -1..1 "
        "(forward is −Y)", size=3, soft_min=-1.0, soft_max=1.0,
    )
    vehicle_angular_activation: FloatVectorProperty(
        name="Angular Activation", description="Initial rotation input per axis, nominally -1..1",
        size=3, soft_min=-1.0, soft_max=1.0,
    )
    vehicle_gyro_torque: FloatVectorProperty(
        name="Gyro Torque", description="Largest torque the vehicle applies to itself per axis "
        "(N·m/rad)", size=3, min=0.0,
    )
    vehicle_max_speed: FloatProperty(
        name="Max Speed", description="Top speed (m/s); negative means no limit", default=-1.0,
        unit="VELOCITY",
    )
    vehicle_pilot_seat: PointerProperty(
        name="Pilot Seat", type=bpy.types.Object, poll=_poll_seat,
        description="The seat (an object marked Seat) whose occupant steers the vehicle",
    )
    vehicle_angular_dampeners: BoolProperty(
        name="Angular Dampeners", default=True,
        description="Stop rotating when there is no angular input",
    )
    vehicle_linear_dampeners: BoolProperty(
        name="Linear Dampeners", default=True,
        description="Slow down when there is no linear input",
    )
    vehicle_use_throttle: BoolProperty(
        name="Use Throttle", description="Forward input is a throttle that stays where it is set",
    )
    vehicle_part: EnumProperty(
        name="Vehicle Part", description="This object is a part of the vehicle above it",
        items=PART_ITEMS,
    )
    wheel_radius: FloatProperty(name="Radius", description="Wheel radius", default=0.25,
                                min=MIN_SIZE, unit="LENGTH")
    wheel_width: FloatProperty(name="Width", description="Wheel width along local X",
                               default=0.125, min=MIN_SIZE, unit="LENGTH")
    wheel_max_propulsion_force: FloatProperty(
        name="Max Propulsion Force", description="Driving force (N); 0 for a free wheel",
        default=0.0, min=0.0,
    )
    wheel_braking_force: FloatProperty(
        name="Braking Force", description="Braking force (N); negative brakes with the "
        "propulsion force, 0 has no brakes", default=-1.0,
    )
    wheel_max_steering_angle: FloatProperty(
        name="Max Steering Angle", description="Largest steering angle; 0 does not steer",
        default=0.0, min=0.0, max=MAX_ANGLE, subtype="ANGLE",
    )
    wheel_propulsion_force_change_rate: _rate(
        "Propulsion Change Rate", "How fast the propulsion force changes (N/s)")
    wheel_steering_change_rate: _rate(
        "Steering Change Rate", "How fast the steering angle changes (rad/s)", 1.0)
    wheel_suspension_stiffness: FloatProperty(
        name="Suspension Stiffness", description="Spring stiffness (N/m)", default=20000.0,
        min=1e-3,
    )
    wheel_suspension_damping_compression: FloatProperty(
        name="Damping Compression", description="Damping while compressing (N·s/m)",
        default=2000.0, min=1e-3,
    )
    wheel_suspension_damping_rebound: FloatProperty(
        name="Damping Rebound", description="Damping while extending (N·s/m)", default=2000.0,
        min=1e-3,
    )
    wheel_suspension_travel: FloatProperty(
        name="Suspension Travel", description="How far the suspension moves", default=0.25,
        min=0.0, unit="LENGTH",
    )
    wheel_target_propulsion_force_ratio: FloatProperty(
        name="Propulsion Input", description="Initial propulsion input, nominally -1..1",
        default=0.0, soft_min=-1.0, soft_max=1.0,
    )
    wheel_target_steering_ratio: FloatProperty(
        name="Steering Input", description="Initial steering input, -1..1", default=0.0,
        min=-1.0, max=1.0,
    )
    thruster_max_force: FloatProperty(
        name="Max Force", description="Largest thrust (N)", default=100.0, min=0.0,
    )
    thruster_force_change_rate: _rate("Force Change Rate", "How fast the thrust changes (N/s)")
    thruster_target_force_ratio: FloatProperty(
        name="Force Input", description="Initial thrust input, 0..1", default=0.0, min=0.0,
        soft_max=1.0,
    )
    thruster_linear_gimbal_adjust_ratio: _ratio(
        "Linear Gimbal Adjust", "How much the gimbal turns to help linear input")
    hover_max_energy: FloatProperty(
        name="Max Hover Energy", description="Hover energy (N·m): force times ground distance",
        default=100.0, min=0.0,
    )
    hover_energy_change_rate: _rate("Energy Change Rate", "How fast the hover energy changes")
    hover_target_ratio: FloatProperty(
        name="Hover Input", description="Initial hover input, 0..1", default=0.0, min=0.0,
        soft_max=1.0,
    )
    hover_linear_gimbal_adjust_ratio: _ratio(
        "Linear Gimbal Adjust", "How much the gimbal turns to help linear input", 0.5)
    gimbal_max: FloatProperty(
        name="Max Gimbal", description="Largest gimbal angle of the thruster", default=0.0,
        min=0.0, max=MAX_ANGLE, subtype="ANGLE",
    )
    gimbal_change_rate: _rate("Gimbal Change Rate", "How fast the gimbal turns (rad/s)", 1.0)
    gimbal_target_ratio: FloatVectorProperty(
        name="Gimbal Input", description="Initial gimbal input about local X and Z, length <= 1",
        size=2, min=-1.0, max=1.0,
    )
    is_seat: BoolProperty(name="Seat", description="This object is a seat (OMI_seat)")
    seat_back: FloatVectorProperty(
        name="Back", description="Where the sitter's back rests (object space)", size=3,
        default=(0.0, 0.25, 0.0), subtype="TRANSLATION", unit="LENGTH",
    )
    seat_foot: FloatVectorProperty(
        name="Foot", description="Where the sitter's feet rest (object space)", size=3,
        default=(0.0, -0.5, -0.45), subtype="TRANSLATION", unit="LENGTH",
    )
    seat_knee: FloatVectorProperty(
        name="Knee", description="Where the sitter's knees are (object space)", size=3,
        default=(0.0, -0.45, 0.0), subtype="TRANSLATION", unit="LENGTH",
    )
    seat_angle: FloatProperty(
        name="Spine Angle", description="Angle of the spine to the back→knee line",
        default=math.pi / 2, min=0.0, max=math.pi, subtype="ANGLE",
    )

    use_filter: BoolProperty(
        name="Collision Filter", description="Restrict which collision layers this shape meets",
    )
    filter_layers: BoolVectorProperty(
        name="Layers", description="Collision layers this shape belongs to", size=MAX_LAYERS,
    )
    filter_mode: EnumProperty(
        name="Collides", description="Which layers this shape collides with",
        items=(("ALL", "With All", "Collide with every layer"),
               ("ONLY", "Only With", "Collide only with the ticked layers"),
               ("EXCEPT", "All Except", "Collide with every layer but the ticked ones")),
    )
    filter_targets: BoolVectorProperty(
        name="Targets", description="Layers named by the collide rule", size=MAX_LAYERS,
    )


class GltfPhysicsProblemProperties(bpy.types.PropertyGroup):
    """One validation finding shown in the scene panel."""

    obj: StringProperty(name="Object", description="The object the problem is about")
    code: StringProperty(name="Code", description="Stable problem code")
    message: StringProperty(name="Problem", description="What is wrong")
    fix: StringProperty(name="Fix", description="The available fix, if any")


class GltfPhysicsSceneProperties(bpy.types.PropertyGroup):
    """Scene-wide physics export settings and collision layers."""

    export_format: EnumProperty(
        name="Physics Format", description="Which physics extensions the glTF export writes",
        items=(("KHR", "KHR", "KHR_physics_rigid_bodies + KHR_implicit_shapes"),
               ("OMI", "OMI", "OMI_physics_body + OMI_physics_shape"),
               ("NONE", "Off", "Write no physics")),
    )
    khr_geometry: EnumProperty(
        name="KHR Mesh Geometry", description="How KHR colliders reference meshes",
        items=(("MESH", "Mesh (2026-01)", "geometry.mesh: a direct mesh index"),
               ("NODE", "Node (2025-10)", "geometry.node: an orphan node carrying the mesh")),
    )
    omi_round_layout: EnumProperty(
        name="OMI Capsules", description="How OMI capsules and cylinders are written",
        items=(("CURRENT", "Current", "radiusTop/radiusBottom and the mid-height (the current "
                "OMI_physics_shape; what every up-to-date reader expects)"),
               ("GODOT4", "Godot 4 (pre-2025)", "One radius and a capsule's full height, for "
                "Godot 4 releases that still read the old layout; tapered shapes lose their "
                "taper")),
    )
    layers: CollectionProperty(type=GltfPhysicsLayerProperties, name="Collision Layers")
    active_layer: IntProperty(name="Active Layer", description="Selected collision layer")
    problems: CollectionProperty(type=GltfPhysicsProblemProperties, name="Problems")
    active_problem: IntProperty(name="Active Problem", description="Selected problem")
    show_shapes: BoolProperty(
        name="Physics Shapes", default=True,
        description="Draw every collider (green) and trigger (orange) as its collision shape",
    )
    show_joints: BoolProperty(
        name="Physics Joints", default=True,
        description="Draw each joint's frame and its links to the two bodies in the viewport",
    )


CLASSES = (
    GltfPhysicsLayerProperties,
    GltfPhysicsJointLimitProperties,
    GltfPhysicsJointDriveProperties,
    GltfPhysicsObjectProperties,
    GltfPhysicsProblemProperties,
    GltfPhysicsSceneProperties,
)


def register() -> None:
    """Register the property groups and attach the root pointers."""
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Object.gltf_physics = PointerProperty(type=GltfPhysicsObjectProperties)
    bpy.types.Scene.gltf_physics = PointerProperty(type=GltfPhysicsSceneProperties)


def unregister() -> None:
    """Remove the root pointers and the property groups."""
    del bpy.types.Scene.gltf_physics
    del bpy.types.Object.gltf_physics
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
