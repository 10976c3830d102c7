# SPDX-License-Identifier: GPL-3.0-or-later
"""Preview in Blender and Remove Preview in scenes the user changed meanwhile (a world or a
helper deleted by hand, a rigid body of their own added), with overrides, instances and a
user's world that will not play: the scene comes back as it was, and what is not previewed
is said once."""

import importlib

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE


@pytest.fixture
def nrb():
    """The add-on's native_rigid_body module (imported once the add-on is enabled)."""
    return importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")


def _floor():
    floor = h.mesh_object("Floor", "cube", (0, 0, -0.5))
    floor.scale = (10, 10, 1)
    return h.set_physics(floor, motion_type="STATIC", shape_type="BOX")


def _ball():
    """A dynamic sphere on an Empty: carried by a hidden proxy it follows."""
    return h.set_physics(h.empty_object("Ball", (3, 0, 2)), motion_type="DYNAMIC",
                         shape_type="SPHERE")


def _tags(things) -> list[str]:
    return [f"{thing.name}:{key}" for thing in things
            for key in thing.keys() if key.startswith("gltf_physics_")]  # noqa: SIM118


def _printed(capfd) -> list[str]:
    out = capfd.readouterr()
    return (out.out + out.err).splitlines()


def _said(lines: list[str], text: str) -> list[str]:
    return [line for line in lines if text in line]


def _kit(scene, name: str, *objects) -> bpy.types.Collection:
    """A collection excluded from the view layer holding `objects` (a kit to instance)."""
    kit = bpy.data.collections.new(name)
    scene.collection.children.link(kit)
    for obj in objects:
        for users in list(obj.users_collection):
            users.objects.unlink(obj)
        kit.objects.link(obj)
    bpy.context.view_layer.layer_collection.children[name].exclude = True
    return kit


def _instance(name: str, kit: bpy.types.Collection, location) -> bpy.types.Object:
    empty = h.empty_object(name, location)
    empty.instance_type = "COLLECTION"
    empty.instance_collection = kit
    return empty


def test_remove_preview_after_the_world_was_removed_by_hand(clean_scene):
    """Scene → Rigid Body World → Remove during the preview: Remove Preview (it raised)
    still deletes the helpers left in the world's collection, takes the follow constraint
    and the joint's constraint away, gives the frame back and clears every tag; a new
    Preview works again."""
    scene = clean_scene
    _floor()
    ball = _ball()
    h.set_physics(h.empty_object("Hook", (3, 0, 3)), joint_type="FIXED",
                  joint_connected_body=ball)
    objects = set(bpy.data.objects)
    scene.frame_set(42)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    bpy.ops.rigidbody.world_remove()
    assert scene.rigidbody_world is None
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert set(bpy.data.objects) == objects and not bpy.data.collections
    assert scene.frame_current == 42
    assert _tags([*objects, scene]) == []
    for obj in objects:
        assert obj.rigid_body is None and obj.rigid_body_constraint is None, obj.name
        assert not obj.constraints, obj.name
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert set(bpy.data.objects) == objects and scene.rigidbody_world is None


@pytest.mark.parametrize("how", ["wall disabled before", "body disabled during",
                                 "joint disabled during", "joint excluded during",
                                 "joint unlinked during"])
