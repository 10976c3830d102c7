# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests of the test helpers: physics schema validation and the glTF-Validator wrapper (no bpy)."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(__file__).resolve().parents[2].parent / "shared"

try:
    from tests.support import gltf_validator, schemas
except ImportError:  # the checkout root is not on sys.path (plain `pytest` run)
    sys.path.insert(0, str(ROOT))
    from tests.support import gltf_validator, schemas

# Current-revision corpus folders whose files must validate once the schema defects are patched.
VALID_FOLDERS = (
    "omi/current/OMI_physics_shape",
    "omi/current/OMI_physics_body",
    "omi/current/OMI_physics_joint",
    "omi/current/OMI_vehicle_body",
    "omi/current/OMI_vehicle_wheel",
    "omi/current/OMI_vehicle_thruster",
    "omi/current/OMI_vehicle_hover_thruster",
    "omi/current/OMI_seat",
    "khr/samples",
)
# Digest section 7: invalid even after the patches, with the pointers that must be reported.
STILL_INVALID = {
    "omi/current/OMI_physics_body/complex/indirect_children.gltf": (
        "/nodes/3/extensions/OMI_physics_body/trigger",  # trigger:{}
        "/nodes/8/extensions/OMI_physics_body/trigger",
    ),
    "omi/current/OMI_physics_body/complex/two_boxes.gltf": (
        "/nodes/3/extensions/OMI_physics_body/trigger",  # trigger:{}
    ),
    "omi/current/OMI_physics_body/triggers/triggers.gltf": (
        "/nodes/4/extensions/OMI_physics_body/motion",  # KHR-style motion without "type"
    ),
}
MISSING = "<shared folder absent>"


def _corpus_files(folders: tuple[str, ...], patterns: tuple[str, ...]) -> list[str]:
    corpus = SHARED / "corpus"
    if not corpus.is_dir():
        return [MISSING]
    found = {
        path.relative_to(corpus).as_posix()
        for folder in folders
        for pattern in patterns
        for path in (corpus / folder).rglob(pattern)
    }
    return sorted(found - STILL_INVALID.keys())


@pytest.fixture(scope="module")
def shared() -> Path:
    if not (SHARED / "corpus").is_dir() or not (SHARED / "specs").is_dir():
        pytest.skip(f"shared corpus and specs not found at {SHARED} (expected beside the checkout)")
    return SHARED


@pytest.fixture(scope="module")
def reader(shared: Path) -> schemas.PhysicsSchemaValidator:
    return schemas.PhysicsSchemaValidator(shared / "specs", profile=schemas.READ)


@pytest.fixture(scope="module")
def writer(shared: Path) -> schemas.PhysicsSchemaValidator:
    return schemas.PhysicsSchemaValidator(shared / "specs", profile=schemas.WRITE)


@pytest.fixture(scope="module")
def node_modules_root() -> Path:
    if not gltf_validator.is_available(ROOT):
        pytest.skip("node or node_modules/gltf-validator is missing; run `make test` to install it")
    return ROOT


# --- (a) the corpus -------------------------------------------------------------------------


@pytest.mark.parametrize("name", _corpus_files(VALID_FOLDERS, ("*.gltf", "*.glb")))
def test_corpus_file_is_valid(reader: schemas.PhysicsSchemaValidator, name: str) -> None:
    assert reader.errors(schemas.load_gltf(SHARED / "corpus" / name)) == []


@pytest.mark.parametrize("name", sorted(STILL_INVALID))
def test_corpus_file_stays_invalid(reader: schemas.PhysicsSchemaValidator, name: str) -> None:
    messages = reader.errors(schemas.load_gltf(SHARED / "corpus" / name))
    reported = sorted({message.split(": ", 1)[0] for message in messages})
    assert reported == sorted(STILL_INVALID[name]), messages


@pytest.mark.parametrize(
    "name", _corpus_files(("khr/legacy/2024-03_collision_shapes",), ("*.gltf",))
)
def test_khr_2024_03_file_is_valid(shared: Path, name: str) -> None:
    legacy = schemas.PhysicsSchemaValidator(shared / "specs", revision=schemas.KHR_2024_03)
    assert legacy.errors(schemas.load_gltf(shared / "corpus" / name)) == []


