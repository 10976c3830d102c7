# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender's rigid body world built from gltf_physics settings, simulated headless."""

import importlib
import math

import bpy
import pytest
from mathutils import Vector

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

LOCKED = (0.0, 0.0)
ALL_LINEAR_LOCKED = {("linear", axis): LOCKED for axis in range(3)}


@pytest.fixture
def nrb():
    """The add-on's native_rigid_body module (imported once the add-on is enabled)."""
    return importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")


def _floor(kind: str = "mesh", **physics):
    """A static 10 × 10 × 1 m floor whose top is at z = 0, built in one of three ways."""
    if kind == "mesh":
        floor = h.mesh_object("Floor", "cube", (0, 0, -0.5))
        floor.scale = (10, 10, 1)
        return h.set_physics(floor, motion_type="STATIC", shape_type="BOX", **physics)
    if kind == "empty":
        floor = h.empty_object("Floor", (0, 0, -0.5))
        return h.set_physics(floor, motion_type="STATIC", shape_type="BOX", size_mode="CUSTOM",
                             box_size=(10, 10, 1), **physics)
    floor = h.empty_object("Floor", (0, 0, 0))  # a plane shape on a body with no mesh
    return h.set_physics(floor, motion_type="STATIC", shape_type="PLANE", size_mode="CUSTOM",
                         **physics)


def _dynamic_box(kind: str = "mesh", height: float = 2.0):
    """A dynamic 1 m box centred at `height` (its origin too, but for "offset": the bottom)."""
    if kind == "mesh":
        return h.set_physics(h.mesh_object("Box", "cube", (0, 0, height)),
                             motion_type="DYNAMIC", shape_type="BOX")
    if kind == "offset":  # origin at the bottom face: the shape is offset upwards
        box = h.mesh_object("Box", "cube", (0, 0, height - 0.5))
        h.set_physics(box, motion_type="DYNAMIC", shape_type="BOX", size_mode="CUSTOM",
                      box_size=(1, 1, 1), shape_offset=(0, 0, 0.5))
        return box
    body = h.set_physics(h.empty_object("Box", (0, 0, height)), motion_type="DYNAMIC")
    for index, x in enumerate((-0.25, 0.25)):  # two half boxes under an Empty: a compound
        part = h.mesh_object(f"Half{index}", "cube", (x, 0, 0))
        part.scale = (0.5, 1, 1)
        part.parent = body
        h.set_physics(part, shape_type="BOX")
    return body


def _z(obj) -> float:
    return obj.matrix_world.translation.z


@pytest.mark.parametrize(
    ("floor_kind", "box_kind", "rest_z"),
    [("mesh", "mesh", 0.5), ("empty", "compound", 0.5), ("plane", "offset", 0.0)],
)
def test_dynamic_box_comes_to_rest_on_static_floor(clean_scene, nrb, floor_kind, box_kind,
                                                   rest_z):
    _floor(floor_kind)
    box = _dynamic_box(box_kind)
    changed = nrb.build_preview(clean_scene)
    assert {obj.name for obj in changed} == {"Floor", "Box"}
    nrb.step(clean_scene, 30)
    assert _z(box) < 1.9, "the box did not fall"
    nrb.step(clean_scene, 70)
    assert _z(box) == pytest.approx(rest_z, abs=0.05)


@pytest.mark.parametrize("motion", ["STATIC", "NONE"])
def test_dynamic_box_falls_through_trigger_floor(clean_scene, nrb, motion):
    floor = _floor("mesh", shape_role="TRIGGER")
    floor.gltf_physics.motion_type = motion
    box = _dynamic_box()
    assert [obj.name for obj in nrb.build_preview(clean_scene)] == ["Box"]
    nrb.step(clean_scene, 60)
    assert _z(box) < -2.0
    assert floor.rigid_body is None


