# SPDX-License-Identifier: GPL-3.0-or-later
"""What KHR and OMI cannot say of each other, said truly by the codecs and the converter:
a fully locked rotation in OMI, KHR `geometry.node` children and transforms, the static
partner of a joint side anchored to the world (the Blender import's choice), and a
compound-parent collider's material and filter."""

from __future__ import annotations

import base64
import struct
from typing import Any

import pytest

from gltf_physics.io.asset_files import read_asset
from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.codecs.common import Encoded
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import INFINITE, Motion, NodePhysics, PhysicsScene, Shape
from tests.conftest import CORPUS, SHARED
from tests.support.schemas import PhysicsSchemaValidator

KHR_SHAPES, KHR_BODIES = "KHR_implicit_shapes", "KHR_physics_rigid_bodies"
OMI_SHAPE, OMI_BODY, OMI_JOINT = "OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint"
BOX = {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}
LOCKED = (INFINITE,) * 3


def khr_ext(**payload: Any) -> dict[str, Any]:
    return {"extensions": {KHR_BODIES: payload}}


def khr_document(nodes: list[dict[str, Any]], roots: list[int] | None = None,
                 **root: Any) -> dict[str, Any]:
    children = {c for node in nodes for c in node.get("children", [])}
    extensions: dict[str, Any] = {KHR_SHAPES: {"shapes": [BOX]}}
    if root:
        extensions[KHR_BODIES] = root
    return {
        "asset": {"version": "2.0"}, "scene": 0,
        "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]
                    if roots is None else roots}],
        "nodes": nodes, "extensions": extensions,
        "extensionsUsed": [KHR_SHAPES, KHR_BODIES], **cube_mesh(),
    }


def cube_mesh() -> dict[str, Any]:
    """Mesh 0: a closed unit cube, embedded."""
    points = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    indices = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6,
               0, 6, 4, 1, 5, 7, 1, 7, 3]
    vertices = b"".join(struct.pack("<3f", *p) for p in points)
    data = vertices + b"".join(struct.pack("<H", i) for i in indices)
    return {
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64,"
                     + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": len(vertices), "target": 34962},
                        {"buffer": 0, "byteOffset": len(vertices), "byteLength": 72,
                         "target": 34963}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-0.5] * 3, "max": [0.5] * 3},
                      {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    }


def convert(gltf: dict[str, Any], target: str) -> tuple[dict[str, Any], Report]:
    report = Report()
    out = convert_document(gltf, target, report=report)  # type: ignore[arg-type]
    assert PhysicsSchemaValidator(SHARED / "specs", node_geometry=False).errors(out) == []
    return out, report


def motion_of(gltf: dict[str, Any], index: int) -> dict[str, Any]:
    return gltf["nodes"][index]["extensions"][OMI_BODY]["motion"]


def said(report: Report, code: str) -> list[str]:
    return [issue.where for issue in report.issues if issue.code == code]


# -- a fully locked rotation in OMI -----------------------------------------------------------


def encode_omi(motion: Motion, report: Report) -> Encoded:
    scene = PhysicsScene({0: NodePhysics(motion=motion)})
    return omi.encode_omi(scene, lambda ref: ref, lambda ref: ref, report)


def test_omi_codec_does_not_claim_a_lock_it_cannot_write() -> None:
    report = Report()
    encoded = encode_omi(Motion(mass=2.0, center_of_mass=(0.0, 0.0, 0.0),
                                inertia_diagonal=LOCKED), report)
    assert "inertiaDiagonal" not in encoded.nodes[0][OMI_BODY]["motion"]
    assert report.codes() == ["omi-lock-unwritten"]


def test_omi_inertia_scales_a_full_lock_on_the_colliders_moments() -> None:
    report = Report()
    assert omi.omi_inertia(LOCKED, "here", report, (1.0, 3.0, 2.0)) == (3000.0,) * 3
    assert report.codes() == ["omi-locked-rotation"]
    partial = Report()
    assert omi.omi_inertia((INFINITE, 0.5, INFINITE), "here", partial, (9.0,) * 3) \
        == (500.0, 0.5, 500.0)  # a free moment is the scale, not the colliders'


