# SPDX-License-Identifier: GPL-3.0-or-later
"""The field table: one default per row, every model field a row or knowingly explicit, and
every row written and read back by both families' codecs."""

from __future__ import annotations

import json
import struct
from dataclasses import MISSING, fields
from typing import Any

import pytest

from gltf_physics.io import field_table
from gltf_physics.io.field_table import FIELDS, Field, rows
from gltf_physics.io.model import Collider, Motion, NodePhysics, PhysicsMaterial, Shape
from gltf_physics.io.numbers import canon
from gltf_physics.io.vehicle_model import (
    HoverThruster,
    Seat,
    Thruster,
    VehicleBody,
    VehicleNode,
    VehicleScene,
    Wheel,
)
from tests.unit import test_core_codecs as codecs
from tests.unit import test_vehicles as vehicles

MODEL_CLASS = {"motion": Motion, "material": PhysicsMaterial, "vehicle_body": VehicleBody,
               "wheel": Wheel, "thruster": Thruster, "hover_thruster": HoverThruster,
               "seat": Seat}
#: Model fields that stay explicit code (a family quirk or a reference), not table rows.
EXPLICIT = {
    "motion": {"kind", "mass", "center_of_mass", "inertia_diagonal", "inertia_orientation"},
    "vehicle_body": {"pilot_seat"},
    "wheel": {"physics_material"},
}
FAMILIES = ("omi", "khr-mesh")
SEAT_POINTS = {row.attr: row.default for row in field_table.SEAT if row.size}


def changed(row: Field) -> Any:
    """A valid value other than the row's default, exact after rounding."""
    if row.kind == "bool":
        return not row.default
    if row.kind == "enum":
        return next(item[0] for item in row.items if item[0] != row.default)
    if row.kind == "string":
        return "Ice (Pëak) 2"
    if row.size:
        return tuple(canon(_number(row, value, step))
                     for step, value in enumerate(row.default, 1))
    return canon(_number(row, row.default, 1))


def _number(row: Field, value: float, step: int) -> float:
    low = -10.0 if row.minimum is None else row.minimum
    high = 10.0 if row.maximum is None else row.maximum
    up = value + 0.25 * step
    return up if up <= high else max(low, value - 0.25 * step)


def ids(row: Field) -> str:
    return f"{row.group}.{row.attr}"


def test_every_model_field_is_a_row_or_explicit() -> None:
    for group, cls in MODEL_CLASS.items():
        names = {f.name for f in fields(cls)}
        table = {row.attr for row in rows(group)}  # type: ignore[arg-type]
        assert table | EXPLICIT.get(group, set()) == names, group
        assert not table & EXPLICIT.get(group, set()), group


@pytest.mark.parametrize("row", FIELDS, ids=ids)
def test_one_default(row: Field) -> None:
    model_default = {f.name: f.default for f in fields(MODEL_CLASS[row.group])}[row.attr]
    if row.written == "required":
        assert model_default is MISSING  # the spec has none; the table's is a new object's
    else:
        assert model_default == row.default


def test_rows_sharing_a_property_agree() -> None:
    first: dict[str, Field] = {}
    for row in FIELDS:
        other = first.setdefault(row.prop, row)
        shared = ("label", "tooltip", "default", "minimum", "maximum", "positive", "soft_min",
                  "soft_max", "size", "unit", "subtype")
        assert [getattr(other, a) for a in shared] == [getattr(row, a) for a in shared], row.prop


def test_a_field_above_zero_keeps_a_subnormal_value() -> None:
    """Blender stores float32 subnormals: a field the schema wants above 0 stores down to
    float32's smallest positive number, so a valid file's 1e-40 is kept, not raised to the
    smallest normal number (1.1754944e-38)."""
    least = struct.unpack("<f", b"\x01\x00\x00\x00")[0]  # 2**-149
    as_stored = struct.unpack("<f", struct.pack("<f", 1e-40))[0]
    positive = [row for row in FIELDS if row.positive]
    assert positive and {row.stored_min for row in positive} == {least}
    assert field_table.SMALLEST_POSITIVE == least < as_stored
    assert field_table.blender_min("box_size") == field_table.blender_min("height") == least
    assert field_table.family_min("OMI", "capsule", "height") == least


def test_a_changed_value_is_valid_and_differs() -> None:
    for row in FIELDS:
        value = changed(row)
        assert value != row.default, row.prop


@pytest.mark.parametrize("fmt", FAMILIES)
@pytest.mark.parametrize("row", rows("motion"), ids=ids)
def test_motion_rows_round_trip(fmt: str, row: Field) -> None:
    value = changed(row)
    motion = Motion(mass=2.0, center_of_mass=(0.0, 0.0, 0.0), **{row.attr: value})
    encoded = codecs.encode(fmt, codecs.scene_of(NodePhysics(motion=motion)))
    assert codecs.body(fmt, encoded, 0)["motion"][row.key] == _written(value)
    back = codecs.decode(json.loads(json.dumps(codecs.assemble(encoded, 1))))
    assert getattr(back.nodes[0].motion, row.attr) == value


@pytest.mark.parametrize("fmt", FAMILIES)
@pytest.mark.parametrize("row", rows("material"), ids=ids)
def test_material_rows_round_trip(fmt: str, row: Field) -> None:
    value = changed(row)
    collider = Collider(Shape("box"), material=PhysicsMaterial(**{row.attr: value}))
    encoded = codecs.encode(fmt, codecs.scene_of(NodePhysics(collider=collider)))
    assert codecs.body_root(fmt, encoded)["physicsMaterials"][0][row.key] == _written(value)
    back = codecs.decode(json.loads(json.dumps(codecs.assemble(encoded, 1))))
    assert getattr(back.nodes[0].collider.material, row.attr) == value


VEHICLE_GROUPS = ("vehicle_body", "wheel", "thruster", "hover_thruster", "seat")


@pytest.mark.parametrize("row", [r for g in VEHICLE_GROUPS for r in rows(g)], ids=ids)
def test_vehicle_rows_round_trip(row: Field) -> None:
    value = changed(row)
    part = _vehicle_part(row.group, {row.attr: value})
    scene = VehicleScene({0: VehicleNode(vehicle_body=VehicleBody()), 1: part}
                         if row.group != "vehicle_body" else {0: part})
    encoded, report = vehicles.encode(scene)
    assert report.issues == []
    gltf = json.loads(json.dumps(vehicles.assemble(encoded, len(scene.nodes))))
    written = json.dumps(gltf)
    assert f'"{row.key}": ' in written
    back, report = vehicles.decode(gltf)
    node = back.nodes[1 if row.group != "vehicle_body" else 0]
    found = getattr(node, "vehicle_body" if row.group == "vehicle_body" else row.group)
    assert getattr(found, row.attr) == value


def _vehicle_part(group: str, values: dict[str, Any]) -> VehicleNode:
    if group == "vehicle_body":
        return VehicleNode(vehicle_body=VehicleBody(**values))
    if group == "seat":
        return VehicleNode(seat=Seat(**{**SEAT_POINTS, **values}))
    required = {row.attr: row.default for row in rows(group) if row.written == "required"}
    cls = {"wheel": Wheel, "thruster": Thruster, "hover_thruster": HoverThruster}[group]
    return VehicleNode(**{group: cls(**{**required, **values})})


def _written(value: Any) -> Any:
    if isinstance(value, tuple):
        return [canon(v) for v in value]
    return canon(value) if isinstance(value, float) else value
