# SPDX-License-Identifier: GPL-3.0-or-later
"""What an import restores or says: a KHR joint anchored to the world gets the static
partner OMI needs (the nearest ancestor with colliders of its own, as OMI lays it out), so
an OMI export keeps the joint; a shapeless OMI collider's material and filter go to the
child colliders it combines; a file's world gravity set in a level at the default is said."""

import json
import logging
from pathlib import Path

import bpy
import pytest

from gltf_physics.io import structure
from gltf_physics.io.model import Collider, CollisionFilter, Motion, NodePhysics, PhysicsMaterial
from gltf_physics.io.model import Shape as ModelShape
from tests.conftest import CORPUS
from tests.integration import scene_helpers as h
from tests.integration.test_meaning_roundtrip import export_logged, reported_codes
from tests.support.meaning import file_differences

KB = "KHR_physics_rigid_bodies"
OB = "OMI_physics_body"
OMI_JOINT = "OMI_physics_joint"
PLACE = "Scene properties → glTF Physics → World Gravity"
PENDULUM = CORPUS / "omi/current/OMI_physics_joint/pendulum_balls.gltf"
HINGE = {"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                    {"angularAxes": [1, 2], "min": 0, "max": 0},
                    {"angularAxes": [0], "min": -0.5, "max": 1.2}]}


def _write(path: Path, nodes: list[dict], roots: list[int], family: str = "KHR",
           root_extensions: dict | None = None) -> Path:
    """A file of box shapes (shape 0) and one hinge (joint 0) in `family`'s extensions."""
    shapes = {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}
    if family == "KHR":
        used = ["KHR_implicit_shapes", KB]
        extensions = {"KHR_implicit_shapes": shapes, KB: {"physicsJoints": [HINGE]}}
    else:
        used = ["OMI_physics_shape", OB]
        extensions = {"OMI_physics_shape": shapes, OB: {}}
    for name, payload in (root_extensions or {}).items():
        extensions[name] = {**extensions.get(name, {}), **payload}
    path.write_text(json.dumps({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": roots}],
        "extensionsUsed": used, "extensions": extensions, "nodes": nodes}))
    return path


def _khr(**payload) -> dict:
    return {"extensions": {KB: payload}}


BOX = {"geometry": {"shape": 0}}
DOOR = {"name": "Door", "translation": [0, 1, 0], "children": [1, 2],
        **_khr(motion={"mass": 3})}
DOOR_COLLIDER = {"name": "DoorCol", **_khr(collider=BOX)}


def _joint(connected: int) -> dict:
    return _khr(joint={"joint": 0, "connectedNode": connected, "enableCollision": False})


#: world-anchored KHR joints: (nodes, scene roots, the node that becomes the static partner)
WORLD_ANCHORED = {
    "connected-to-a-root-empty": ([
        DOOR, DOOR_COLLIDER, {"name": "Hinge", "translation": [0.5, 0, 0], **_joint(3)},
        {"name": "Anchor", "translation": [0.5, 1, 0]}], [0, 3], "Anchor"),
    "joint-at-the-root": ([
        DOOR, DOOR_COLLIDER, {"name": "DoorFrame", "translation": [0.5, 0, 0]},
        {"name": "WorldHinge", "translation": [0.5, 1, 0], **_joint(2)}], [0, 3], "WorldHinge"),
    "collider-beside-the-anchor": ([  # (pendulum_balls' KHR form)
        {"name": "Rig", "children": [1, 4]},
        {"name": "Rail", "children": [2, 3]},
        {"name": "RailCol", **_khr(collider=BOX)},
        {"name": "RailAnchor", "translation": [-0.75, 0, 0]},
        {"name": "Ball", "translation": [-0.75, 0, 0], "children": [5, 6],
         **_khr(motion={"mass": 1})},
        {"name": "BallCol", **_khr(collider=BOX)},
        {"name": "Slider", **_joint(3)}], [0], "Rail"),
}


def _import_logged(path: Path, caplog, fresh: bool = True) -> list[str]:
    """Import `path` (into an empty scene when `fresh`); the physics lines, notes too."""
    if fresh:
        bpy.ops.wm.read_homefile(use_empty=True)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        bpy.ops.import_scene.gltf(filepath=str(path))
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("gltf_physics:")]


def _coded(log: list[str], code: str) -> list[str]:
    return [line for line in log if line.endswith(f"[{code}]")]


def _omi_joints(gltf: dict) -> list[str]:
    return [n["name"] for n in gltf["nodes"] if OMI_JOINT in n.get("extensions", {})]


# -- 1. world-anchored KHR joints: the static partner OMI needs -----------------------------


