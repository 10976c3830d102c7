# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI vehicles and seats as format-neutral data, in glTF space (+Z forward, +Y up). Pure.

Defaults are those of the current OMI revisions (2026-02). A negative rate means "instant",
a negative `max_speed` "no limit", a negative `braking_force` "brake with the propulsion
force". Node references are opaque (`Hashable`): indices when reading, handles in Blender.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field

from .model import ZERO3, PhysicsMaterial, Vec3

Vec2 = tuple[float, float]

MAX_ANGLE = 3.1415925  # the schemas' maximum for steering and gimbal angles, in radians
ZERO2: Vec2 = (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class VehicleBody:
    """A piloted vehicle, on the node of its dynamic body."""

    angular_activation: Vec3 = ZERO3
    linear_activation: Vec3 = ZERO3
    gyro_torque: Vec3 = ZERO3
    max_speed: float = -1.0
    pilot_seat: Hashable | None = None
    angular_dampeners: bool = True
    linear_dampeners: bool = True
    use_throttle: bool = False


@dataclass(frozen=True, slots=True)
class Wheel:
    """A wheel in the node's YZ plane, width along X, rolling along +Z."""

    radius: float = 0.25
    width: float = 0.125
    max_propulsion_force: float = 0.0
    braking_force: float = -1.0
    max_steering_angle: float = 0.0
    propulsion_force_change_rate: float = -1.0
    steering_change_rate: float = 1.0
    suspension_stiffness: float = 20000.0
    suspension_damping_compression: float = 2000.0
    suspension_damping_rebound: float = 2000.0
    suspension_travel: float = 0.25
    physics_material: PhysicsMaterial | None = None
    target_propulsion_force_ratio: float = 0.0
    target_steering_ratio: float = 0.0


@dataclass(frozen=True, slots=True)
class Thruster:
    """A thruster pushing along the node's +Z; `max_force` has no default in the spec."""

    max_force: float
    max_gimbal: float = 0.0
    force_change_rate: float = -1.0
    gimbal_change_rate: float = 1.0
    linear_gimbal_adjust_ratio: float = 0.0
    target_force_ratio: float = 0.0
    target_gimbal_ratio: Vec2 = ZERO2


@dataclass(frozen=True, slots=True)
class HoverThruster:
    """A hover thruster (force = energy / ground distance); `max_hover_energy` is required."""

    max_hover_energy: float
    max_gimbal: float = 0.0
    hover_energy_change_rate: float = -1.0
    gimbal_change_rate: float = 1.0
    linear_gimbal_adjust_ratio: float = 0.5
    target_hover_ratio: float = 0.0
    target_gimbal_ratio: Vec2 = ZERO2


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: local back, foot and knee points (required) and the spine angle."""

    back: Vec3
    foot: Vec3
    knee: Vec3
    angle: float = math.pi / 2


@dataclass(frozen=True, slots=True)
class VehicleNode:
    """Everything vehicle-related on one glTF node."""

    vehicle_body: VehicleBody | None = None
    wheel: Wheel | None = None
    thruster: Thruster | None = None
    hover_thruster: HoverThruster | None = None
    seat: Seat | None = None

    def is_empty(self) -> bool:
        """True when the node carries no vehicle part."""
        return all(
            part is None
            for part in (self.vehicle_body, self.wheel, self.thruster, self.hover_thruster,
                         self.seat)
        )


@dataclass(slots=True)
class VehicleScene:
    """Vehicles of a whole document: node reference → its parts, in document order.

    `old_names` is True when the document used the 2025 property names (digest §4.6).
    """

    nodes: dict[Hashable, VehicleNode] = field(default_factory=dict)
    old_names: bool = False
