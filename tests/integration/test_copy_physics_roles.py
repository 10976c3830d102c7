# SPDX-License-Identifier: GPL-3.0-or-later
"""Copy Physics to Selected on scenes as artists select them (Select All, a box selection):
it copies only onto objects of the source's role or of none, so the joints, wheels, seats,
triggers, gravity volumes and collision-only proxies caught in the selection (what Add
Joint, Add Wheels, Generate Convex Hull and the import made too) are left alone and named
once; between objects of one role it still copies. Links are never copied: a choice reading
another object (a shape's Mesh Source, a line gravity's Points From) falls back to the
target's own when it has no link of its own, and the operator says which targets did."""

import importlib
import json

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE
from tests.integration.test_import_hostile_files import bone_physics_file
from tests.integration.test_operator_polish import refused, reported

ownership = importlib.import_module(f"{MODULE}.io.blender.tools.ownership")
ops = bpy.ops.gltf_physics


def select(*objs, active=None) -> None:
    bpy.context.view_layer.update()
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in objs)
    bpy.context.view_layer.objects.active = active or objs[0]


def select_all(active) -> None:
    select(*bpy.context.view_layer.objects, active=active)


def body(name, location=(0, 0, 0), motion="DYNAMIC", shape="BOX", kind="cube", **physics):
    return h.set_physics(h.mesh_object(name, kind, location=location), motion_type=motion,
                         shape_type=shape, **physics)


def physics(obj) -> tuple:
    """What a wrong copy would change: the object's role and body settings, its links."""
    props = obj.gltf_physics
    return (props.motion_type, props.shape_type, props.joint_type, props.vehicle_part,
            props.is_seat, props.collision_only, props.mesh_source, props.mesh_object,
            props.joint_connected_body, round(props.mass, 4), round(props.wheel_radius, 4))


