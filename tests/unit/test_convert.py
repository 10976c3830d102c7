# SPDX-License-Identifier: GPL-3.0-or-later
"""The bpy-free converter: structural upgrades, reported losses, untouched non-physics data,
GLB chunks, required extensions, the CLI, and the whole corpus in every target form."""

from __future__ import annotations

import copy
import functools
import json
import math
import shutil
import struct
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gltf_physics.io.asset_files import copy_resources, read_asset, write_asset
from gltf_physics.io.codecs.registry import (
    HANDLED_EXTENSIONS,
    decode_document,
    decode_vehicle_document,
)
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from tests.conftest import CORPUS, ROOT, SHARED
from tests.support import gltf_validator
from tests.support.schemas import PhysicsSchemaValidator

SPECS = SHARED / "specs"
NO_CORPUS = "the shared corpus is absent (needs ../shared/corpus)"
FORMS = (("OMI", "mesh"), ("KHR", "mesh"), ("KHR", "node"))
FORM_IDS = ("omi", "khr-mesh", "khr-node")
OMI_BODY, OMI_SHAPE, OMI_JOINT = "OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"
KHR_BODIES, KHR_SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
CORPUS_DIRS = ("omi/current", "omi/legacy", "khr/samples", "khr/legacy", "seed")


def convert(gltf: dict[str, Any], target: str, form: str = "mesh",
            godot: bool = False) -> tuple[dict[str, Any], Report]:
    report = Report()
    out = convert_document(gltf, target, khr_geometry=form,  # type: ignore[arg-type]
                           godot_capsules=godot, report=report)
    return out, report


def codes(report: Report, severity: str | None = None) -> list[str]:
    return [i.code for i in report.issues if severity is None or i.severity == severity]


# -- independent transform maths (not the converter's) --------------------------------------


def quat_matrix(q: list[float]) -> np.ndarray:
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def local_matrix(node: dict[str, Any]) -> np.ndarray:
    if "matrix" in node:
        return np.array(node["matrix"], dtype=float).reshape(4, 4).T
    m = np.identity(4)
    m[:3, :3] = quat_matrix(node.get("rotation", [0, 0, 0, 1])) @ np.diag(
        node.get("scale", [1, 1, 1]))
    m[:3, 3] = node.get("translation", [0, 0, 0])
    return m


def world_matrices(gltf: dict[str, Any]) -> dict[int, np.ndarray]:
    nodes = gltf["nodes"]
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}

    def world(i: int) -> np.ndarray:
        return local_matrix(nodes[i]) if i not in parent else world(parent[i]) @ local_matrix(
            nodes[i])

    return {i: world(i) for i in range(len(nodes))}


def parent_of(gltf: dict[str, Any], index: int) -> int | None:
    return next((i for i, n in enumerate(gltf["nodes"]) if index in n.get("children", [])), None)


def quat_about(axis: tuple[float, float, float], angle: float) -> list[float]:
    s = math.sin(angle / 2)
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]


# -- hand-made documents -----------------------------------------------------------------------


def v1_joint_document(joint_mesh: bool = False) -> dict[str, Any]:
    """Body A under a rotated, scaled root; body B at the top level; a v1 joint node J."""
    joint: dict[str, Any] = {
        "name": "J", "translation": [0.5, 1.5, -0.25],
        "rotation": quat_about((0.0, 0.0, 1.0), 0.7),
        "extensions": {OMI_JOINT: {"constraints": [0, 1], "nodeA": 1, "nodeB": 2}},
    }
    if joint_mesh:
        joint["mesh"] = 0
    return {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 2, 3]}],
        "meshes": [{"primitives": [{"attributes": {}}]}],
        "nodes": [
            {"name": "Root", "children": [1], "scale": [2.0, 2.0, 2.0],
             "rotation": quat_about((0.0, 1.0, 0.0), 0.4)},
            {"name": "A", "translation": [1.0, 0.0, 0.0],
             "rotation": quat_about((1.0, 0.0, 0.0), -0.3),
             "extensions": {OMI_BODY: {"motion": {"type": "dynamic"},
                                       "collider": {"shape": 0}}}},
            {"name": "B", "translation": [0.0, 3.0, 0.0],
             "extensions": {OMI_BODY: {"motion": {"type": "dynamic"},
                                       "collider": {"shape": 0}}}},
            joint,
        ],
        "extensions": {
            OMI_SHAPE: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            OMI_JOINT: {"constraints": [
                {"linearAxes": [0, 1, 2]},
                {"angularAxes": [0, 1], "lowerLimit": -0.5, "upperLimit": 0.5},
            ]},
        },
        "extensionsUsed": [OMI_SHAPE, OMI_BODY, OMI_JOINT],
    }