def test_filtered_box_falls_through_floor_it_does_not_collide_with(clean_scene, nrb):
    floor = _floor("mesh", use_filter=True, filter_layers=[True] + [False] * 31)
    box = _dynamic_box()
    h.set_physics(box, use_filter=True, filter_layers=[False, True] + [False] * 30,
                  filter_mode="EXCEPT", filter_targets=[True] + [False] * 31)
    nrb.build_preview(clean_scene)
    assert not any(a and b for a, b in zip(floor.rigid_body.collision_collections,
                                           box.rigid_body.collision_collections, strict=True))
    nrb.step(clean_scene, 60)
    assert _z(box) < -2.0


def test_collision_collections_group_rules_that_meet(nrb):
    unfiltered = nrb.FilterRule()
    props = nrb.FilterRule(frozenset({0}), "ONLY", frozenset({1}))
    players = nrb.FilterRule(frozenset({1}))
    bits = nrb.collision_collections([unfiltered, props, players])

    def meet(a, b):
        return any(x and y for x, y in zip(bits[a], bits[b], strict=True))

    assert meet(props, players) and meet(players, unfiltered) and meet(players, players)
    assert meet(unfiltered, unfiltered) and not meet(props, unfiltered)
    assert nrb.collision_collections([unfiltered])[unfiltered] == (True,) + (False,) * 19


@pytest.mark.parametrize("kind", ["mesh", "empty"])
def test_animated_kinematic_body_pushes_dynamic_box(clean_scene, nrb, kind):
    _floor()
    if kind == "mesh":
        pusher = h.mesh_object("Pusher", "cube", (-3, 0, 0.5))
    else:
        pusher = h.set_physics(h.empty_object("Pusher", (-3, 0, 0.5)), size_mode="CUSTOM",
                               box_size=(1, 1, 1))
    h.set_physics(pusher, motion_type="KINEMATIC", shape_type="BOX")
    pusher.keyframe_insert("location", frame=1)
    pusher.location.x = 2
    pusher.keyframe_insert("location", frame=50)
    box = _dynamic_box(height=0.55)  # (a little above the floor: no contact at the start,
    # which once made Bullet fling the box away under a loaded machine)
    nrb.build_preview(clean_scene)
    nrb.step(clean_scene, 60)
    assert pusher.matrix_world.translation.x == pytest.approx(2.0, abs=1e-3)
    assert box.matrix_world.translation.x > 2.9, "the kinematic body did not push the box"


def _pendulum(pivot: Vector):
    """A static anchor at the pivot and a ball hanging 1 m beside and 1 m below it."""
    anchor = h.set_physics(h.mesh_object("Anchor", "cube", tuple(pivot), size=0.2),
                           motion_type="STATIC", shape_type="BOX")
    ball = h.mesh_object("Ball", "sphere", tuple(pivot + Vector((1, 0, -1))), size=0.5)
    h.set_physics(ball, motion_type="DYNAMIC", shape_type="SPHERE")
    return anchor, ball, h.empty_object("Joint", tuple(pivot))


def test_pendulum_swings_at_constant_distance_from_pivot(clean_scene, nrb):
    pivot = Vector((0.0, 0.0, 3.0))
    anchor, ball, joint = _pendulum(pivot)
    nrb.build_preview(clean_scene)
    nrb.add_joint_constraint(clean_scene, joint, anchor, ball, ALL_LINEAR_LOCKED)
    start = (ball.matrix_world.translation - pivot).length
    xs, distances = [], []
    for _ in range(60):
        nrb.step(clean_scene, 1)
        xs.append(ball.matrix_world.translation.x)
        distances.append((ball.matrix_world.translation - pivot).length)
    assert min(xs) < -0.5, "the pendulum did not swing through the bottom"
    assert all(d == pytest.approx(start, rel=0.05) for d in distances)


