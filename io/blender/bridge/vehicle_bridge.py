# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicle, wheel, thruster and seat properties ↔ the vehicle model (glTF space)."""

from collections.abc import Callable, Hashable
from dataclasses import astuple
from typing import Any

import bpy

from ...model import PhysicsMaterial
from ...numbers import canon
from ...vehicle_model import HoverThruster, Seat, Thruster, VehicleBody, VehicleNode, Wheel
from ..settings.field_props import values_of, write_values
from .from_model import PropertyWriter
from .to_model import material_of

#: Vehicle part item → (VehicleNode attribute, model class, field-table group).
PARTS = {
    "WHEEL": ("wheel", Wheel, "wheel"),
    "THRUSTER": ("thruster", Thruster, "thruster"),
    "HOVER_THRUSTER": ("hover_thruster", HoverThruster, "hover_thruster"),
}


#: What a vehicle not on a dynamic body costs (said by the export and Check Physics).
NOT_DYNAMIC_VEHICLE = ("its vehicle and pilot seat are not written, and its wheels and "
                       "thrusters have no vehicle (set its Motion to Dynamic)")


def has_vehicle_data(props: bpy.types.PropertyGroup) -> bool:
    """True when the object carries a vehicle body, a vehicle part or a seat."""
    return (props.is_vehicle and props.motion_type == "DYNAMIC") or (
        props.vehicle_part != "NONE" or props.is_seat
    )


def vehicle_node_of(
    obj: bpy.types.Object, yup: bool, node_ref: Callable[[bpy.types.Object], Hashable | None],
    plain: Any = None,
) -> VehicleNode:
    """The object's vehicle parts in glTF space; `node_ref` names the pilot seat's node
    (None: not exported with this node, which the caller reports); `plain`: the export's
    snapshot of the object's plain values (a script's NaN read as its default)."""
    props = obj.gltf_physics if plain is None else plain
    parts: dict = {}
    if props.is_vehicle and props.motion_type == "DYNAMIC":
        seat = obj.gltf_physics.vehicle_pilot_seat
        parts["vehicle_body"] = VehicleBody(
            **values_of(props, "vehicle_body", yup),
            pilot_seat=None if seat is None else node_ref(seat),
        )
    if props.vehicle_part in PARTS:
        attr, cls, group = PARTS[props.vehicle_part]
        extra = {"physics_material": wheel_material_of(obj.gltf_physics)} \
            if cls is Wheel else {}
        parts[attr] = cls(**values_of(props, group, yup), **extra)
    if props.is_seat:
        parts["seat"] = Seat(**values_of(props, "seat", yup))
    return VehicleNode(**parts)


def wheel_material_of(props: bpy.types.PropertyGroup) -> PhysicsMaterial | None:
    """The wheel's physics material: its own, or the object's (which its collider uses)."""
    return material_of(props.wheel_material if props.wheel_own_material else props)


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
        write_values(props, "vehicle_body", body, yup)
        props.vehicle_pilot_seat = seat_object
    present = [(item, attr, group) for item, (attr, _cls, group) in PARTS.items()
               if getattr(node, attr) is not None]
    if present:
        item, attr, group = present[0]
        part = getattr(node, attr)
        props.vehicle_part = item
        write_values(props, group, part, yup)
        if attr == "wheel":
            _write_wheel_material(props, part.physics_material, writer)
    for _item, dropped, _group in present[1:]:
        writer.report.warn(
            "vehicle-part-dropped", obj.name,
            f"the node also has a {dropped.replace('_', ' ')}: an object holds one vehicle "
            f"part, so the {attr.replace('_', ' ')} was kept and the {dropped.replace('_', ' ')} "
            "dropped")
    if node.seat is not None:
        props.is_seat = True
        write_values(props, "seat", node.seat, yup)


def _write_wheel_material(
    props: bpy.types.PropertyGroup, material: PhysicsMaterial | None, writer: PropertyWriter,
) -> None:
    """The wheel's material: the object's own when no collider there has another; else
    the wheel's own, so the collider keeps its material."""
    collider = props.shape_type != "NONE" and props.shape_role == "COLLIDER"
    if not collider:
        writer.write_material(props, material)
    elif not _same_material(material, material_of(props)):
        props.wheel_own_material = True
        writer.write_material(props.wheel_material, material)


def _same_material(a: PhysicsMaterial | None, b: PhysicsMaterial | None) -> bool:
    """Equal as written (Blender stores float32)."""
    if a is None or b is None:
        return a is b
    return [canon(v) if isinstance(v, float) else v for v in astuple(a)] == \
        [canon(v) if isinstance(v, float) else v for v in astuple(b)]
