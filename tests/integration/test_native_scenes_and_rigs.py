"""The rigid body conversion across scenes and rigs: a joint whose bodies simulate in another
scene's world gets no constraint (and no traceback), an unselected joint partner's own rigid
body is left as it was and one without physics gets a rigid body (no traceback), a
constraint's body only in another scene is left as it was (that scene's layers too), and a
constraint Empty above its body A stays where it is (nothing moves), its joint going to a
tagged Empty under body A."""

import importlib

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE
from tests.integration.test_operator_polish import reported, select
from tests.integration.test_production_scenes_tools import props_of

joint_bridge = importlib.import_module(f"{MODULE}.io.blender.bridge.joint_bridge")
ownership = importlib.import_module(f"{MODULE}.io.blender.tools.ownership")


def objects_state(*objs) -> dict:
    """What a conversion could change on `objs`: physics, rigid body and constraint,
    parent, place, custom properties."""
    return {obj.name: (props_of(obj.gltf_physics),
                       props_of(obj.rigid_body) if obj.rigid_body else None,
                       props_of(obj.rigid_body_constraint) if obj.rigid_body_constraint else None,
                       obj.parent and obj.parent.name,
                       tuple(round(v, 5) for row in obj.matrix_world for v in row),
                       sorted(obj.keys()))
            for obj in objs}


def scene_state(scene) -> dict:
    """A scene's collision layers, rigid body world and its collections' members."""
    world = scene.rigidbody_world
    return {
        "layers": [layer.name for layer in scene.gltf_physics.layers],
        "world": world is not None,
        "bodies": sorted(o.name for o in world.collection.objects)
        if world and world.collection else None,
        "constraints": sorted(o.name for o in world.constraints.objects)
        if world and world.constraints else None,
        "objects": sorted(o.name for o in scene.objects),
    }


def mesh_in(scene, name, location):
    """A mesh object linked to `scene` only."""
    obj = h.mesh_object(name, location=location)
    if scene != bpy.context.scene:
        bpy.context.scene.collection.objects.unlink(obj)
        scene.collection.objects.link(obj)
    return obj


def native_world(scene, bodies):
    """`scene`'s Blender rigid body world holding `bodies` (made here)."""
    with bpy.context.temp_override(scene=scene):
        bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.collection = bpy.data.collections.new(f"RigidBodyWorld {scene.name}")
    for body in bodies:
        world.collection.objects.link(body)
    world.constraints = bpy.data.collections.new(f"RigidBodyConstraints {scene.name}")
    return world


# -- 1: to_native, a joint whose bodies simulate in another scene's world ---------------------


def test_to_native_joint_between_bodies_of_another_scenes_world(clean_scene, capfd):
    """Door and Frame are only in scene B, with B's rigid bodies; the hinge is in scene A
    (which has no world). No constraint is made, nothing is made in either scene, and the
    run says why once, with no traceback."""
    scene_a = clean_scene
    scene_a.name = "A"
    scene_b = bpy.data.scenes.new("B")
    door = mesh_in(scene_b, "Door", (0, 0, 0))
    frame = mesh_in(scene_b, "Frame", (2, 0, 0))
    for body in (door, frame):
        h.set_physics(body, motion_type="DYNAMIC", shape_type="BOX")
    native_world(scene_b, [door, frame])
    hinge = h.set_physics(h.empty_object("Hinge"), joint_type="HINGE",
                          joint_connected_body=frame)
    hinge.parent = door
    select(hinge)
    bodies_before, b_before = objects_state(door, frame), scene_state(scene_b)
    result, lines = reported(capfd, bpy.ops.gltf_physics.to_native)
    assert result == {"CANCELLED"}
    assert lines == [
        "Warning: Door is not in the scene A, whose rigid body world this is; it is left as "
        "it was",
        "Warning: Frame is not in the scene A, whose rigid body world this is; it is left as "
        "it was",
        "Warning: Hinge: Door and Frame are not in the rigid body world of the scene A: no "
        "constraint",
        "Warning: Nothing to convert",
    ]
    assert hinge.rigid_body_constraint is None and scene_a.rigidbody_world is None
    assert objects_state(door, frame) == bodies_before
    assert scene_state(scene_b) == b_before


