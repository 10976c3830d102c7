# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicle and seat codec: defaults, writing, round trips, 2025 names, bad input, corpus."""

from __future__ import annotations

import copy
import json
import math
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gltf_physics.io.codecs import vehicles
from gltf_physics.io.codecs.common import encode_material
from gltf_physics.io.codecs.vehicles import (
    BODY_EXT,
    HOVER_EXT,
    SEAT_EXT,
    THRUSTER_EXT,
    VEHICLE_EXTENSIONS,
    WHEEL_EXT,
    decode_vehicles,
    encode_vehicles,
)
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import PhysicsMaterial
from gltf_physics.io.numbers import canon
from gltf_physics.io.vehicle_model import (
    MAX_ANGLE,
    HoverThruster,
    Seat,
    Thruster,
    VehicleBody,
    VehicleNode,
    VehicleScene,
    Wheel,
)
from tests.conftest import CORPUS, SHARED
from tests.support.refs import ident
from tests.support.schemas import PhysicsSchemaValidator, load_gltf

OMI_SPECS = SHARED / "specs" / "omi"
MOTION = {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1000.0}}}
GRIP = PhysicsMaterial(static_friction=1.0, dynamic_friction=0.9)
SLICK = PhysicsMaterial(static_friction=0.1, dynamic_friction=0.1)
MATERIALS: list[PhysicsMaterial | None] = [GRIP, SLICK]
CHAIR = Seat(back=(0.0, 0.0, -0.3), foot=(0.0, -0.5, 0.3), knee=(0.0, 0.0, 0.3))


def material_index(material: PhysicsMaterial) -> int | None:
    return MATERIALS.index(material) if material in MATERIALS else None


def encode(scene: VehicleScene) -> tuple[Any, Report]:
    report = Report()
    return encode_vehicles(scene, ident, report, material_index), report


def assemble(encoded: Any, count: int) -> dict[str, Any]:
    """Node 0 is the dynamic vehicle body; every other node is its child; OMI materials."""
    nodes: list[dict[str, Any]] = [{"extensions": dict(encoded.nodes.get(i, {}))}
                                   for i in range(count)]
    nodes[0]["extensions"].update(MOTION)
    nodes[0]["children"] = list(range(1, count))
    materials = {"physicsMaterials": [encode_material(m) for m in MATERIALS if m is not None]}
    return {"asset": {"version": "2.0"}, "nodes": nodes,
            "extensions": {**encoded.root, "OMI_physics_body": materials},
            "extensionsUsed": sorted(set(encoded.used()) | set(MOTION))}


def decode(gltf: dict[str, Any], **options: Any) -> tuple[VehicleScene, Report]:
    report = Report()
    return decode_vehicles(DocumentView.from_json(gltf), report, MATERIALS, **options), report


def round_trip(scene: VehicleScene, validator: PhysicsSchemaValidator) -> VehicleScene:
    encoded, report = encode(scene)
    assert report.issues == []
    gltf = assemble(encoded, max(scene.nodes) + 1)  # type: ignore[type-var]
    assert validator.errors(gltf) == []
    back, report = decode(json.loads(json.dumps(gltf)))
    assert report.issues == []
    return back


# -- defaults -------------------------------------------------------------------------------


def model_defaults(cls: type) -> dict[str, Any]:
    return {f.name: f.default for f in fields(cls) if f.default is not MISSING}


def schema_properties(ext: str, name: str) -> dict[str, Any]:
    path = OMI_SPECS / ext / "schema" / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (needs ../shared)")
    return json.loads(path.read_text(encoding="utf-8"))["properties"]


PART_SCHEMAS = [
    (vehicles.WHEEL_PART, Wheel, "glTF.OMI_vehicle_wheel.wheel.schema.json"),
    (vehicles.THRUSTER_PART, Thruster, "glTF.OMI_vehicle_thruster.thruster.schema.json"),
    (vehicles.HOVER_PART, HoverThruster, "glTF.OMI_vehicle_hover_thruster.thruster.schema.json"),
]


