# SPDX-License-Identifier: GPL-3.0-or-later
"""Values a valid file states are kept exactly, and what cannot be kept is said: joint drive
targets and gains, a value at a schema maximum, gravity sub-objects at their defaults, an
inertia orientation without a diagonal, and the cone preset's range. Pure (no bpy)."""

from __future__ import annotations

import json
import math
import struct
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from gltf_physics.io.codecs import khr, omi
from gltf_physics.io.codecs.common import Pool
from gltf_physics.io.codecs.omi_gravity import decode_volume, encode_volume
from gltf_physics.io.codecs.registry import decode_document
from gltf_physics.io.codecs.vehicles import HOVER_EXT, THRUSTER_EXT, WHEEL_EXT, encode_vehicles
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.gravity import GRAVITY_KINDS, Gravity
from gltf_physics.io.joints import JointPreset, match_preset, preset_limits
from gltf_physics.io.json_read import JsonReader
from gltf_physics.io.model import (
    ZERO3,
    Joint,
    JointDrive,
    JointLimit,
    JointSettings,
    Motion,
    NodePhysics,
    PhysicsScene,
    Shape,
)
from gltf_physics.io.vehicle_model import (
    MAX_ANGLE,
    HoverThruster,
    Thruster,
    VehicleNode,
    VehicleScene,
    Wheel,
)
from tests.conftest import SHARED
from tests.support.refs import ident
from tests.support.schemas import CORE_SCHEMAS, PhysicsSchemaValidator

FORMATS = {"omi": omi.encode_omi, "khr": khr.encode_khr}
JOINT_KEY = {"omi": omi.JOINT_EXT, "khr": khr.BODIES_EXT}
ORIENTATION = (0.0, 0.3826834, 0.0, 0.9238795)
DRIVE_GAIN_WITHOUT_TARGET = "drive-gain-without-target"


