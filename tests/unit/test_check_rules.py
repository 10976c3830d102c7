# SPDX-License-Identifier: GPL-3.0-or-later
"""The checker's rules beyond the schemas, one hand-made document each: references,
declarations, placement, numbers (errors), risks (warnings), notes. Also the shared rules
module and that no rule has a second copy."""

from __future__ import annotations

import base64
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gltf_physics.io import rules
from gltf_physics.io.check.checker import check_document
from gltf_physics.io.check.codes import CODES
from gltf_physics.io.diagnostics import Issue
from tests.conftest import ROOT

Json = dict[str, Any]
OMI = "OMI_physics_body"
KHR = "KHR_physics_rigid_bodies"


def document(*nodes: Json, root: Json | None = None, **extra: Any) -> Json:
    """A glTF document of `nodes`; extensionsUsed lists every extension it uses."""
    root = root or {}
    used = set(root)
    for n in nodes:
        used.update(n.get("extensions", {}))
    return {"asset": {"version": "2.0"}, "extensionsUsed": sorted(used), "nodes": list(nodes),
            "extensions": root, **extra}


def node(children: tuple[int, ...] = (), **extensions: Any) -> Json:
    out: Json = {"extensions": extensions}
    if children:
        out["children"] = list(children)
    return out


def catalogued(issues: list[Issue]) -> None:
    """Every finding's code is in the catalogue, with its severity."""
    for issue in issues:
        assert CODES.get(issue.code, ("uncatalogued",))[0] == issue.severity, issue


def findings(gltf: Json, severity: str | None = None) -> set[tuple[str, str]]:
    """(code, pointer) of every finding (of one severity)."""
    report = check_document(gltf)
    assert "check-failed" not in report.codes()
    catalogued(report.issues)
    return {(i.code, i.where) for i in report.issues if severity in (None, i.severity)}


BOX = {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}}
KHR_BOX = {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}}
DYNAMIC = {"type": "dynamic", "mass": 1}


def test_a_clean_document_has_no_findings() -> None:
    gltf = document(node((1,), **{OMI: {"motion": DYNAMIC}}),
                    node(**{OMI: {"collider": {"shape": 0}}}), root=BOX)
    assert findings(gltf) == set()


# -- references and declarations -------------------------------------------------------------


def test_indices_past_the_end_are_errors() -> None:
    gltf = document(node(**{OMI: {"collider": {"shape": 3, "physicsMaterial": 0}}}), root=BOX)
    assert findings(gltf, "error") == {
        ("bad-index", "/nodes/0/extensions/OMI_physics_body/collider/shape"),
        ("bad-index", "/nodes/0/extensions/OMI_physics_body/collider/physicsMaterial")}


def test_a_none_sentinel_and_a_decimal_index() -> None:
    gltf = document(node(**{OMI: {"collider": {"shape": -1}}}),
                    node(**{OMI: {"collider": {"shape": 0.0}}}), root=BOX)
    assert findings(gltf) == {
        ("none-sentinel", "/nodes/0/extensions/OMI_physics_body/collider/shape"),
        ("float-index", "/nodes/1/extensions/OMI_physics_body/collider/shape")}


def test_a_decimal_index_is_a_type_error_in_the_draft_4_revision() -> None:
    gltf = document(node(**{KHR: {"collider": {"shape": 0.0}}}),
                    root={"KHR_collision_shapes": {"shapes": [{"type": "sphere",
                                                               "sphere": {"radius": 1}}]}})
    assert ("wrong-type", f"/nodes/0/extensions/{KHR}/collider/shape") in findings(gltf)


def test_extension_declarations() -> None:
    gltf = document(node(**{OMI: {"collider": {"shape": 0}}}), root=BOX)
    gltf["extensionsUsed"] = ["OMI_physics_body"]
    gltf["extensionsRequired"] = ["OMI_physics_body", "KHR_texture_transform"]
    assert findings(gltf) == {
        ("extension-not-declared", "/extensionsUsed"),
        ("physics-required", "/extensionsRequired/0"),
        ("required-not-used", "/extensionsRequired/1")}


