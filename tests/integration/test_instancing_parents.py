# SPDX-License-Identifier: GPL-3.0-or-later
"""Physics under an instancing parent (Instancing: Vertices or Faces): each copy's partners
are found at its own vertex or face (a copy was keyed by a rounded matrix, which a turned
face or a float's last digit parted: joints were skipped as "not exported"), a compound
trigger on the parent lists every copy of its members, and a gravity volume never stays on
a node whose trigger is not written."""

import logging
import math
import random

import bmesh
import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.test_export_filters import export_logged, said
from tests.integration.test_joints import joint_payload, node_world


def instancing_parent(kind: str) -> bpy.types.Object:
    """'faces': one face turned 40°; 'verts': 60 loose vertices at random places, the
    parent moved off the origin."""
    mesh = bpy.data.meshes.new("Spots")
    bm = bmesh.new()
    if kind == "faces":
        bm.faces.new([bm.verts.new((10 + math.cos(0.7 + k * math.pi / 2),
                                    5 + math.sin(0.7 + k * math.pi / 2), 0)) for k in range(4)])
    else:
        rng = random.Random(1)
        for _ in range(60):
            bm.verts.new((rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-5, 5)))
    bm.to_mesh(mesh)
    bm.free()
    spots = bpy.data.objects.new("Spots", mesh)
    bpy.context.scene.collection.objects.link(spots)
    spots.instance_type = "FACES" if kind == "faces" else "VERTS"
    if kind == "verts":
        spots.location = (123.4567, -76.54321, 3.21)
    return spots


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
@pytest.mark.parametrize("kind", ["faces", "verts"])
def test_each_copy_of_a_door_is_hinged_to_its_own_frame(clean_scene, tmp_path, caplog, fmt,
                                                        kind):
    spots = instancing_parent(kind)
    frame = h.set_physics(h.mesh_object("Frame", "cube", (0, -3, 1)), motion_type="STATIC",
                          shape_type="BOX")
    door = h.set_physics(h.mesh_object("Door", "cube", (0.6, -3, 1)), motion_type="DYNAMIC",
                         shape_type="BOX", mass=10)
    frame.parent = door.parent = spots
    h.set_physics(door, joint_type="HINGE", joint_axis="Z", joint_connected_body=frame,
                  joint_use_limit=True, joint_angle_min=-1, joint_angle_max=0)
    bpy.context.view_layer.update()
    gltf, log = export_logged(tmp_path / "out.gltf", fmt, caplog)
    assert said(log, "joint-skipped") == []
    names = [node.get("name") for node in gltf["nodes"]]
    doors = [i for i, name in enumerate(names) if name == "Door"]
    assert len(doors) == (1 if kind == "faces" else 60)
    parents = {c: i for i, n in enumerate(gltf["nodes"]) for c in n.get("children", [])}
    for index in doors:
        frame_node = next(i for i in [index, *gltf["nodes"][index].get("children", [])]
                          if "extensions" in gltf["nodes"][i] and (
                              "OMI_physics_joint" in gltf["nodes"][i]["extensions"]
                              or "joint" in gltf["nodes"][i]["extensions"].get(
                                  "KHR_physics_rigid_bodies", {})))
        connected = joint_payload(gltf, fmt, frame_node)["connectedNode"]
        frame_copy = parents[connected]
        assert names[frame_copy] == "Frame"
        assert parents[frame_copy] == parents[index]  # (the same vertex's or face's copy)
        a, b = node_world(gltf, frame_node), node_world(gltf, connected)
        assert (a.translation - b.translation).length < 1e-4


def trigger_well(members: int = 1) -> bpy.types.Object:
    """A compound trigger with a directional gravity volume on an instancing parent (two
    vertices), its member a box trigger child duplicated at each."""
    mesh = bpy.data.meshes.new("Spots")
    mesh.from_pydata([(0, 0, 0), (10, 0, 0)], [], [])
    spots = bpy.data.objects.new("Spots", mesh)
    bpy.context.scene.collection.objects.link(spots)
    spots.instance_type = "VERTS"
    h.set_physics(spots, is_compound_trigger=True, gravity_type="DIRECTIONAL")
    post = h.set_physics(h.mesh_object("Post", "cube", (0, 0, 1)), shape_type="BOX",
                         shape_role="TRIGGER")
    post.parent = spots
    bpy.context.view_layer.update()
    return spots


def test_a_compound_trigger_on_an_instancing_parent_lists_every_copy(clean_scene, tmp_path,
                                                                    caplog):
    trigger_well()
    gltf, log = export_logged(tmp_path / "out.gltf", "OMI", caplog)
    names = [node.get("name") for node in gltf["nodes"]]
    spots = gltf["nodes"][names.index("Spots")]["extensions"]
    copies = sorted(spots["OMI_physics_body"]["trigger"]["nodes"])
    assert [names[i] for i in copies] == ["Post", "Post"] and len(set(copies)) == 2
    assert "OMI_physics_gravity" in spots and said(log, "trigger-empty") == []