def test_remove_preview_of_objects_disabled_excluded_or_unlinked(clean_scene, how):
    """A collider disabled in viewports (the monitor icon), or a body or joint disabled,
    excluded or unlinked from the scene during the preview: Remove Preview (it raised, or
    left the joint's constraint and tags) takes everything away, gives back the frame and
    the active object, and leaves the artist's flags and collections as they were."""
    scene = clean_scene
    _floor()
    wall = h.set_physics(h.mesh_object("Wall", "cube", (4, 0, 0)), shape_type="BOX")
    crate = h.set_physics(h.mesh_object("Crate", "cube", (0, 0, 2)), motion_type="DYNAMIC",
                          shape_type="BOX")
    hinge = h.set_physics(h.empty_object("Hinge", (0, 0, 3)), joint_type="HINGE",
                          joint_connected_body=crate)
    room = bpy.data.collections.new("Room")
    scene.collection.children.link(room)
    scene.collection.objects.unlink(hinge)
    room.objects.link(hinge)
    if how == "wall disabled before":
        wall.hide_viewport = True
    scene.frame_set(7)
    bpy.context.view_layer.objects.active = crate
    objects = set(bpy.data.objects)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    if how == "body disabled during":
        crate.hide_viewport = True
    elif how == "joint disabled during":
        hinge.hide_viewport = True
    elif how == "joint excluded during":
        bpy.context.view_layer.layer_collection.children["Room"].exclude = True
    elif how == "joint unlinked during":
        room.objects.unlink(hinge)
    def flags():  # (the artist's: the preview's own world collections left out)
        return {obj.name: (obj.hide_viewport, sorted(
            c.name for c in obj.users_collection
            if c.name not in ("RigidBodyWorld", "RigidBodyConstraints"))) for obj in objects}

    during = flags()
    bpy.context.view_layer.objects.active = crate
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert set(bpy.data.objects) == objects and scene.rigidbody_world is None
    assert scene.frame_current == 7 and bpy.context.view_layer.objects.active == crate
    assert _tags([*objects, scene]) == []
    for obj in objects:
        assert obj.rigid_body is None and obj.rigid_body_constraint is None, obj.name
    assert flags() == during
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}  # (it raised here too)
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}


def test_the_preview_refuses_a_world_whose_collection_is_linked(clean_scene, tmp_path,
                                                                capfd):
    """The artist's world puts its bodies in a collection linked from a library: the
    preview cannot add to it and says so (it raised), changing nothing."""
    sim = bpy.data.collections.new("SimSet")
    clean_scene.collection.children.link(sim)
    library = str(tmp_path / "sim.blend")
    bpy.data.libraries.write(library, {sim}, fake_user=True)
    bpy.data.collections.remove(sim)
    with bpy.data.libraries.load(library, link=True) as (_src, dst):
        dst.collections = ["SimSet"]
    bpy.ops.rigidbody.world_add()
    clean_scene.rigidbody_world.collection = dst.collections[0]
    _floor()
    crate = h.set_physics(h.mesh_object("Crate", "cube", (0, 0, 2)), motion_type="DYNAMIC",
                          shape_type="BOX")
    capfd.readouterr()
    with pytest.raises(RuntimeError, match=r"bodies collection SimSet is linked from sim\.blend"):
        bpy.ops.gltf_physics.preview()
    assert crate.rigid_body is None and _tags([*bpy.data.objects, clean_scene]) == []


def test_remove_preview_after_its_proxy_was_deleted_by_hand(clean_scene, nrb):
    """The hidden proxy carrying an Empty body deleted in the Outliner: Remove Preview takes
    the body's follow constraint (its target gone) and tags away, and leaves the user's own
    constraint of the same name and type; a second preview leaves no stale constraint."""
    _floor()
    ball = _ball()
    mine = ball.constraints.new("COPY_TRANSFORMS")
    mine.name = nrb.FOLLOW_NAME  # the user's, named like the preview's, no target either
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    bpy.data.objects.remove(ball[nrb.PROXY_TAG])
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert [(c.name, c.target) for c in ball.constraints] == [(nrb.FOLLOW_NAME, None)]
    assert _tags(bpy.data.objects) == [] and not bpy.data.collections
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert len(ball.constraints) == 2
    bpy.data.objects.remove(ball[nrb.PROXY_TAG])
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}  # a rebuild clears it too
    assert len(ball.constraints) == 2
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert [(c.name, c.target) for c in ball.constraints] == [(nrb.FOLLOW_NAME, None)]


