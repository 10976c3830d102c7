# SPDX-License-Identifier: GPL-3.0-or-later
"""What KHR and OMI cannot say of each other, said truly by the codecs and the converter:
a fully locked rotation in OMI, KHR `geometry.node` children and transforms, the centre of
a static joint partner, and a dropped compound-parent collider."""

from __future__ import annotations

import base64
import struct
from typing import Any

import pytest

from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.codecs.common import Encoded
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import INFINITE, Motion, NodePhysics, PhysicsScene, Shape
from tests.conftest import SHARED
from tests.support.schemas import PhysicsSchemaValidator

KHR_SHAPES, KHR_BODIES = "KHR_implicit_shapes", "KHR_physics_rigid_bodies"
OMI_SHAPE, OMI_BODY = "OMI_physics_shape", "OMI_physics_body"
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


# -- the centre of a static joint partner ---------------------------------------------------------


def test_static_joint_partner_gets_its_colliders_centre_without_a_warning() -> None:
    joint = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]
    source = khr_document([
        {"name": "Door", "children": [1, 2], **khr_ext(motion={"mass": 3})},
        {"name": "DoorCol", **khr_ext(collider={"geometry": {"shape": 0}})},
        {"name": "Hinge", **khr_ext(joint={"joint": 0, "connectedNode": 4})},
        {"name": "Frame", "children": [4, 5]},
        {"name": "Anchor"},
        {"name": "FrameCol", "translation": [0, 2, 0],
         **khr_ext(collider={"geometry": {"shape": 0}})},
    ], physicsJoints=joint)
    out, report = convert(source, "OMI")
    assert said(report, "static-partner") == ["/nodes/3"]
    assert said(report, "omi-computed-center") == []
    partner = motion_of(out, 3)
    assert partner["type"] == "static"
    assert partner["centerOfMass"] == [0.0, 2.0, 0.0]  # as Blender's export computes it


# -- a compound-parent collider -----------------------------------------------------------------


def omi_compound(collider: dict[str, Any], **root: Any) -> dict[str, Any]:
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Compound", "children": [1],
                   "extensions": {OMI_BODY: {"collider": collider}}},
                  {"name": "Box", "extensions": {OMI_BODY: {"collider": {"shape": 0}}}}],
        "extensions": {OMI_SHAPE: {"shapes": [BOX]}, **({OMI_BODY: root} if root else {})},
        "extensionsUsed": [OMI_SHAPE, OMI_BODY],
    }


@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_a_bare_compound_parent_is_a_note_not_a_loss(target: str) -> None:
    _out, report = convert(omi_compound({}), target)
    assert [(i.severity, i.code) for i in report.issues] == [("info", "compound-parent-omitted")]
    assert "dropped" not in report.issues[0].message


@pytest.mark.parametrize("target", ["KHR", "OMI"])
def test_a_compound_parent_material_is_said_lost(target: str) -> None:
    material = {"staticFriction": 0.9, "dynamicFriction": 0.8, "restitution": 0.1}
    _out, report = convert(omi_compound({"physicsMaterial": 0}, physicsMaterials=[material]),
                           target)
    dropped = [i for i in report.issues if i.code == "compound-parent-dropped"]
    assert [i.severity for i in dropped] == ["warning"]
    assert "physics material" in dropped[0].message
    assert "collision filter" not in dropped[0].message
