# SPDX-License-Identifier: GPL-3.0-or-later
"""The optional `name` of a pooled entry (shape, physics material, collision filter, joint
settings) is read, carried by the model and written again, in both families (no bpy)."""

from __future__ import annotations

from typing import Any

import pytest

from gltf_physics.io.check.checker import check_document
from gltf_physics.io.codecs import omi_gravity
from gltf_physics.io.codecs.common import Pool
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.gravity import Gravity
from gltf_physics.io.json_read import MAX_NAME, JsonReader
from gltf_physics.io.model import (
    Collider,
    CollisionFilter,
    Joint,
    JointLimit,
    JointSettings,
    Motion,
    NodePhysics,
    PhysicsMaterial,
    Shape,
)
from tests.unit.test_core_codecs import (
    FORMATS,
    KHR_BODIES,
    KHR_SHAPES,
    assemble,
    body,
    body_root,
    decode,
    encode,
    issues,
    scene_of,
    shapes_of,
)

ICE = PhysicsMaterial(0.05, 0.03, name="Ice (Pëak) 2")
WALLS = CollisionFilter(("walls",), ("player",), name="Walls only")
HINGE = JointSettings((JointLimit(angular_axes=(0, 1)), JointLimit(angular_axes=(2,),
                                                                   min=-1.0, max=1.0)),
                      name="Door hinge")


def named_scene() -> Any:
    return scene_of(  # (a dynamic ball: a joint between colliders alone is no joint)
        NodePhysics(collider=Collider(Shape("box", size=(1.0, 2.0, 3.0), name="Crate box"),
                                      ICE, WALLS)),
        NodePhysics(motion=Motion(kind="dynamic", mass=1.0),
                    collider=Collider(Shape("sphere", radius=0.5), PhysicsMaterial(0.05, 0.03),
                                      CollisionFilter(("walls",), ("player",)))),
        NodePhysics(joint=Joint(HINGE, connected_node=1)),
    )