def test_converter_writes_a_full_khr_lock_as_1000_times_the_colliders_moment() -> None:
    source = khr_document([
        {"name": "Locked", "children": [1],
         **khr_ext(motion={"mass": 5, "inertiaDiagonal": [0, 0, 0]})},
        {"name": "Part", **khr_ext(collider={"geometry": {"shape": 0}})}])
    out, report = convert(source, "OMI")
    # a 1 m cube of 5 kg: 5 × 2 / 12 about each axis
    assert motion_of(out, 0)["inertiaDiagonal"] == pytest.approx([1000 * 5 / 6] * 3)
    assert said(report, "omi-locked-rotation") == ["/nodes/0"]
    assert said(report, "omi-lock-unwritten") == []


def test_converter_scales_a_full_lock_without_mass_at_the_assumed_density() -> None:
    source = khr_document([
        {"name": "Locked", "children": [1], **khr_ext(motion={"inertiaDiagonal": [0, 0, 0]})},
        {"name": "Part", **khr_ext(collider={"geometry": {"shape": 0}})}])
    out, report = convert(source, "OMI")
    # the rule Blender's export uses (mass_bridge): the colliders' volume at 1000 kg/m³
    assert motion_of(out, 0)["inertiaDiagonal"] == pytest.approx([1000 * 1000 / 6] * 3)
    assert said(report, "inertia-assumed-density") == ["/nodes/0"]


def test_converter_says_a_full_lock_without_colliders_cannot_be_written() -> None:
    source = khr_document([{"name": "Locked", **khr_ext(motion={
        "mass": 5, "centerOfMass": [0, 0, 0], "inertiaDiagonal": [0, 0, 0]})}])
    out, report = convert(source, "OMI")
    assert "inertiaDiagonal" not in motion_of(out, 0)
    assert said(report, "omi-lock-unwritten") == ["/nodes/0"]
    assert said(report, "omi-locked-rotation") == []


# -- KHR geometry.node: children and transform --------------------------------------------------


def decode(gltf: dict[str, Any], report: Report) -> PhysicsScene:
    return registry.decode_document(DocumentView.from_json(gltf), report)


def geometry_node_document(target: dict[str, Any], *more: dict[str, Any]) -> dict[str, Any]:
    """Nodes 0 and 1 name node 2 (`target`) in their geometry; `more` follow it."""
    collider = khr_ext(collider={"geometry": {"node": 2, "convexHull": True}})
    return khr_document([{"name": "A", **collider}, {"name": "B", **collider},
                         {"name": "Target", **target}, *more], roots=[0, 1, 2])


def test_geometry_node_children_meshes_are_said_once_per_node() -> None:
    source = geometry_node_document({"mesh": 0, "children": [3]},
                                    {"name": "Child", "mesh": 0, "translation": [0, 3, 0]})
    report = Report()
    scene = decode(source, report)
    assert scene.nodes[0].collider.shape == Shape("convex", mesh=0)  # type: ignore[union-attr]
    assert said(report, "geometry-node-children") == ["/nodes/2"]
    assert "(3)" in report.issues[0].message


def test_geometry_node_with_meshes_only_below_is_said_as_such() -> None:
    source = geometry_node_document({"children": [3, 4]}, {"mesh": 0}, {"mesh": 0})
    report = Report()
    assert 0 not in decode(source, report).nodes
    assert said(report, "geometry-node-children") == ["/nodes/2"]
    assert said(report, "geometry-node-no-mesh") == []  # it has meshes, below it


def test_converter_says_a_moved_geometry_node_once() -> None:
    source = geometry_node_document({"mesh": 0, "translation": [2, 0, 0], "scale": [2, 2, 2]})
    _out, report = convert(source, "OMI")
    assert said(report, "geometry-node-transform") == ["/nodes/2"]


def test_geometry_node_transform_is_not_said_when_nothing_is_lost() -> None:
    samples_form = geometry_node_document({"mesh": 0, "translation": [0, 0, 0],
                                           "rotation": [0, 0, 0, 1]})
    itself = khr_document([{"name": "Self", "mesh": 0, "translation": [1, 0, 0],
                            **khr_ext(collider={"geometry": {"node": 0}})}])
    for source in (samples_form, itself):
        _out, report = convert(source, "OMI")
        assert said(report, "geometry-node-transform") == []


def test_geometry_node_transform_rule_takes_any_transform_test() -> None:
    source = geometry_node_document({"mesh": 0})
    report = Report()
    khr.report_moved_geometry_nodes(DocumentView.from_json(source), lambda node: True, report)
    assert said(report, "geometry-node-transform") == ["/nodes/2"]


