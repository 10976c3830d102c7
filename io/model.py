# SPDX-License-Identifier: GPL-3.0-or-later
"""Format-neutral physics model, in glTF space (metres, +Y up, quaternions xyzw).

Pure data: no bpy, no JSON keys. Codecs translate it to and from OMI and KHR; the Blender
bridge translates it to and from object properties. Node and mesh references are opaque
(`Hashable`): integers when reading a file, export-time handles inside Blender.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Literal

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]

ShapeKind = Literal["box", "sphere", "capsule", "cylinder", "convex", "trimesh", "plane"]
MotionKind = Literal["static", "kinematic", "dynamic"]
Combine = Literal["average", "minimum", "maximum", "multiply"]
AxisKind = Literal["linear", "angular"]
DriveMode = Literal["force", "acceleration"]

SHAPE_KINDS: tuple[ShapeKind, ...] = (
    "box", "sphere", "capsule", "cylinder", "convex", "trimesh", "plane",
)
MESH_SHAPES: frozenset[str] = frozenset({"convex", "trimesh"})
MOTION_KINDS: tuple[MotionKind, ...] = ("static", "kinematic", "dynamic")
COMBINE_MODES: tuple[Combine, ...] = ("average", "minimum", "maximum", "multiply")
AXIS_KINDS: tuple[AxisKind, ...] = ("linear", "angular")
DRIVE_MODES: tuple[DriveMode, ...] = ("force", "acceleration")

ZERO3: Vec3 = (0.0, 0.0, 0.0)
INFINITE = math.inf
IDENTITY: Quat = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class Shape:
    """A collision shape centred on its node; capsule and cylinder run along +Y.

    `height` is the mid-height (between hemisphere centres) for capsules and the full
    height for cylinders. A plane's `size_x`/`size_z` of None means infinite.
    """

    kind: ShapeKind
    size: Vec3 = (1.0, 1.0, 1.0)
    radius: float = 0.5
    height: float = 1.0
    radius_top: float = 0.5
    radius_bottom: float = 0.5
    size_x: float | None = None
    size_z: float | None = None
    double_sided: bool = False
    mesh: Hashable | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class PhysicsMaterial:
    """Friction and restitution with their combine modes; a combine mode of None is left to
    the engine (KHR gives no default; OMI's is average)."""

    static_friction: float = 0.6
    dynamic_friction: float = 0.6
    restitution: float = 0.0
    friction_combine: Combine | None = "average"
    restitution_combine: Combine | None = "average"
    name: str = ""


@dataclass(frozen=True, slots=True)
class CollisionFilter:
    """Collision systems (layers) an object is in, and which it collides with or not."""

    collision_systems: tuple[str, ...] = ()
    collide_with_systems: tuple[str, ...] = ()
    not_collide_with_systems: tuple[str, ...] = ()
    name: str = ""


@dataclass(frozen=True, slots=True)
class Motion:
    """Rigid body motion, meaning what it means to an engine whatever the family.

    None for mass, centre of mass or inertia means "computed by the engine from the
    colliders". `mass` math.inf is an infinite mass (forces and contacts do not move the body);
    an `inertia_diagonal` component math.inf is an infinite moment about that principal axis
    (rotation about it locked). A file's own defaults are resolved by its decoder (an OMI
    body without `centerOfMass` has it at the origin, so it reads as (0, 0, 0)).
    """

    kind: MotionKind = "dynamic"
    mass: float | None = 1.0
    center_of_mass: Vec3 | None = None
    inertia_diagonal: Vec3 | None = None
    inertia_orientation: Quat = IDENTITY
    linear_velocity: Vec3 = ZERO3
    angular_velocity: Vec3 = ZERO3
    gravity_factor: float = 1.0


@dataclass(frozen=True, slots=True)
class Collider:
    """A solid shape. `shape` None is an OMI compound parent (`collider: {}`)."""

    shape: Shape | None = None
    material: PhysicsMaterial | None = None
    filter: CollisionFilter | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """A trigger volume: one shape, or a compound over descendant trigger nodes."""

    shape: Shape | None = None
    nodes: tuple[Hashable, ...] = ()
    filter: CollisionFilter | None = None


@dataclass(frozen=True, slots=True)
class JointLimit:
    """Limits the relative motion of two joint frames along or about some axes.

    Axes are indices 0/1/2 of the joint frame. `min`/`max` None mean unbounded; equal
    values fix the axes. `stiffness` None is a hard limit. A limit may name both axis kinds
    (the legacy weld form); writers split it.
    """

    linear_axes: tuple[int, ...] = ()
    angular_axes: tuple[int, ...] = ()
    min: float | None = None
    max: float | None = None
    stiffness: float | None = None
    damping: float = 0.0


@dataclass(frozen=True, slots=True)
class JointDrive:
    """A motor or spring on one axis: stiffness·(position error) + damping·(velocity error)."""

    kind: AxisKind
    mode: DriveMode
    axis: int
    max_force: float | None = None
    position_target: float | None = None
    velocity_target: float | None = None
    stiffness: float = 0.0
    damping: float = 0.0


@dataclass(frozen=True, slots=True)
class JointSettings:
    """The shareable part of a joint: its limits and drives."""

    limits: tuple[JointLimit, ...] = ()
    drives: tuple[JointDrive, ...] = ()
    name: str = ""

    def finite(self) -> bool:
        """Whether every number of its limits and drives is finite (None counts: unset)."""
        return all(
            value is None or math.isfinite(value)
            for part in (*self.limits, *self.drives)
            for value in (getattr(part, name) for name in _NUMBERS[type(part).__name__]))


_NUMBERS = {"JointLimit": ("min", "max", "stiffness", "damping"),
            "JointDrive": ("max_force", "position_target", "velocity_target", "stiffness",
                           "damping")}


@dataclass(frozen=True, slots=True)
class Joint:
    """A joint on its node: the node's frame (relative to its body) is attached to
    `connected_node`'s frame (relative to the other body).

    Legacy OMI v1 joints name the two bodies instead (`legacy_bodies`, with
    `connected_node` None); the node's world transform is then the shared frame.
    """

    settings: JointSettings
    connected_node: Hashable | None = None
    enable_collision: bool = False
    legacy_bodies: tuple[Hashable, Hashable] | None = None


@dataclass(frozen=True, slots=True)
class NodePhysics:
    """Everything physics on one glTF node."""

    motion: Motion | None = None
    collider: Collider | None = None
    trigger: Trigger | None = None
    joint: Joint | None = None

    def is_empty(self) -> bool:
        """True when the node carries no physics at all."""
        return (
            self.motion is None and self.collider is None and self.trigger is None
            and self.joint is None
        )


@dataclass(slots=True)
class PhysicsScene:
    """Physics of a whole document: node reference → its physics, in document order."""

    nodes: dict[Hashable, NodePhysics] = field(default_factory=dict)