@pytest.mark.parametrize("layout", list(WORLD_ANCHORED))
def test_a_world_anchored_khr_joint_gets_a_static_partner_and_survives_omi(
        clean_scene, tmp_path: Path, caplog, layout: str) -> None:
    nodes, roots, partner = WORLD_ANCHORED[layout]
    source = _write(tmp_path / "in.gltf", nodes, roots)
    log = _import_logged(source, caplog)
    assert bpy.data.objects[partner].gltf_physics.motion_type == "STATIC"
    said = _coded(log, "static-partner")
    assert len(said) == 1 and f"({partner}) made a Static body" in said[0]
    omi_log = export_logged(tmp_path / "omi.gltf", "OMI", caplog)
    assert reported_codes(omi_log) == {}  # no joint-skipped
    omi = h.load_gltf(tmp_path / "omi.gltf")
    assert len(_omi_joints(omi)) == 1
    h.assert_valid(tmp_path / "omi.gltf")
    assert file_differences(source, tmp_path / "omi.gltf", "OMI") == []
    # KHR: a static body is colliders without a motion, a world anchor stays one
    h.export(tmp_path / "khr.gltf", "KHR")
    h.assert_valid(tmp_path / "khr.gltf")
    assert file_differences(source, tmp_path / "khr.gltf", "KHR") == []
    khr = h.load_gltf(tmp_path / "khr.gltf")
    assert h.physics_subtree(khr) == h.physics_subtree(h.load_gltf(source))


@pytest.mark.corpus
@pytest.mark.skipif(not PENDULUM.is_file(), reason=f"no corpus file {PENDULUM}")
def test_pendulum_balls_through_khr_keeps_its_hinges_in_omi(clean_scene, tmp_path: Path,
                                                            caplog) -> None:
    h.import_file(PENDULUM)
    h.export(tmp_path / "khr.gltf", "KHR")  # the KHR form: TopBody's motion is gone
    log = _import_logged(tmp_path / "khr.gltf", caplog)
    said = _coded(log, "static-partner")
    assert len(said) == 1 and "(TopBody) made a Static body" in said[0]
    assert bpy.data.objects["TopBody"].gltf_physics.motion_type == "STATIC"
    omi_log = export_logged(tmp_path / "omi.gltf", "OMI", caplog)
    assert "joint-skipped" not in reported_codes(omi_log)
    assert sorted(_omi_joints(h.load_gltf(tmp_path / "omi.gltf"))) == [
        "HingeJoint1", "HingeJoint2", "HingeJoint3"]
    h.assert_valid(tmp_path / "omi.gltf")
    assert file_differences(PENDULUM, tmp_path / "omi.gltf", "OMI") == []  # OMI's layout back
    h.export(tmp_path / "khr2.gltf", "KHR")
    assert file_differences(tmp_path / "khr.gltf", tmp_path / "khr2.gltf", "KHR") == []


def test_the_static_partner_is_the_nearest_node_with_colliders_of_its_own() -> None:
    tree = {"root": ["rail", "ball", "wall"], "rail": ["anchor", "rail_col"], "ball": ["ball_col"],
            "wall": [], "anchor": [], "rail_col": [], "ball_col": []}
    colliders = {"rail_col", "ball_col", "wall"}
    own = structure.own_colliders(lambda n: tree[n], colliders.__contains__,
                                  lambda n: n == "ball")
    chain = ["anchor", "rail", "root"]
    assert structure.static_partner(chain, own, body_required=True) == "rail"
    assert not own("anchor") and own("root")
    # a body's colliders are its own, not those of the node above it
    alone = {"top": ["ball"], "ball": ["ball_col"], "ball_col": []}
    own = structure.own_colliders(lambda n: alone[n], colliders.__contains__,
                                  lambda n: n == "ball")
    assert not own("top")
    assert structure.static_partner(["top"], own, body_required=False) is None
    assert structure.static_partner(["top"], own, body_required=True) == "top"


# -- 2. a shapeless OMI collider's material and filter --------------------------------------