def joint_payload(gltf: dict[str, Any], index: int) -> dict[str, Any]:
    extensions = gltf["nodes"][index]["extensions"]
    return extensions[OMI_JOINT] if OMI_JOINT in extensions else extensions[KHR_BODIES]["joint"]


@pytest.mark.parametrize(("target", "form"), FORMS, ids=FORM_IDS)
def test_v1_joint_moves_under_body_a_keeping_world_frames(target: str, form: str) -> None:
    source = v1_joint_document()
    before = world_matrices(source)
    out, report = convert(source, target, form)
    after = world_matrices(out)
    connected = len(source["nodes"])  # the first new node
    assert parent_of(out, 3) == 1
    assert parent_of(out, connected) == 2
    assert 3 not in out["scenes"][0]["nodes"]
    np.testing.assert_allclose(after[3], before[3], atol=1e-9)
    np.testing.assert_allclose(after[connected], before[3], atol=1e-9)
    for index in (0, 1, 2):
        np.testing.assert_allclose(after[index], before[index], atol=0)
    payload = joint_payload(out, 3)
    assert payload["connectedNode"] == connected
    assert payload["enableCollision"] is False
    root = out["extensions"][OMI_JOINT if target == "OMI" else KHR_BODIES]
    limits = root["physicsJoints"][payload["joint"]]["limits"]
    assert {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0, "damping": 1.0} in limits
    assert {"angularAxes": [0, 1], "min": -0.5, "max": 0.5, "damping": 1.0} in limits
    assert "legacy-joint" in codes(report)
    validator = PhysicsSchemaValidator(SPECS, node_geometry=form == "node")
    assert validator.errors(out) == []


def test_v1_joint_node_with_a_mesh_stays_and_a_new_frame_goes_under_a() -> None:
    source = v1_joint_document(joint_mesh=True)
    before = world_matrices(source)
    out, report = convert(source, "OMI")
    after = world_matrices(out)
    frame, connected = len(source["nodes"]), len(source["nodes"]) + 1
    assert out["nodes"][3]["mesh"] == 0 and "extensions" not in out["nodes"][3]
    assert out["scenes"][0]["nodes"] == [0, 2, 3]
    assert (parent_of(out, frame), parent_of(out, connected)) == (1, 2)
    np.testing.assert_allclose(after[frame], before[3], atol=1e-9)
    np.testing.assert_allclose(after[connected], before[3], atol=1e-9)
    assert joint_payload(out, frame)["connectedNode"] == connected
    assert "joint-frame-node" in codes(report)


def test_sheared_joint_frame_is_reported_and_keeps_its_origin() -> None:
    source = v1_joint_document()
    source["nodes"][0]["scale"] = [1.0, 3.0, 1.0]  # non-uniform scale above a rotated body A
    before = world_matrices(source)
    out, report = convert(source, "OMI")
    after = world_matrices(out)
    assert "joint-frame-inexact" in codes(report, "warning")
    np.testing.assert_allclose(after[3][:3, 3], before[3][:3, 3], atol=1e-9)
    rotation = out["nodes"][3]["rotation"]
    assert math.isclose(sum(c * c for c in rotation), 1.0, rel_tol=1e-12)