def test_patched_defects_are_reported_as_warnings(reader: schemas.PhysicsSchemaValidator) -> None:
    corpus = SHARED / "corpus"
    weld = schemas.load_gltf(corpus / "omi/current/OMI_physics_joint/weld_joint.gltf")
    motion = schemas.load_gltf(corpus / "khr/samples/MotionProperties/MotionProperties.glb")
    assert any("defect 3" in message for message in reader.warnings(weld))
    assert any("mass: 0" in message for message in reader.warnings(motion))


def test_glb_and_gltf_hold_the_same_json(shared: Path) -> None:
    folder = shared / "corpus/khr/samples/ShapeTypes"
    glb = schemas.load_gltf(folder / "ShapeTypes.glb")
    gltf = schemas.load_gltf(folder / "ShapeTypes.gltf")
    assert glb["extensions"] == gltf["extensions"]
    for glb_node, gltf_node in zip(glb["nodes"], gltf["nodes"], strict=True):
        assert glb_node.get("extensions") == gltf_node.get("extensions")


# --- (b) hand-written documents ---------------------------------------------------------------


def _khr_document() -> dict[str, Any]:
    """A dynamic body with a mesh hull (2026-01 geometry.mesh), a sphere and a compound trigger."""
    body = "KHR_physics_rigid_bodies"
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_implicit_shapes", body],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            body: {"physicsMaterials": [{"dynamicFriction": 0.4}]},
        },
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [
            {"children": [1, 2, 3], "extensions": {body: {"motion": {"mass": 2.0}}}},
            {"extensions": {body: {"collider": {"geometry": {"mesh": 0, "convexHull": True}}}}},
            {"extensions": {body: {"collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}}},
            {"children": [4], "extensions": {body: {"trigger": {"nodes": [4]}}}},
            {"extensions": {body: {"trigger": {"geometry": {"shape": 0}}}}},
        ],
    }


def test_geometry_mesh_document_is_valid(
    reader: schemas.PhysicsSchemaValidator, writer: schemas.PhysicsSchemaValidator
) -> None:
    document = _khr_document()
    assert reader.errors(document) == []
    assert writer.errors(document) == []
    assert writer.warnings(document) == []


def test_negative_radius_is_rejected(writer: schemas.PhysicsSchemaValidator) -> None:
    document = _khr_document()
    document["extensions"]["KHR_implicit_shapes"]["shapes"][0]["sphere"]["radius"] = -0.5
    messages = writer.errors(document)
    assert len(messages) == 1
    assert messages[0].startswith("/extensions/KHR_implicit_shapes/shapes/0/sphere/radius: ")


def test_write_profile_can_reject_geometry_node(shared: Path) -> None:
    strict = schemas.PhysicsSchemaValidator(shared / "specs", node_geometry=False)
    document = _khr_document()
    assert strict.errors(document) == []
    collider = document["nodes"][1]["extensions"]["KHR_physics_rigid_bodies"]["collider"]
    collider["geometry"] = {"node": 2}
    assert strict.errors(document) != []


def _set(document: dict[str, Any], path: str, value: object) -> None:
    *parents, last = path.split("/")
    target: Any = document
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    target[int(last) if isinstance(target, list) else last] = value


KHR_NODE = "nodes/{}/extensions/KHR_physics_rigid_bodies/"


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (KHR_NODE.format(2) + "collider/geometry/shape", 1, "out of range"),
        (KHR_NODE.format(2) + "collider/physicsMaterial", 3, "out of range"),
        (KHR_NODE.format(1) + "collider/geometry/mesh", -1, "sentinel"),
        (KHR_NODE.format(2) + "collider/collisionFilter", 0, "out of range"),
        (KHR_NODE.format(3) + "trigger/nodes", [2], "has no KHR_physics_rigid_bodies trigger"),
        (KHR_NODE.format(3) + "trigger/nodes", [9], "out of range"),
        (KHR_NODE.format(0) + "joint", {"joint": 0, "connectedNode": 1}, "out of range"),
        ("extensionsUsed", ["KHR_physics_rigid_bodies"], "KHR_implicit_shapes is used"),
        ("extensionsRequired", ["KHR_implicit_shapes"], "must stay optional"),
        (KHR_NODE.format(0) + "motion/mass", 0, None),  # defect 5: accepted, with a warning
        (
            "extensions/KHR_physics_rigid_bodies/physicsJoints",
            [{"drives": [{"type": "linear", "mode": "force", "axis": 0, "positionTarget": 1}]}],
            "'stiffness' is a dependency",  # defect 8
        ),
    ],
)
def test_semantic_and_patched_checks(
    writer: schemas.PhysicsSchemaValidator, path: str, value: object, expected: str | None
) -> None:
    document = _khr_document()
    _set(document, path, copy.deepcopy(value))
    messages = writer.errors(document)
    if expected is None:
        assert messages == []
    else:
        assert any(expected in message for message in messages), messages


