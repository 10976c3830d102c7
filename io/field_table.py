# SPDX-License-Identifier: GPL-3.0-or-later
"""The plain physics fields, one row each: stored on the object, carried by the model, written
to JSON. Pure data (no bpy).

A plain field maps one Blender property to one model attribute and one JSON key, changed only
by its axis rule. From these rows come the PropertyGroup annotations, the panel rows, object
settings ↔ model, both codecs and the export sharing key. Fields with a family quirk (mass,
centre of mass, inertia, shapes, joints, references) stay explicit code beside them; a row
that needs one exception names a plain function (`encode`, `decode`). The quirk fields'
bounds still live here, once per family (`SCHEMA_BOUNDS`): the checker and the Blender
properties read them.

Defaults are the model's, in glTF axes; the Blender default is derived through the axis rule.
A required field has no default in its spec: its row's default is what a new object gets.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal

from .codecs.field_hooks import read_gimbal, writable_gimbal
from .codecs.gravity_hooks import read_priority, writable_direction, writable_priority
from .float32_storage import SMALLEST
from .model import COMBINE_MODES, ZERO3
from .rules import MIN_SIZE
from .vehicle_model import MAX_ANGLE, ZERO2

Axes = Literal["none", "vector", "extent"]
Written = Literal["changed", "always", "required"]
Group = Literal["motion", "material", "vehicle_body", "wheel", "thruster", "hover_thruster",
                "seat"]
#: float32's smallest positive number (a subnormal, 2**-149): what a field the schema wants
#: greater than 0 stores at least. Blender stores subnormals, so a file's 1e-40 stays 1e-40.
SMALLEST_POSITIVE: Final = SMALLEST
GROUPS: Final[tuple[Group, ...]] = ("motion", "material", "vehicle_body", "wheel", "thruster",
                                    "hover_thruster", "seat")


@dataclass(frozen=True, slots=True)
class Field:
    """One plain field.

    `minimum`/`maximum` are the schema's bounds: they bound the stored, read and written value
    (Blender's hard min/max). `positive` is the schema's exclusive 0 (Blender stores at least
    `SMALLEST_POSITIVE`). `soft_min`/`soft_max` bound only the slider. `written`:
    "changed" omits the default, "always" writes it, "required" also reports it missing on
    read. `old_keys` are earlier names (2025 vehicles); `old_default` the value a 2025 file
    means by omitting the field; `flag_when_old` notes a default such a file may not share.
    `none_item` is the enum item (identifier, label, tooltip) standing for the model's None.
    """

    group: Group
    attr: str
    prop: str
    key: str
    default: Any
    label: str
    tooltip: str
    size: int = 0
    kind: Literal["float", "bool", "enum", "string"] = "float"
    items: tuple[tuple[str, str, str], ...] = ()
    none_item: tuple[str, str, str] | None = None
    minimum: float | None = None
    maximum: float | None = None
    positive: bool = False
    soft_min: float | None = None
    soft_max: float | None = None
    unit: str = "NONE"
    subtype: str = "NONE"
    axes: Axes = "none"
    written: Written = "changed"
    old_keys: tuple[str, ...] = ()
    old_default: float | None = None
    flag_when_old: bool = False
    encode: Callable[..., Any] | None = None
    decode: Callable[..., Any] | None = None

    @property
    def stored_min(self) -> float | None:
        """The least value Blender stores: the schema's minimum, or for an exclusive 0 the
        smallest positive float32."""
        return SMALLEST_POSITIVE if self.positive else self.minimum


def rate(group: Group, attr: str, prop: str, key: str, label: str, what: str,
         default: float = -1.0, old_default: float | None = None) -> Field:
    """A change rate: negative means instant; always written (its default changed in 2026)."""
    return Field(group, attr, prop, key, default, label, f"{what}; negative means instant",
                 written="always", old_default=old_default)


def _max_gimbal(group: Group) -> Field:
    return Field(group, "max_gimbal", "gimbal_max", "maxGimbal", 0.0, "Max Gimbal",
                 "Largest gimbal angle of the thruster", minimum=0.0, maximum=MAX_ANGLE,
                 subtype="ANGLE")


def _gimbal_rate(group: Group) -> Field:
    return rate(group, "gimbal_change_rate", "gimbal_change_rate", "gimbalChangeRate",
                "Gimbal Change Rate", "How fast the gimbal turns (rad/s)", 1.0, old_default=-1.0)


def _gimbal_adjust(group: Group, prop: str, default: float, flag_when_old: bool) -> Field:
    return Field(group, "linear_gimbal_adjust_ratio", prop, "linearGimbalAdjustRatio", default,
                 "Linear Gimbal Adjust", "How much the gimbal turns to help linear input",
                 minimum=0.0, maximum=1.0, written="always", flag_when_old=flag_when_old)


def _gimbal_ratio(group: Group) -> Field:
    return Field(group, "target_gimbal_ratio", "gimbal_target_ratio", "targetGimbalRatio",
                 ZERO2, "Gimbal Input", "Initial gimbal input about local X and Z, length <= 1",
                 size=2, minimum=-1.0, maximum=1.0, old_keys=("currentGimbalRatio",),
                 encode=writable_gimbal, decode=read_gimbal)


_COMBINE_LABELS = {"average": ("Average", "Average the two values"),
                   "minimum": ("Minimum", "Use the smaller value"),
                   "maximum": ("Maximum", "Use the larger value"),
                   "multiply": ("Multiply", "Multiply the two values")}
COMBINE_ITEMS: Final = tuple((mode, *_COMBINE_LABELS[mode]) for mode in COMBINE_MODES)
ENGINE_COMBINE_ITEM: Final = (
    "engine", "Default (Engine)",
    "Left to the engine (KHR: not written; OMI has no such choice and means Average)")


def _combine(attr: str, key: str, label: str, what: str) -> Field:
    return Field("material", attr, attr, key, "average", label,
                 f"How two touching shapes' {what} combine", kind="enum", items=COMBINE_ITEMS,
                 none_item=ENGINE_COMBINE_ITEM, written="always")


MOTION: Final = (
    Field("motion", "linear_velocity", "linear_velocity", "linearVelocity", ZERO3,
          "Linear Velocity", "Initial velocity in object space (m/s)", size=3,
          subtype="VELOCITY", unit="VELOCITY", axes="vector"),
    Field("motion", "angular_velocity", "angular_velocity", "angularVelocity", ZERO3,
          "Angular Velocity", "Initial angular velocity in object space (rad/s)", size=3,
          axes="vector"),
    Field("motion", "gravity_factor", "gravity_factor", "gravityFactor", 1.0, "Gravity Factor",
          "Multiplier on gravity for this body (0 floats)", soft_min=-10.0, soft_max=10.0),
)
MATERIAL: Final = (
    Field("material", "name", "material_name", "name", "", "Material Name",
          "Name written with this physics material (optional; empty writes none)",
          kind="string"),
    Field("material", "static_friction", "static_friction", "staticFriction", 0.6,
          "Static Friction", "Friction when at rest", minimum=0.0, soft_max=2.0,
          written="always"),
    Field("material", "dynamic_friction", "dynamic_friction", "dynamicFriction", 0.6,
          "Dynamic Friction", "Friction while sliding", minimum=0.0, soft_max=2.0,
          written="always"),
    Field("material", "restitution", "restitution", "restitution", 0.0, "Restitution",
          "Bounciness: 0 absorbs, 1 bounces back fully", minimum=0.0, soft_max=1.0,
          written="always"),
    _combine("friction_combine", "frictionCombine", "Friction Combine", "frictions"),
    _combine("restitution_combine", "restitutionCombine", "Restitution Combine",
             "restitutions"),
)
VEHICLE_BODY: Final = (
    Field("vehicle_body", "angular_activation", "vehicle_angular_activation",
          "angularActivation", ZERO3, "Angular Activation",
          "Initial rotation input per axis, nominally -1..1", size=3, soft_min=-1.0,
          soft_max=1.0, axes="vector"),
    Field("vehicle_body", "linear_activation", "vehicle_linear_activation", "linearActivation",
          ZERO3, "Linear Activation",
          "Initial thrust input per axis, nominally -1..1 (forward is −Y)", size=3,
          soft_min=-1.0, soft_max=1.0, axes="vector"),
    Field("vehicle_body", "gyro_torque", "vehicle_gyro_torque", "gyroTorque", ZERO3,
          "Gyro Torque", "Largest torque the vehicle applies to itself per axis (N·m/rad)",
          size=3, soft_min=0.0, axes="extent"),
    Field("vehicle_body", "max_speed", "vehicle_max_speed", "maxSpeed", -1.0, "Max Speed",
          "Top speed (m/s); negative means no limit", unit="VELOCITY"),
    Field("vehicle_body", "angular_dampeners", "vehicle_angular_dampeners", "angularDampeners",
          True, "Angular Dampeners", "Stop rotating when there is no angular input",
          kind="bool", written="always"),
    Field("vehicle_body", "linear_dampeners", "vehicle_linear_dampeners", "linearDampeners",
          True, "Linear Dampeners", "Slow down when there is no linear input", kind="bool",
          written="always"),
    Field("vehicle_body", "use_throttle", "vehicle_use_throttle", "useThrottle", False,
          "Use Throttle", "Forward input is a throttle that stays where it is set",
          kind="bool"),
)
WHEEL: Final = (
    Field("wheel", "radius", "wheel_radius", "radius", 0.25, "Radius", "Wheel radius",
          positive=True, soft_min=MIN_SIZE, unit="LENGTH"),
    Field("wheel", "width", "wheel_width", "width", 0.125, "Width", "Wheel width along local X",
          positive=True, soft_min=MIN_SIZE, unit="LENGTH"),
    Field("wheel", "max_propulsion_force", "wheel_max_propulsion_force", "maxPropulsionForce",
          0.0, "Max Propulsion Force", "Driving force (N); 0 for a free wheel", minimum=0.0,
          old_keys=("maxForce",)),
    Field("wheel", "braking_force", "wheel_braking_force", "brakingForce", -1.0,
          "Braking Force",
          "Braking force (N); negative brakes with the propulsion force, 0 has no brakes"),
    Field("wheel", "max_steering_angle", "wheel_max_steering_angle", "maxSteeringAngle", 0.0,
          "Max Steering Angle", "Largest steering angle; 0 does not steer", minimum=0.0,
          maximum=MAX_ANGLE, subtype="ANGLE"),
    rate("wheel", "propulsion_force_change_rate", "wheel_propulsion_force_change_rate",
         "propulsionForceChangeRate", "Propulsion Change Rate",
         "How fast the propulsion force changes (N/s)"),
    rate("wheel", "steering_change_rate", "wheel_steering_change_rate", "steeringChangeRate",
         "Steering Change Rate", "How fast the steering angle changes (rad/s)", 1.0,
         old_default=-1.0),
    Field("wheel", "suspension_stiffness", "wheel_suspension_stiffness", "suspensionStiffness",
          20000.0, "Suspension Stiffness", "Spring stiffness (N/m)", positive=True,
          soft_min=1e-3),
    Field("wheel", "suspension_damping_compression", "wheel_suspension_damping_compression",
          "suspensionDampingCompression", 2000.0, "Damping Compression",
          "Damping while compressing (N·s/m)", positive=True,
          soft_min=1e-3),
    Field("wheel", "suspension_damping_rebound", "wheel_suspension_damping_rebound",
          "suspensionDampingRebound", 2000.0, "Damping Rebound",
          "Damping while extending (N·s/m)", positive=True,
          soft_min=1e-3),
    Field("wheel", "suspension_travel", "wheel_suspension_travel", "suspensionTravel", 0.25,
          "Suspension Travel", "How far the suspension moves", minimum=0.0, unit="LENGTH"),
    Field("wheel", "target_propulsion_force_ratio", "wheel_target_propulsion_force_ratio",
          "targetPropulsionForceRatio", 0.0, "Propulsion Input",
          "Initial propulsion input, nominally -1..1", soft_min=-1.0, soft_max=1.0,
          old_keys=("currentForceRatio",)),
    Field("wheel", "target_steering_ratio", "wheel_target_steering_ratio",
          "targetSteeringRatio", 0.0, "Steering Input", "Initial steering input, -1..1",
          minimum=-1.0, maximum=1.0, old_keys=("currentSteeringRatio",)),
)
THRUSTER: Final = (
    Field("thruster", "max_force", "thruster_max_force", "maxForce", 100.0, "Max Force",
          "Largest thrust (N)", minimum=0.0, written="required"),
    _max_gimbal("thruster"),
    rate("thruster", "force_change_rate", "thruster_force_change_rate", "forceChangeRate",
         "Force Change Rate", "How fast the thrust changes (N/s)"),
    _gimbal_rate("thruster"),
    _gimbal_adjust("thruster", "thruster_linear_gimbal_adjust_ratio", 0.0, False),
    Field("thruster", "target_force_ratio", "thruster_target_force_ratio", "targetForceRatio",
          0.0, "Force Input", "Initial thrust input, 0..1", minimum=0.0, soft_max=1.0,
          old_keys=("currentForceRatio",)),
    _gimbal_ratio("thruster"),
)
HOVER_THRUSTER: Final = (
    Field("hover_thruster", "max_hover_energy", "hover_max_energy", "maxHoverEnergy", 100.0,
          "Max Hover Energy", "Hover energy (N·m): force times ground distance", minimum=0.0,
          written="required"),
    _max_gimbal("hover_thruster"),
    rate("hover_thruster", "hover_energy_change_rate", "hover_energy_change_rate",
         "hoverEnergyChangeRate", "Energy Change Rate", "How fast the hover energy changes"),
    _gimbal_rate("hover_thruster"),
    _gimbal_adjust("hover_thruster", "hover_linear_gimbal_adjust_ratio", 0.5, True),
    # The 2025 README says currentHoverRatio, its schema currentForceRatio: both are read.
    Field("hover_thruster", "target_hover_ratio", "hover_target_ratio", "targetHoverRatio",
          0.0, "Hover Input", "Initial hover input, 0..1", minimum=0.0, soft_max=1.0,
          old_keys=("currentHoverRatio", "currentForceRatio")),
    _gimbal_ratio("hover_thruster"),
)
SEAT: Final = (
    Field("seat", "back", "seat_back", "back", (0.0, 0.0, -0.25), "Back",
          "Where the sitter's back rests (object space)", size=3, subtype="TRANSLATION",
          unit="LENGTH", axes="vector", written="required"),
    Field("seat", "foot", "seat_foot", "foot", (0.0, -0.45, 0.5), "Foot",
          "Where the sitter's feet rest (object space)", size=3, subtype="TRANSLATION",
          unit="LENGTH", axes="vector", written="required"),
    Field("seat", "knee", "seat_knee", "knee", (0.0, 0.0, 0.45), "Knee",
          "Where the sitter's knees are (object space)", size=3, subtype="TRANSLATION",
          unit="LENGTH", axes="vector", written="required"),
    Field("seat", "angle", "seat_angle", "angle", math.pi / 2, "Spine Angle",
          "Angle of the spine to the back→knee line", soft_min=0.0, soft_max=math.pi,
          subtype="ANGLE"),
)


FIELDS: Final = (*MOTION, *MATERIAL, *VEHICLE_BODY, *WHEEL, *THRUSTER, *HOVER_THRUSTER, *SEAT)

# -- OMI_physics_gravity (io/gravity.py): not object-group rows of FIELDS; stored in the
# gravity fields of the object (GRAVITY) and of the scene (WORLD_GRAVITY).

GRAVITY_TIP: Final = "Gravity strength (m/s²) at the unit distance; negative pushes away"
GRAVITY: Final = (
    Field("gravity", "gravity", "gravity_amount", "gravity", 9.80665, "Gravity", GRAVITY_TIP,
          soft_min=-100.0, soft_max=100.0, unit="ACCELERATION", written="required"),
    Field("gravity", "priority", "gravity_priority", "priority", 0, "Priority",
          "Higher priorities are applied first; the world gravity last",
          encode=writable_priority, decode=read_priority),
    Field("gravity", "replace", "gravity_replace", "replace", False, "Replace",
          "Replace the gravity of higher-priority volumes instead of adding to it",
          kind="bool"),
    Field("gravity", "stop", "gravity_stop", "stop", False, "Stop",
          "Ignore lower-priority volumes and the world gravity", kind="bool"),
    Field("gravity", "direction", "gravity_direction", "direction", (0.0, -1.0, 0.0),
          "Direction", "Direction of the pull in object space (normalised when written)",
          size=3, soft_min=-1.0, soft_max=1.0, subtype="DIRECTION", axes="vector",
          encode=writable_direction),
    Field("gravity", "unit_distance", "gravity_unit_distance", "unitDistance", 0.0,
          "Unit Distance", "Distance at which the pull equals Gravity, falling off with the "
          "inverse square; 0 pulls the same everywhere", soft_min=0.0, unit="LENGTH"),
    Field("gravity", "radius", "gravity_radius", "radius", 1.0, "Radius",
          "Radius of the circle (in the object's XY plane) pulled towards", soft_min=0.0,
          unit="LENGTH"),
)
WORLD_GRAVITY: Final = (
    Field("world_gravity", "gravity", "world_gravity_amount", "gravity", 9.80665,
          "World Gravity", "Strength of the world gravity (m/s²); 0 for space",
          soft_min=-100.0, soft_max=100.0, unit="ACCELERATION", written="required"),
    Field("world_gravity", "direction", "world_gravity_direction", "direction",
          (0.0, -1.0, 0.0), "Direction", "Direction of the world gravity (normalised when "
          "written)", size=3, soft_min=-1.0, soft_max=1.0, subtype="DIRECTION", axes="vector",
          encode=writable_direction),
)


# -- the quirk fields' bounds, per family, as each schema states them ---------------------------

Family = Literal["KHR", "OMI", "KHR_2024"]


@dataclass(frozen=True, slots=True)
class Bound:
    """A number's lower bound in one schema: `minimum` inclusive, or `positive` (an exclusive
    0); neither: any number. `zero_is_infinite`: the spec reads 0 as infinite (Blender keeps
    that as a mode, so its value stays > 0)."""

    minimum: float | None = None
    positive: bool = False
    zero_is_infinite: bool = False


ANY_NUMBER: Final = Bound()
NOT_NEGATIVE: Final = Bound(minimum=0.0)
ABOVE_ZERO: Final = Bound(positive=True)
#: family → (JSON object, key) → bound. Keys of a shape are under its type's object, the
#: motion's under "motion"; an array's bound is its items'. KHR's mass and inertia items
#: say exclusiveMinimum 0 while the spec says 0 means infinite: 0 is allowed (spec digest
#: §6.1; the checker flags it as a risk). OMI's mass and inertiaDiagonal items state no
#: bound (any number). KHR_2024 is KHR_collision_shapes (2024-03).
SCHEMA_BOUNDS: Final[dict[Family, dict[tuple[str, str], Bound]]] = {
    "KHR": {
        ("motion", "mass"): Bound(minimum=0.0, zero_is_infinite=True),
        ("motion", "inertiaDiagonal"): Bound(minimum=0.0, zero_is_infinite=True),
        ("box", "size"): ABOVE_ZERO, ("sphere", "radius"): ABOVE_ZERO,
        ("capsule", "height"): ABOVE_ZERO, ("capsule", "radiusTop"): NOT_NEGATIVE,
        ("capsule", "radiusBottom"): NOT_NEGATIVE,
        ("cylinder", "height"): ABOVE_ZERO, ("cylinder", "radiusTop"): NOT_NEGATIVE,
        ("cylinder", "radiusBottom"): NOT_NEGATIVE,
        ("plane", "sizeX"): ABOVE_ZERO, ("plane", "sizeZ"): ABOVE_ZERO,
    },
    "OMI": {
        ("motion", "mass"): ANY_NUMBER, ("motion", "inertiaDiagonal"): ANY_NUMBER,
        ("box", "size"): ABOVE_ZERO, ("sphere", "radius"): NOT_NEGATIVE,
        ("capsule", "height"): ABOVE_ZERO, ("capsule", "radiusTop"): NOT_NEGATIVE,
        ("capsule", "radiusBottom"): NOT_NEGATIVE,
        ("cylinder", "height"): ABOVE_ZERO, ("cylinder", "radiusTop"): NOT_NEGATIVE,
        ("cylinder", "radiusBottom"): NOT_NEGATIVE,
    },
    "KHR_2024": {
        ("box", "size"): NOT_NEGATIVE, ("sphere", "radius"): NOT_NEGATIVE,
        ("capsule", "height"): NOT_NEGATIVE, ("capsule", "radiusTop"): NOT_NEGATIVE,
        ("capsule", "radiusBottom"): NOT_NEGATIVE,
        ("cylinder", "height"): NOT_NEGATIVE, ("cylinder", "radiusTop"): NOT_NEGATIVE,
        ("cylinder", "radiusBottom"): NOT_NEGATIVE,
    },
}
#: The families a Blender property is written to.
WRITTEN_FAMILIES: Final[tuple[Family, ...]] = ("KHR", "OMI")
#: A quirk property of `Object.gltf_physics` → the JSON (object, key)s it is written as.
QUIRK_PROPS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "mass": (("motion", "mass"),),
    "inertia_diagonal": (("motion", "inertiaDiagonal"),),
    "box_size": (("box", "size"),),
    "radius": (("sphere", "radius"),),
    "height": (("capsule", "height"), ("cylinder", "height")),
    "radius_top": (("capsule", "radiusTop"), ("cylinder", "radiusTop")),
    "radius_bottom": (("capsule", "radiusBottom"), ("cylinder", "radiusBottom")),
}


def _stored(bound: Bound) -> float | None:
    """The least value Blender stores for a bound (an exclusive or infinite 0: the smallest
    positive float32)."""
    if bound.positive or bound.zero_is_infinite:
        return SMALLEST_POSITIVE
    return bound.minimum


def blender_min(prop: str) -> float | None:
    """A quirk property's hard minimum: the loosest bound the written families state for its
    keys, as Blender stores it; a family stating no bound (OMI's mass and inertia) leaves it
    unbounded, so every schema-valid value is kept. A family without the key does not count."""
    mins = [_stored(bounds[key]) for family in WRITTEN_FAMILIES
            for key in QUIRK_PROPS[prop] if key in (bounds := SCHEMA_BOUNDS[family])]
    return None if None in mins or not mins else min(m for m in mins if m is not None)


def family_min(family: Family, obj: str, key: str) -> float | None:
    """The least value Blender stores for a field written to one family only (e.g. the
    shape of an OMI gravity volume)."""
    return _stored(SCHEMA_BOUNDS[family].get((obj, key), ANY_NUMBER))


@cache
def read_minimum(obj: str, key: str, families: tuple[Family, ...] = ("KHR", "KHR_2024", "OMI")
                 ) -> float:
    """The least value a reader of `families` accepts for a quirk field: the loosest bound
    those of them that have the field state (an exclusive 0 is read as 0, then repaired and
    reported as degenerate; a family stating no bound, OMI's mass, accepts any number).
    Each family's decoder passes its own families."""
    stated = [0.0 if bound.positive else bound.minimum for family in families
              if (bound := SCHEMA_BOUNDS[family].get((obj, key))) is not None]
    known = [m for m in stated if m is not None]
    return -math.inf if not stated or len(known) < len(stated) else min(known)


@cache
def rows(group: Group) -> tuple[Field, ...]:
    """The rows of one model part, in table order (the order of panels and JSON keys)."""
    return tuple(row for row in FIELDS if row.group == group)


@cache
def props_of(group: Group) -> tuple[str, ...]:
    """The Blender properties of one group, in table order, each once."""
    return tuple(dict.fromkeys(row.prop for row in rows(group)))
