# SPDX-License-Identifier: GPL-3.0-or-later
"""Artist tools: copy settings to selected, preview in Blender's rigid body world."""

import importlib

import bpy

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

native = importlib.import_module(f"{MODULE}.io.blender.native_rigid_body")


def test_copy_settings_to_selected(clean_scene):
    objs = h.build_jointed()
    source = objs["DoorHinge"]
    source.gltf_physics.joint_type = "CUSTOM"
    limit = source.gltf_physics.joint_limits.add()
    limit.kind, limit.axes, limit.max_angle = "ANGULAR", (False, True, True), 0.5
    target = h.empty_object("Other", (5, 5, 0))
    for obj in bpy.data.objects:
        obj.select_set(obj in (source, target))
    bpy.context.view_layer.objects.active = source
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}
    props = target.gltf_physics
    assert props.joint_type == "CUSTOM" and len(props.joint_limits) == 1
    assert tuple(props.joint_limits[0].axes) == (False, True, True)
    assert props.joint_limits[0].max_angle == limit.max_angle
    assert props.joint_connected_body is None  # object links stay per object
    assert source.gltf_physics.joint_connected_body == objs["DoorFrame"]


def test_copy_needs_a_target(clean_scene):
    box = h.mesh_object("Box")
    for obj in bpy.data.objects:
        obj.select_set(obj == box)
    bpy.context.view_layer.objects.active = box
    assert not bpy.ops.gltf_physics.copy_settings.poll()


def test_preview_box_rests_on_floor_and_passes_a_trigger(clean_scene):
    floor = h.set_physics(h.mesh_object("Floor", location=(0, 0, -0.5)), motion_type="STATIC",
                          shape_type="BOX")
    floor.scale = (5, 5, 1)
    box = h.set_physics(h.mesh_object("Box", location=(0, 0, 3)), motion_type="DYNAMIC",
                        shape_type="BOX")
    zone = h.set_physics(h.mesh_object("Zone", location=(0, 0, 1.5)), shape_type="BOX",
                         shape_role="TRIGGER")
    zone.scale = (3, 3, 0.2)
    scene = bpy.context.scene
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    native.step(scene, 120)
    z = box.matrix_world.translation.z
    assert abs(z - 0.5) < 0.05, z  # through the trigger, resting on the floor top (z 0)
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert scene.rigidbody_world is None
    assert all(o.rigid_body is None for o in bpy.data.objects)
    assert (floor.gltf_physics.motion_type, zone.gltf_physics.shape_role) == ("STATIC", "TRIGGER")