def f32(value: float) -> float:
    """`value` as Blender stores it (float32)."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def issues(report: Report, code: str) -> list[str]:
    return [issue.where for issue in report.issues if issue.code == code]


# -- 1. joint drives: an absent target is "not a spring" / "not a motor" ---------------------


def joint_scene(*drives: JointDrive) -> PhysicsScene:
    """Body 0 with joint child 2 connected to body 1."""
    body = Motion(center_of_mass=ZERO3)
    return PhysicsScene({
        0: NodePhysics(motion=body), 1: NodePhysics(motion=body),
        2: NodePhysics(joint=Joint(JointSettings(drives=drives), connected_node=1)),
    })


def written_drives(
    fmt: str, validator: PhysicsSchemaValidator, *drives: JointDrive,
) -> tuple[list[dict[str, Any]], Report]:
    """The drives `fmt` writes, after checking the document against the schemas (KHR's
    target/gain `dependencies` included)."""
    report = Report()
    encoded = FORMATS[fmt](joint_scene(*drives), ident, ident, report)
    nodes = [{"extensions": encoded.nodes.get(i, {})} for i in range(3)]
    nodes[0]["children"] = [2]
    gltf = {"asset": {"version": "2.0"}, "nodes": nodes, "extensions": encoded.root,
            "extensionsUsed": encoded.used()}
    assert validator.errors(gltf) == []
    return encoded.root[JOINT_KEY[fmt]]["physicsJoints"][0]["drives"], report


@pytest.mark.parametrize("fmt", FORMATS)
def test_stiffness_without_a_position_target_is_not_written_as_a_spring(fmt, validator) -> None:
    drive = JointDrive("angular", "force", 2, stiffness=100.0)
    (out,), report = written_drives(fmt, validator, drive)
    assert out == {"type": "angular", "mode": "force", "axis": 2}
    assert issues(report, DRIVE_GAIN_WITHOUT_TARGET) == ["node 2"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_damping_without_any_target_is_not_written_as_a_motor(fmt, validator) -> None:
    drive = JointDrive("linear", "acceleration", 1, max_force=0.0, damping=5.0)
    (out,), report = written_drives(fmt, validator, drive)
    assert out == {"type": "linear", "mode": "acceleration", "axis": 1, "maxForce": 0.0}
    assert issues(report, DRIVE_GAIN_WITHOUT_TARGET) == ["node 2"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_damping_beside_a_position_target_damps_towards_rest(fmt, validator) -> None:
    """The spring-damper formula reads the absent velocity target as 0; KHR needs it."""
    drive = JointDrive("angular", "force", 0, position_target=0.5, stiffness=10.0, damping=2.0)
    (out,), report = written_drives(fmt, validator, drive)
    assert out == {"type": "angular", "mode": "force", "axis": 0, "positionTarget": 0.5,
                   "stiffness": 10.0, "velocityTarget": 0.0, "damping": 2.0}
    assert report.issues == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_stated_targets_are_written_with_their_gains(fmt, validator) -> None:
    drives = (
        JointDrive("linear", "force", 0, position_target=1.5),
        JointDrive("angular", "force", 1, velocity_target=-2.0),
        JointDrive("angular", "acceleration", 2, 7.0, 0.25, 3.0, 4.0, 0.5),
    )
    out, report = written_drives(fmt, validator, *drives)
    assert out == [
        {"type": "linear", "mode": "force", "axis": 0, "positionTarget": 1.5, "stiffness": 0.0},
        {"type": "angular", "mode": "force", "axis": 1, "velocityTarget": -2.0, "damping": 0.0},
        {"type": "angular", "mode": "acceleration", "axis": 2, "maxForce": 7.0,
         "positionTarget": 0.25, "stiffness": 4.0, "velocityTarget": 3.0, "damping": 0.5},
    ]
    assert report.issues == []


def omi_joint_document(*drives: dict[str, Any]) -> dict[str, Any]:
    box = {"type": "box", "box": {"size": [1, 1, 1]}}
    body = {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 2]}],
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"],
        "extensions": {"OMI_physics_shape": {"shapes": [box]},
                       "OMI_physics_joint": {"physicsJoints": [{"drives": list(drives)}]}},
        "nodes": [
            {"name": "A", "children": [1], "extensions": {"OMI_physics_body": body}},
            {"name": "J", "translation": [0, 1, 0],
             "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 2}}},
            {"name": "B", "translation": [0, 2, 0], "extensions": {"OMI_physics_body": body}},
        ],
    }


def test_a_read_gain_without_its_target_is_kept_in_the_model() -> None:
    gltf = omi_joint_document({"type": "angular", "mode": "force", "axis": 2, "stiffness": 100},
                              {"type": "linear", "mode": "force", "axis": 0, "damping": 5})
    report = Report()
    joint = decode_document(DocumentView.from_json(gltf), report).nodes[1].joint
    assert report.issues == []
    assert joint is not None and joint.settings.drives == (
        JointDrive("angular", "force", 2, stiffness=100.0),
        JointDrive("linear", "force", 0, damping=5.0))


@pytest.mark.parametrize("target", ["OMI", "KHR"])
def test_a_read_gain_without_its_target_is_said_when_not_written(target) -> None:
    gltf = omi_joint_document({"type": "angular", "mode": "force", "axis": 2, "stiffness": 100},
                              {"type": "linear", "mode": "force", "axis": 0, "damping": 5})
    report = Report()
    out = convert_document(gltf, target, report=report)
    ext = "OMI_physics_joint" if target == "OMI" else "KHR_physics_rigid_bodies"
    assert out["extensions"][ext]["physicsJoints"][0]["drives"] == [
        {"type": "angular", "mode": "force", "axis": 2},
        {"type": "linear", "mode": "force", "axis": 0}]
    said = [i for i in report.issues if i.code == DRIVE_GAIN_WITHOUT_TARGET]
    assert len(said) == 2 and all(i.severity == "warning" for i in said)
    assert PhysicsSchemaValidator(SHARED / "specs").errors(out) == []


# -- 2. a value at the schema maximum (3.1415925) as Blender stores it ------------------------


def test_a_float32_angle_at_the_schema_maximum_is_kept_unreported() -> None:
    angle = f32(MAX_ANGLE)
    assert angle > MAX_ANGLE  # the float32 lies just above the bound
    scene = VehicleScene({1: VehicleNode(wheel=Wheel(max_steering_angle=angle)),
                          2: VehicleNode(thruster=Thruster(10.0, max_gimbal=angle)),
                          3: VehicleNode(hover_thruster=HoverThruster(10.0, max_gimbal=angle))})
    report = Report()
    root = encode_vehicles(scene, ident, report, lambda _material: None).root
    assert report.issues == []
    assert root[WHEEL_EXT]["wheels"][0]["maxSteeringAngle"] == MAX_ANGLE
    assert root[THRUSTER_EXT]["thrusters"][0]["maxGimbal"] == MAX_ANGLE
    assert root[HOVER_EXT]["hoverThrusters"][0]["maxGimbal"] == MAX_ANGLE


def test_an_angle_beyond_the_maximum_is_still_clamped_and_said() -> None:
    scene = VehicleScene({1: VehicleNode(wheel=Wheel(max_steering_angle=3.2))})
    report = Report()
    root = encode_vehicles(scene, ident, report, lambda _material: None).root
    assert root[WHEEL_EXT]["wheels"][0]["maxSteeringAngle"] == MAX_ANGLE
    assert [i.code for i in report.issues] == ["value-clamped"]


# -- 3. gravity: the type's sub-object is never empty ----------------------------------------


def official_gravity_validator() -> Draft202012Validator:
    """The node schema as published: each `oneOf` branch requires its sub-object."""
    folder = SHARED / "specs" / "omi" / "OMI_physics_gravity" / "schema"
    if not folder.is_dir():
        pytest.skip("the shared specs folder is absent (needs ../shared)")
    schemas = {path.name: {**json.loads(path.read_text()), "$id": path.name}
               for path in folder.glob("*.json")}
    schemas.update(CORE_SCHEMAS)
    registry = Registry().with_resources(
        (name, DRAFT202012.create_resource(schema)) for name, schema in schemas.items())
    return Draft202012Validator({"$ref": "node.OMI_physics_gravity.schema.json"},
                                registry=registry)


def without_empty_objects(value: Any) -> Any:
    """`value` as Blender's glTF exporter writes it: empty objects dropped."""
    if isinstance(value, dict):
        kept = {k: without_empty_objects(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v != {}}
    return value


DEFAULT_VOLUMES = {
    "directional": ({"direction": [0.0, -1.0, 0.0]}, {}),
    "point": ({"unitDistance": 0.0}, {}),
    "disc": ({"radius": 1.0, "unitDistance": 0.0}, {}),
    "torus": ({"radius": 1.0, "unitDistance": 0.0}, {}),
    "line": ({"points": [0.0, 0.0, 0.0, 0.0, 1.0, 0.0], "unitDistance": 0.0},
             {"points": ((0.0, 0.0, 0.0), (0.0, 1.0, 0.0))}),
    "shaped": ({"shape": 0, "unitDistance": 0.0}, {"shape": Shape("sphere", radius=2.0)}),
}


def test_every_gravity_type_is_covered() -> None:
    assert set(DEFAULT_VOLUMES) == set(GRAVITY_KINDS)


@pytest.mark.parametrize("kind", DEFAULT_VOLUMES)
def test_a_volume_at_its_defaults_writes_them_and_reads_them_back(kind: str) -> None:
    expected, extra = DEFAULT_VOLUMES[kind]
    volume = Gravity(kind, 9.80665, **extra)  # type: ignore[arg-type]
    report, shapes = Report(), Pool()
    out = encode_volume(volume, "node 0", report, shapes, ident)
    assert report.issues == [] and out is not None
    assert out[kind] == expected
    written = without_empty_objects(json.loads(json.dumps(out)))
    assert list(official_gravity_validator().iter_errors(written)) == []
    back = decode_volume(written, "/nodes/0", JsonReader(report), [extra.get("shape")])
    assert back == volume and report.issues == []


# -- 4. an inertia orientation without a diagonal --------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_orientation_without_a_diagonal_is_written(fmt, validator) -> None:
    motion = Motion(center_of_mass=ZERO3, inertia_orientation=ORIENTATION)
    report = Report()
    encoded = FORMATS[fmt](PhysicsScene({0: NodePhysics(motion=motion)}), ident, ident, report)
    body = encoded.nodes[0][omi.BODY_EXT if fmt == "omi" else khr.BODIES_EXT]["motion"]
    assert body["inertiaOrientation"] == list(ORIENTATION)
    assert "inertiaDiagonal" not in body and report.issues == []
    gltf = {"asset": {"version": "2.0"}, "nodes": [{"extensions": encoded.nodes[0]}],
            "extensions": encoded.root, "extensionsUsed": encoded.used()}
    assert validator.errors(gltf) == []
    back = decode_document(DocumentView.from_json(gltf), report).nodes[0].motion
    assert back is not None and back.inertia_orientation == ORIENTATION
    assert back.inertia_diagonal is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_identity_orientation_alone_is_not_written(fmt) -> None:
    motion = Motion(center_of_mass=ZERO3)
    encoded = FORMATS[fmt](PhysicsScene({0: NodePhysics(motion=motion)}), ident, ident, Report())
    body = encoded.nodes[0][omi.BODY_EXT if fmt == "omi" else khr.BODIES_EXT]["motion"]
    assert "inertiaOrientation" not in body


@pytest.mark.parametrize("target", ["OMI", "KHR"])
def test_the_converter_keeps_a_stated_orientation_alone(target) -> None:
    gltf = omi_joint_document()
    del gltf["extensions"]["OMI_physics_joint"], gltf["nodes"][1]["extensions"]
    gltf["extensionsUsed"].remove("OMI_physics_joint")
    motion = {"type": "dynamic", "mass": 2.0, "inertiaOrientation": list(ORIENTATION)}
    gltf["nodes"][0]["extensions"]["OMI_physics_body"] = {"motion": motion,
                                                        "collider": {"shape": 0}}
    report = Report()
    out = convert_document(gltf, target, report=report)
    ext = "OMI_physics_body" if target == "OMI" else "KHR_physics_rigid_bodies"
    written = out["nodes"][0]["extensions"][ext]["motion"]
    assert written["inertiaOrientation"] == list(ORIENTATION)
    assert PhysicsSchemaValidator(SHARED / "specs").errors(out) == []


# -- 5. the cone preset holds cones of 0 to π ------------------------------------------------


def cone_limits(cone: float) -> tuple[JointLimit, ...]:
    """A cone-twist about Blender Z: fixed position, swing ±`cone` about X and Y."""
    return (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),
            JointLimit(angular_axes=(0, 1), min=-cone, max=cone))