@pytest.mark.parametrize(("part", "cls", "schema"), PART_SCHEMAS, ids=lambda v: str(v)[:20])
def test_part_defaults_and_ranges_match_the_schema(part: Any, cls: type, schema: str) -> None:
    properties = schema_properties(part.ext, schema)
    defaults = model_defaults(cls)
    covered = {row.key for row in part.rows} | {"extensions", "extras"}
    covered |= {"physicsMaterial"} if cls is Wheel else set()
    assert covered == set(properties)
    for row in part.rows:
        prop = properties[row.key]
        if row.written == "required":
            assert "default" not in prop and row.attr not in defaults
        else:
            assert defaults[row.attr] == row.default == _tuple(prop["default"]), row.key
        bounds = prop.get("items", prop) if row.size else prop
        assert row.minimum == bounds.get("minimum")
        assert row.maximum == bounds.get("maximum")
        assert row.positive == (prop.get("exclusiveMinimum") == 0.0)


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def test_body_and_seat_defaults_match_the_schema() -> None:
    body = schema_properties(BODY_EXT, "node.OMI_vehicle_body.schema.json")
    assert VehicleBody() == VehicleBody(
        angular_activation=tuple(body["angularActivation"]["default"]),  # type: ignore[arg-type]
        linear_activation=tuple(body["linearActivation"]["default"]),  # type: ignore[arg-type]
        gyro_torque=tuple(body["gyroTorque"]["default"]),  # type: ignore[arg-type]
        max_speed=body["maxSpeed"]["default"],
        pilot_seat=None if body["pilotSeat"]["default"] == -1 else 0,
        angular_dampeners=body["angularDampeners"]["default"],
        linear_dampeners=body["linearDampeners"]["default"],
        use_throttle=body["useThrottle"]["default"],
    )
    seat = schema_properties(SEAT_EXT, "node.OMI_seat.schema.json")
    assert CHAIR.angle == pytest.approx(seat["angle"]["default"], abs=1e-15)


# -- writing --------------------------------------------------------------------------------


def test_defaults_write_the_changed_defaults_explicitly(validator) -> None:
    scene = VehicleScene({
        0: VehicleNode(vehicle_body=VehicleBody()), 1: VehicleNode(wheel=Wheel()),
        2: VehicleNode(thruster=Thruster(100.0)), 3: VehicleNode(hover_thruster=HoverThruster(5.0)),
    })
    encoded, report = encode(scene)
    assert report.issues == []
    assert encoded.nodes[0][BODY_EXT] == {"angularDampeners": True, "linearDampeners": True}
    assert encoded.root[WHEEL_EXT] == {"wheels": [
        {"propulsionForceChangeRate": -1.0, "steeringChangeRate": 1.0},
    ]}
    assert encoded.root[THRUSTER_EXT] == {"thrusters": [
        {"maxForce": 100.0, "forceChangeRate": -1.0, "gimbalChangeRate": 1.0,
         "linearGimbalAdjustRatio": 0.0},
    ]}
    assert encoded.root[HOVER_EXT] == {"hoverThrusters": [
        {"maxHoverEnergy": 5.0, "hoverEnergyChangeRate": -1.0, "gimbalChangeRate": 1.0,
         "linearGimbalAdjustRatio": 0.5},
    ]}
    assert [encoded.nodes[n] for n in (1, 2, 3)] == [
        {WHEEL_EXT: {"wheel": 0}}, {THRUSTER_EXT: {"thruster": 0}},
        {HOVER_EXT: {"hoverThruster": 0}},
    ]
    assert validator.errors(assemble(encoded, 4)) == []


def test_equal_wheels_share_one_entry(validator) -> None:
    front = Wheel(radius=0.35, max_steering_angle=0.5)
    rear = Wheel(radius=0.35, max_propulsion_force=2000.0, physics_material=GRIP)
    same_rear = Wheel(radius=0.35, max_propulsion_force=2000.0,
                      physics_material=PhysicsMaterial(1.0, 0.9))
    scene = VehicleScene({0: VehicleNode(vehicle_body=VehicleBody())})
    for node, wheel in enumerate((front, front, rear, same_rear), start=1):
        scene.nodes[node] = VehicleNode(wheel=wheel)
    encoded, report = encode(scene)
    assert report.issues == []
    wheels = encoded.root[WHEEL_EXT]["wheels"]
    assert len(wheels) == 2 and wheels[1]["physicsMaterial"] == 0
    assert [encoded.nodes[n][WHEEL_EXT]["wheel"] for n in range(1, 5)] == [0, 0, 1, 1]
    assert validator.errors(assemble(encoded, 5)) == []