def test_non_finite_numbers_are_errors() -> None:
    gltf = document(node(**{OMI: {"motion": {"type": "dynamic", "mass": math.nan,
                                             "linearVelocity": [0, math.inf, 0]}}}))
    assert findings(gltf, "error") == {
        ("not-finite", "/nodes/0/extensions/OMI_physics_body/motion/mass"),
        ("not-finite", "/nodes/0/extensions/OMI_physics_body/motion/linearVelocity/1")}


# -- placement -------------------------------------------------------------------------------


@pytest.mark.parametrize("family", [OMI, KHR])
def test_compound_trigger_members(family: str) -> None:
    shape = {"shape": 0} if family == OMI else {"geometry": {"shape": 0}}
    gltf = document(node((1,), **{family: {"trigger": {"nodes": [1, 2]}}}),
                    node(**{family: {"trigger": shape}}),
                    node(**{family: {"collider": shape}}),
                    root=BOX if family == OMI else KHR_BOX)
    base = f"/nodes/0/extensions/{family}/trigger/nodes/1"
    assert findings(gltf, "error") == {("trigger-member-outside", base),
                                       ("trigger-member-no-trigger", base)}


def test_omi_joints_join_two_bodies() -> None:
    joint = {"OMI_physics_joint": {"joint": 0, "connectedNode": 2}}
    root = {**BOX, "OMI_physics_joint": {"physicsJoints": [{"limits": []}]}}
    ok = document(node((1,), **{OMI: {"motion": DYNAMIC}}), node(**joint),
                  node(**{OMI: {"motion": {"type": "static"}}}), root=root)
    assert findings(ok) == set()
    loose = document(node((1,), **{OMI: {"motion": DYNAMIC}}), node(**joint), node(), root=root)
    assert findings(loose) == {("joint-body-missing", "/nodes/1/extensions/OMI_physics_joint")}
    both_static = document(node((1,), **{OMI: {"motion": {"type": "static"}}}), node(**joint),
                           node(**{OMI: {"motion": {"type": "kinematic"}}}), root=root)
    assert findings(both_static) == {
        ("joint-not-dynamic", "/nodes/1/extensions/OMI_physics_joint")}
    same = document(node((1, 2), **{OMI: {"motion": DYNAMIC}}), node(**joint), node(), root=root)
    assert findings(same) == {("joint-same-body", "/nodes/1/extensions/OMI_physics_joint")}


def test_khr_joints_may_anchor_one_side_to_the_world() -> None:
    root = {KHR: {"physicsJoints": [{"limits": [{"linearAxes": [0], "min": 0, "max": 0}]}]}}
    joint = {"joint": {"joint": 0, "connectedNode": 1}}
    anchored = document(node(**{KHR: {"motion": {"mass": 1}, **joint}}), node(), root=root)
    assert findings(anchored) == set()
    nowhere = document(node(**{KHR: joint}), node(), root=root)
    assert findings(nowhere) == {("joint-body-missing", f"/nodes/0/extensions/{KHR}/joint")}
    itself = document(node(**{KHR: {"motion": {"mass": 1},
                                    "joint": {"joint": 0, "connectedNode": 0}}}), root=root)
    assert findings(itself) == {("joint-same-body", f"/nodes/0/extensions/{KHR}/joint")}


def test_vehicle_parts_seats_and_bodies() -> None:
    wheels = {"OMI_vehicle_wheel": {"wheels": [{"radius": 0.3}]}}
    gltf = document(
        node((1,), **{OMI: {"motion": DYNAMIC}, "OMI_vehicle_body": {"pilotSeat": 3}}),
        node(OMI_vehicle_wheel={"wheel": 0}),
        node(OMI_vehicle_wheel={"wheel": 0}),
        node(),
        node(**{OMI: {"motion": {"type": "kinematic"}}, "OMI_vehicle_body": {}}),
        root=wheels)
    assert findings(gltf) == {
        ("part-outside-vehicle", "/nodes/2/extensions/OMI_vehicle_wheel"),
        ("pilot-seat-not-a-seat", "/nodes/0/extensions/OMI_vehicle_body/pilotSeat"),
        ("vehicle-not-dynamic", "/nodes/4/extensions/OMI_vehicle_body")}