def test_hinged_door_turns_only_about_its_vertical_hinge(clean_scene, nrb):
    clean_scene.gravity = (0.0, -5.0, -9.81)  # a sideways pull swings a door on a vertical axis
    post = h.set_physics(h.mesh_object("Post", "cube", (0, 0, 1), size=0.05),
                         motion_type="STATIC", shape_type="BOX")
    door = h.mesh_object("Door", "cube", (0.5, 0, 1))
    door.scale = (1.0, 0.1, 2.0)
    h.set_physics(door, motion_type="DYNAMIC", shape_type="BOX", mass=20)
    hinge = h.empty_object("Hinge", (0, 0, 1))
    nrb.build_preview(clean_scene)
    limits = {**ALL_LINEAR_LOCKED, ("angular", 0): LOCKED, ("angular", 1): LOCKED}
    nrb.add_joint_constraint(clean_scene, hinge, post, door, limits)
    edge = [Vector((-0.5, 0.0, z)) for z in (-0.5, 0.5)]  # door-local: scale makes it 1 m
    angles = []
    for _ in range(40):
        nrb.step(clean_scene, 1)
        matrix = door.matrix_world
        for local, fixed in zip(edge, ((0, 0, 0), (0, 0, 2)), strict=True):
            assert (matrix @ local - Vector(fixed)).length < 0.01
        assert matrix.translation.z == pytest.approx(1.0, abs=0.01)
        width = matrix.col[0].xyz.normalized()
        assert abs(width.z) < 0.01, "the door tilted out of its hinge axis"
        angles.append(math.atan2(width.y, width.x))
    assert min(angles) < -math.radians(30), "the door did not swing"


def test_remove_preview_leaves_nothing_behind(clean_scene, nrb):
    _floor("empty")
    _dynamic_box("compound")
    anchor, ball, joint = _pendulum(Vector((3.0, 0.0, 3.0)))
    free = h.empty_object("Free", (5, 0, 1))
    objects, meshes = set(bpy.data.objects), set(bpy.data.meshes)
    nrb.build_preview(clean_scene)
    nrb.build_preview(clean_scene)  # a rebuild replaces the first build's helpers
    nrb.add_joint_constraint(clean_scene, joint, anchor, ball, ALL_LINEAR_LOCKED)
    nrb.add_joint_constraint(clean_scene, free, None, ball, {})  # None: a hidden anchor
    nrb.step(clean_scene, 5)
    assert len(bpy.data.objects) > len(objects), "no helpers were made"
    nrb.remove_preview(clean_scene)
    assert clean_scene.rigidbody_world is None
    assert set(bpy.data.objects) == objects and set(bpy.data.meshes) == meshes
    assert not bpy.data.collections
    for obj in objects:
        assert obj.rigid_body is None and obj.rigid_body_constraint is None, obj.name
        assert not obj.constraints, obj.name
        # Blender 4.2 lists RNA-defined property groups among the ID properties.
        assert set(obj.keys()) <= {"gltf_physics"}, obj.name


def test_remove_preview_keeps_a_world_it_did_not_create(clean_scene, nrb):
    with bpy.context.temp_override(scene=clean_scene):
        bpy.ops.rigidbody.world_add()
    _floor()
    box = _dynamic_box()
    nrb.build_preview(clean_scene)
    nrb.step(clean_scene, 10)
    nrb.remove_preview(clean_scene)
    assert clean_scene.rigidbody_world is not None
    assert box.rigid_body is None and bpy.data.objects["Floor"].rigid_body is None


