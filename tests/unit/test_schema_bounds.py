# SPDX-License-Identifier: GPL-3.0-or-later
"""Bounds as the schemas state them, once, in the field table: every value at or past where
a slider stops but inside the schema's bound is written and read back unchanged; the file
checker's rule for each row is made from the row; layer names stay unique. Pure."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from gltf_physics.io.check import specs
from gltf_physics.io.check.schema import Context
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.field_table import FIELDS, SMALLEST_POSITIVE, Field, rows
from gltf_physics.io.layer_names import new_layer_name, unique_name
from gltf_physics.io.vehicle_model import VehicleBody, VehicleNode, VehicleScene
from tests.unit import test_vehicles as vehicles
from tests.unit.test_field_table import _vehicle_part, ids

VEHICLE_GROUPS = ("vehicle_body", "wheel", "thruster", "hover_thruster", "seat")
CHECKER = {"material": specs.MATERIAL, "vehicle_body": specs.OMI_VEHICLE_BODY,
           "wheel": specs.OMI_WHEEL, "thruster": specs.OMI_THRUSTER,
           "hover_thruster": specs.OMI_HOVER_THRUSTER, "seat": specs.OMI_SEAT}


def edges(row: Field) -> list[float]:
    """Schema-valid numbers past the usual ranges: tiny positives, large magnitudes, bounds."""
    low = row.minimum if row.minimum is not None else -1e6
    high = row.maximum if row.maximum is not None else 1e6
    if row.positive:
        low = 4e-8
    free = row.minimum is None and row.maximum is None and not row.positive
    return [low, high] + ([-3.5, 3.5] if free else [])


FLOAT_ROWS = [row for row in FIELDS if row.kind == "float" and row.group in VEHICLE_GROUPS
              and row.encode is None]


@pytest.mark.parametrize("row", FLOAT_ROWS, ids=ids)
def test_schema_valid_values_are_written_and_read_unchanged(row: Field) -> None:
    for edge in edges(row):
        value: Any = tuple(edge for _ in range(row.size)) if row.size else edge
        part = _vehicle_part(row.group, {row.attr: value})
        scene = VehicleScene({0: VehicleNode(vehicle_body=VehicleBody()), 1: part}
                             if row.group != "vehicle_body" else {0: part})
        encoded, report = vehicles.encode(scene)
        assert report.issues == [], (edge, report.issues)
        gltf = json.loads(json.dumps(vehicles.assemble(encoded, len(scene.nodes))))
        back, report = vehicles.decode(gltf)
        assert report.issues == [], (edge, report.issues)
        node = back.nodes[1 if row.group != "vehicle_body" else 0]
        found = getattr(node, row.group)
        assert getattr(found, row.attr) == pytest.approx(value, rel=1e-6), edge


def test_the_issues_values_are_inside_the_schema_bounds() -> None:
    gyro = next(r for r in rows("vehicle_body") if r.attr == "gyro_torque")
    angle = next(r for r in rows("seat") if r.attr == "angle")
    assert gyro.minimum is None and gyro.soft_min == 0.0
    assert angle.maximum is None and angle.soft_max == pytest.approx(math.pi)
    assert next(r for r in rows("wheel") if r.attr == "radius").stored_min == SMALLEST_POSITIVE


@pytest.mark.parametrize("group", CHECKER)
def test_the_checker_takes_each_rows_bounds_from_the_table(group: str) -> None:
    checker = CHECKER[group].fields
    for row in rows(group):  # type: ignore[arg-type]
        if group == "seat" and row.size:
            continue  # the seat's points: plain arrays in its schema (their length is ours)
        assert checker[row.key] == specs.row_spec(row), row.key
        if row.kind != "float" or row.encode is not None:
            continue
        for edge in edges(row):
            value = [edge] * row.size if row.size else edge
            report = Report()
            checker[row.key].check(value, f"/{row.key}", Context(report))
            assert report.issues == [], (row.key, edge)
        if row.minimum is not None or row.positive:
            report = Report()
            below = (row.minimum if row.minimum is not None else 0.0) - 1.0
            checker[row.key].check([below] * row.size if row.size else below, "/x",
                                   Context(report))
            assert report.codes() == ["out-of-range"], row.key


def test_layer_names() -> None:
    assert new_layer_name([]) == "Layer 1"
    assert new_layer_name(["Layer 2", "Layer 3"]) == "Layer 1"
    assert new_layer_name(["Layer 1", "Layer 3"]) == "Layer 2"
    assert unique_name("Enemy", ["Player"]) == "Enemy"
    assert unique_name("Enemy", ["Enemy"]) == "Enemy.001"
    assert unique_name("Enemy", ["Enemy", "Enemy.001"]) == "Enemy.002"
    assert unique_name("", [""]) == ".001"
