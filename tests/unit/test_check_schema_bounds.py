# SPDX-License-Identifier: GPL-3.0-or-later
"""The quirk fields' bounds (mass, inertia, analytic shape sizes) live once, in the field
table's SCHEMA_BOUNDS: the checker's numbers for them are the table's, the table says what the
official schemas say (the one documented exception: KHR's mass and inertia allow 0, meaning
infinite), and Blender's hard minimum is the loosest of the written families' bounds."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from gltf_physics.io import field_table as table
from gltf_physics.io.check import specs
from gltf_physics.io.check.schema import Array, Context, Number, Object
from gltf_physics.io.diagnostics import Report
from tests.conftest import SHARED

SPECS = SHARED / "specs"
#: family → JSON object → the checker's object holding it.
CHECKER: dict[str, dict[str, Object]] = {
    "KHR": {"motion": specs.KHR_MOTION,
            **{part: spec for part, spec in specs.KHR_SHAPE.fields.items()
               if isinstance(spec, Object)}},
    "OMI": {"motion": specs.OMI_MOTION, **specs.OMI_SHAPE_PARTS},
    "KHR_2024": dict(specs.LEGACY_SHAPE_PARTS),
}
#: family → JSON object → its official schema file.
SCHEMA_FILES: dict[str, dict[str, str]] = {
    "KHR": {"motion": "khr/KHR_physics_rigid_bodies/schema/"
                      "node.KHR_physics_rigid_bodies.motion.schema.json",
            **{part: f"khr/KHR_implicit_shapes/schema/glTF.KHR_implicit_shapes.shape.{part}"
                     ".schema.json" for part in ("box", "sphere", "capsule", "cylinder", "plane")}},
    "OMI": {"motion": "omi/OMI_physics_body/schema/node.OMI_physics_body.motion.schema.json",
            **{part: f"omi/OMI_physics_shape/schema/glTF.OMI_physics_shape.shape.{part}"
                     ".schema.json" for part in ("box", "sphere", "capsule", "cylinder")}},
    "KHR_2024": {part: "khr/legacy-2024-03/KHR_collision_shapes/schema/"
                       f"glTF.KHR_collision_shapes.shape.{part}.schema.json"
                 for part in ("box", "sphere", "capsule", "cylinder")},
}
#: Where the table departs from a schema on purpose (spec digest §6.1).
SPEC_OVER_SCHEMA = {("KHR", "motion", "mass"), ("KHR", "motion", "inertiaDiagonal")}
ENTRIES = [(family, part, key) for family, bounds in table.SCHEMA_BOUNDS.items()
           for part, key in bounds]


def _number(spec: Any) -> Number:
    """A number spec, or an array's items (an array of any items, as OMI's inertiaDiagonal:
    any number)."""
    if isinstance(spec, Array) and spec.items is None:
        return Number()
    spec = spec.items if isinstance(spec, Array) else spec
    assert isinstance(spec, Number), spec
    return spec


@pytest.mark.parametrize(("family", "part", "key"), ENTRIES, ids=lambda v: str(v))
def test_checker_numbers_are_the_tables(family: str, part: str, key: str) -> None:
    bound = table.SCHEMA_BOUNDS[family][part, key]
    number = _number(CHECKER[family][part].fields[key])
    assert (number.minimum, number.above, number.maximum) == (
        bound.minimum, 0 if bound.positive else None, None)


@pytest.mark.parametrize("family", list(CHECKER))
def test_every_bounded_shape_number_of_the_checker_is_in_the_table(family: str) -> None:
    """No shape size or motion mass/inertia keeps a bound of its own in the checker."""
    for part, spec in CHECKER[family].items():
        for key, field in spec.fields.items():
            inner = field.items if isinstance(field, Array) else field
            if part == "motion" and key not in ("mass", "inertiaDiagonal"):
                continue  # the plain motion rows come from the table's MOTION rows
            if isinstance(inner, Number):
                assert (part, key) in table.SCHEMA_BOUNDS[family], (family, part, key)


def _schema_bound(family: str, part: str, key: str) -> table.Bound:
    data = json.loads((SPECS / SCHEMA_FILES[family][part]).read_text())
    prop = data["properties"][key]
    prop = prop.get("items", prop)
    if prop.get("exclusiveMinimum") == 0 or prop.get("exclusiveMinimum") is True:
        return table.ABOVE_ZERO
    return table.Bound(minimum=prop.get("minimum"))


@pytest.mark.skipif(not SPECS.is_dir(), reason="the shared specs are absent (needs ../shared)")
@pytest.mark.parametrize(("family", "part", "key"), ENTRIES, ids=lambda v: str(v))
def test_table_says_what_the_schema_says(family: str, part: str, key: str) -> None:
    bound = table.SCHEMA_BOUNDS[family][part, key]
    official = _schema_bound(family, part, key)
    if (family, part, key) in SPEC_OVER_SCHEMA:
        assert official == table.ABOVE_ZERO  # the schema's exclusive 0 …
        assert bound.minimum == 0.0 and bound.zero_is_infinite  # … and the spec's infinite 0
    else:
        assert (bound.minimum, bound.positive) == (official.minimum, official.positive)


def test_blender_minimum_is_the_loosest_written_bound() -> None:
    tiny = table.SMALLEST_POSITIVE
    assert {prop: table.blender_min(prop) for prop in table.QUIRK_PROPS} == {
        "mass": None,  # OMI states no bound: any schema-valid OMI mass is stored
        "inertia_diagonal": None,  # OMI's items state no bound: any OMI inertia is stored
        "box_size": tiny,  # > 0 in both
        "radius": 0.0,  # KHR > 0, OMI ≥ 0
        "height": tiny,
        "radius_top": 0.0,
        "radius_bottom": 0.0,
    }


@pytest.mark.parametrize(("obj", "key"), sorted({k for b in table.SCHEMA_BOUNDS.values()
                                                  for k in b}))
def test_readers_take_their_bounds_from_the_table(obj, key) -> None:
    """What a reader of some families accepts is the loosest bound those stating the field give
    (an exclusive 0 read as 0, then repaired; a stated "any number" accepts all)."""
    for families in [("KHR",), ("OMI",), ("KHR", "KHR_2024"), tuple(table.SCHEMA_BOUNDS)]:
        bounds = [b for f in families if (b := table.SCHEMA_BOUNDS[f].get((obj, key)))]
        stated = [0.0 if b.positive else b.minimum for b in bounds]
        expected = -math.inf if not bounds or None in stated else min(stated)
        assert table.read_minimum(obj, key, families) == expected, families


def test_each_family_reads_mass_within_its_own_bound() -> None:
    """KHR's mass is ≥ 0 (below: reported, computed); OMI's is any number."""
    assert table.read_minimum("motion", "mass", ("KHR",)) == 0.0
    assert table.read_minimum("motion", "mass", ("OMI",)) == -math.inf
    assert table.read_minimum("motion", "inertiaDiagonal", ("KHR",)) == 0.0
    assert table.read_minimum("motion", "inertiaDiagonal", ("OMI",)) == -math.inf


@pytest.mark.parametrize("family", ["KHR", "OMI"])
def test_the_motion_reader_applies_each_familys_inertia_bound(family) -> None:
    from gltf_physics.io.codecs.common import decode_motion_fields
    from gltf_physics.io.diagnostics import Report
    from gltf_physics.io.json_read import JsonReader

    report = Report()
    fields = decode_motion_fields({"inertiaDiagonal": [-2.0, 0.0, 1e-30]}, "/m",
                                  JsonReader(report), family)
    if family == "KHR":
        assert fields["inertia_diagonal"] is None and report.codes() == ["out-of-range"]
    else:
        assert fields["inertia_diagonal"] == (-2.0, 0.0, 1e-30) and report.issues == []


@pytest.mark.parametrize("family", ["KHR", "OMI"])
@pytest.mark.parametrize("value", [-2.0, -1.0, 0.0, 1e-30])
def test_the_motion_reader_applies_the_tables_mass_bound(value, family) -> None:
    from gltf_physics.io.codecs.common import decode_motion_fields
    from gltf_physics.io.diagnostics import Report
    from gltf_physics.io.json_read import JsonReader

    report = Report()
    fields = decode_motion_fields({"mass": value, "inertiaDiagonal": [abs(value)] * 3}, "/m",
                                  JsonReader(report), family)
    if family == "KHR" and value < 0:
        assert fields["mass"] is None and report.codes() == ["out-of-range"]
    else:
        assert fields["mass"] == value and report.issues == []
        assert fields["inertia_diagonal"] == (abs(value),) * 3


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_unique_arrays_find_equal_items_and_take_any_depth() -> None:
    unique = Array(unique=True)
    for items, codes in (([{"a": 1}, {"a": 1}], ["not-unique"]), ([[1], [True]], []),
                         ([_nested(5000), _nested(5000), [1]], []),
                         ([[1], _nested(5000), [1]], ["not-unique"])):
        report = Report()
        unique.check(items, "/x", Context(report))
        assert report.codes() == codes


def test_a_value_too_deep_to_show_is_named_in_the_message() -> None:
    report = Report()
    same = _nested(100_000)  # deeper than repr goes on any Python
    Array(unique=True).check([same, same], "/x", Context(report))
    assert report.codes() == ["not-unique"]
    assert "an array nested too deeply to show" in report.issues[0].message