def test_a_world_the_preview_made_stays_when_the_user_adds_a_rigid_body(clean_scene,
                                                                      capfd):
    """A rigid body the user adds during a preview that made the world: Remove Preview
    keeps that world (the user's now, with its collection), removes only the preview's
    bodies, and says so once."""
    scene = clean_scene
    floor = _floor()
    box = h.set_physics(h.mesh_object("Box", "cube", (0, 0, 2)), motion_type="DYNAMIC",
                        shape_type="BOX")
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    prop = h.mesh_object("UserProp", "cube", (4, 0, 3))
    with bpy.context.temp_override(object=prop, active_object=prop):
        assert bpy.ops.rigidbody.object_add() == {"FINISHED"}
    prop.rigid_body.mass = 12.0
    capfd.readouterr()
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    lines = _printed(capfd)
    assert len(_said(lines, "The rigid body world stays")) == 1, lines
    world = scene.rigidbody_world
    assert world is not None and [o.name for o in world.collection.objects] == ["UserProp"]
    assert prop.rigid_body is not None and prop.rigid_body.mass == pytest.approx(12.0)
    assert floor.rigid_body is None and box.rigid_body is None
    assert _tags([*bpy.data.objects, scene, world.collection]) == []
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}  # the user's world now
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert scene.rigidbody_world is not None and prop.rigid_body is not None


def test_the_preview_refuses_a_library_override_body(clean_scene, tmp_path, capfd):
    """An override keeps no Blender rigid body of its own (gone on reopen): refused, as To
    Blender Rigid Body does, and nothing is changed."""
    crate = h.set_physics(h.mesh_object("Crate", "cube", (0, 0, 2)), motion_type="DYNAMIC",
                          shape_type="BOX")
    crate = h.overridden_from_library(crate, tmp_path / "lib.blend")
    _floor()
    capfd.readouterr()
    with pytest.raises(RuntimeError, match="Crate is a library override, which keeps no "
                       "Blender rigid body"):
        bpy.ops.gltf_physics.preview()
    assert bpy.context.scene.rigidbody_world is None and crate.rigid_body is None


def test_the_preview_says_how_many_instanced_bodies_it_leaves_out(clean_scene, capfd):
    """Three instances of a crate kit: Blender simulates no instanced object, so the preview
    says once that 3 bodies are not previewed, also when they are all there is."""
    scene = clean_scene
    floor = _floor()
    crate = h.set_physics(h.mesh_object("Crate", "cube"), motion_type="DYNAMIC",
                          shape_type="BOX")
    kit = _kit(scene, "CrateKit", crate)
    for index in range(3):
        _instance(f"CrateInst{index}", kit, (2 * index, 0, 3))
    capfd.readouterr()
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    lines = _printed(capfd)
    assert len(_said(lines, "3 bodies in collection instances not previewed")) == 1, lines
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    bpy.data.objects.remove(floor)
    capfd.readouterr()
    assert bpy.ops.gltf_physics.preview() == {"CANCELLED"}
    said = _said(_printed(capfd), "No glTF physics bodies or joints to preview")
    assert len(said) == 1 and "3 bodies in collection instances not previewed" in said[0]


def test_the_preview_says_a_body_gets_no_collider_from_the_kit_it_instances(clean_scene,
                                                                          capfd):
    """An Empty with a dynamic body instancing a kit of colliders (the export's colliders
    of that body): the preview gives it none, and says so (it falls through the floor)."""
    scene = clean_scene
    _floor()
    kit = _kit(scene, "CrateColliders",
               h.set_physics(h.mesh_object("CrateShape", "cube"), shape_type="BOX"))
    h.set_physics(_instance("Crate", kit, (0, 0, 2)), motion_type="DYNAMIC")
    capfd.readouterr()
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    lines = _printed(capfd)
    said = _said(lines, "The colliders a body takes from the collection it instances")
    assert len(said) == 1 and "a dynamic one falls through everything" in said[0]
    assert "Crate" in said[0]
    assert _said(lines, "in collection instances not previewed") == []  # they are its own