def kept_message(source: dict[str, Any]) -> str:
    _out, report = convert(source, "OMI")
    (kept,) = [i.message for i in report.issues if i.code == "geometry-nodes-kept"]
    return kept


def test_a_kept_geometry_node_in_a_scene_is_not_said_unused() -> None:
    visual = {"name": "Visual", "mesh": 0, "translation": [2, 0, 0], "children": [3]}
    in_scene = geometry_node_document(visual, {"name": "VisualChild", "mesh": 0})
    assert kept_message(in_scene).endswith("kept, still in a scene")
    in_no_scene = geometry_node_document({"mesh": 0})
    in_no_scene["scenes"] = [{"nodes": [0, 1]}]
    assert kept_message(in_no_scene).endswith("kept, now unused (in no scene)")


def test_kept_geometry_nodes_in_and_out_of_scenes_are_told_apart() -> None:
    collider = khr_ext(collider={"geometry": {"node": 3, "convexHull": True}})
    source = geometry_node_document({"mesh": 0}, {"name": "Orphan", "mesh": 0},
                                    {"name": "C", **collider})
    source["scenes"] = [{"nodes": [0, 1, 2, 4]}]
    assert kept_message(source) == ("nodes [2, 3] held geometry.node meshes; kept, "
                                    "[3] now unused (in no scene), [2] still in a scene")


# -- the centre of a static joint partner ---------------------------------------------------------


HINGE = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]


def door_on_a_world_frame() -> list[dict[str, Any]]:
    """A door hinged to an anchor under a frame with no motion (its collider 2 m up): the
    frame becomes the door's static partner. Use with `physicsJoints=HINGE`."""
    return [
        {"name": "Door", "children": [1, 2], **khr_ext(motion={"mass": 3})},
        {"name": "DoorCol", **khr_ext(collider={"geometry": {"shape": 0}})},
        {"name": "Hinge", **khr_ext(joint={"joint": 0, "connectedNode": 4})},
        {"name": "Frame", "children": [4, 5]},
        {"name": "Anchor"},
        {"name": "FrameCol", "translation": [0, 2, 0],
         **khr_ext(collider={"geometry": {"shape": 0}})},
    ]


def test_static_joint_partner_gets_no_centre_and_no_warning() -> None:
    """A static body does not move about a centre of mass (`rules.has_simulated_centre`):
    none is computed or written, and nothing is said, as Blender's export does."""
    source = khr_document(door_on_a_world_frame(), physicsJoints=HINGE)
    out, report = convert(source, "OMI")
    assert said(report, "static-partner") == ["/nodes/3"]
    assert said(report, "omi-computed-center") == []
    partner = motion_of(out, 3)
    assert partner["type"] == "static"
    assert "centerOfMass" not in partner
    moving = khr_document([
        {"name": "Crate", "children": [1], **khr_ext(motion={"mass": 3})},
        {"name": "CrateCol", "translation": [0, 2, 0],
         **khr_ext(collider={"geometry": {"shape": 0}})}], physicsJoints=HINGE)
    crate, _report = convert(moving, "OMI")
    assert motion_of(crate, 0)["centerOfMass"] == [0.0, 2.0, 0.0]  # a moving body's is