def full_scene() -> VehicleScene:
    body = VehicleBody(
        angular_activation=(0.5, -1.0, 0.0), linear_activation=(0.0, 0.0, 1.0),
        gyro_torque=(1000.0, 2000.0, 3000.0), max_speed=42.5, pilot_seat=5,
        angular_dampeners=False, linear_dampeners=False, use_throttle=True,
    )
    wheel = Wheel(0.4, 0.2, 1500.0, 3000.0, 0.6, 500.0, -1.0, 30000.0, 2500.0, 1800.0, 0.3,
                  SLICK, -0.5, 0.25)
    thruster = Thruster(5000.0, 0.125, 1000.0, 2.0, 0.75, 0.5, (0.6, -0.8))
    hover = HoverThruster(30000.0, 0.25, -1.0, 0.0, 0.25, 1.5, (-0.5, 0.5))
    return VehicleScene({
        0: VehicleNode(vehicle_body=body), 1: VehicleNode(wheel=wheel),
        2: VehicleNode(wheel=Wheel()), 3: VehicleNode(thruster=thruster),
        4: VehicleNode(hover_thruster=hover),
        5: VehicleNode(seat=Seat((0.0, 0.1, -0.25), (0.0, -0.5, 0.25), (0.0, 0.1, 0.25), 2.0)),
        6: VehicleNode(seat=CHAIR),
    })


def test_full_scene_round_trips(validator) -> None:
    scene = full_scene()
    assert round_trip(scene, validator) == scene


def ranged(low: float, high: float, exclude_min: bool = False) -> st.SearchStrategy[float]:
    """Canonical floats (as written) that stay within the schema range."""
    return st.floats(low, high, exclude_min=exclude_min, allow_subnormal=False).map(
        canon).filter(lambda v: low <= v <= high and not (exclude_min and v == low))


ANY = ranged(-1e6, 1e6)
POSITIVE = ranged(0.0, 1e6, exclude_min=True)
NON_NEGATIVE = ranged(0.0, 1e6)
ANGLE = ranged(0.0, MAX_ANGLE)
UNIT = ranged(-1.0, 1.0)
GIMBAL = st.tuples(UNIT, UNIT).filter(lambda g: math.hypot(*g) <= 1.0)
WHEELS = st.builds(
    Wheel, POSITIVE, POSITIVE, NON_NEGATIVE, ANY, ANGLE, ANY, ANY, POSITIVE, POSITIVE, POSITIVE,
    NON_NEGATIVE, st.sampled_from([None, GRIP, SLICK]), ANY, UNIT,
)
THRUSTERS = st.builds(Thruster, NON_NEGATIVE, ANGLE, ANY, ANY, ranged(0.0, 1.0), NON_NEGATIVE,
                      GIMBAL)
HOVERS = st.builds(HoverThruster, NON_NEGATIVE, ANGLE, ANY, ANY, ranged(0.0, 1.0),
                   NON_NEGATIVE, GIMBAL)


@settings(max_examples=60, deadline=None)
@given(wheel=WHEELS, thruster=THRUSTERS, hover=HOVERS)
def test_any_valid_part_round_trips(wheel: Wheel, thruster: Thruster, hover: HoverThruster,
                                    validator) -> None:
    scene = VehicleScene({
        0: VehicleNode(vehicle_body=VehicleBody()), 1: VehicleNode(wheel=wheel),
        2: VehicleNode(thruster=thruster), 3: VehicleNode(hover_thruster=hover),
    })
    assert round_trip(scene, validator) == scene


def test_unwritable_values_are_repaired_and_reported(validator) -> None:
    scene = VehicleScene({
        0: VehicleNode(vehicle_body=VehicleBody(pilot_seat=1, max_speed=math.inf)),
        1: VehicleNode(wheel=Wheel(radius=0.0, max_steering_angle=math.pi,
                                   target_steering_ratio=3.0)),
        2: VehicleNode(thruster=Thruster(-5.0, target_gimbal_ratio=(1.0, 1.0))),
        3: VehicleNode(hover_thruster=HoverThruster(math.nan, linear_gimbal_adjust_ratio=2.0)),
    })
    encoded, report = encode(scene)
    assert sorted(report.codes()) == [
        "gimbal-ratio-length", "pilot-seat-not-a-seat", "value-clamped", "value-clamped",
        "value-clamped", "value-clamped", "value-defaulted", "value-defaulted", "value-skipped",
    ]
    wheel = encoded.root[WHEEL_EXT]["wheels"][0]
    assert (wheel["maxSteeringAngle"], wheel["targetSteeringRatio"]) == (MAX_ANGLE, 1.0)
    assert "radius" not in wheel  # the default, 0.25
    assert encoded.nodes[0][BODY_EXT] == {"angularDampeners": True, "linearDampeners": True}
    ratio = encoded.root[THRUSTER_EXT]["thrusters"][0]["targetGimbalRatio"]
    assert math.hypot(*ratio) <= 1.0
    assert validator.errors(assemble(encoded, 4)) == []