def test_trigger_member_must_be_a_descendant(writer: schemas.PhysicsSchemaValidator) -> None:
    document = _khr_document()
    document["nodes"][3]["children"] = []
    document["nodes"][0]["children"].append(4)
    assert any("not a descendant" in message for message in writer.errors(document))


def test_omi_default_box_and_weld_limit_pass(writer: schemas.PhysicsSchemaValidator) -> None:
    document = {
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint"],
        "extensions": {
            "OMI_physics_shape": {"shapes": [{"type": "box"}]},  # defect 4
            "OMI_physics_joint": {  # defect 1 (no "constraints") and defect 3 (both axes)
                "physicsJoints": [{"limits": [{"linearAxes": [0], "angularAxes": [0]}]}]
            },
        },
        "nodes": [
            {"children": [1], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
            {
                "extensions": {
                    "OMI_physics_body": {"collider": {"shape": 0}},
                    "OMI_physics_joint": {"joint": 0, "connectedNode": 0},
                }
            },
        ],
    }
    assert writer.errors(document) == []
    document["nodes"][1]["extensions"]["OMI_physics_body"]["collider"]["shape"] = -1
    assert any("sentinel" in message for message in writer.errors(document))


def test_load_gltf_reads_glb(tmp_path: Path) -> None:
    payload = json.dumps({"asset": {"version": "2.0"}}).encode()
    payload += b" " * (-len(payload) % 4)
    header = b"glTF" + (2).to_bytes(4, "little") + (20 + len(payload)).to_bytes(4, "little")
    chunk = len(payload).to_bytes(4, "little") + b"JSON"
    (tmp_path / "tiny.glb").write_bytes(header + chunk + payload)
    assert schemas.load_gltf(tmp_path / "tiny.glb") == {"asset": {"version": "2.0"}}


# --- (c) the Khronos glTF-Validator -----------------------------------------------------------


def test_gltf_validator_accepts_sample_glb(shared: Path, node_modules_root: Path) -> None:
    path = shared / "corpus/khr/samples/ShapeTypes/ShapeTypes.glb"
    report = gltf_validator.validate_file(path, node_modules_root)
    assert gltf_validator.error_messages(report) == []
    codes = {issue["code"] for issue in report["issues"]["messages"]}
    assert "UNSUPPORTED_EXTENSION" in codes  # ours are unknown to it: information only


def test_gltf_validator_loads_sibling_buffers(shared: Path, node_modules_root: Path) -> None:
    path = shared / "corpus/khr/samples/ShapeTypes/ShapeTypes.gltf"
    report = gltf_validator.validate_file(path, node_modules_root)
    assert gltf_validator.error_messages(report) == []
    buffers = [r for r in report["info"]["resources"] if r["pointer"] == "/buffers/0"]
    assert buffers[0]["storage"] == "external"
    assert buffers[0]["byteLength"] > 0


def test_gltf_validator_reports_broken_document(tmp_path: Path, node_modules_root: Path) -> None:
    broken = {
        "asset": {"version": "2.0"},
        "accessors": [{"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC3"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0,
    }
    path = tmp_path / "broken.gltf"
    path.write_text(json.dumps(broken), encoding="utf-8")
    messages = gltf_validator.error_messages(gltf_validator.validate_file(path, node_modules_root))
    assert any("/accessors/0/bufferView" in m and "UNRESOLVED_REFERENCE" in m for m in messages)