@pytest.mark.parametrize("gltf", [
    {},
    {"nodes": "x", "extensions": [], "extensionsUsed": "y"},
    {"nodes": [1, None, {"extensions": 5, "children": [0, 99, -1, True]}]},
    {"nodes": [{"children": [1]}, {"children": [0],
                                   "extensions": {OMI_JOINT: {"nodeA": 0, "nodeB": 1}}}],
     "extensions": {OMI_JOINT: {"constraints": [{"linearAxes": [0]}]}}},
    {"nodes": [{"scale": [0, 0, 0], "extensions": {OMI_BODY: {"motion": {"type": "dynamic"}}}},
               {"extensions": {OMI_JOINT: {"constraints": [0], "nodeA": 0, "nodeB": 2}}},
               {"matrix": [1] * 16}],
     "extensions": {OMI_JOINT: {"constraints": [{"angularAxes": [1]}]}}},
])
@pytest.mark.parametrize(("target", "form"), FORMS, ids=FORM_IDS)
def test_malformed_documents_never_raise(gltf: dict[str, Any], target: str, form: str) -> None:
    snapshot = copy.deepcopy(gltf)
    out, _report = convert(gltf, target, form)
    assert isinstance(out, dict)
    assert gltf == snapshot  # the input is never edited
    json.dumps(out)  # still plain JSON


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
def test_khr_node_form_reuses_the_samples_orphan_nodes() -> None:
    source, _binary = read_asset(CORPUS / "khr/samples/ShapeTypes/ShapeTypes.gltf")
    out, report = convert(source, "KHR", "node")
    assert len(out["nodes"]) == len(source["nodes"])
    assert "geometry-node-orphans" not in codes(report)
    _out, report = convert(source, "OMI")
    assert "geometry-nodes-kept" in codes(report, "info")


def test_omi_compound_parent_into_khr_is_noted() -> None:
    source = {
        "asset": {"version": "2.0"},
        "nodes": [
            {"name": "Compound", "children": [1],
             "extensions": {OMI_BODY: {"collider": {}}}},
            {"name": "Box", "extensions": {OMI_BODY: {"collider": {"shape": 0}}}},
        ],
        "extensions": {OMI_SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 2, 3]}}]}},
        "extensionsUsed": [OMI_SHAPE, OMI_BODY],
    }
    out, report = convert(source, "KHR")
    omitted = [i for i in report.issues if i.code == "compound-parent-omitted"]
    assert len(omitted) == 1 and omitted[0].severity == "info"  # nothing lost: no warning
    assert omitted[0].where == f"/nodes/0/extensions/{OMI_BODY}/collider"
    assert "extensions" not in out["nodes"][0]
    assert out["nodes"][1]["extensions"][KHR_BODIES] == {"collider": {"geometry": {"shape": 0}}}
    assert out["extensionsUsed"] == [KHR_SHAPES, KHR_BODIES]