def test_unresolvable_references_are_omitted_and_reported() -> None:
    scene = VehicleScene({
        "car": VehicleNode(vehicle_body=VehicleBody(pilot_seat="seat"),
                           wheel=Wheel(physics_material=PhysicsMaterial(0.2, 0.2))),
        "seat": VehicleNode(seat=CHAIR),
    })
    encoded, report = encode(scene)
    assert sorted(report.codes()) == [
        "pilot-seat-unresolved", "vehicle-parts-share-node", "wheel-material-unresolved",
    ]
    assert "pilotSeat" not in encoded.nodes["car"][BODY_EXT]
    assert "physicsMaterial" not in encoded.root[WHEEL_EXT]["wheels"][0]


def test_seat_writing() -> None:
    line = Seat((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 0.5))
    scene = VehicleScene({0: VehicleNode(seat=CHAIR), 1: VehicleNode(seat=line),
                          2: VehicleNode(seat=Seat((math.nan, 0.0, 0.0), (0, 1, 0), (1, 0, 0)))})
    encoded, report = encode(scene)
    assert encoded.nodes[0][SEAT_EXT] == {"back": [0.0, 0.0, -0.3], "foot": [0.0, -0.5, 0.3],
                                          "knee": [0.0, 0.0, 0.3]}
    assert SEAT_EXT in encoded.nodes[1] and 2 not in encoded.nodes
    assert report.codes() == ["seat-collinear", "seat-invalid"]


# -- reading the 2025 names -----------------------------------------------------------------


def vehicle_doc(root: dict[str, Any], *parts: dict[str, Any]) -> dict[str, Any]:
    """Node 0: a dynamic vehicle body; nodes 1..: its children, one extension object each."""
    body = {"extensions": {**MOTION, BODY_EXT: {}}, "children": list(range(1, len(parts) + 1))}
    return {"nodes": [body, *({"extensions": p} for p in parts)], "extensions": root}


def test_2025_names_mark_the_whole_document() -> None:
    gltf = vehicle_doc(
        {WHEEL_EXT: {"wheels": [{"maxForce": 2000, "currentForceRatio": 0.5,
                                 "currentSteeringRatio": -0.25}]},
         THRUSTER_EXT: {"thrusters": [{"maxForce": 10, "targetForceRatio": 0.5}]},
         HOVER_EXT: {"hoverThrusters": [{"maxHoverEnergy": 30}]}},
        {WHEEL_EXT: {"wheel": 0}}, {THRUSTER_EXT: {"thruster": 0}},
        {HOVER_EXT: {"hoverThruster": 0}},
    )
    scene, report = decode(gltf)
    assert scene.old_names
    assert scene.nodes[1].wheel == Wheel(max_propulsion_force=2000.0,
                                         target_propulsion_force_ratio=0.5,
                                         target_steering_ratio=-0.25, steering_change_rate=-1.0)
    assert scene.nodes[2].thruster == Thruster(10.0, gimbal_change_rate=-1.0,
                                               target_force_ratio=0.5)
    assert scene.nodes[3].hover_thruster == HoverThruster(30.0, gimbal_change_rate=-1.0)
    assert report.of("warning") == []
    assert report.codes() == [
        "vehicle-old-names", "legacy-rate", "legacy-rate", "legacy-rate", "legacy-default",
        "linear-dampeners-undated",
    ]
    assert report.issues[0].where == f"/extensions/{WHEEL_EXT}/wheels/0/maxForce"