@pytest.mark.parametrize("cone", [0.6, math.pi, f32(math.pi), 3.1415927])
def test_a_cone_blender_can_hold_matches_the_preset(cone: float) -> None:
    assert match_preset(cone_limits(cone)) == JointPreset("cone_twist", 2, cone=cone)
    assert preset_limits(JointPreset("cone_twist", 2, cone=cone)) == cone_limits(cone)


@pytest.mark.parametrize("cone", [3.15, 4.0, 2 * math.pi])
def test_a_cone_wider_than_pi_stays_custom(cone: float) -> None:
    assert match_preset(cone_limits(cone)) is None


def test_a_twist_range_beside_a_too_wide_cone_stays_custom() -> None:
    limits = (*cone_limits(4.0), JointLimit(angular_axes=(2,), min=-0.5, max=0.5))
    assert match_preset(limits) is None


PRECISE = {  # doubles no float32 holds, and a stated negative zero
    "mass": 123456.789012345, "center": [0.30000000000000004, -0.0, 1e-40],
    "size": [1.2345678901234, 0.1, 2.0000000001], "friction": 0.123456789012,
    "gravity": -0.0, "orientation": [0.0, 0.7071067811865476, 0.0, 0.7071067811865476],
}


def precise_khr() -> dict[str, Any]:
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "box",
                                                "box": {"size": PRECISE["size"]}}]},
            "KHR_physics_rigid_bodies": {"physicsMaterials": [
                {"staticFriction": PRECISE["friction"], "dynamicFriction": 0.5}]}},
        "nodes": [{"name": "Crate", "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": PRECISE["mass"], "centerOfMass": PRECISE["center"],
                       "inertiaDiagonal": [1.5, 2.5, 3.5],
                       "inertiaOrientation": PRECISE["orientation"],
                       "gravityFactor": PRECISE["gravity"]},
            "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}}}],
        "scenes": [{"nodes": [0]}], "scene": 0,
    }