def warnings(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Warning:")]


# -- other roles caught in the selection --------------------------------------------------------


def _yard() -> dict:
    """A yard as an artist builds it with the tools: a crate hinged to a post (Add Joint), a
    car with four wheels (Add Wheels) and a driver's seat, a rock with a hull proxy
    (Generate Convex Hull), a barrel to copy from and a new mesh without physics."""
    crate = body("Crate", mass=2.0)
    post = body("Post", (2, 0, 0), motion="STATIC")
    car = body("Car", (0, 6, 0), mass=800.0, is_vehicle=True)
    rock = body("Rock", (-4, 0, 0), shape="NONE", kind="monkey")
    barrel = body("Barrel", (4, 0, 0), shape="CYLINDER", mass=40.0, kind="cylinder")
    plain = h.mesh_object("Plain", location=(6, 0, 0))
    seat = h.set_physics(h.empty_object("Seat", (0, 6, 1), parent=car), is_seat=True)
    select(crate, post, active=post)
    assert ops.joint_add(joint_type="HINGE") == {"FINISHED"}
    select(car)
    assert ops.wheels_add() == {"FINISHED"}
    select(rock)
    assert ops.simplify_hull() == {"FINISHED"}
    joint = next(c for c in crate.children if ownership.made_by(c, ownership.JOINT))
    wheels = [c for c in car.children if ownership.made_by(c, ownership.WHEEL)]
    return {"crate": crate, "post": post, "car": car, "rock": rock, "barrel": barrel,
            "plain": plain, "seat": seat, "joint": joint, "wheels": wheels,
            "proxy": rock.gltf_physics.mesh_object}


def test_select_all_copies_onto_bodies_and_names_the_other_roles_once(clean_scene, capfd,
                                                                      tmp_path):
    yard = _yard()
    helpers = [yard["joint"], *yard["wheels"], yard["proxy"], yard["seat"]]
    before = {obj.name: physics(obj) for obj in helpers}
    select_all(yard["barrel"])
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    assert {obj.name: physics(obj) for obj in helpers} == before
    assert lines[0] == "Info: Copied physics of Barrel to 5 object(s)", lines
    assert warnings(lines) == [
        "Warning: Not copied onto what has another role than Barrel (body): Car.wheel0, "
        "Car.wheel1, Car.wheel2 and 1 more (wheel); Crate.joint (joint); Rock.hull "
        "(collision-only proxy); Seat (seat); make one of them active to copy between them"]
    joint = yard["joint"].gltf_physics
    assert (joint.joint_type, joint.joint_connected_body) == ("HINGE", yard["post"])
    assert yard["proxy"].gltf_physics.collision_only
    for name in ("crate", "post", "car", "rock", "plain"):
        props = yard[name].gltf_physics
        assert (props.motion_type, props.shape_type, props.mass) == ("DYNAMIC", "CYLINDER",
                                                                     40.0), name
    gltf = h.export(tmp_path / "yard.gltf")
    h.assert_valid(tmp_path / "yard.gltf")
    nodes = {n["name"]: n.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
             for n in gltf["nodes"]}
    assert "Rock.hull" not in nodes  # still collision only: no visible body of its own
    assert "joint" in nodes["Crate.joint"] and "motion" not in nodes["Crate.joint"]


def test_select_all_leaves_the_parts_other_objects_point_at(clean_scene, capfd):
    """A joint's connected frame (a plain Empty, as every imported joint has), a line
    gravity's object and a shape's mesh object have no physics of their own: Select All made
    each a 40 kg body (the joint then joined a phantom body)."""
    barrel = body("Barrel", (4, 0, 0), shape="CYLINDER", mass=40.0, kind="cylinder")
    door, frame_body = body("Door"), body("Frame", (2, 0, 0), motion="STATIC")
    frame = h.empty_object("Hinge.connected", (1, 0, 0), parent=frame_body)
    hinge = h.set_physics(h.empty_object("Hinge", (1, 0, 0), parent=door), joint_type="HINGE")
    hinge.gltf_physics.joint_attachment = frame
    rail = h.mesh_object("Rail", location=(0, 5, 0))
    well = h.set_physics(h.empty_object("Well", (0, 5, 0)), shape_type="BOX",
                         shape_role="TRIGGER", gravity_type="LINE",
                         gravity_line_source="OBJECT")
    well.gltf_physics.gravity_line_object = rail
    visible = h.mesh_object("Look", location=(0, -5, 0))
    holder = h.set_physics(h.empty_object("Holder", (0, -5, 0)), motion_type="STATIC",
                           shape_type="TRIMESH", mesh_source="OBJECT")
    holder.gltf_physics.mesh_object = visible
    parts = (frame, rail, visible)
    before = {obj.name: physics(obj) for obj in parts}
    bpy.context.view_layer.update()
    select_all(barrel)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    assert {obj.name: physics(obj) for obj in parts} == before
    [warning] = [line for line in warnings(lines) if "another role" in line]
    assert "Hinge.connected (joint's connected frame)" in warning \
        and "Rail (gravity line)" in warning and "Look (shape mesh)" in warning, warning


def test_a_link_left_set_but_unused_makes_no_part(clean_scene, capfd):
    """A shape switched to Box keeps its Mesh Object link, unused: that mesh was refused as
    its 'shape mesh' and the whole copy failed."""
    barrel = body("Barrel", (4, 0, 0), shape="CYLINDER", mass=40.0, kind="cylinder")
    low = h.mesh_object("RockLow", location=(0, 5, 0))
    rock = body("Rock", (-4, 0, 0), shape="TRIMESH", mesh_source="OBJECT")
    rock.gltf_physics.mesh_object = low
    rock.gltf_physics.shape_type = "BOX"
    select(low, barrel, active=barrel)
    result, _lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"} and low.gltf_physics.mass == 40.0


def test_a_target_using_its_own_linked_object_keeps_using_it(clean_scene, capfd):
    """A barrel's Mesh Source 'This Object' switched a rock off its own 32-point hull proxy
    (the file then had the render mesh as its hull), unsaid."""
    barrel = body("Barrel", (4, 0, 0), shape="CONVEX", mass=40.0, kind="cylinder")
    rock = body("Rock", (-4, 0, 0), shape="NONE", kind="monkey")
    select(rock)
    assert ops.simplify_hull() == {"FINISHED"}
    proxy = rock.gltf_physics.mesh_object
    select(rock, barrel, active=barrel)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"} and rock.gltf_physics.mass == 40.0
    assert (rock.gltf_physics.mesh_source, rock.gltf_physics.mesh_object) == ("OBJECT", proxy)
    assert "Info: Each target keeps using its own linked object: Mesh Source is 'Other " \
        "Object' on Rock" in lines, lines


def test_selecting_only_other_roles_greys_out_and_changes_nothing(clean_scene):
    yard = _yard()
    select(yard["joint"], yard["wheels"][0], yard["proxy"], active=yard["barrel"])
    before = {obj.name: physics(obj) for obj in bpy.data.objects}
    assert not ops.copy_settings.poll()
    message = refused(ops.copy_settings)
    assert message.endswith(
        "Not copied onto what has another role than Barrel (body): Car.wheel0 "
        "(wheel); Crate.joint (joint); Rock.hull (collision-only proxy); make one of them " \
        "active to copy between them"), message
    assert {obj.name: physics(obj) for obj in bpy.data.objects} == before
    assert {"REGISTER", "UNDO"} <= set(bpy.types.GLTF_PHYSICS_OT_copy_settings.bl_options)


def test_one_role_still_copies_and_keeps_each_ones_links(clean_scene, capfd):
    """A joint's settings onto the other joints (each keeps its connected body; a new Empty
    made a joint has none, and is told), a wheel's onto the other wheels."""
    yard = _yard()
    door = body("Door", (0, -3, 0))
    select(door, yard["crate"], active=yard["crate"])
    assert ops.joint_add(joint_type="FIXED") == {"FINISHED"}
    door_joint = next(c for c in door.children if ownership.made_by(c, ownership.JOINT))
    spare = h.empty_object("Spare", (0, -6, 0))
    h.set_physics(yard["joint"], joint_type="SLIDER", joint_use_limit=True,
                  joint_distance_max=0.25)
    select(door_joint, spare, yard["crate"], door, active=yard["joint"])
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    for joint, partner in ((door_joint, yard["crate"]), (spare, None)):
        props = joint.gltf_physics
        assert (props.joint_type, props.joint_distance_max) == ("SLIDER", 0.25), joint.name
        assert props.joint_connected_body == partner, joint.name
    assert ownership.made_by(door_joint, ownership.JOINT, door)
    assert door.gltf_physics.motion_type == "DYNAMIC" and door.gltf_physics.joint_type == "NONE"
    assert lines[0] == "Info: Copied physics of Crate.joint to 2 object(s)", lines
    assert warnings(lines) == [
        "Warning: Not copied onto what has another role than Crate.joint (joint): Crate, "
        "Door (body); make one of them active to copy between them",
        "Warning: Links to other objects are not copied, and some targets have none of "
        "their own: no Connected Body on Spare (pick theirs in the physics panel)"]
    first, *others = yard["wheels"]
    first.gltf_physics.wheel_radius = 0.7
    select(yard["car"], *others, active=first)
    result, lines = reported(capfd, ops.copy_settings)
    assert all(w.gltf_physics.vehicle_part == "WHEEL" for w in others)
    assert [round(w.gltf_physics.wheel_radius, 4) for w in others] == [0.7] * 3
    car = yard["car"].gltf_physics
    assert (car.motion_type, car.is_vehicle, car.vehicle_part) == ("DYNAMIC", True, "NONE")
    assert result == {"FINISHED"} and lines[0] == "Info: Copied physics of Car.wheel0 to 3 " \
        "object(s)", lines


def test_a_linked_object_of_another_role_is_left_alone_a_linked_body_refuses(clean_scene,
                                                                             tmp_path):
    crate = body("Crate", mass=3.0)
    h.set_physics(h.empty_object("Hinge", (1, 0, 1), parent=crate), joint_type="HINGE")
    kit = h.linked_kit([crate, *crate.children], tmp_path / "lib.blend")
    for obj in kit.objects:
        bpy.context.scene.collection.objects.link(obj)
    linked_crate, hinge = kit.objects["Crate"], kit.objects["Hinge"]
    barrel = body("Barrel", (4, 0, 0), shape="CYLINDER", mass=40.0, kind="cylinder")
    box = h.mesh_object("Box", location=(6, 0, 0))
    select(hinge, box, active=barrel)
    assert ops.copy_settings() == {"FINISHED"}  # the linked joint is not a target
    assert box.gltf_physics.shape_type == "CYLINDER"
    assert hinge.gltf_physics.joint_type == "HINGE" and hinge.gltf_physics.motion_type == "NONE"
    fresh = h.mesh_object("Fresh", location=(8, 0, 0))
    select(linked_crate, fresh, active=barrel)
    before = {obj.name: physics(obj) for obj in bpy.data.objects}
    message = refused(ops.copy_settings)
    assert message == "Error: Crate is linked from lib.blend: make it local or use a library " \
        "override; nothing was changed", message
    assert {obj.name: physics(obj) for obj in bpy.data.objects} == before


def _gate_file(path) -> None:
    """A file whose node Gate has a collider and a trigger: the import keeps the trigger on
    a child Empty, Gate.trigger."""
    path.write_text(json.dumps({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Gate", "extensions": {"OMI_physics_body": {
            "collider": {"shape": 0}, "trigger": {"shape": 0}}}}],
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box",
                                                          "box": {"size": [1, 1, 1]}}]}},
    }))


