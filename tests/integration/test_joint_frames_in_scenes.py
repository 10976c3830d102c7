# SPDX-License-Identifier: GPL-3.0-or-later
"""Joints as artists set them up: a body the export's filter leaves out skips the joint (it
was written anchored to the world), a joint Empty left out is said, a joint on a light or
camera keeps its axes (the exporter turns those nodes), and an OMI joint set on a mesh,
light or camera object goes on a node of its own (the OMI_physics_joint README)."""

import logging

import bpy
import pytest
from mathutils import Matrix

from tests.integration import scene_helpers as h
from tests.integration.test_export_filters import export_logged, said
from tests.integration.test_joints import OMI_JOINT, joint_payload, named, node_world

TO_GLTF = Matrix(((1, 0, 0), (0, 0, 1), (0, -1, 0)))  # Blender axes → glTF (Y up)


def two_doors() -> dict:
    """`build_jointed` with the door frame dynamic too: a joint that lost the door would
    still pass as a world-anchored one."""
    objs = h.build_jointed()
    objs["DoorFrame"].gltf_physics.motion_type = "DYNAMIC"
    return objs


def joints_in(gltf: dict, fmt: str) -> list[str]:
    return [node["name"] for node in gltf["nodes"] if (
        OMI_JOINT in node.get("extensions", {}) if fmt == "OMI"
        else "joint" in node.get("extensions", {}).get("KHR_physics_rigid_bodies", {}))]


def export_kit_collection(objs: dict, path, caplog):
    kit = bpy.data.collections.new("Export")
    bpy.context.scene.collection.children.link(kit)
    for name in ("DoorHinge", "DoorFrame"):
        for holder in list(objs[name].users_collection):
            holder.objects.unlink(objs[name])
        kit.objects.link(objs[name])
    return export_logged(path, "KHR", caplog, collection="Export")


@pytest.mark.parametrize("how", ["selection", "visible", "collection"])
def test_a_joint_whose_body_the_filter_leaves_out_is_skipped(clean_scene, tmp_path, caplog, how):
    objs = two_doors()
    path = tmp_path / "out.gltf"
    if how == "selection":
        for obj in bpy.data.objects:
            obj.select_set(obj.name in ("DoorHinge", "DoorFrame"))
        gltf, log = export_logged(path, "KHR", caplog, use_selection=True)
    elif how == "visible":
        objs["Door"].hide_set(True)
        gltf, log = export_logged(path, "KHR", caplog, use_visible=True)
    else:
        gltf, log = export_kit_collection(objs, path, caplog)
    assert "DoorHinge" not in joints_in(gltf, "KHR"), gltf["nodes"]
    skipped = said(log, "joint-skipped")
    assert len(skipped) == 1 and "DoorHinge" in skipped[0] \
        and "the body Door is not exported" in skipped[0], log


@pytest.mark.parametrize(("selected", "reason"), [
    (("Door", "DoorHinge", "Att"), "the body DoorFrame is not exported"),
    (("DoorHinge", "Att"),  # (both named: it named one)
     "the body Door is not exported; the body DoorFrame is not exported")])
def test_a_connected_frame_whose_body_is_left_out_skips_the_joint(clean_scene, tmp_path, caplog,
                                                                  selected, reason):
    objs = two_doors()
    frame = h.empty_object("Att", (0.1, 0, 1), parent=objs["DoorFrame"])
    frame.matrix_parent_inverse = objs["DoorFrame"].matrix_world.inverted()
    objs["DoorHinge"].gltf_physics.joint_attachment = frame
    for obj in bpy.data.objects:
        obj.select_set(obj.name in selected)
    gltf, log = export_logged(tmp_path / "out.gltf", "KHR", caplog, use_selection=True)
    assert "DoorHinge" not in joints_in(gltf, "KHR")
    skipped = said(log, "joint-skipped")
    assert len(skipped) == 1 and reason in skipped[0], log


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_a_joint_empty_left_out_of_a_selection_is_said(clean_scene, tmp_path, caplog, fmt):
    two_doors()
    for obj in bpy.data.objects:
        obj.select_set(obj.name in ("Door", "DoorFrame"))
    gltf, log = export_logged(tmp_path / "out.gltf", fmt, caplog, use_selection=True)
    assert joints_in(gltf, fmt) == []
    lines = said(log, "filtered-hierarchy")
    assert len(lines) == 1 and "Door without DoorHinge" in lines[0], log