def test_a_khr_geometry_node_needs_a_mesh() -> None:
    gltf = document(node(**{KHR: {"collider": {"geometry": {"node": 1}}}}), node(),
                    node((3,)), node(mesh=0), meshes=[{"primitives": []}])
    gltf["nodes"][3]["mesh"] = 0
    assert findings(gltf) == {("geometry-node-no-mesh",
                               f"/nodes/0/extensions/{KHR}/collider/geometry/node")}
    gltf["nodes"][0]["extensions"][KHR]["collider"]["geometry"]["node"] = 2
    assert findings(gltf) == set()


def test_a_khr_shape_with_another_types_object_is_an_error() -> None:
    """KHR_implicit_shapes: a box "must not have a defined sphere property" (no schema says
    it): the checker was silent and the converter dropped the sphere unsaid."""
    shapes = [{"type": "box", "box": {"size": [1, 2, 3]}, "sphere": {"radius": 1},
               "capsule": {}}, {"type": "sphere", "sphere": {"radius": 1}}]
    gltf = document(node(**{KHR: {"collider": {"geometry": {"shape": 0}}}}),
                    root={"KHR_implicit_shapes": {"shapes": shapes}})
    where = "/extensions/KHR_implicit_shapes/shapes/0"
    assert findings(gltf, "error") == {("shape-other-part", f"{where}/sphere"),
                                       ("shape-other-part", f"{where}/capsule")}
    del shapes[0]["sphere"], shapes[0]["capsule"]
    assert findings(gltf, "error") == set()
    from gltf_physics.io.convert import convert_document
    from gltf_physics.io.diagnostics import Report
    shapes[0]["sphere"] = {"radius": 1}
    report = Report()
    out = convert_document(gltf, "KHR", report=report)
    assert [i.where for i in report.issues if i.code == "shape-other-part"] == [f"{where}/sphere"]
    assert out["extensions"]["KHR_implicit_shapes"]["shapes"][0] == {"type": "box",
                                                                    "box": {"size": [1, 2, 3]}}


def test_readme_vectors() -> None:
    gltf = document(node(**{OMI: {"motion": {**DYNAMIC, "linearVelocity": [1, 2],
                                             "inertiaDiagonal": [1, 0, 0, 0]}}}),
                    node(OMI_seat={"back": [0, 0, 0], "foot": [0, 1], "knee": [0, 0, 1]}))
    assert findings(gltf) == {
        ("bad-vector", "/nodes/0/extensions/OMI_physics_body/motion/linearVelocity"),
        ("godot-inertia", "/nodes/0/extensions/OMI_physics_body/motion/inertiaDiagonal"),
        ("bad-vector", "/nodes/1/extensions/OMI_seat/foot")}


# -- warnings --------------------------------------------------------------------------------


def test_degenerate_and_short_shapes_in_every_layout() -> None:
    omi = {"OMI_physics_shape": {"shapes": [
        {"type": "sphere", "sphere": {"radius": 0}},
        {"type": "capsule", "capsule": {"radius": 0.5, "height": 0.8}},  # pre-2025, full
        {"type": "capsule", "capsule": {"radius": 0.5, "height": 1.2}},
        {"type": "cylinder"},  # defaults
    ]}}
    khr = {"KHR_implicit_shapes": {"shapes": [
        {"type": "capsule", "capsule": {"height": 0.1, "radiusTop": 0.5, "radiusBottom": 0.1}},
        {"type": "capsule", "capsule": {"height": 0.5, "radiusTop": 0.5, "radiusBottom": 0.1}},
        {"type": "cylinder", "cylinder": {"radiusTop": 0, "radiusBottom": 0}},
    ]}}
    flat = {"OMI_collider": {"colliders": [{"type": "capsule", "radius": 1, "height": 1.5}]}}
    assert findings(document(root={**omi, **khr, **flat})) == {
        ("degenerate-size", "/extensions/OMI_physics_shape/shapes/0"),
        ("short-capsule", "/extensions/OMI_physics_shape/shapes/1"),
        ("short-capsule", "/extensions/KHR_implicit_shapes/shapes/0"),
        ("degenerate-shape", "/extensions/KHR_implicit_shapes/shapes/2"),  # (prohibited)
        ("short-capsule", "/extensions/OMI_collider/colliders/0"),
        ("mixed-families", ""),
        ("legacy-omi-collider", "/extensions/OMI_collider"),
        ("legacy-radius", "/extensions/OMI_physics_shape/shapes/1/capsule"),
    }