def trigger_state(obj) -> tuple:
    props = obj.gltf_physics
    return (*physics(obj), props.shape_role, props.gravity_type, props.is_compound_trigger)


def test_triggers_and_gravity_volumes_keep_theirs(clean_scene, capfd, tmp_path):
    """A body's settings never go onto a trigger, a gravity volume, the importer's trigger
    child or a bone's trigger; a bone stand-in holding a body is a body. Between triggers
    it still copies, a plain trigger's not onto a gravity volume."""
    bones, gate = tmp_path / "bones.gltf", tmp_path / "gate.gltf"
    bones.write_text(json.dumps(bone_physics_file()))
    _gate_file(gate)
    for path in (bones, gate):
        bpy.ops.import_scene.gltf(filepath=str(path))
    objects = bpy.data.objects
    gate, child = objects["Gate"], objects["Gate.trigger"]
    upper, lower = objects["Upper"], objects["Lower"]  # the bones' stand-ins
    assert ownership.made_by(child, ownership.IMPORT_TRIGGER) and child.gltf_physics.shape_role \
        == "TRIGGER" and ownership.made_by(upper, ownership.IMPORT_CHILD)
    zone = h.set_physics(h.empty_object("Zone", (0, 3, 0)), shape_type="BOX",
                         shape_role="TRIGGER", motion_type="NONE")
    hall = h.set_physics(h.empty_object("Hall", (0, 6, 0)), is_compound_trigger=True)
    well = h.set_physics(h.empty_object("Well", (0, 9, 0)), shape_type="SPHERE",
                         shape_role="TRIGGER", motion_type="NONE", gravity_type="POINT")
    barrel = body("Barrel", (4, 0, 0), shape="CYLINDER", mass=40.0, kind="cylinder")
    kept = [child, lower, zone, hall, well]
    before = {obj.name: trigger_state(obj) for obj in kept}
    select(gate, upper, *kept, active=barrel)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    assert {obj.name: trigger_state(obj) for obj in kept} == before
    for obj in (gate, upper):
        props = obj.gltf_physics
        assert (props.motion_type, props.shape_type, props.mass) == ("DYNAMIC", "CYLINDER",
                                                                     40.0), obj.name
    assert lines[0] == "Info: Copied physics of Barrel to 2 object(s)", lines
    assert warnings(lines) == [
        "Warning: Not copied onto what has another role than Barrel (body): Gate.trigger, "
        "Hall, Zone (trigger); Lower, Well (gravity volume); make one of them active to copy "
        "between them"]
    zone.gltf_physics.shape_type = "CAPSULE"
    select(child, well, active=zone)
    result, lines = reported(capfd, ops.copy_settings)
    assert child.gltf_physics.shape_type == "CAPSULE" and trigger_state(well) == before["Well"]
    assert warnings(lines) == [
        "Warning: Not copied onto what has another role than Zone (trigger): Well (gravity "
        "volume); make one of them active to copy between them"]
    child.gltf_physics.shape_type = "NONE"  # the settings say nothing: the tag tells
    select(child, active=barrel)
    message = refused(ops.copy_settings)
    assert message.endswith("Not copied onto what has another role than Barrel (body): "
                            "Gate.trigger (trigger); make one of them active to copy between "
                            "them"), message
    lower.gltf_physics.shape_type, lower.gltf_physics.gravity_type = "NONE", "NONE"
    select(lower, active=barrel)  # a bone's stand-in without physics is no trigger
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"} and lower.gltf_physics.motion_type == "DYNAMIC"