@pytest.mark.parametrize("where", ["instanced", "excluded"])
def test_a_joint_to_a_body_the_preview_does_not_simulate_is_not_previewed(clean_scene,
                                                                          capfd, where):
    """A lamp hooked to a post only in an instanced kit, or in an excluded collection: the
    joint (which held nothing) is not counted and is named once."""
    scene = clean_scene
    post = h.set_physics(h.mesh_object("Post", "cube", (0, 0, 3)), motion_type="STATIC",
                         shape_type="BOX")
    kit = _kit(scene, "PostKit", post)
    if where == "instanced":
        _instance("PostKit.inst", kit, (0, 0, 0))
    lamp = h.set_physics(h.mesh_object("Lamp", "cube", (0, 0, 2)), motion_type="DYNAMIC",
                         shape_type="BOX")
    hook = h.set_physics(h.empty_object("Hook", (0, 0, 2.5), parent=lamp),
                         joint_type="FIXED", joint_connected_body=post)
    hook.matrix_parent_inverse = lamp.matrix_world.inverted()
    capfd.readouterr()
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    lines = _printed(capfd)
    assert len(_said(lines, "Preview: 1 bodies, 0 joints")) == 1, lines
    said = _said(lines, "joint(s) not previewed")
    assert len(said) == 1 and said[0].endswith(": Hook"), lines
    assert hook.rigid_body_constraint is None
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert _tags(bpy.data.objects) == []


@pytest.mark.parametrize("how", ["disabled", "baked"])
def test_the_preview_says_why_nothing_will_move_in_the_users_world(clean_scene, capfd, how):
    """The user's world disabled, or its cache baked: play moves no preview body, so the
    preview says why instead of "press play"."""
    scene = clean_scene
    scene.frame_start, scene.frame_end = 1, 20
    bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.point_cache.frame_start, world.point_cache.frame_end = 1, 20
    world.collection = bpy.data.collections.new("MyRigidBodies")
    world.collection.objects.link(h.mesh_object("UserBox", "cube", (5, 0, 4)))
    if how == "disabled":
        world.enabled = False
    else:
        with bpy.context.temp_override(scene=scene, point_cache=world.point_cache):
            assert bpy.ops.ptcache.bake(bake=True) == {"FINISHED"}
        assert world.point_cache.is_baked
    _floor()
    h.set_physics(h.mesh_object("Box", "cube", (0, 0, 2)), motion_type="DYNAMIC",
                  shape_type="BOX")
    capfd.readouterr()
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    said = _said(_printed(capfd), "Preview: 2 bodies")
    assert len(said) == 1 and "press play" not in said[0].split("nothing will move")[0]
    assert ("is disabled" if how == "disabled" else "cache is baked") in said[0]
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert world.enabled == (how != "disabled")


@pytest.mark.parametrize("copy", ["EMPTY", "FULL_COPY"])
def test_a_copied_scenes_preview_leaves_the_originals_alone(clean_scene, copy):
    """A scene copied while its preview is on copies the preview's token too: the copy's
    Preview and Remove Preview leave the original's rigid bodies, helpers and follow
    constraint alone (they took them away)."""
    original = clean_scene
    cube = h.set_physics(h.mesh_object("Cube", "cube", (0, 0, 3)), motion_type="DYNAMIC",
                         shape_type="BOX")
    ball = _ball()  # (carried by a hidden helper it follows)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    helpers = set(original.rigidbody_world.collection.objects)
    bpy.ops.scene.new(type=copy)
    if copy == "EMPTY":  # (a full copy's objects carry the preview's parts: refused there)
        h.set_physics(h.mesh_object("Rock", "sphere", (0, 0, 5)), motion_type="DYNAMIC",
                      shape_type="SPHERE")
        assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert cube.rigid_body is not None and ball.constraints
    assert set(original.rigidbody_world.collection.objects) == helpers
    bpy.context.window.scene = original
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert cube.rigid_body is None and not ball.constraints