@pytest.mark.parametrize("hover_key", ["currentHoverRatio", "currentForceRatio"])
def test_2025_thruster_names(hover_key: str) -> None:
    gltf = vehicle_doc(
        {THRUSTER_EXT: {"thrusters": [{"maxForce": 10, "currentForceRatio": 0.5,
                                       "currentGimbalRatio": [0.5, 0.5]}]},
         HOVER_EXT: {"hoverThrusters": [{"maxHoverEnergy": 30, hover_key: 0.75,
                                         "currentGimbalRatio": [0, -1],
                                         "linearGimbalAdjustRatio": 0.5}]}},
        {THRUSTER_EXT: {"thruster": 0}}, {HOVER_EXT: {"hoverThruster": 0}},
    )
    scene, report = decode(gltf, linear_dampeners_default=False)
    assert scene.old_names
    assert scene.nodes[1].thruster == Thruster(10.0, gimbal_change_rate=-1.0,
                                               target_force_ratio=0.5,
                                               target_gimbal_ratio=(0.5, 0.5))
    assert scene.nodes[2].hover_thruster == HoverThruster(
        30.0, gimbal_change_rate=-1.0, target_hover_ratio=0.75, target_gimbal_ratio=(0.0, -1.0))
    assert scene.nodes[0].vehicle_body == VehicleBody(linear_dampeners=False)
    assert "legacy-default" not in report.codes()


def test_current_document_keeps_current_rate_defaults() -> None:
    gltf = vehicle_doc({THRUSTER_EXT: {"thrusters": [{"maxForce": 10}]},
                        WHEEL_EXT: {"wheels": [{"maxPropulsionForce": 5}]}},
                       {THRUSTER_EXT: {"thruster": 0}}, {WHEEL_EXT: {"wheel": 0}})
    scene, report = decode(gltf)
    assert not scene.old_names and report.issues == []
    assert scene.nodes[1].thruster == Thruster(10.0)
    assert scene.nodes[2].wheel == Wheel(max_propulsion_force=5.0)
    assert scene.nodes[0].vehicle_body == VehicleBody()


def test_current_name_wins_over_its_2025_name() -> None:
    gltf = vehicle_doc({WHEEL_EXT: {"wheels": [{"maxPropulsionForce": 5, "maxForce": 7}]}},
                       {WHEEL_EXT: {"wheel": 0}})
    scene, report = decode(gltf)
    assert scene.nodes[1].wheel.max_propulsion_force == 5.0  # type: ignore[union-attr]
    assert "renamed-both" in report.codes()


# -- bad input ------------------------------------------------------------------------------


BAD_WHEELS = [
    ({"radius": 0}, "radius", 0.25, "out-of-range"),
    ({"width": -1}, "width", 0.125, "out-of-range"),
    ({"maxSteeringAngle": 4}, "max_steering_angle", 0.0, "out-of-range"),
    ({"targetSteeringRatio": 2}, "target_steering_ratio", 0.0, "out-of-range"),
    ({"suspensionStiffness": "stiff"}, "suspension_stiffness", 20000.0, "not-a-number"),
    ({"suspensionTravel": -0.1}, "suspension_travel", 0.25, "out-of-range"),
    ({"maxPropulsionForce": True}, "max_propulsion_force", 0.0, "not-a-number"),
    ({"physicsMaterial": 2}, "physics_material", None, "bad-index"),
    ({"physicsMaterial": -1}, "physics_material", None, "none-sentinel"),
    ({"physicsMaterial": 1}, "physics_material", SLICK, None),
]


@pytest.mark.parametrize(("entry", "attr", "expected", "code"), BAD_WHEELS, ids=str)
def test_bad_wheel_values_default(entry: dict[str, Any], attr: str, expected: Any,
                                  code: str | None) -> None:
    scene, report = decode(vehicle_doc({WHEEL_EXT: {"wheels": [entry]}},
                                       {WHEEL_EXT: {"wheel": 0}}))
    assert getattr(scene.nodes[1].wheel, attr) == expected
    assert report.codes() == ([] if code is None else [code])
    assert all(i.where.startswith(f"/extensions/{WHEEL_EXT}/wheels/0") for i in report.issues)


BAD_THRUSTERS = [
    ({}, "max_force", 0.0, "missing-required"),
    ({"maxForce": -1}, "max_force", 0.0, "out-of-range"),
    ({"maxForce": 1, "targetForceRatio": -0.5}, "target_force_ratio", 0.0, "out-of-range"),
    ({"maxForce": 1, "linearGimbalAdjustRatio": 1.5}, "linear_gimbal_adjust_ratio", 0.0,
     "out-of-range"),
    ({"maxForce": 1, "targetGimbalRatio": [2, 0]}, "target_gimbal_ratio", (0.0, 0.0),
     "out-of-range"),
    ({"maxForce": 1, "targetGimbalRatio": [0.5]}, "target_gimbal_ratio", (0.0, 0.0),
     "bad-value"),
    ({"maxForce": 1, "targetGimbalRatio": [0.6, 0.8]}, "target_gimbal_ratio", (0.6, 0.8), None),
]