def test_a_source_without_physics_clears_only_bodies(clean_scene, capfd):
    plain = h.mesh_object("Plain")
    crate = body("Crate", (2, 0, 0))
    zone = h.set_physics(h.empty_object("Zone", (0, 3, 0)), shape_type="BOX",
                         shape_role="TRIGGER")
    select(crate, zone, active=plain)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"} and crate.gltf_physics.motion_type == "NONE"
    assert zone.gltf_physics.shape_type == "BOX"
    assert warnings(lines) == [
        "Warning: Not copied onto what has another role than Plain (no physics: copies onto "
        "bodies): Zone (trigger); make one of them active to copy between them"]


@pytest.mark.parametrize("tag", [{"by": "a script"}, ["by", "a script"]])
def test_any_value_in_the_tool_tag_is_read_safely(clean_scene, tag):
    """A script may store anything under the tools' tag (Blender gives a list of strings
    back as an unhashable list): Copy Physics still asks each object's settings."""
    barrel = body("Barrel", shape="CYLINDER", kind="cylinder")
    box = h.mesh_object("Box", location=(3, 0, 0))
    box[ownership.MADE_BY] = tag
    select(box, active=barrel)
    assert ops.copy_settings.poll()
    assert ops.copy_settings() == {"FINISHED"}
    assert box.gltf_physics.shape_type == "CYLINDER"