def khr_body(motion: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {"collider": {"geometry": {"shape": 0}}, **extra}
    if motion is not None:
        payload["motion"] = motion
    return {KHR_BODIES: payload}


def khr_joint_document() -> dict[str, Any]:
    """A joint on a dynamic body's node, connected to a static collider node (KHR world)."""
    return {
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "Door", "translation": [0, 1, 0], "mesh": 0,
             "extensions": khr_body({"mass": 2.0}, joint={
                 "joint": 0, "connectedNode": 1, "enableCollision": False})},
            {"name": "Wall", "translation": [1, 1, 0], "mesh": 0, "extensions": khr_body()},
        ],
        "meshes": [{"primitives": [{"attributes": {}}]}],
        "extensions": {
            KHR_SHAPES: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
            KHR_BODIES: {"physicsJoints": [{"limits": [
                {"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]},
        },
        "extensionsUsed": [KHR_SHAPES, KHR_BODIES],
    }


def test_khr_joint_on_a_body_goes_to_omi_frames_with_a_static_partner() -> None:
    source = khr_joint_document()
    out, report = convert(source, "OMI")
    frame, connected = 2, 3
    assert out["nodes"][0]["children"] == [frame]
    assert out["nodes"][1]["children"] == [connected]
    assert out["nodes"][frame] == {
        "name": "Door.joint",
        "extensions": {OMI_JOINT: {"joint": 0, "connectedNode": connected,
                                   "enableCollision": False}},
    }
    assert out["nodes"][connected] == {"name": "Wall.connected"}
    assert out["nodes"][1]["extensions"][OMI_BODY]["motion"]["type"] == "static"
    assert {"static-partner", "joint-own-node", "connected-own-node"} <= set(codes(report))
    assert PhysicsSchemaValidator(SPECS, node_geometry=False).errors(out) == []


def test_static_body_inside_a_moving_one_becomes_kinematic_in_khr() -> None:
    source = {
        "asset": {"version": "2.0"},
        "nodes": [
            {"children": [1], "extensions": {OMI_BODY: {"motion": {"type": "dynamic"},
                                                        "collider": {"shape": 0}}}},
            {"extensions": {OMI_BODY: {"motion": {"type": "static"}, "collider": {"shape": 0}}}},
        ],
        "extensions": {OMI_SHAPE: {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
        "extensionsUsed": [OMI_SHAPE, OMI_BODY],
    }
    out, report = convert(source, "KHR")
    assert out["nodes"][1]["extensions"][KHR_BODIES]["motion"]["isKinematic"] is True
    assert [i.where for i in report.issues if i.code == "static-in-moving-body"] == ["/nodes/1"]


def test_required_physics_names_are_replaced_by_the_written_ones() -> None:
    source = khr_joint_document()
    source["extensionsUsed"] = ["KHR_lights_punctual", KHR_SHAPES, KHR_BODIES]
    source["extensionsRequired"] = ["KHR_lights_punctual", KHR_BODIES, KHR_SHAPES]
    out, report = convert(source, "OMI")
    for key in ("extensionsUsed", "extensionsRequired"):
        assert out[key][0] == "KHR_lights_punctual"
        assert sorted(out[key][1:]) == [OMI_BODY, OMI_JOINT, OMI_SHAPE]
    assert "physics-required" in codes(report, "warning")
    source["extensionsRequired"] = ["KHR_lights_punctual"]
    out, report = convert(source, "KHR", "node")
    assert out["extensionsRequired"] == ["KHR_lights_punctual"]
    assert "physics-required" not in codes(report)


def test_khr_node_form_makes_one_orphan_per_collision_mesh() -> None:
    source = {
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 1]}],
        "meshes": [{"primitives": [{"attributes": {}}]}],
        "nodes": [{"extensions": {OMI_BODY: {"collider": {"shape": 0}}}},
                  {"extensions": {OMI_BODY: {"trigger": {"shape": 0}}}}],
        "extensions": {OMI_SHAPE: {"shapes": [{"type": "convex", "convex": {"mesh": 0}}]}},
        "extensionsUsed": [OMI_SHAPE, OMI_BODY],
    }
    out, _report = convert(source, "KHR", "node")
    assert out["nodes"][2] == {"name": "physicsMeshDataNode", "mesh": 0}
    for index, part in ((0, "collider"), (1, "trigger")):
        geometry = out["nodes"][index]["extensions"][KHR_BODIES][part]["geometry"]
        assert geometry == {"node": 2, "convexHull": True}
    again, _report = convert(out, "KHR", "node")
    assert len(again["nodes"]) == 3  # the orphan is reused, not duplicated
    mesh_form, _report = convert(out, "KHR", "mesh")
    geometry = mesh_form["nodes"][0]["extensions"][KHR_BODIES]["collider"]["geometry"]
    assert geometry == {"mesh": 0, "convexHull": True}


def test_planes_and_infinite_mass_are_reported_in_omi() -> None:
    source = {
        "asset": {"version": "2.0"},
        "nodes": [{"extensions": khr_body({"mass": 0})},
                  {"extensions": {KHR_BODIES: {"collider": {"geometry": {"shape": 1}}}}}],
        "extensions": {KHR_SHAPES: {"shapes": [
            {"type": "box", "box": {"size": [1, 1, 1]}},
            {"type": "plane", "plane": {"doubleSided": False}}]}},
        "extensionsUsed": [KHR_SHAPES, KHR_BODIES],
    }
    out, report = convert(source, "OMI")
    assert {"omi-infinite-mass", "plane-as-box"} <= set(codes(report, "warning"))
    assert out["nodes"][0]["extensions"][OMI_BODY]["motion"]["type"] == "kinematic"
    assert all(i.where.startswith("/") for i in report.issues)


def test_godot_capsules_use_the_pre_2025_layout() -> None:
    source = {
        "asset": {"version": "2.0"},
        "nodes": [{"extensions": {OMI_BODY: {"collider": {"shape": 0}}}}],
        "extensions": {OMI_SHAPE: {"shapes": [{"type": "capsule", "capsule": {
            "height": 1.0, "radiusTop": 0.5, "radiusBottom": 0.5}}]}},
        "extensionsUsed": [OMI_SHAPE, OMI_BODY],
    }
    out, _report = convert(source, "OMI", godot=True)
    shape = out["extensions"][OMI_SHAPE]["shapes"][0]
    assert shape == {"type": "capsule", "capsule": {"radius": 0.5, "height": 2.0}}


# -- everything else untouched -----------------------------------------------------------------


def without_physics(gltf: dict[str, Any]) -> dict[str, Any]:
    """A copy without the handled extensions (and the lists naming them)."""
    doc = copy.deepcopy(gltf)
    for owner in [doc, *doc.get("nodes", [])]:
        extensions = {k: v for k, v in owner.get("extensions", {}).items()
                      if k not in HANDLED_EXTENSIONS}
        owner.pop("extensions", None)
        if extensions:
            owner["extensions"] = extensions
    for key in ("extensionsUsed", "extensionsRequired"):
        names = [n for n in doc.get(key, []) if n not in HANDLED_EXTENSIONS]
        doc.pop(key, None)
        if names:
            doc[key] = names
    return doc


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize("name", ["JointTypes", "ShapeTypes", "Robot_skinned", "WaterWheel"])
@pytest.mark.parametrize(("target", "form"), FORMS, ids=FORM_IDS)
def test_non_physics_data_is_untouched(name: str, target: str, form: str) -> None:
    source, _binary = read_asset(CORPUS / "khr/samples" / name / f"{name}.gltf")
    source = copy.deepcopy(source)
    source["asset"]["extras"] = {"note": "keep me"}
    source["nodes"][0]["extras"] = {"id": 7}
    source["nodes"][0].setdefault("extensions", {})["EXT_unknown"] = {"value": [1, 2]}
    out, _report = convert(source, target, form)
    before, after = without_physics(source), without_physics(out)
    nodes_before, nodes_after = before.pop("nodes"), after.pop("nodes")
    assert dumps(after) == dumps(before)  # same keys, same order, same values
    added = nodes_after[len(nodes_before):]
    for index, (old, new) in enumerate(zip(nodes_before, nodes_after, strict=False)):
        kept, children = old.pop("children", []), new.pop("children", [])
        assert children[:len(kept)] == kept, index  # only new nodes are appended
        assert all(child >= len(nodes_before) for child in children[len(kept):]), index
        assert dumps(new) == dumps(old), index
    assert all("mesh" not in n or n["name"] == "physicsMeshDataNode" for n in added)


def glb_chunks(data: bytes) -> list[tuple[int, bytes]]:
    chunks, offset = [], 12
    assert struct.unpack_from("<4sII", data)[2] == len(data)
    while offset < len(data):
        length, kind = struct.unpack_from("<II", data, offset)
        chunks.append((kind, data[offset + 8: offset + 8 + length]))
        offset += 8 + length
    return chunks


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize("target", ["OMI", "KHR"])
def test_glb_binary_chunk_is_kept_byte_for_byte(tmp_path: Path, target: str) -> None:
    source = CORPUS / "khr/samples/JointTypes/JointTypes.glb"
    gltf, binary = read_asset(source)
    out, _report = convert(gltf, target)
    written = tmp_path / "out.glb"
    write_asset(written, out, binary)
    original, result = glb_chunks(source.read_bytes()), glb_chunks(written.read_bytes())
    assert [kind for kind, _ in result] == [0x4E4F534A, 0x004E4942]
    assert result[1][1] == original[1][1]
    json_chunk = result[0][1]
    assert len(json_chunk) % 4 == 0 and json_chunk.rstrip(b" ").endswith(b"}")
    assert json.loads(result[0][1]) == out
    assert read_asset(written) == (out, binary)


def test_unreadable_assets_raise_value_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.glb"
    broken.write_bytes(b"glTF" + struct.pack("<II", 2, 9999) + b"\0" * 8)
    with pytest.raises(ValueError, match="GLB"):
        read_asset(broken)
    not_json = tmp_path / "x.gltf"
    not_json.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match="not an object"):
        read_asset(not_json)


# -- the command line --------------------------------------------------------------------------


BLOCKED_IMPORTS = (
    "import runpy, sys\n"
    "for name in ('bpy', 'mathutils', 'jsonschema', 'referencing', 'pytest'):\n"
    "    sys.modules[name] = None\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKED_IMPORTS, str(ROOT / "scripts/convert.py"), *args],
        capture_output=True, text=True, timeout=60, check=False, cwd="/",
    )


def test_cli_needs_neither_bpy_nor_jsonschema(tmp_path: Path) -> None:
    source = tmp_path / "in" / "joint.gltf"
    source.parent.mkdir()
    source.write_text(json.dumps(v1_joint_document()), encoding="utf-8")
    output, report = tmp_path / "out" / "joint.gltf", tmp_path / "report.json"
    result = run_cli(str(source), str(output), "--to", "khr", "--khr-geometry", "node",
                     "--report", str(report))
    assert result.returncode == 0, result.stderr
    assert "info: legacy-joint: /nodes/3/extensions/OMI_physics_joint" in result.stdout
    assert KHR_BODIES in json.loads(output.read_text(encoding="utf-8"))["extensionsUsed"]
    issues = json.loads(report.read_text(encoding="utf-8"))["issues"]
    assert any(i["code"] == "legacy-joint" for i in issues)
    missing = run_cli(str(tmp_path / "missing.gltf"), str(output), "--to", "omi")
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    mismatch = run_cli(str(source), str(tmp_path / "x.glb"), "--to", "omi")
    assert mismatch.returncode == 2


# -- the corpus --------------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(
        path for folder in CORPUS_DIRS for path in (CORPUS / folder).rglob("*")
        if path.suffix in (".gltf", ".glb")
    )


@functools.cache
def validator(node_geometry: bool) -> PhysicsSchemaValidator:
    return PhysicsSchemaValidator(SPECS, node_geometry=node_geometry)


@functools.cache
def source_document(path: Path) -> dict[str, Any]:
    return read_asset(path)[0]


def tally(gltf: dict[str, Any]) -> Counter[str]:
    """Bodies by motion kind, shapes, compound triggers, joints and vehicle nodes."""
    view, quiet = DocumentView.from_json(gltf), Report()
    scene = decode_document(view, quiet)
    counts: Counter[str] = Counter(vehicle_nodes=len(decode_vehicle_document(view, quiet).nodes))
    for physics in scene.nodes.values():
        if physics.motion is not None:
            counts[physics.motion.kind] += 1
        for part in (physics.collider, physics.trigger):
            counts["shapes"] += part is not None and part.shape is not None
        counts["compound_triggers"] += physics.trigger is not None and bool(physics.trigger.nodes)
        counts["joints"] += physics.joint is not None
    return counts


def expected_tally(source: Counter[str], target: str, report: Report) -> Counter[str]:
    """The source tally after the documented, reported changes."""
    expected = source.copy()
    reported = Counter(codes(report))
    expected["joints"] -= reported["joint-same-body"] + reported["joint-skipped"]
    expected["shapes"] -= reported["shape-mesh-missing"]
    if target == "KHR":
        expected["kinematic"] += reported["static-in-moving-body"]
        expected["static"] = 0  # KHR static ≡ no motion
    else:
        expected["static"] += reported["static-partner"]
        expected["dynamic"] -= reported["omi-infinite-mass"]  # OMI's closest form
        expected["kinematic"] += reported["omi-infinite-mass"]
    return +expected


def test_the_corpus_is_listed() -> None:
    if not CORPUS.is_dir():
        pytest.skip(NO_CORPUS)
    files = corpus_files()
    assert len(files) >= 100
    assert {f.relative_to(CORPUS).parts[0] for f in files} == {"omi", "khr", "seed"}


@pytest.mark.skipif(not CORPUS.is_dir() or not SPECS.is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize(("target", "form"), FORMS, ids=FORM_IDS)
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_converts_validly_keeping_the_physics(path: Path, target: str, form: str) -> None:
    source = source_document(path)
    out, report = convert(source, target, form)
    assert validator(form == "node" and target == "KHR").errors(out) == []
    result = Report()
    decode_document(DocumentView.from_json(out), result)
    assert result.of("warning") == []  # what we write reads back cleanly
    assert +tally(out) == expected_tally(tally(source), target, report)
    assert source == source_document(path)  # the input is not modified


VALIDATOR_SAMPLE = (
    ("khr/samples/JointTypes/JointTypes.glb", "OMI", "mesh"),
    ("khr/samples/Triggers/Triggers.gltf", "OMI", "mesh"),
    ("omi/legacy/2024-07_joint_constraints_v1/OMI_physics_joint/pendulum_balls.gltf",
     "KHR", "node"),
    ("omi/current/OMI_physics_gravity/ramp/ramp_gravity.glb", "KHR", "node"),
    ("omi/current/OMI_vehicle_wheel/simple_car.gltf", "KHR", "mesh"),
    ("khr/samples/ShapeTypes/ShapeTypes.gltf", "KHR", "node"),
)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
@pytest.mark.skipif(not gltf_validator.is_available(ROOT),
                    reason="node or node_modules/gltf-validator is missing (run `npm ci`)")
@pytest.mark.parametrize(("relative", "target", "form"), VALIDATOR_SAMPLE,
                         ids=[f"{Path(r).stem}-{t}-{f}" for r, t, f in VALIDATOR_SAMPLE])
def test_converted_files_pass_the_khronos_validator(
    tmp_path: Path, relative: str, target: str, form: str
) -> None:
    source = CORPUS / relative
    gltf, binary = read_asset(source)
    out, report = convert(gltf, target, form)
    written = tmp_path / source.name
    write_asset(written, out, binary)
    copy_resources(out, source.parent, tmp_path, report)
    assert [i for i in report.issues if i.code.startswith("resource")] == []
    result = gltf_validator.validate_file(written, ROOT)
    assert gltf_validator.error_messages(result) == []


def test_copy_resources_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a/data.bin").write_bytes(b"new")
    (tmp_path / "b/data.bin").write_bytes(b"old")
    gltf = {"buffers": [{"uri": "data.bin"}, {"uri": "data:application/octet-stream;base64,AA=="}],
            "images": [{"uri": "../escape.png"}, {"uri": "missing%20file.png"}]}
    report = Report()
    copy_resources(gltf, tmp_path / "a", tmp_path / "b", report)
    assert (tmp_path / "b/data.bin").read_bytes() == b"old"
    assert codes(report) == ["resource-exists", "resource-refused", "resource-missing"]
    shutil.rmtree(tmp_path / "b")
    (tmp_path / "b").mkdir()
    copy_resources(gltf, tmp_path / "a", tmp_path / "b", Report())
    assert (tmp_path / "b/data.bin").read_bytes() == b"new"