def same_bits(written: list[float] | float, stated: list[float] | float) -> bool:
    pairs = zip(written, stated, strict=True) if isinstance(stated, list) \
        else [(written, stated)]
    return all(struct.pack("<d", a) == struct.pack("<d", b) for a, b in pairs)


@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_the_converter_writes_a_files_numbers_as_it_states_them(target) -> None:
    """Not to float32's precision (that is Blender's storage, not the converter's): the
    mass 123456.789012345 was written 123456.79, -0.0 as 0.0, all unsaid."""
    report = Report()
    out = convert_document(precise_khr(), target, report=report)
    node = out["nodes"][0]["extensions"]
    if target == "KHR":
        motion = node["KHR_physics_rigid_bodies"]["motion"]
        size = out["extensions"]["KHR_implicit_shapes"]["shapes"][0]["box"]["size"]
        material = out["extensions"]["KHR_physics_rigid_bodies"]["physicsMaterials"][0]
    else:
        motion = node["OMI_physics_body"]["motion"]
        size = out["extensions"]["OMI_physics_shape"]["shapes"][0]["box"]["size"]
        material = out["extensions"]["OMI_physics_body"]["physicsMaterials"][0]
    assert same_bits(motion["mass"], PRECISE["mass"])
    assert same_bits(motion["centerOfMass"], PRECISE["center"])
    assert same_bits(motion["inertiaOrientation"], PRECISE["orientation"])
    assert same_bits(motion["gravityFactor"], PRECISE["gravity"])
    assert same_bits(size, PRECISE["size"])
    assert same_bits(material["staticFriction"], PRECISE["friction"])
    assert not issues(report, "number-below-float32")
    again = convert_document(out, target, report=Report())  # (OMI: states OMI's combine)
    third = convert_document(again, target, report=Report())
    assert json.dumps(third, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert same_bits(again["nodes"][0]["extensions"][
        "KHR_physics_rigid_bodies" if target == "KHR" else "OMI_physics_body"]["motion"][
        "mass"], PRECISE["mass"])


def test_the_exporter_still_writes_blenders_float32_as_its_shortest_decimal() -> None:
    """`canon` outside the converter: 0.1 stored as float32 is written 0.1."""
    from gltf_physics.io.numbers import canon, exact_numbers
    assert canon(f32(0.1)) == 0.1 and canon(-0.0) == 0.0 and str(canon(-0.0)) == "0.0"
    from gltf_physics.io.numbers import NEGATIVE_ZERO
    with exact_numbers({f32(0.1), -0.0, NEGATIVE_ZERO}):
        assert canon(f32(0.1)) == f32(0.1) and str(canon(-0.0)) == "-0.0"
        assert canon(0.1 + 0.2) == 0.3  # (computed, not stated: float32's shortest decimal)
    with exact_numbers({0}):  # (0 stated, a computed -0.0 is not: written 0.0)
        assert str(canon(-0.0)) == "0.0" and str(canon(0.0)) == "0.0"
    assert canon(f32(0.1)) == 0.1


def test_an_omi_centre_at_the_origin_for_want_of_collider_volume_is_said() -> None:
    """KHR → OMI: OMI has no computed centre of mass, so the colliders' centroid is written;
    without collider volume it went to the body's origin unsaid."""
    gltf = precise_khr()
    body = gltf["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]
    del body["collider"], body["motion"]["centerOfMass"]
    report = Report()
    out = convert_document(gltf, "OMI", report=report)
    assert issues(report, "centre-at-origin") == ["/nodes/0"]
    assert "centerOfMass" not in out["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]
    gltf = precise_khr()  # (with its box: the centroid, nothing said)
    del gltf["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["centerOfMass"]
    report = Report()
    convert_document(gltf, "OMI", report=report)
    assert issues(report, "centre-at-origin") == []