def test_to_native_counts_a_joint_that_makes_no_constraint_as_not_converted(clean_scene,
                                                                            capfd):
    """A hinge without a connected body makes no constraint: said, and only the door is
    counted (the joint was counted as converted)."""
    door = h.set_physics(h.mesh_object("Door"), motion_type="DYNAMIC", shape_type="BOX")
    hinge = h.set_physics(h.empty_object("Hinge", parent=door), joint_type="HINGE")
    select(hinge, door, active=door)
    result, lines = reported(capfd, bpy.ops.gltf_physics.to_native)
    assert result == {"FINISHED"} and hinge.rigid_body_constraint is None
    assert lines[0] == "Warning: Hinge: a Blender constraint needs two bodies: skipped", lines
    assert lines[-1].startswith("Warning: Converted 1 object(s)"), lines


def test_to_native_leaves_an_unselected_partners_own_rigid_body(clean_scene, capfd):
    """Only the hinge is selected; its connected body Wall has a Blender rigid body of the
    artist's (Mesh shape, 50 kg, collection 4): it is used as it is, and said."""
    door = h.set_physics(h.mesh_object("Door"), motion_type="DYNAMIC", shape_type="BOX")
    wall = h.set_physics(h.mesh_object("Wall", location=(2, 0, 0)), motion_type="STATIC",
                         shape_type="BOX")
    world = native_world(clean_scene, [wall])
    wall.rigid_body.collision_shape, wall.rigid_body.mass = "MESH", 50.0
    wall.rigid_body.collision_collections = [i == 3 for i in range(20)]
    hinge = h.set_physics(h.empty_object("Hinge", parent=door), joint_type="HINGE",
                          joint_connected_body=wall)
    select(hinge)
    wall_before = objects_state(wall)
    result, lines = reported(capfd, bpy.ops.gltf_physics.to_native)
    assert result == {"FINISHED"}
    assert "Warning: Wall: not selected, and has a Blender rigid body of its own: it is left "\
        "as it was" in lines, lines
    assert objects_state(wall) == wall_before
    assert door.rigid_body is not None and hinge.rigid_body_constraint.object2 == wall
    assert sorted(o.name for o in world.collection.objects) == ["Door", "Wall"]


def test_to_native_partner_without_physics_gets_a_rigid_body_not_a_traceback(clean_scene,
                                                                           capfd):
    """The hinge's connected body was made a plain mesh (no motion, no shape) after it was
    picked: it becomes a Passive rigid body with Blender's shape, said, no traceback."""
    door = h.set_physics(h.mesh_object("Door"), motion_type="DYNAMIC", shape_type="BOX")
    wall = h.set_physics(h.mesh_object("Wall", location=(2, 0, 0)), motion_type="STATIC")
    hinge = h.set_physics(h.empty_object("Hinge", parent=door), joint_type="HINGE",
                          joint_connected_body=wall)
    wall.gltf_physics.motion_type = "NONE"
    select(hinge)
    result, lines = reported(capfd, bpy.ops.gltf_physics.to_native)
    assert result == {"FINISHED"}
    assert "Warning: Wall: no collision shape; Blender's shape is left as it was" in lines
    assert wall.rigid_body.type == "PASSIVE" and hinge.rigid_body_constraint.object2 == wall


# -- 2: from_native, a constraint's body only in another scene --------------------------------


def _door_and_frame_of_scene_b(scene_a):
    """Door in scene A and Frame only in scene B, each in its scene's world (Frame in
    Blender collision collection 4), hinged in A by a constraint on an Empty under Door."""
    scene_a.name = "A"
    scene_b = bpy.data.scenes.new("B")
    door = mesh_in(scene_a, "Door", (0, 0, 0))
    frame = mesh_in(scene_b, "Frame", (2, 0, 0))
    world_a = native_world(scene_a, [door])
    native_world(scene_b, [frame])
    frame.rigid_body.collision_collections = [i == 3 for i in range(20)]
    hinge = h.empty_object("Hinge", parent=door)
    world_a.constraints.objects.link(hinge)
    hinge.rigid_body_constraint.type = "HINGE"
    return scene_b, door, frame, hinge


