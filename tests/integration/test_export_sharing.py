# SPDX-License-Identifier: GPL-3.0-or-later
"""Objects with equal settings share what the export makes of those settings, never what
depends on the object itself: its geometry, its parent, its child colliders."""

import importlib

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

joint_bridge = importlib.import_module(f"{MODULE}.io.blender.bridge.joint_bridge")


def _node(gltf: dict, name: str) -> dict:
    return next(n for n in gltf["nodes"] if n.get("name") == name)


def _shape(gltf: dict, name: str) -> dict:
    index = _node(gltf, name)["extensions"]["OMI_physics_body"]["collider"]["shape"]
    return gltf["extensions"]["OMI_physics_shape"]["shapes"][index]


def _centre(gltf: dict, name: str) -> list[float]:
    motion = _node(gltf, name)["extensions"]["OMI_physics_body"]["motion"]
    return motion.get("centerOfMass", [0.0, 0.0, 0.0])  # written when not the origin


def test_equal_settings_keep_each_objects_geometry_and_children(clean_scene, tmp_path):
    offset = h.mesh_object("Offset")
    for vertex in offset.data.vertices:
        vertex.co.x += 1.0  # the same cube, one metre along +X of its origin
    plain = h.mesh_object("Plain", location=(4, 0, 0))
    big = h.mesh_object("Big", location=(8, 0, 0), size=3.0)
    with_child = h.mesh_object("WithChild", location=(12, 0, 0))
    with_child.data = plain.data  # Plain's shape and settings: only the child differs
    child = h.mesh_object("ChildCollider", kind="sphere")
    child.parent = with_child
    child.location = (0, 0, 1.5)
    h.set_physics(child, shape_type="SPHERE")  # a collider of its parent's body
    for obj in (offset, plain, big, with_child):  # one set of settings for all four
        h.set_physics(obj, motion_type="DYNAMIC", mass=2.0, shape_type="BOX")
    bpy.context.view_layer.update()
    gltf = h.export(tmp_path / "shared.gltf", "OMI")
    assert _centre(gltf, "Offset") == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    assert _centre(gltf, "Plain") == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    assert _centre(gltf, "Big") == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    assert _centre(gltf, "WithChild")[1] > 0.1  # pulled up (glTF +Y) towards the sphere
    assert _shape(gltf, "Plain")["box"]["size"] == pytest.approx([1.0, 1.0, 1.0])
    assert _shape(gltf, "Big")["box"]["size"] == pytest.approx([3.0, 3.0, 3.0])
    offset_children = [gltf["nodes"][i] for i in _node(gltf, "Offset").get("children", [])]
    assert [n["translation"] for n in offset_children] == [pytest.approx([1.0, 0.0, 0.0])]


def test_equal_static_settings_keep_each_objects_parent(clean_scene, tmp_path):
    mover = h.set_physics(h.mesh_object("Mover"), motion_type="DYNAMIC", shape_type="BOX")
    free = h.mesh_object("StaticFree", location=(3, 0, 0))
    under = h.mesh_object("StaticUnder")
    under.parent = mover
    under.location = (0, 0, 2)
    for obj in (free, under):
        h.set_physics(obj, motion_type="STATIC", shape_type="BOX")
    gltf = h.export(tmp_path / "statics.gltf", "KHR")
    bodies = {name: _node(gltf, name)["extensions"]["KHR_physics_rigid_bodies"]
              for name in ("StaticFree", "StaticUnder")}
    assert "motion" not in bodies["StaticFree"]  # KHR: a motionless collider is static
    assert bodies["StaticUnder"]["motion"]["isKinematic"] is True  # would join the mover


def test_a_shape_offset_child_keeps_its_place_on_a_bone_node(clean_scene, tmp_path):
    """A body standing for a bone (as the importer makes) with an offset shape: its shape's
    child node comes before the objects the exporter later hangs under the bone's node."""
    from mathutils import Matrix

    rig = h.armature_object("Rig", [("Hand", (0, 0, 0), (0, 0, 1), None)])
    bone = rig.data.bones["Hand"]
    stand_in = bpy.data.objects.new("HandBody", None)
    sword = h.mesh_object("Sword")
    bpy.context.scene.collection.objects.link(stand_in)
    for obj in (stand_in, sword):
        obj.parent, obj.parent_type, obj.parent_bone = rig, "BONE", "Hand"
        obj.matrix_parent_inverse.identity()
    at_tail = Matrix.Translation((0.0, -bone.length, 0.0))
    stand_in.matrix_basis = at_tail @ joint_bridge.BONE_NODE_BASIS  # the bone's node frame
    h.set_physics(stand_in, motion_type="DYNAMIC", shape_type="BOX", size_mode="CUSTOM",
                  shape_offset=(0.5, 0.0, 0.0))
    gltf = h.export(tmp_path / "bone.gltf", "KHR")
    hand = _node(gltf, "Hand")
    names = [gltf["nodes"][i]["name"] for i in hand.get("children", [])]
    assert "HandBody" not in [n.get("name") for n in gltf["nodes"]]  # it stands for Hand
    assert names.index("HandBody.shape") < names.index("Sword"), names