def _omi_compound(path: Path, child_material: bool = False) -> Path:
    """A dynamic body whose shapeless collider has a material and filter, over two boxes
    (the second with its own material when `child_material`) and a body of its own."""
    own = {"physicsMaterial": 1, "collisionFilter": 0} if child_material else {}
    nodes = [
        {"name": "Body", "children": [1, 2, 3], "extensions": {OB: {
            "motion": {"type": "dynamic", "mass": 2},
            "collider": {"physicsMaterial": 0, "collisionFilter": 0}}}},
        {"name": "ColA", "extensions": {OB: {"collider": {"shape": 0, **own}}}},
        {"name": "ColB", "translation": [1, 0, 0],
         "extensions": {OB: {"collider": {"shape": 0, **own}}}},
        {"name": "Other", "translation": [3, 0, 0], "extensions": {OB: {
            "motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 0}}}}]
    materials = [{"staticFriction": 0.9, "dynamicFriction": 0.8, "restitution": 0.1},
                 {"staticFriction": 0.2, "dynamicFriction": 0.2}]
    return _write(path, nodes, [0], "OMI", {OB: {
        "physicsMaterials": materials,
        "collisionFilters": [{"collisionSystems": ["A"], "collideWithSystems": ["A"]}]}})


def test_a_shapeless_colliders_material_and_filter_go_to_its_child_colliders(
        clean_scene, tmp_path: Path, caplog) -> None:
    source = _omi_compound(tmp_path / "in.gltf")
    log = _import_logged(source, caplog)
    assert _coded(log, "compound-parent-passed-down") == [
        "gltf_physics: node 0: a collider without a shape combines its child colliders into "
        "one (OMI): the physics material and collision filter of node 0 are now on those "
        "child colliders that had none of their own (Blender has no collider without a "
        "shape) "
        "[compound-parent-passed-down]"]
    for name in ("ColA", "ColB"):
        props = bpy.data.objects[name].gltf_physics
        assert props.use_material and props.static_friction == pytest.approx(0.9)
        assert props.use_filter and props.filter_mode == "ONLY"
    other = bpy.data.objects["Other"].gltf_physics  # a body of its own: not combined
    assert not other.use_material and not other.use_filter
    omi = h.export(tmp_path / "omi.gltf", "OMI")
    h.assert_valid(tmp_path / "omi.gltf")
    for name in ("ColA", "ColB"):
        collider = next(n for n in omi["nodes"] if n["name"] == name)["extensions"][OB]
        assert set(collider["collider"]) == {"shape", "physicsMaterial", "collisionFilter"}
    h.export(tmp_path / "khr.gltf", "KHR")
    h.assert_valid(tmp_path / "khr.gltf")


def test_a_shapeless_colliders_parts_that_reach_no_child_are_said_lost(
        clean_scene, tmp_path: Path, caplog) -> None:
    log = _import_logged(_omi_compound(tmp_path / "in.gltf", child_material=True), caplog)
    assert _coded(log, "compound-parent-passed-down") == []
    dropped = _coded(log, "compound-parent-dropped")
    assert len(dropped) == 1 and dropped[0].startswith("gltf_physics: node 0: ")
    assert bpy.data.objects["ColA"].gltf_physics.static_friction == pytest.approx(0.2)


def test_a_bare_compound_parent_says_nothing(clean_scene, tmp_path: Path, caplog) -> None:
    static = CORPUS / "omi/current/OMI_physics_body/complex/static_compound_collider.gltf"
    if not static.is_file():
        pytest.skip(f"no corpus file {static}")
    log = _import_logged(static, caplog)
    assert [line for line in log if "compound" in line] == []


def test_compound_parts_go_down_to_the_nearest_body_boundary() -> None:
    box = ModelShape("box")
    wood, ice = PhysicsMaterial(static_friction=0.5), PhysicsMaterial(static_friction=0.0)
    only_a = CollisionFilter(collision_systems=("A",))
    child = NodePhysics(collider=Collider(box))  # one payload shared by equal nodes
    nodes = {
        0: NodePhysics(motion=Motion(), collider=Collider(material=wood, filter=only_a)),
        1: NodePhysics(collider=Collider(material=ice)),  # a nested compound parent
        2: child, 3: child,  # below the nested one
        4: child,  # below 0 only
        5: NodePhysics(motion=Motion(), collider=Collider(box)),  # another body
        6: child,  # in that body
    }
    tree = {0: [1, 4, 5], 1: [2, 3], 2: [], 3: [], 4: [], 5: [6], 6: []}
    done = structure.pass_down_compound_parts(nodes, lambda n: tree[n])
    assert done.passed == {0: ("physics material", "collision filter"),
                           1: ("physics material",)} and done.dropped == {}
    assert set(done.nodes) == {2, 3, 4}
    assert done.nodes[2] is done.nodes[3]  # still one payload
    assert done.nodes[2].collider == Collider(box, material=ice, filter=only_a)
    assert done.nodes[4].collider == Collider(box, material=wood, filter=only_a)


# -- 3. a file's world gravity set in a level ------------------------------------------------


def _prop(path: Path, world: dict) -> Path:
    path.write_text(json.dumps({
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_gravity"],
        "extensions": {"OMI_physics_gravity": world},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "Prop"}]}))
    return path


@pytest.mark.parametrize("own", [None, 9.80665, 1.62], ids=["unset", "default", "moon"])
def test_a_level_keeps_its_world_gravity_and_is_told_of_the_files(
        clean_scene, tmp_path: Path, caplog, own) -> None:
    """An asset imported into a level (the scene held objects) does not change the level's
    world gravity (it was set to the file's, even the default one the level fell by); the
    file's is said once, with both values and where to set it."""
    props = clean_scene.gltf_physics
    props.use_world_gravity = own is not None
    props.world_gravity_amount = 9.80665 if own is None else own
    h.mesh_object("Floor")  # the artist's level
    before = (props.use_world_gravity, props.world_gravity_amount,
              tuple(props.world_gravity_direction))
    log = _import_logged(_prop(tmp_path / "p.gltf", {"gravity": 0.0}), caplog, fresh=False)
    assert (props.use_world_gravity, props.world_gravity_amount,
            tuple(props.world_gravity_direction)) == before
    kept = "9.807" if own in (None, 9.80665) else "1.62"
    assert _coded(log, "world-gravity-not-applied") == [
        "gltf_physics: /extensions/OMI_physics_gravity: the file's world gravity 0 m/s² along "
        "(0, 0, -1) is not applied: the scene held objects before the import (a level) and "
        f"keeps its own, {kept} m/s² along (0, 0, -1); set the file's in {PLACE} if the level "
        "should have it [world-gravity-not-applied]"]
    assert any("physics problem (world-gravity-not-applied)" in line for line in log)
    assert [line for line in log if "world-gravity" in line and "problem" not in line] == \
        _coded(log, "world-gravity-not-applied")


@pytest.mark.parametrize("world", [{"gravity": "heavy"}, {}, {"gravity": None},
                                   {"direction": [1, 0, 0]}])
def test_a_world_gravity_without_a_number_is_not_read(clean_scene, tmp_path: Path, caplog,
                                                      world) -> None:
    """A world gravity whose amount is missing or not a finite number is said and not read:
    an import into an empty scene set it to 0 (nothing fell)."""
    log = _import_logged(_prop(tmp_path / "p.gltf", world), caplog)
    props = bpy.context.scene.gltf_physics
    assert not props.use_world_gravity and props.world_gravity_amount == pytest.approx(9.80665)
    assert len(_coded(log, "world-gravity-skipped")) == 1, log


def test_a_level_importing_the_default_world_gravity_hears_nothing(
        clean_scene, tmp_path: Path, caplog) -> None:
    h.mesh_object("Floor")
    log = _import_logged(_prop(tmp_path / "p.gltf", {"gravity": 9.80665}), caplog, fresh=False)
    assert [line for line in log if "world-gravity" in line] == []


def test_each_part_of_a_compound_parent_is_said_where_it_went() -> None:
    """A parent's filter goes down while its material reaches no child (the child has its
    own): the material is said dropped, not passed (it was said passed, with the filter);
    a parent with no child collider at all is said so too."""
    box, own = ModelShape("box"), PhysicsMaterial(static_friction=0.1)
    parts = Collider(material=PhysicsMaterial(static_friction=0.5),
                     filter=CollisionFilter(collision_systems=("A",)))
    nodes = {0: NodePhysics(motion=Motion(), collider=parts),
             1: NodePhysics(collider=Collider(box, material=own)),
             2: NodePhysics(motion=Motion(), collider=parts)}  # no child at all
    done = structure.pass_down_compound_parts(nodes, {0: [1], 1: [], 2: []}.__getitem__)
    assert done.passed == {0: ("collision filter",)}
    assert done.dropped == {0: ("physics material",), 2: ("physics material",
                                                          "collision filter")}
    assert structure.compound_parts_said(done.dropped) == (
        "the physics material of node 0; the physics material and collision filter of node 2")


def test_a_joint_whose_sides_share_their_static_partner_is_said(clean_scene, tmp_path: Path,
                                                                caplog) -> None:
    """Both sides anchored to the world under one root without colliders: the root is the
    partner of both, so the joint joins a body to itself (the converter says the same)."""
    source = _write(tmp_path / "in.gltf", [
        {"name": "Rig", "children": [1, 2]},
        {"name": "Hinge", **_joint(2)},
        {"name": "Anchor", "translation": [1, 0, 0]}], [0])
    log = _import_logged(source, caplog)
    said = _coded(log, "joint-same-body")
    assert len(said) == 1 and "both joint sides belong to body Rig" in said[0]