def test_from_native_leaves_a_body_of_another_scene_and_its_layers(clean_scene, capfd):
    scene_b, door, frame, hinge = _door_and_frame_of_scene_b(clean_scene)
    hinge.rigid_body_constraint.object1 = door
    hinge.rigid_body_constraint.object2 = frame
    select(hinge)
    frame_before, b_before = objects_state(frame), scene_state(scene_b)
    result, lines = reported(capfd, bpy.ops.gltf_physics.from_native)
    assert result == {"FINISHED"}
    assert lines == [
        "Warning: Frame is not in the scene A; it is left as it was",
        "Warning: Converted 2 object(s), with 1 note(s): see the Info editor",
    ]
    assert door.gltf_physics.motion_type == "DYNAMIC"
    assert hinge.gltf_physics.joint_type == "HINGE" and hinge.parent == door
    assert hinge.gltf_physics.joint_connected_body == frame  # the joint still names it
    assert objects_state(frame) == frame_before
    assert frame.gltf_physics.motion_type == "NONE"
    assert scene_state(scene_b) == b_before and b_before["layers"] == []
    assert [layer.name for layer in clean_scene.gltf_physics.layers] == []


def test_from_native_leaves_a_constraint_whose_body_a_is_in_another_scene(clean_scene,
                                                                          capfd):
    """Body A only in scene B: the joint would go under it; the constraint is left as it was
    (and nothing of it converted)."""
    scene_b, door, frame, hinge = _door_and_frame_of_scene_b(clean_scene)
    hinge.rigid_body_constraint.object1 = frame
    hinge.rigid_body_constraint.object2 = door
    select(hinge)
    before, b_before = objects_state(door, frame, hinge), scene_state(scene_b)
    result, lines = reported(capfd, bpy.ops.gltf_physics.from_native)
    assert result == {"CANCELLED"}
    assert lines == [
        "Warning: Hinge: body A, Frame, is not in the scene A: the constraint is left as it "
        "was",
        "Warning: Nothing to convert",
    ]
    assert objects_state(door, frame, hinge) == before
    assert scene_state(scene_b) == b_before
    assert [layer.name for layer in clean_scene.gltf_physics.layers] == []


# -- 3: from_native, a constraint Empty above its body A --------------------------------------


def _rig():
    """The user's rig: a constraint Empty DoorRig, parent of Door (body A), hinged to Frame."""
    rig = h.empty_object("DoorRig", location=(5, 0, 0))
    door = h.mesh_object("Door")
    door.parent = rig
    frame = h.mesh_object("Frame", location=(2, 0, 0))
    world = native_world(bpy.context.scene, [door, frame])
    world.constraints.objects.link(rig)
    rig.rigid_body_constraint.type = "HINGE"
    rig.rigid_body_constraint.object1, rig.rigid_body_constraint.object2 = door, frame
    return rig, door, frame


def _places() -> dict:
    bpy.context.view_layer.update()
    return {obj.name: (obj.parent and obj.parent.name, obj.matrix_world.copy())
            for obj in bpy.data.objects}


@pytest.mark.parametrize("run", ["first", "again"])
def test_from_native_on_a_constraint_empty_above_body_a_moves_nothing(clean_scene, capfd, run):
    rig, door, frame = _rig()
    select(rig, door, frame, active=rig)
    if run == "again":
        assert bpy.ops.gltf_physics.from_native() == {"FINISHED"}
    before = _places()
    result, lines = reported(capfd, bpy.ops.gltf_physics.from_native)
    assert result == {"FINISHED"}
    made = ("the new Empty DoorRig.joint under Door" if run == "first"
            else "DoorRig.joint under Door, the Empty made for it before")
    assert lines == [
        "Warning: DoorRig is above body A, Door, in the hierarchy, and stays where it is: "
        f"its joint is on {made}",
        "Warning: Converted 3 object(s), with 1 note(s): see the Info editor",
    ]
    after = _places()
    assert {name: after[name] for name in before} == before  # nothing moved
    holder = bpy.data.objects["DoorRig.joint"]
    assert set(after) - set(before) == ({"DoorRig.joint"} if run == "first" else set())
    assert ownership.made_by(holder, ownership.NATIVE_JOINT, rig)
    # the joint means what the constraint did: body A Door, connected Frame, at the rig
    assert joint_bridge.body_of(holder) == door and holder.parent == door
    assert holder.gltf_physics.joint_type == "HINGE"
    assert holder.gltf_physics.joint_connected_body == frame
    assert (holder.matrix_world.translation - rig.matrix_world.translation).length < 1e-6
    assert rig.gltf_physics.joint_type == "NONE" and rig.parent is None
    assert door.parent == rig and door.gltf_physics.motion_type == "DYNAMIC"