def test_a_gravity_volume_whose_compound_trigger_is_not_written_is_left_out(clean_scene,
                                                                           tmp_path, caplog):
    """Its only member left out by the selection: the file had the gravity on a node with
    no trigger, which OMI_physics_gravity forbids (the checker: gravity-not-on-trigger)."""
    well = h.set_physics(h.empty_object("Well"), is_compound_trigger=True,
                         gravity_type="DIRECTIONAL")
    post = h.set_physics(h.mesh_object("Post", "cube", (0, 0, 1)), shape_type="BOX",
                         shape_role="TRIGGER")
    post.parent = well
    for obj in bpy.data.objects:
        obj.select_set(obj == well)
    with caplog.at_level(logging.WARNING):
        gltf, log = export_logged(tmp_path / "out.gltf", "OMI", caplog, use_selection=True)
    node = next(n for n in gltf["nodes"] if n.get("name") == "Well")
    assert "OMI_physics_gravity" not in node.get("extensions", {})
    assert "OMI_physics_gravity" not in gltf.get("extensionsUsed", [])
    assert len(said(log, "gravity-not-on-trigger")) == 1


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_an_instancing_parent_body_is_weighed_by_the_copies_the_file_has(clean_scene,
                                                                        tmp_path, fmt):
    """A dynamic instancing parent at x = 0 and 10 with a 1 m box child: its centre of mass
    (OMI) and locked-axis moments (KHR) came from the one original child, at x = 0."""
    mesh = bpy.data.meshes.new("Spots")
    mesh.from_pydata([(0, 0, 0), (10, 0, 0)], [], [])
    spots = bpy.data.objects.new("Spots", mesh)
    bpy.context.scene.collection.objects.link(spots)
    spots.instance_type = "VERTS"
    h.set_physics(spots, motion_type="DYNAMIC", mass=4.0,
                  lock_rotation=(fmt == "KHR", False, False))
    block = h.set_physics(h.mesh_object("Block", "cube"), shape_type="BOX")
    block.parent = spots
    bpy.context.view_layer.update()
    gltf = h.export(tmp_path / "out.gltf", fmt)
    node = next(n for n in gltf["nodes"] if n["name"] == "Spots")
    if fmt == "OMI":
        assert node["extensions"]["OMI_physics_body"]["motion"]["centerOfMass"] == [5, 0, 0]
    else:  # two 2 kg boxes 5 m from the centre: 2 (2 · 1/6 + 2 · 25) about y and z
        inertia = node["extensions"]["KHR_physics_rigid_bodies"]["motion"]["inertiaDiagonal"]
        assert inertia[0] == 0 and inertia[1:] == pytest.approx([100.6667, 100.6667])


def verts_parent(points, kind: str = "VERTS") -> bpy.types.Object:
    mesh = bpy.data.meshes.new("Spots")
    mesh.from_pydata(points, [], [])
    spots = bpy.data.objects.new("Spots", mesh)
    bpy.context.scene.collection.objects.link(spots)
    spots.instance_type = kind
    return spots


@pytest.mark.parametrize("case", ["child body", "selection", "no faces"])
def test_an_instancing_parent_body_counts_only_its_own_copies(clean_scene, tmp_path, case):
    """Copies below another body are that body's, copies the selection leaves out are not in
    the file, and Instancing: Faces on a mesh without faces makes none (its child is written
    as it is): each counted in the centre of mass."""
    spots = verts_parent([(0, 0, 0), (10, 0, 0)], "FACES" if case == "no faces" else "VERTS")
    h.set_physics(spots, motion_type="DYNAMIC", mass=4.0)
    block = h.set_physics(h.mesh_object("Block", "cube", (3 if case == "no faces" else 0, 0, 0)),
                          shape_type="BOX")
    block.parent = spots
    options = {}
    if case == "child body":
        car = h.set_physics(h.empty_object("Car", (0, 5, 0)), motion_type="DYNAMIC")
        car.parent = spots
        wheel = h.set_physics(h.mesh_object("Wheel", "cube", (0, 50, 0)), shape_type="BOX")
        wheel.parent = car
    elif case == "selection":
        left = h.set_physics(h.mesh_object("Left", "cube", (0, 4, 0)), shape_type="BOX")
        left.parent = spots
        for obj in bpy.data.objects:
            obj.select_set(obj != left)
        options["use_selection"] = True
    bpy.context.view_layer.update()
    gltf = h.export(tmp_path / "out.gltf", "OMI", **options)
    node = next(n for n in gltf["nodes"] if n["name"] == "Spots")
    centre = node["extensions"]["OMI_physics_body"]["motion"]["centerOfMass"]
    assert centre == ([3, 0, 0] if case == "no faces" else [5, 0, 0])


def test_a_hinge_in_a_kit_instanced_at_each_vertex_joins_its_own_copy(clean_scene, tmp_path,
                                                                      caplog):
    """A collection instance (a frame and a door hinged to it) under an instancing parent:
    a copy's number is the vertex (the outermost level of its persistent id), so the copies
    at one vertex join each other (the innermost level, a member's index, merged them)."""
    kit = bpy.data.collections.new("Kit")
    spots = verts_parent([(0, 0, 0), (10, 0, 0), (0, 20, 0)])
    frame = h.set_physics(h.mesh_object("Frame", "cube", (0, -3, 1)), motion_type="STATIC",
                          shape_type="BOX")
    door = h.set_physics(h.mesh_object("Door", "cube", (0.6, -3, 1)), motion_type="DYNAMIC",
                         shape_type="BOX", mass=10)
    for obj in (frame, door):
        clean_scene.collection.objects.unlink(obj)
        kit.objects.link(obj)
    h.set_physics(door, joint_type="HINGE", joint_axis="Z", joint_connected_body=frame)
    holder = h.empty_object("KitInst")
    holder.instance_type, holder.instance_collection = "COLLECTION", kit
    holder.parent = spots
    bpy.context.view_layer.update()
    gltf, log = export_logged(tmp_path / "out.gltf", "OMI", caplog)
    assert said(log, "joint-skipped") == [], log
    joints = [i for i, n in enumerate(gltf["nodes"])
              if "OMI_physics_joint" in n.get("extensions", {})]
    doors = [i for i, n in enumerate(gltf["nodes"]) if n.get("name") == "Door"]
    assert len(joints) == len(doors) == 6
    for index in joints:
        connected = joint_payload(gltf, "OMI", index)["connectedNode"]
        assert (node_world(gltf, index).translation
                - node_world(gltf, connected).translation).length < 1e-4