@pytest.mark.parametrize(("entry", "attr", "expected", "code"), BAD_THRUSTERS, ids=str)
def test_bad_thruster_values_default(entry: dict[str, Any], attr: str, expected: Any,
                                     code: str | None) -> None:
    scene, report = decode(vehicle_doc({THRUSTER_EXT: {"thrusters": [entry]}},
                                       {THRUSTER_EXT: {"thruster": 0}}))
    assert getattr(scene.nodes[1].thruster, attr) == pytest.approx(expected)
    assert report.codes() == ([] if code is None else [code])


def test_overlong_gimbal_ratio_is_shortened() -> None:
    entry = {"maxHoverEnergy": 1, "targetGimbalRatio": [1, 1]}
    scene, report = decode(vehicle_doc({HOVER_EXT: {"hoverThrusters": [entry]}},
                                       {HOVER_EXT: {"hoverThruster": 0}}))
    ratio = scene.nodes[1].hover_thruster.target_gimbal_ratio  # type: ignore[union-attr]
    assert math.hypot(*ratio) == pytest.approx(1.0) and ratio[0] == ratio[1]
    assert report.codes() == ["gimbal-ratio-length"]


BAD_NODES = [
    ({WHEEL_EXT: {"wheel": 3}}, "bad-index"),
    ({WHEEL_EXT: {}}, "missing-required"),
    ({WHEEL_EXT: {"wheel": 1}}, "vehicle-part-invalid"),
    ({WHEEL_EXT: []}, "not-an-object"),
    ({THRUSTER_EXT: {"thruster": 0}}, "bad-index"),
    ({SEAT_EXT: {"back": [0, 0, 0], "foot": [0, 1, 0]}}, "missing-required"),
    ({SEAT_EXT: {"back": [0, 0], "foot": [0, 1, 0], "knee": [1, 0, 0]}}, "bad-value"),
]


@pytest.mark.parametrize(("extensions", "code"), BAD_NODES, ids=str)
def test_bad_node_payloads_are_skipped(extensions: dict[str, Any], code: str) -> None:
    scene, report = decode(vehicle_doc({WHEEL_EXT: {"wheels": [{}, None]}}, extensions))
    assert 1 not in scene.nodes
    assert code in report.codes()
    assert all(i.where.startswith("/nodes/1/") for i in report.issues)


def test_pilot_seat_must_be_a_seat() -> None:
    seat = {"back": [0, 0, -0.3], "foot": [0, -0.5, 0.3], "knee": [0, 0, 0.3]}
    for pilot, code, expected in ((1, None, 1), (2, "pilot-seat-not-a-seat", None),
                                  (9, "bad-index", None), (-1, "none-sentinel", None)):
        gltf = vehicle_doc({}, {SEAT_EXT: seat}, {})
        gltf["nodes"][0]["extensions"][BODY_EXT] = {"pilotSeat": pilot}
        scene, report = decode(gltf)
        assert scene.nodes[0].vehicle_body.pilot_seat == expected  # type: ignore[union-attr]
        assert report.codes() == ([] if code is None else [code])


def test_placement_problems_are_reported() -> None:
    gltf = {"nodes": [{"extensions": {BODY_EXT: {"useThrottle": 1}}},
                      {"extensions": {WHEEL_EXT: {"wheel": 0}}},
                      {"extensions": {SEAT_EXT: {"back": [0, 0, 0], "foot": [0, 0, 2],
                                                 "knee": [0, 0, 1], "angle": "wide"}}}],
            "extensions": {WHEEL_EXT: {"wheels": [{}]}}}
    scene, report = decode(gltf)
    assert sorted(report.codes()) == ["not-a-boolean", "not-a-number", "seat-collinear",
                                      "vehicle-part-orphan", "vehicle-without-motion"]
    assert scene.nodes[0].vehicle_body == VehicleBody()
    assert scene.nodes[1].wheel == Wheel()
    assert scene.nodes[2].seat.angle == math.pi / 2  # type: ignore[union-attr]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats() | st.sampled_from(
        ["wheel", "maxForce", "currentForceRatio"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["wheel", "wheels", "thruster", "thrusters", "hoverThruster",
                         "hoverThrusters", "maxForce", "radius", "targetGimbalRatio",
                         "currentGimbalRatio", "back", "foot", "knee", "pilotSeat",
                         "physicsMaterial", "linearDampeners"]), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(root=st.dictionaries(st.sampled_from(VEHICLE_EXTENSIONS), JSON),
       nodes=st.lists(st.dictionaries(st.sampled_from(VEHICLE_EXTENSIONS), JSON), max_size=4))