def joints_of(fmt: str, encoded: Any) -> list[dict[str, Any]]:
    name = "OMI_physics_joint" if fmt == "omi" else KHR_BODIES
    return encoded.root[name]["physicsJoints"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_names_are_written_and_read_back(fmt: str, validator: Any) -> None:
    encoded = encode(fmt, named_scene())
    root = body_root(fmt, encoded)
    assert [m.get("name") for m in root["physicsMaterials"]] == ["Ice (Pëak) 2", None]
    assert [f.get("name") for f in root["collisionFilters"]] == ["Walls only", None]
    assert [s.get("name") for s in shapes_of(fmt, encoded)] == ["Crate box", None]
    assert [j.get("name") for j in joints_of(fmt, encoded)] == ["Door hinge"]
    gltf = assemble(encoded, 3)
    assert validator.errors(gltf) == []
    nodes = decode(gltf).nodes
    collider = nodes[0].collider
    assert (collider.shape.name, collider.material.name, collider.filter.name) == (
        "Crate box", "Ice (Pëak) 2", "Walls only")
    assert nodes[1].collider.material.name == nodes[1].collider.filter.name == ""
    assert nodes[2].joint.settings.name == "Door hinge"


@pytest.mark.parametrize("fmt", FORMATS)
def test_entries_differing_only_by_name_stay_apart(fmt: str) -> None:
    encoded = encode(fmt, named_scene())
    colliders = [body(fmt, encoded, i)["collider"] for i in range(2)]
    assert [c["physicsMaterial"] for c in colliders] == [0, 1]
    assert [c["collisionFilter"] for c in colliders] == [0, 1]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_named_joint_without_limits_or_drives_is_still_not_written(fmt: str) -> None:
    report = Report()
    scene = scene_of(NodePhysics(joint=Joint(JointSettings(name="empty"), connected_node=1)),
                     NodePhysics())
    encoded = encode(fmt, scene, report)
    assert issues(report, "joint-empty") == ["node 0"]
    assert not encoded.nodes.get(0)


@pytest.mark.parametrize("form", ["khr-mesh", "khr-node"])
def test_a_khr_mesh_shape_has_no_place_for_its_name_and_says_so(form: str) -> None:
    report = Report()
    scene = scene_of(NodePhysics(collider=Collider(Shape("convex", mesh=0, name="Rock hull"))))
    encode(form, scene, report)
    assert issues(report, "shape-name-not-written") == ["node 0"]


def test_omi_mesh_and_plane_shapes_keep_their_names() -> None:
    scene = scene_of(NodePhysics(collider=Collider(Shape("convex", mesh=0, name="Rock hull"))),
                     NodePhysics(collider=Collider(Shape("plane", name="Ground"))))
    assert [s.get("name") for s in shapes_of("omi", encode("omi", scene))] == [
        "Rock hull", "Ground"]


@pytest.mark.parametrize(("value", "problem"), [
    (7, "is not a string"),
    ("x" * (MAX_NAME + 1), f"is longer than {MAX_NAME} characters"),
    ("a\0b", "holds a NUL character"),
    ("crate \ud800", "is not valid Unicode (a lone surrogate)"),  # JSON's "\ud800" escape
])
def test_a_name_that_cannot_be_kept_is_said_and_left_out(value: Any, problem: str) -> None:
    report = Report()
    assert JsonReader(report).text({"name": value}, "name", "/extensions/X/shapes/0") == ""
    [issue] = report.issues
    assert (issue.code, issue.where) == ("name-not-kept", "/extensions/X/shapes/0/name")
    assert problem in issue.message


def test_the_longest_name_is_kept() -> None:
    report = Report()
    assert JsonReader(report).text({"name": "é" * MAX_NAME}, "name", "") == "é" * MAX_NAME
    assert not report.issues


def test_a_bad_name_costs_only_the_name() -> None:
    report = Report()
    gltf = {"asset": {"version": "2.0"}, "nodes": [{"extensions": {KHR_BODIES: {
        "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}}}],
        "extensions": {KHR_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": 2.0},
                                                "name": ["not", "a", "string"]}]},
                       KHR_BODIES: {"physicsMaterials": [{"staticFriction": 0.1,
                                                          "name": 3.5}]}}}
    collider = decode(gltf, report).nodes[0].collider
    assert collider.shape == Shape("sphere", radius=2.0)
    assert collider.material.static_friction == pytest.approx(0.1)
    assert sorted(issues(report, "name-not-kept")) == sorted([
        f"/extensions/{KHR_BODIES}/physicsMaterials/0/name",
        f"/extensions/{KHR_SHAPES}/shapes/0/name"])


@pytest.mark.parametrize("target", ["OMI", "KHR"])
def test_the_converter_keeps_pooled_names_and_says_what_it_drops(target: str) -> None:
    encoded = encode("khr-mesh", named_scene())
    gltf = assemble(encoded, 3)
    gltf["extensions"][KHR_BODIES]["physicsMaterials"][0]["extras"] = {"studio": "x"}
    report = Report()
    out = convert_document(gltf, target, report=report)  # type: ignore[arg-type]
    back = decode(out).nodes
    assert back[0].collider.material.name == "Ice (Pëak) 2"
    assert back[0].collider.filter.name == "Walls only"
    assert back[0].collider.shape.name == "Crate box"
    [joint] = [physics.joint for physics in back.values() if physics.joint is not None]
    assert joint.settings.name == "Door hinge"  # (OMI moves it to a node of its own)
    dropped = [i for i in report.issues if i.code == "physics-metadata-dropped"]
    assert [(i.where, "1 place(s)" in i.message) for i in dropped] == [
        (f"/extensions/{KHR_BODIES}/physicsMaterials/0/extras", True)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_file_checker_accepts_every_name_it_may_write(fmt: str) -> None:
    gltf = assemble(encode(fmt, named_scene()), 3)  # (its joint has no body: said apart)
    assert [i for i in check_document(gltf).issues if i.where.endswith("/name")] == []


def test_a_shaped_gravity_volumes_shape_keeps_its_name() -> None:
    shapes = Pool()
    volume = Gravity("shaped", 9.8, shape=Shape("box", size=(2.0, 2.0, 2.0), name="Pull box"))
    omi_gravity.encode_volume(volume, "node 0", Report(), shapes, lambda ref: ref)
    assert shapes.entries == [{"type": "box", "box": {"size": [2.0, 2.0, 2.0]},
                               "name": "Pull box"}]