def mesh_document(points: np.ndarray, uri: str | None = None) -> Json:
    data = points.astype("<f4").tobytes()
    uri = uri or "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    gltf = document(node(mesh=0, **{OMI: {"motion": DYNAMIC, "collider": {"shape": 0}}}),
                    root={"OMI_physics_shape": {"shapes": [{"type": "convex",
                                                            "convex": {"mesh": 0}}]}})
    gltf["nodes"][0]["mesh"] = 0
    gltf.update(
        buffers=[{"byteLength": len(data), "uri": uri}],
        bufferViews=[{"buffer": 0, "byteLength": len(data)}],
        accessors=[{"bufferView": 0, "componentType": 5126, "count": len(points),
                    "type": "VEC3"}],
        meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}])
    return gltf


def test_convex_hulls_read_from_the_buffers() -> None:
    where = "/extensions/OMI_physics_shape/shapes/0"
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
    assert findings(mesh_document(cube)) == set()
    square = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0]])
    assert findings(mesh_document(square)) == {("flat-hull", where)}
    rng = np.random.default_rng(1)
    sphere = rng.normal(size=(600, 3))
    sphere /= np.linalg.norm(sphere, axis=1)[:, None]
    report = check_document(mesh_document(sphere))
    [issue] = report.issues
    assert (issue.code, issue.where) == ("hull-too-many-points", where)
    assert re.fullmatch(r"the hull has 600 points \(engines take 255\)", issue.message)
    assert findings(mesh_document(cube, uri="missing.bin")) == {("mesh-not-read", where)}


def test_moving_trimesh_and_scaled_round_shapes() -> None:
    shapes = {"OMI_physics_shape": {"shapes": [
        {"type": "trimesh", "trimesh": {"mesh": 0}}, {"type": "sphere", "sphere": {}},
        {"type": "box", "box": {}}]}}
    gltf = document(node((1, 2, 3), **{OMI: {"motion": DYNAMIC}}),
                    node(**{OMI: {"collider": {"shape": 0}}}),
                    node(**{OMI: {"collider": {"shape": 1}}}),
                    node(**{OMI: {"collider": {"shape": 2}}}),
                    root=shapes, meshes=[{"primitives": []}])
    gltf["nodes"][0]["scale"] = [1, 2, 1]
    gltf["nodes"][3]["scale"] = [-1, 0.5, 1]
    assert findings(gltf) == {
        ("moving-trimesh", "/nodes/1/extensions/OMI_physics_body/collider"),
        ("non-uniform-scale", "/nodes/2/extensions/OMI_physics_body/collider"),
        ("negative-scale", "/nodes/3/extensions/OMI_physics_body/collider")}


def test_khr_bodies_left_to_the_engine() -> None:
    root = {**KHR_BOX, KHR: {"physicsMaterials": [{"staticFriction": 0.5},
                                                 {"frictionCombine": "minimum",
                                                  "restitutionCombine": "maximum"}]}}
    gltf = document(node(**{KHR: {"motion": {}, "collider": {"geometry": {"shape": 0},
                                                             "physicsMaterial": 1}}}),
                    node(**{KHR: {"motion": {"isKinematic": True}}}),
                    node(**{KHR: {"motion": {"mass": 0, "inertiaDiagonal": [1, 0, 1]}}}),
                    root=root)
    motion = f"/nodes/2/extensions/{KHR}/motion"
    assert findings(gltf) == {
        ("mass-unset", f"/nodes/0/extensions/{KHR}/motion"),
        ("infinite-mass", f"{motion}/mass"), ("infinite-inertia", f"{motion}/inertiaDiagonal"),
        ("combine-unset", f"/extensions/{KHR}/physicsMaterials/0")}


