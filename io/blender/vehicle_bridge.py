# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicle, wheel, thruster and seat properties ↔ the vehicle model (glTF space)."""

from collections.abc import Callable, Hashable

import bpy

from .. import axes
from ..vehicle_model import HoverThruster, Seat, Thruster, VehicleBody, VehicleNode, Wheel
from .from_model import PropertyWriter
from .to_model import material_of

WHEEL_FIELDS = (
    "radius", "width", "max_propulsion_force", "braking_force", "max_steering_angle",
    "propulsion_force_change_rate", "steering_change_rate", "suspension_stiffness",
    "suspension_damping_compression", "suspension_damping_rebound", "suspension_travel",
    "target_propulsion_force_ratio", "target_steering_ratio",
)


def has_vehicle_data(props: bpy.types.PropertyGroup) -> bool:
    """True when the object carries a vehicle body, a vehicle part or a seat."""
    return (props.is_vehicle and props.motion_type == "DYNAMIC") or (
        props.vehicle_part != "NONE" or props.is_seat
    )


def vehicle_node_of(
    obj: bpy.types.Object, yup: bool, node_ref: Callable[[bpy.types.Object], Hashable | None],
) -> VehicleNode:
    """The object's vehicle parts in glTF space; `node_ref` names the pilot seat's node."""
    props = obj.gltf_physics
    parts: dict = {}
    if props.is_vehicle and props.motion_type == "DYNAMIC":
        seat = props.vehicle_pilot_seat
        parts["vehicle_body"] = VehicleBody(
            angular_activation=axes.vector_to_gltf(tuple(props.vehicle_angular_activation), yup),
            linear_activation=axes.vector_to_gltf(tuple(props.vehicle_linear_activation), yup),
            gyro_torque=axes.extent_swap(tuple(props.vehicle_gyro_torque), yup),
            max_speed=props.vehicle_max_speed,
            pilot_seat=None if seat is None else node_ref(seat),
            angular_dampeners=props.vehicle_angular_dampeners,
            linear_dampeners=props.vehicle_linear_dampeners,
            use_throttle=props.vehicle_use_throttle,
        )
    if props.vehicle_part == "WHEEL":
        values = {name: getattr(props, f"wheel_{name}") for name in WHEEL_FIELDS}
        parts["wheel"] = Wheel(**values, physics_material=material_of(props))
    elif props.vehicle_part == "THRUSTER":
        parts["thruster"] = Thruster(
            max_force=props.thruster_max_force, max_gimbal=props.gimbal_max,
            force_change_rate=props.thruster_force_change_rate,
            gimbal_change_rate=props.gimbal_change_rate,
            linear_gimbal_adjust_ratio=props.thruster_linear_gimbal_adjust_ratio,
            target_force_ratio=props.thruster_target_force_ratio,
            target_gimbal_ratio=tuple(props.gimbal_target_ratio),
        )
    elif props.vehicle_part == "HOVER_THRUSTER":
        parts["hover_thruster"] = HoverThruster(
            max_hover_energy=props.hover_max_energy, max_gimbal=props.gimbal_max,
            hover_energy_change_rate=props.hover_energy_change_rate,
            gimbal_change_rate=props.gimbal_change_rate,
            linear_gimbal_adjust_ratio=props.hover_linear_gimbal_adjust_ratio,
            target_hover_ratio=props.hover_target_ratio,
            target_gimbal_ratio=tuple(props.gimbal_target_ratio),
        )
    if props.is_seat:
        parts["seat"] = Seat(
            back=axes.vector_to_gltf(tuple(props.seat_back), yup),
            foot=axes.vector_to_gltf(tuple(props.seat_foot), yup),
            knee=axes.vector_to_gltf(tuple(props.seat_knee), yup),
            angle=props.seat_angle,
        )
    return VehicleNode(**parts)


def write_vehicle_node(
    obj: bpy.types.Object, node: VehicleNode, seat_object: bpy.types.Object | None,
    writer: PropertyWriter, yup: bool = True,
) -> None:
    """Set the object's vehicle properties from `node` (glTF space)."""
    props = obj.gltf_physics
    body = node.vehicle_body
    if body is not None:
        props.is_vehicle = True
        if props.motion_type == "NONE":
            props.motion_type = "DYNAMIC"
        props.vehicle_angular_activation = axes.vector_to_blender(body.angular_activation, yup)
        props.vehicle_linear_activation = axes.vector_to_blender(body.linear_activation, yup)
        props.vehicle_gyro_torque = axes.extent_swap(body.gyro_torque, yup)
        props.vehicle_max_speed = body.max_speed
        props.vehicle_pilot_seat = seat_object
        props.vehicle_angular_dampeners = body.angular_dampeners
        props.vehicle_linear_dampeners = body.linear_dampeners
        props.vehicle_use_throttle = body.use_throttle
    if node.wheel is not None:
        props.vehicle_part = "WHEEL"
        for name in WHEEL_FIELDS:
            setattr(props, f"wheel_{name}", getattr(node.wheel, name))
        writer.write_material(props, node.wheel.physics_material)
    for part, kind in ((node.thruster, "THRUSTER"), (node.hover_thruster, "HOVER_THRUSTER")):
        if part is None:
            continue
        props.vehicle_part = kind
        props.gimbal_max = part.max_gimbal
        props.gimbal_change_rate = part.gimbal_change_rate
        props.gimbal_target_ratio = part.target_gimbal_ratio
        if isinstance(part, Thruster):
            props.thruster_max_force = part.max_force
            props.thruster_force_change_rate = part.force_change_rate
            props.thruster_linear_gimbal_adjust_ratio = part.linear_gimbal_adjust_ratio
            props.thruster_target_force_ratio = part.target_force_ratio
        else:
            props.hover_max_energy = part.max_hover_energy
            props.hover_energy_change_rate = part.hover_energy_change_rate
            props.hover_linear_gimbal_adjust_ratio = part.linear_gimbal_adjust_ratio
            props.hover_target_ratio = part.target_hover_ratio
    if node.seat is not None:
        props.is_seat = True
        props.seat_back = axes.vector_to_blender(node.seat.back, yup)
        props.seat_foot = axes.vector_to_blender(node.seat.foot, yup)
        props.seat_knee = axes.vector_to_blender(node.seat.knee, yup)
        props.seat_angle = node.seat.angle
