# SPDX-License-Identifier: GPL-3.0-or-later
"""Objects named like others: a local "Crate" beside a linked "Crate" of a library. Every
tool tells them apart by identity (`native_common.has_object`), never by name."""

import importlib
from pathlib import Path

import bpy

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE


def linked_crate_in_user_world(folder: Path, library_shape: str = "NONE") -> bpy.types.Object:
    """A library's "Crate" linked into the scene and into the user's own rigid body world
    collection; then a local "Crate" (same name, no library) with a dynamic box."""
    crate = h.set_physics(h.mesh_object("Crate"), shape_type=library_shape)
    linked = h.linked_kit([crate], folder / "lib.blend").objects["Crate"]
    scene = bpy.context.scene
    scene.collection.objects.link(linked)
    bpy.ops.rigidbody.world_add()
    scene.rigidbody_world.collection = bpy.data.collections.new("UserRigidBodies")
    scene.rigidbody_world.collection.objects.link(linked)
    local = h.set_physics(h.mesh_object("Crate", location=(3, 0, 0)), motion_type="DYNAMIC",
                          shape_type="BOX")
    assert local.name == linked.name and local.library is None
    return local


def select_only(obj: bpy.types.Object) -> None:
    for other in bpy.context.view_layer.objects:
        other.select_set(False)
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj


def test_preview_simulates_the_local_crate_beside_a_linked_namesake(clean_scene, tmp_path):
    local = linked_crate_in_user_world(tmp_path)
    select_only(local)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert local.rigid_body is not None and local.rigid_body.type == "ACTIVE"
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert local.rigid_body is None
    assert [k for k, _value in local.items() if k.startswith("gltf_physics_")] == []


def test_to_native_gives_the_local_crate_its_rigid_body(clean_scene, tmp_path):
    local = linked_crate_in_user_world(tmp_path)
    select_only(local)
    assert bpy.ops.gltf_physics.to_native() == {"FINISHED"}
    assert local.rigid_body is not None and local.rigid_body.mass > 0


def test_overlay_batches_of_namesakes_are_built_once_each(clean_scene, tmp_path):
    overlay = importlib.import_module(f"{MODULE}.panels.shape_overlay")
    local = linked_crate_in_user_world(tmp_path, library_shape="BOX")
    linked = next(o for o in bpy.data.objects if o.library is not None)
    h.set_physics(local, shape_type="SPHERE")
    cache = overlay.BatchCache(lambda segments: object())
    for _ in range(3):  # redraws: each keeps its own batch (by name they rebuilt each time)
        assert cache.batch(local) is not None and cache.batch(linked) is not None
    assert cache.builds == 2
    cache.prune({local.session_uid})
    assert set(cache.entries) == {local.session_uid}


def test_removing_the_preview_keeps_a_users_constraint_named_like_ours(clean_scene):
    """A dynamic Empty previews through a proxy it follows; the user's own constraint that
    happens to have the preview's constraint name stays."""
    native = importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")
    marker = h.set_physics(h.empty_object("Marker", (0, 0, 2)), motion_type="DYNAMIC")
    h.set_physics(h.mesh_object("Floor", "cube"), motion_type="STATIC", shape_type="BOX")
    mine = marker.constraints.new("LIMIT_LOCATION")
    mine.name = native.FOLLOW_NAME
    select_only(marker)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert len(marker.constraints) == 2
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert [(c.name, c.type) for c in marker.constraints] == [(native.FOLLOW_NAME,
                                                               "LIMIT_LOCATION")]


def test_decomposition_targets_keep_both_namesakes(clean_scene, tmp_path):
    """Selecting a local "Crate" and a linked "Crate": both are the selection's targets (the
    linked one is then refused by name and library, the local one decomposed)."""
    decomposition = importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")
    local = linked_crate_in_user_world(tmp_path)
    linked = next(o for o in bpy.data.objects if o.library is not None)
    found = decomposition.targets([linked, local])
    assert len(found) == 2 and found[0] == linked and found[1] == local


def test_to_native_on_an_empty_body_converts_nothing_and_says_so(clean_scene):
    """Blender's rigid bodies are meshes: a dynamic Empty is skipped, and the operator does
    not claim to have converted it."""
    marker = h.set_physics(h.empty_object("Marker"), motion_type="DYNAMIC")
    select_only(marker)
    assert bpy.ops.gltf_physics.to_native() == {"CANCELLED"}
    assert marker.rigid_body is None


def test_preview_runs_when_every_body_already_has_the_users_rigid_body(clean_scene):
    """After To Blender Rigid Body every glTF body has a rigid body of the user's own: the
    preview has nothing to add, but it runs (it uses them), it does not say "no bodies"."""
    h.set_physics(h.mesh_object("Crate", location=(0, 0, 2)), motion_type="DYNAMIC",
                  shape_type="BOX")
    select_only(bpy.data.objects["Crate"])
    assert bpy.ops.gltf_physics.to_native() == {"FINISHED"}
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert bpy.data.objects["Crate"].rigid_body is not None  # (the user's, kept)