# -- a choice reading another object, without a link of the target's own ------------------------


def test_a_copied_hull_shape_uses_each_targets_own_mesh_without_a_proxy(clean_scene, capfd,
                                                                        tmp_path):
    rock = body("Rock", shape="NONE", kind="monkey")
    rocks = [h.mesh_object(f"Rock{i}", "sphere", location=(3 * i, 3, 0)) for i in (1, 2)]
    boulder = body("Boulder", (0, -4, 0), shape="NONE", kind="sphere")
    select(rock, boulder)
    assert ops.simplify_hull() == {"FINISHED"}
    own_proxy = boulder.gltf_physics.mesh_object
    select(*rocks, boulder, active=rock)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    for obj in rocks:
        props = obj.gltf_physics
        assert (props.shape_type, props.mesh_source, props.mesh_object) == ("CONVEX", "SELF",
                                                                            None)
    props = boulder.gltf_physics
    assert (props.mesh_source, props.mesh_object) == ("OBJECT", own_proxy)
    assert warnings(lines) == [
        "Warning: Links to other objects are not copied, and some targets have none of "
        "their own: Mesh Source is 'This Object' on Rock1, Rock2 (pick theirs in the physics "
        "panel)"], lines
    assert ops.validate() == {"FINISHED"}
    assert not [p.message for p in bpy.context.scene.gltf_physics.problems]
    gltf = h.export(tmp_path / "rocks.gltf")
    bodies = {n["name"]: n.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
              for n in gltf["nodes"]}
    assert all("collider" in bodies[obj.name] for obj in rocks), bodies