def test_a_preview_belongs_to_its_scene(clean_scene, nrb):
    """Objects linked into two scenes: Remove Preview in the other scene leaves this scene's
    preview running (it stripped it), and the other scene's Preview refuses while this one
    is on (a rigid body is the object's, not one scene's)."""
    scene_a = clean_scene
    _floor()
    box = _dynamic_box()
    ball = h.set_physics(h.empty_object("Ball", (3, 0, 2)), motion_type="DYNAMIC",
                         shape_type="SPHERE")
    scene_b = bpy.data.scenes.new("B")
    for obj in (box, ball):
        scene_b.collection.objects.link(obj)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    window = bpy.context.window
    window.scene = scene_b
    try:
        assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
        with pytest.raises(RuntimeError, match="is in the preview of scene Scene"):
            bpy.ops.gltf_physics.preview()
        assert scene_b.rigidbody_world is None
    finally:
        window.scene = scene_a
    assert box.rigid_body is not None and box.name in scene_a.rigidbody_world.collection.objects
    assert ball.constraints.get("gltf_physics preview") is not None
    nrb.step(scene_a, 10)
    assert _z(box) < 1.9  # still falling
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert box.rigid_body is None and not ball.constraints
    assert scene_a.rigidbody_world is None and not bpy.data.collections


def test_removing_the_preview_gives_back_the_frame_and_the_cache_range(clean_scene):
    """The user's own world keeps its cache range (it became the scene's), and the current
    frame comes back (it was left at the cache start)."""
    scene = clean_scene
    bpy.ops.rigidbody.world_add()
    cache = scene.rigidbody_world.point_cache
    cache.frame_start, cache.frame_end = 50, 100
    scene.frame_set(120)
    _floor()
    _dynamic_box()
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert (cache.frame_start, cache.frame_end) == (1, 250)
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert (cache.frame_start, cache.frame_end) == (50, 100)
    assert scene.frame_current == 120


def test_the_preview_leaves_an_excluded_collection_alone(clean_scene):
    """A joint (and a body) in a collection excluded from the view layer is neither drawn
    nor simulated: the preview gives it nothing (its constraint outlived Remove)."""
    _floor()
    hidden = bpy.data.collections.new("Hidden")
    clean_scene.collection.children.link(hidden)
    box = _dynamic_box()
    joint = h.set_physics(h.empty_object("Joint", (0, 0, 1)), joint_type="FIXED",
                          joint_connected_body=bpy.data.objects["Floor"])
    joint.parent = box
    for obj in (box, joint):
        for users in list(obj.users_collection):
            users.objects.unlink(obj)
        hidden.objects.link(obj)
    bpy.context.view_layer.layer_collection.children["Hidden"].exclude = True
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert joint.rigid_body_constraint is None and box.rigid_body is None
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    tags = [key for obj in bpy.data.objects for key in obj.keys()  # noqa: SIM118
            if key.startswith("gltf_physics_")]
    assert tags == []


def test_a_preview_saved_before_its_tags_named_the_scene_is_still_removed(clean_scene, nrb):
    """Files saved with an earlier release carry True where the scene now is: Remove
    Preview still takes that preview away."""
    _floor()
    box = _dynamic_box()
    ball = h.set_physics(h.empty_object("Ball", (3, 0, 2)), motion_type="DYNAMIC",
                         shape_type="SPHERE")
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    for obj in bpy.data.objects:
        for key in [k for k in obj.keys() if k.startswith("gltf_physics_preview")]:  # noqa: SIM118
            if key != nrb.PROXY_TAG:
                obj[key] = True
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert box.rigid_body is None and not ball.constraints
    assert [o.name for o in bpy.data.objects] == ["Ball", "Box", "Floor"]


@pytest.mark.parametrize("kind", ["CONVEX", "TRIMESH"])
def test_the_preview_skips_a_mesh_shape_of_an_object_blender_makes_no_mesh_from(clean_scene,
                                                                               kind):
    """A point cloud with a convex or triangle-mesh shape: the preview gives that shape no
    collider (it raised half-way, leaving half a preview) and previews everything else."""
    floor = _floor()
    cloud = bpy.data.objects.new("Cloud", bpy.data.pointclouds.new("Cloud"))
    clean_scene.collection.objects.link(cloud)
    cloud.location.z = 3
    h.set_physics(cloud, motion_type="DYNAMIC", shape_type=kind)
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert floor.rigid_body is not None
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert floor.rigid_body is None and clean_scene.rigidbody_world is None