def partner_of(nodes: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    out, report = convert(khr_document(nodes, physicsJoints=HINGE), "OMI")
    return out, said(report, "static-partner")


def test_a_world_side_partner_is_the_nearest_node_with_colliders_below_it() -> None:
    """Probe K3: the anchor's parent Rail holds the static collider, not the root Rig."""
    out, partners = partner_of([
        {"name": "Rig", "children": [1, 4]},
        {"name": "Rail", "children": [2, 3]},
        {"name": "RailCol", **khr_ext(collider={"geometry": {"shape": 0}})},
        {"name": "RailAnchor", "translation": [-0.75, 0, 0]},
        {"name": "Ball", "children": [5, 6], **khr_ext(motion={})},
        {"name": "BallCol", **khr_ext(collider={"geometry": {"shape": 0}})},
        {"name": "Slider", **khr_ext(joint={"joint": 0, "connectedNode": 3})}])
    assert partners == ["/nodes/1"]
    assert motion_of(out, 1)["type"] == "static"
    assert OMI_BODY not in out["nodes"][0].get("extensions", {})


def test_colliders_under_another_motion_do_not_make_a_partner() -> None:
    """Mid holds only a moving body's collider: the partner is Top, above it."""
    out, partners = partner_of([
        {"name": "Root", "children": [1]},
        {"name": "Top", "children": [2, 7]},
        {"name": "Mid", "children": [3, 4]},
        {"name": "Anchor"},
        {"name": "Ball", "children": [5, 6], **khr_ext(motion={})},
        {"name": "BallCol", **khr_ext(collider={"geometry": {"shape": 0}})},
        {"name": "Joint", **khr_ext(joint={"joint": 0, "connectedNode": 3})},
        {"name": "TopCol", **khr_ext(collider={"geometry": {"shape": 0}})}])
    assert partners == ["/nodes/1"]
    assert motion_of(out, 1)["type"] == "static"


@pytest.mark.parametrize("joint_node", [2, 3], ids=["K1-connected-root", "K2-joint-at-root"])
def test_a_world_side_without_colliders_above_is_its_tree_root(joint_node: int) -> None:
    nodes: list[dict[str, Any]] = [
        {"name": "Door", "children": [1, 2], **khr_ext(motion={"mass": 3})},
        {"name": "DoorCol", **khr_ext(collider={"geometry": {"shape": 0}})},
        {"name": "DoorFrame"}, {"name": "World"}]
    nodes[joint_node].update(khr_ext(joint={"joint": 0, "connectedNode": 5 - joint_node}))
    out, partners = partner_of(nodes)
    assert partners == ["/nodes/3"]
    assert motion_of(out, 3)["type"] == "static"


def omi_bodies(gltf: dict[str, Any]) -> dict[str, str]:
    """Node name → OMI motion type."""
    return {node["name"]: node["extensions"][OMI_BODY]["motion"]["type"]
            for node in gltf["nodes"] if "motion" in node.get("extensions", {}).get(OMI_BODY, {})}


def omi_joined(gltf: dict[str, Any]) -> list[tuple[str, str]]:
    """The names of the bodies each OMI joint joins."""
    nodes = gltf["nodes"]
    parent = {c: i for i, node in enumerate(nodes) for c in node.get("children", [])}

    def body(index: int) -> str:
        while OMI_BODY not in nodes[index].get("extensions", {}) \
                or "motion" not in nodes[index]["extensions"][OMI_BODY]:
            index = parent[index]
        return nodes[index]["name"]

    return sorted((body(i), body(node["extensions"][OMI_JOINT]["connectedNode"]))
                  for i, node in enumerate(nodes) if OMI_JOINT in node.get("extensions", {}))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not beside the checkout")
def test_pendulum_balls_through_khr_keeps_its_static_body() -> None:
    """OMI → KHR → OMI: the hinges' static partner is TopBody again, not the scene root."""
    path = CORPUS / "omi/current/OMI_physics_joint/pendulum_balls.gltf"
    source, _binary = read_asset(path)
    khr_form, _report = convert(source, "KHR")
    out, report = convert(khr_form, "OMI")
    assert omi_bodies(out) == omi_bodies(source)
    assert omi_joined(out) == omi_joined(source)
    assert said(report, "static-partner") == ["/nodes/1"]


# -- a compound-parent collider -----------------------------------------------------------------


MATERIAL = {"staticFriction": 0.9, "dynamicFriction": 0.8, "restitution": 0.1}
FILTER = {"collisionSystems": ["A"], "collideWithSystems": ["A"]}
PASSED, DROPPED = "compound-parent-passed-down", "compound-parent-dropped"


def omi_document(nodes: list[dict[str, Any]], **root: Any) -> dict[str, Any]:
    children = {c for node in nodes for c in node.get("children", [])}
    return {
        "asset": {"version": "2.0"}, "scene": 0,
        "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}],
        "nodes": nodes,
        "extensions": {OMI_SHAPE: {"shapes": [BOX]}, **({OMI_BODY: root} if root else {})},
        "extensionsUsed": [OMI_SHAPE, OMI_BODY],
    }


def omi_collider(name: str, collider: dict[str, Any], **node: Any) -> dict[str, Any]:
    return {"name": name, **node, "extensions": {OMI_BODY: {"collider": collider}}}


def omi_compound(collider: dict[str, Any], box: dict[str, Any] | None = None,
                 **root: Any) -> dict[str, Any]:
    """Node 0: the shapeless `collider`; node 1 below it: a box collider (with `box`)."""
    return omi_document([omi_collider("Compound", collider, children=[1]),
                         omi_collider("Box", {"shape": 0, **(box or {})})], **root)


def collider_parts(gltf: dict[str, Any], index: int) -> tuple[Any, Any]:
    """The material and filter written on node `index`'s collider (KHR or OMI)."""
    extensions = gltf["nodes"][index]["extensions"]
    name = KHR_BODIES if KHR_BODIES in extensions else OMI_BODY
    collider, pools = extensions[name]["collider"], gltf["extensions"].get(name, {})
    material, flt = collider.get("physicsMaterial"), collider.get("collisionFilter")
    return (None if material is None else pools["physicsMaterials"][material],
            None if flt is None else pools["collisionFilters"][flt])


def issues(report: Report) -> list[tuple[str, str, str]]:
    return [(i.severity, i.code, i.where) for i in report.issues]


@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_a_bare_compound_parent_is_a_note_not_a_loss(target: str) -> None:
    _out, report = convert(omi_compound({}), target)
    assert [(i.severity, i.code) for i in report.issues] == [("info", "compound-parent-omitted")]
    assert "dropped" not in report.issues[0].message


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not beside the checkout")
@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_the_corpus_bare_compound_collider_passes_nothing_down(target: str) -> None:
    path = CORPUS / "omi/current/OMI_physics_body/complex/static_compound_collider.gltf"
    _out, report = convert(read_asset(path)[0], target)
    assert report.codes() == ["compound-parent-omitted"]


@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_a_compound_parents_material_and_filter_go_to_its_child_colliders(target: str) -> None:
    """Probe O1: a body's shapeless collider holds the material and filter of its parts."""
    source = omi_document([
        {"name": "Body", "children": [1, 2], "extensions": {OMI_BODY: {
            "motion": {"type": "dynamic", "mass": 2},
            "collider": {"physicsMaterial": 0, "collisionFilter": 0}}}},
        omi_collider("ColA", {"shape": 0}),
        omi_collider("ColB", {"shape": 0}, translation=[1, 0, 0])],
        physicsMaterials=[MATERIAL], collisionFilters=[FILTER])
    out, report = convert(source, target)
    for index in (1, 2):
        material, flt = collider_parts(out, index)
        assert {key: material[key] for key in MATERIAL} == MATERIAL
        assert flt == FILTER
    assert issues(report) == [("info", PASSED, f"/nodes/0/extensions/{OMI_BODY}/collider")]


@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_a_compound_parent_material_no_child_takes_is_said_lost(target: str) -> None:
    own = {"staticFriction": 0.1, "dynamicFriction": 0.1, "restitution": 0.5}
    out, report = convert(omi_compound({"physicsMaterial": 0}, {"physicsMaterial": 1},
                                       physicsMaterials=[MATERIAL, own]), target)
    assert {key: collider_parts(out, 1)[0][key] for key in own} == own
    assert issues(report) == [("warning", DROPPED, f"/nodes/0/extensions/{OMI_BODY}/collider")]
    assert "physics material" in report.issues[0].message
    assert "collision filter" not in report.issues[0].message


def test_compound_parents_are_said_once_per_code() -> None:
    """Nodes 0 and 2 pass their material down, node 4's child has its own: two issues."""
    source = omi_document([
        omi_collider("A", {"physicsMaterial": 0}, children=[1]),
        omi_collider("ABox", {"shape": 0}),
        omi_collider("B", {"collisionFilter": 0}, children=[3], translation=[3, 0, 0]),
        omi_collider("BBox", {"shape": 0}),
        omi_collider("C", {"physicsMaterial": 0}, children=[5], translation=[6, 0, 0]),
        omi_collider("CBox", {"shape": 0, "physicsMaterial": 0})],
        physicsMaterials=[MATERIAL], collisionFilters=[FILTER])
    out, report = convert(source, "KHR")
    assert issues(report) == [("info", PASSED, "/nodes"),
                              ("warning", DROPPED, f"/nodes/4/extensions/{OMI_BODY}/collider")]
    assert "the physics material of node 0; the collision filter of node 2" in \
        report.issues[0].message
    assert collider_parts(out, 3) == (None, FILTER)