def test_a_copied_line_gravity_uses_its_own_points_without_a_line_object(clean_scene, capfd):
    """Points From falls back to the target's own points; a target with its own line object
    keeps it; a shaped gravity's Shape Mesh has no fallback: the target is told."""
    def rail(name, x):
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata([(x, 0, 0), (x, 0, 3)], [(0, 1)], [])
        obj = bpy.data.objects.new(name, mesh)
        bpy.context.scene.collection.objects.link(obj)
        return obj

    def zone(name, x, **gravity):
        return h.set_physics(h.empty_object(name, (x, 0, 0)), shape_type="BOX",
                             shape_role="TRIGGER", **gravity)

    pull = zone("Pull", 0, gravity_type="LINE", gravity_line_source="OBJECT",
                gravity_line_object=rail("Rail", 0))
    pull2 = h.empty_object("Pull2", (5, 0, 0))
    own_rail = rail("OwnRail", 10)
    pull3 = zone("Pull3", 10, gravity_type="LINE", gravity_line_source="OBJECT",
                 gravity_line_object=own_rail)
    select(pull2, pull3, active=pull)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    props = pull2.gltf_physics
    assert (props.gravity_type, props.gravity_line_source, props.gravity_line_object) == (
        "LINE", "POINTS", None)
    assert (pull3.gltf_physics.gravity_line_source, pull3.gltf_physics.gravity_line_object) \
        == ("OBJECT", own_rail)
    assert warnings(lines) == [
        "Warning: Links to other objects are not copied, and some targets have none of "
        "their own: Points From is 'Points' on Pull2 (pick theirs in the physics panel)"]
    cube = zone("Cube", 20, gravity_type="SHAPED", gravity_shape_type="CONVEX",
                gravity_shape_object=rail("Planet", 20))
    select(pull2, active=cube)
    result, lines = reported(capfd, ops.copy_settings)
    assert warnings(lines) == [
        "Warning: Links to other objects are not copied, and some targets have none of "
        "their own: no Shape Mesh on Pull2 (pick theirs in the physics panel)"]


def test_a_copied_filter_says_what_it_means_in_another_scene(clean_scene, capfd):
    """Scene A's layers are Red, Blue; scene B's Blue, Red. Copying a filter onto an object
    both scenes export makes it Red in A and Blue in B: said (it was silent), with the
    layers; an object only in A is not named."""
    for name in ("Red", "Blue"):
        clean_scene.gltf_physics.layers.add().name = name
    other = bpy.data.scenes.new("B")
    for name in ("Blue", "Red"):
        other.gltf_physics.layers.add().name = name
    source = body("Source", (0, 0, 0))
    h.set_physics(source, use_filter=True)
    source.gltf_physics.filter_layers[0] = True  # Red here
    shared, alone = body("Shared", (3, 0, 0)), body("Alone", (6, 0, 0))
    other.collection.objects.link(shared)
    select(shared, alone, active=source)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"}
    assert warnings(lines) == [
        "Warning: Collision filters tick layers by number, and other scenes export these "
        "objects: layer 1 is Blue in scene B (Red here) for Shared; give the scenes the same "
        "layers in the same order, or keep the objects out of them"], lines
    select(shared, active=source)  # (nothing changes now: nothing said)
    result, lines = reported(capfd, ops.copy_settings)
    assert result == {"FINISHED"} and warnings(lines) == [], lines