def lamp_on_a_shade(kind: str) -> bpy.types.Object:
    """A hinge about the object's own Z, set on a turned light or camera under a dynamic
    shade, joined to a static ceiling."""
    ceiling = h.set_physics(h.mesh_object("Ceiling", "cube", (0, 0, 3)),
                            motion_type="STATIC", shape_type="BOX")
    shade = h.set_physics(h.mesh_object("Shade", "cube", (0, 0, 2), size=0.3),
                          motion_type="DYNAMIC", shape_type="BOX")
    data = bpy.data.lights.new("Bulb", "SPOT") if kind == "LIGHT" \
        else bpy.data.cameras.new("Lens")
    lamp = bpy.data.objects.new("Lamp", data)
    bpy.context.scene.collection.objects.link(lamp)
    lamp.parent = shade
    lamp.location = (0.1, 0.2, 0.9)
    lamp.rotation_euler = (0.5, 0.2, 0.3)
    h.set_physics(lamp, joint_type="HINGE", joint_axis="Z", joint_connected_body=ceiling)
    bpy.context.view_layer.update()
    return lamp


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
@pytest.mark.parametrize("kind", ["LIGHT", "CAMERA"])
def test_a_joint_on_a_light_or_camera_keeps_its_axes(clean_scene, tmp_path, fmt, kind):
    lamp = lamp_on_a_shade(kind)
    path = tmp_path / "out.gltf"
    gltf = h.export(path, fmt, export_lights=True, export_cameras=True)
    h.assert_valid(path)
    [frame] = [named(gltf, name) for name in joints_in(gltf, fmt)]
    payload = joint_payload(gltf, fmt, frame)
    expected = TO_GLTF @ lamp.matrix_world.to_3x3() @ TO_GLTF.inverted()
    for index in (frame, payload["connectedNode"]):
        world = node_world(gltf, index)
        turn = world.to_quaternion().rotation_difference(expected.to_quaternion())
        assert turn.angle < 1e-5, (gltf["nodes"][index]["name"], turn.angle)
        assert (world.translation - TO_GLTF @ lamp.matrix_world.translation).length < 1e-5
    lamp_node = gltf["nodes"][named(gltf, "Lamp")]
    assert ("camera" in lamp_node) == (kind == "CAMERA")  # (the light or camera is written)


def test_an_omi_joint_on_a_mesh_object_goes_on_a_node_of_its_own(clean_scene, tmp_path):
    objs = h.build_jointed()
    pin = h.mesh_object("HingePin", "cube", (0.1, 0, 1), size=0.05)
    pin.parent = objs["Door"]
    pin.matrix_parent_inverse = objs["Door"].matrix_world.inverted()
    h.set_physics(pin, joint_type="HINGE", joint_axis="Z",
                  joint_connected_body=objs["DoorFrame"])
    objs["DoorHinge"].gltf_physics.joint_type = "NONE"
    omi = h.export(tmp_path / "o.gltf", "OMI")
    h.assert_valid(tmp_path / "o.gltf")
    node = omi["nodes"][named(omi, "HingePin")]
    assert "mesh" in node and OMI_JOINT not in node.get("extensions", {})
    child = named(omi, "HingePin.joint")
    assert child in node["children"] and OMI_JOINT in omi["nodes"][child]["extensions"]
    assert "translation" not in omi["nodes"][child] and "rotation" not in omi["nodes"][child]
    khr = h.export(tmp_path / "k.gltf", "KHR")  # (KHR puts a joint on any node)
    assert "HingePin" in joints_in(khr, "KHR")


def test_a_whole_scene_with_a_joint_says_nothing(clean_scene, tmp_path, caplog):
    two_doors()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(tmp_path / "out.gltf", "KHR")
    assert sorted(joints_in(gltf, "KHR")) == ["DoorHinge", "PendulumPivot"]
    assert not [r for r in caplog.records if "joint-skipped" in r.getMessage()
                or "filtered-hierarchy" in r.getMessage()]


def test_a_partner_only_in_another_exported_scene_is_said_so(clean_scene, tmp_path, caplog):
    """Every scene exported: the door is in scenes A and B, its frame only in A; B's door
    is skipped, said as not exported in B (the file has the frame, in A)."""
    objs = h.build_jointed()
    clean_scene.name = "A"
    other = bpy.data.scenes.new("B")
    other.collection.objects.link(objs["Door"])
    other.collection.objects.link(objs["DoorHinge"])
    gltf, log = export_logged(tmp_path / "out.gltf", "KHR", caplog, use_active_scene=False)
    assert said(log, "joint-skipped") == [
        "gltf_physics: DoorHinge: the body DoorFrame is not exported in B (only in A) "
        "[joint-skipped]"], log
    assert joints_in(gltf, "KHR").count("DoorHinge") == 1  # (A's)