def test_an_omi_mass_that_is_not_positive() -> None:
    gltf = document(node(**{OMI: {"motion": {"type": "dynamic", "mass": 0}}}),
                    node(**{OMI: {"motion": {"type": "dynamic", "mass": -2}}}))
    assert findings(gltf) == {
        ("mass-not-positive", f"/nodes/{n}/extensions/OMI_physics_body/motion/mass")
        for n in (0, 1)}


def test_mixed_limits_families_and_seats() -> None:
    root = {"OMI_physics_joint": {"physicsJoints": [{"limits": [
        {"linearAxes": [0], "angularAxes": [1, 2], "min": 0, "max": 0}]}]}}
    gltf = document(node(OMI_seat={"back": [0, 0, 0], "foot": [0, 0, 2], "knee": [0, 0, 1]}),
                    node(**{KHR: {}}), root=root)
    assert findings(gltf) == {
        ("limit-mixed-axes", "/extensions/OMI_physics_joint/physicsJoints/0/limits/0"),
        ("mixed-families", ""), ("seat-collinear", "/nodes/0/extensions/OMI_seat")}


def test_notes() -> None:
    gltf = document(node(OMI_spawn_point={"title": "Start"}))
    report = check_document(gltf, name="some dir/scene.glb")
    assert report.codes() == ["not-checked"]
    legacy = document(node(**{OMI: {"type": "rigid"}}))
    [note] = check_document(legacy, name="some dir/scene.glb").issues
    assert (note.severity, note.code) == ("info", "legacy-omi-body-type")
    assert "`python3 scripts/convert.py 'some dir/scene.glb' 'some dir/scene-current.glb' " \
           "--to omi`" in note.message


@pytest.mark.parametrize("value", [None, [], "glTF", 3])
def test_a_document_that_is_not_an_object(value: Any) -> None:
    assert check_document(value).codes() == ["not-gltf"]


# -- the shared rules ----------------------------------------------------------------------------


def test_shared_rule_predicates() -> None:
    assert rules.is_moving_trimesh("trimesh", "kinematic")
    assert not rules.is_moving_trimesh("trimesh", None) and not rules.is_moving_trimesh(
        "convex", "dynamic")
    assert rules.scale_rule("box", (-1, 1, 1)) is rules.NEGATIVE_SCALE
    assert rules.scale_rule("capsule", (1, 1.01, 1)) is rules.NON_UNIFORM_SCALE
    assert rules.scale_rule("box", (1, 2, 3)) is None
    assert rules.critical_sizes("capsule", radius_top=0, radius_bottom=0.2) == (0.2,)
    assert rules.is_degenerate((1, rules.MIN_SIZE)) and not rules.is_degenerate((1, 0.01))
    assert rules.is_short_capsule(0.9, 1.0) and not rules.is_short_capsule(1.0, 1.0)
    assert rules.has_too_many_hull_points(256) and not rules.has_too_many_hull_points(255)
    assert rules.is_flat_hull(3, 1.0) and rules.is_flat_hull(8, 0.0)
    assert rules.has_dynamic_side(["static", "dynamic"]) and not rules.has_dynamic_side([None])
    assert rules.under_vehicle([3, 2, 1], lambda n: n == 1)
    assert rules.part_label("HOVER_THRUSTER") == rules.part_label("hoverThruster")


def test_no_rule_has_a_second_copy() -> None:
    """Each shared rule's code is spelt only in io/rules.py: the scene check, the file checker
    and the schema rules ask it for codes and messages."""
    sources = [p for folder in ("io", "operators", "panels", "scripts")
               for p in (ROOT / folder).rglob("*.py") if p != ROOT / "io/rules.py"]
    for rule in rules.RULES:
        spelt = [p.relative_to(ROOT) for p in sources if f'"{rule.code}"' in p.read_text()
                 and Path(p).name != "__init__.py"]
        assert spelt == [], f"{rule.code} is spelt out in {spelt}"


def test_the_readme_lists_every_code() -> None:
    """The README's list of codes is the catalogue, and the shared rules' severities agree."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("The codes:")
    listed = text[start:text.index("\n\n", start)]
    assert set(re.findall(r"`([a-z0-9-]+)`", listed)) == set(CODES)
    for rule in rules.RULES:
        assert CODES[rule.code][0] == rule.severity, rule