def test_garbage_never_raises(root: dict[str, Any], nodes: list[dict[str, Any]]) -> None:
    gltf = {"nodes": [{"extensions": n, "children": [1, 2]} for n in nodes], "extensions": root}
    scene, report = decode(gltf)
    assert all(isinstance(ref, int) for ref in scene.nodes)
    assert all(issue.where.startswith("/") for issue in report.issues)


# -- corpus ---------------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    patterns = ("omi/current/OMI_vehicle_*/*.gltf", "omi/current/OMI_seat/*.gltf",
                "omi/legacy/2025-12_vehicle_current_names/**/*.gltf")
    return sorted(p for pattern in patterns for p in CORPUS.glob(pattern))


def raw_payload_counts(gltf: dict[str, Any]) -> dict[str, int]:
    """How many nodes carry each vehicle extension, straight from the JSON."""
    counts = dict.fromkeys(VEHICLE_EXTENSIONS, 0)
    for node in gltf.get("nodes", []):
        for name in node.get("extensions", {}):
            if name in counts:
                counts[name] += 1
    return counts


def decoded_counts(scene: VehicleScene) -> dict[str, int]:
    attrs = {BODY_EXT: "vehicle_body", WHEEL_EXT: "wheel", THRUSTER_EXT: "thruster",
             HOVER_EXT: "hover_thruster", SEAT_EXT: "seat"}
    return {name: sum(getattr(n, attr) is not None for n in scene.nodes.values())
            for name, attr in attrs.items()}


def without_vehicles(gltf: dict[str, Any]) -> dict[str, Any]:
    stripped = copy.deepcopy(gltf)
    for holder in [stripped, *stripped.get("nodes", [])]:
        for name in VEHICLE_EXTENSIONS:
            holder.get("extensions", {}).pop(name, None)
    return stripped


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent (needs ../shared)")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_vehicles_decode_and_re_encode(path: Path, validator) -> None:
    gltf = load_gltf(path)
    report = Report()
    scene = decode_vehicles(DocumentView.from_json(gltf), report, [])
    assert decoded_counts(scene) == raw_payload_counts(gltf)
    assert report.of("warning") == []
    assert scene.old_names == ("legacy" in path.parts and path.name == "simple_car.gltf")
    if "legacy" not in path.parts:
        assert report.issues == []
    # Writing what was read gives a document the schemas accept.
    encoded, report = encode(scene)
    assert report.issues == []
    out = without_vehicles(gltf)
    out.setdefault("extensions", {}).update(encoded.root)
    for ref, payload in encoded.nodes.items():
        out["nodes"][ref].setdefault("extensions", {}).update(payload)
    assert validator.errors(out) == []
    again = decode_vehicles(DocumentView.from_json(out), Report(), [])
    assert encode(again)[0] == encoded  # reading what was written is a fixed point


def test_corpus_listing_is_complete() -> None:
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is absent (needs ../shared)")
    assert len(corpus_files()) == 5 + 7 + 2


def test_a_pilot_seat_whose_seat_is_not_written_is_not_named() -> None:
    """A seat left out for its points (not finite) kept the car's pilotSeat pointing at a
    node without OMI_seat (the checker's pilot-seat-not-a-seat); the message named a Python
    object."""
    bad = Seat(back=(math.nan, 0.0, 0.0), foot=(0.0, -0.5, 0.3), knee=(0.0, 0.0, 0.3))
    scene = VehicleScene(nodes={0: VehicleNode(vehicle_body=VehicleBody(pilot_seat=1)),
                                1: VehicleNode(seat=bad)})
    encoded, report = encode(scene)
    assert "pilotSeat" not in encoded.nodes[0][BODY_EXT] and 1 not in encoded.nodes
    [line] = [i for i in report.issues if i.code == "pilot-seat-not-a-seat"]
    assert line.message == "its pilot seat, node 1, has no seat written; omitted"
