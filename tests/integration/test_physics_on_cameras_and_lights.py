# SPDX-License-Identifier: GPL-3.0-or-later
"""Physics set on a camera or light: the glTF add-on turns such a node a quarter turn from
its object (glTF cameras and lights look down -Z, Blender's down -Y), so a shape, centre of
mass or velocity written as set on the object came out turned; and read back, a node's
values went onto the object unturned."""

import json
import logging

import bpy
import pytest
from mathutils import Matrix, Vector

from tests.integration import scene_helpers as h
from tests.integration.test_joints import named, node_world

TO_GLTF = Matrix(((1, 0, 0), (0, 0, 1), (0, -1, 0)))  # Blender axes → glTF (Y up)
BODY = "KHR_physics_rigid_bodies"


def body_on(kind: str) -> bpy.types.Object:
    """A turned camera or spot light carrying a dynamic body: a capsule along its own Z, a
    custom centre of mass and an initial velocity."""
    data = bpy.data.cameras.new("Lens") if kind == "CAMERA" else bpy.data.lights.new("Bulb",
                                                                                     "SPOT")
    obj = bpy.data.objects.new("Rig", data)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler = (1, 2, 3), (0.3, 0.2, 0.1)
    h.set_physics(obj, motion_type="DYNAMIC", mass=2.0, shape_type="CAPSULE", radius=0.25,
                  height=1.5, center_of_mass_mode="CUSTOM", center_of_mass=(0.0, 0.25, 0.5),
                  linear_velocity=(1.0, 0.0, 0.0))
    bpy.context.view_layer.update()
    return obj


def motion_of(gltf: dict, fmt: str, index: int) -> dict:
    extensions = gltf["nodes"][index]["extensions"]
    return extensions[BODY]["motion"] if fmt == "KHR" else extensions["OMI_physics_body"]["motion"]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
@pytest.mark.parametrize("kind", ["CAMERA", "LIGHT"])
def test_a_body_on_a_camera_or_light_is_written_where_it_is_set(clean_scene, tmp_path, fmt,
                                                                kind):
    rig = body_on(kind)
    path = tmp_path / "out.gltf"
    gltf = h.export(path, fmt, export_cameras=True, export_lights=True)
    h.assert_valid(path)
    node = named(gltf, "Rig")
    world = node_world(gltf, node)
    blender_world = rig.matrix_world
    # the centre of mass, in the world, where the object has it
    centre = world @ Vector(motion_of(gltf, fmt, node)["centerOfMass"])
    assert (centre - TO_GLTF @ (blender_world @ Vector((0.0, 0.25, 0.5)))).length < 1e-5
    assert motion_of(gltf, fmt, node)["centerOfMass"] == [0, 0.25, 0.5]  # (exact digits)
    if fmt == "KHR":  # (node space: the velocity along the object's X, which the turn keeps)
        assert motion_of(gltf, fmt, node)["linearVelocity"] == [1, 0, 0]
    # the capsule's axis (its node's Y) along the object's Z
    shape_node = named(gltf, "Rig.shape")
    assert shape_node in gltf["nodes"][node]["children"]
    axis = node_world(gltf, shape_node).to_3x3() @ Vector((0, 1, 0))
    assert (axis - TO_GLTF @ (blender_world.to_3x3() @ Vector((0, 0, 1)))).length < 1e-5


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
@pytest.mark.parametrize("kind", ["CAMERA", "LIGHT"])
def test_a_body_on_a_camera_or_light_comes_back_as_it_was_set(clean_scene, tmp_path, fmt,
                                                              kind):
    rig = body_on(kind)
    world = rig.matrix_world.copy()
    path = tmp_path / "out.gltf"
    first = h.export(path, fmt, export_cameras=True, export_lights=True)
    h.import_file(path)
    rig = bpy.data.objects["Rig"]
    assert (rig.matrix_world.to_quaternion().rotation_difference(world.to_quaternion())
            ).angle < 1e-5
    props = rig.gltf_physics
    assert tuple(props.center_of_mass) == pytest.approx((0.0, 0.25, 0.5), abs=1e-7)
    if fmt == "KHR":
        assert tuple(props.linear_velocity) == pytest.approx((1.0, 0.0, 0.0), abs=1e-7)
    shape = bpy.data.objects["Rig.shape"]
    axis = shape.matrix_world.to_3x3() @ Vector((0, 0, 1))  # (a capsule along its Z)
    assert (axis - world.to_3x3() @ Vector((0, 0, 1))).length < 1e-5
    second = h.export(tmp_path / "again.gltf", fmt, export_cameras=True, export_lights=True)
    assert h.physics_subtree(second) == h.physics_subtree(first)


def test_a_shape_on_a_stated_camera_node_is_turned_onto_the_object(clean_scene, tmp_path):
    """A stranger's file: a box on a camera node itself (in the node's axes)."""
    path = tmp_path / "camera_box.gltf"
    path.write_text("""{"asset": {"version": "2.0"},
      "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
      "extensions": {"KHR_implicit_shapes": {"shapes": [
          {"type": "box", "box": {"size": [1, 2, 3]}}]}},
      "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}],
      "nodes": [{"name": "Eye", "camera": 0, "extensions": {"KHR_physics_rigid_bodies": {
          "motion": {"mass": 1, "centerOfMass": [0, 0, 0.5]},
          "collider": {"geometry": {"shape": 0}}}}}],
      "scenes": [{"nodes": [0]}], "scene": 0}""")
    h.import_file(path)
    eye = bpy.data.objects["Eye"]
    props = eye.gltf_physics
    # the node's +Z (glTF) is Blender's -Y; the camera object looks down its -Z
    centre = eye.matrix_world @ Vector(props.center_of_mass)
    assert (centre - Vector((0, -0.5, 0))).length < 1e-6
    box_axes = eye.matrix_world.to_3x3() @ props.shape_rotation.to_matrix()
    sized = {round(abs(box_axes.col[i].dot(Vector(axis))), 6): size for i, size in
             enumerate(props.box_size) for axis in ((0, 0, 1),)}
    assert sized.get(1.0) == pytest.approx(2.0)  # (the box's glTF Y, 2 m, is Blender's Z)
    # written back on the camera's node as the file had it (a unit rotation, if any: an
    # un-normalised float32 product failed the glTF validator)
    again = h.export(tmp_path / "again.gltf", "KHR", export_cameras=True)
    h.assert_valid(tmp_path / "again.gltf")
    node = again["nodes"][named(again, "Eye")]
    assert node["extensions"][BODY]["collider"]["geometry"] == {"shape": 0}
    assert again["extensions"]["KHR_implicit_shapes"]["shapes"][0]["box"]["size"] == [1, 2, 3]
    assert node["extensions"][BODY]["motion"]["centerOfMass"] == [0, 0, 0.5]


def carrying(name: str, camera: bool, what: str) -> bpy.types.Object:
    obj = bpy.data.objects.new(name, bpy.data.cameras.new(name) if camera else None)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler = (1, 2, 3), (0.3, 0.5, 0.7)
    if what == "seat":
        obj.gltf_physics.is_seat = True
    elif what == "gravity":
        h.set_physics(obj, shape_type="BOX", shape_role="TRIGGER", size_mode="CUSTOM",
                      box_size=(1, 2, 3), gravity_type="DIRECTIONAL")
    else:  # a compound trigger's volume: on the turned node itself
        h.set_physics(obj, is_compound_trigger=True, gravity_type="DIRECTIONAL")
        part = h.set_physics(h.mesh_object(f"{name}Part", "cube"), shape_type="BOX",
                             shape_role="TRIGGER")
        part.parent = obj
    return obj


def written_vector(gltf: dict, name: str, what: str) -> Vector:
    """The seat's back point or the gravity's direction, in the world (glTF axes), from
    the node that carries it."""
    for index, node in enumerate(gltf["nodes"]):
        extensions = node.get("extensions", {})
        if what == "seat" and node.get("name") == name and "OMI_seat" in extensions:
            return node_world(gltf, index) @ Vector(extensions["OMI_seat"]["back"])
        if what != "seat" and node.get("name", "").startswith(name) \
                and "OMI_physics_gravity" in extensions:
            direction = extensions["OMI_physics_gravity"]["directional"]["direction"]
            return node_world(gltf, index).to_3x3() @ Vector(direction)
    raise AssertionError(f"no {what} written for {name}")


@pytest.mark.parametrize("what", ["seat", "gravity", "compound gravity"])
def test_a_seat_or_gravity_volume_on_a_camera_points_where_it_is_set(clean_scene, tmp_path,
                                                                     what):
    """As the same settings on an Empty placed alike (they were a quarter turn off)."""
    carrying("Cam", True, what)
    carrying("Emp", False, what)
    bpy.context.view_layer.update()
    path = tmp_path / "out.gltf"
    gltf = h.export(path, "OMI", export_cameras=True)
    h.assert_valid(path)
    assert (written_vector(gltf, "Cam", what) - written_vector(gltf, "Emp", what)).length < 1e-5
    h.import_file(path)
    again = h.export(tmp_path / "again.gltf", "OMI", export_cameras=True)
    assert (written_vector(again, "Cam", what) - written_vector(gltf, "Cam", what)).length \
        < 1e-5


def test_a_strangers_gravity_volume_on_a_light_node_is_turned_onto_the_object(clean_scene,
                                                                              tmp_path):
    """A directional volume stated on a light node (in the node's axes) pulls the same way
    in the world once imported onto the light object."""
    path = tmp_path / "light_well.gltf"
    path.write_text("""{"asset": {"version": "2.0"},
      "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity",
                         "KHR_lights_punctual"],
      "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 2, 3]}}]},
                     "KHR_lights_punctual": {"lights": [{"type": "point"}]}},
      "nodes": [{"name": "Lamp", "rotation": [0.2, 0.3, 0.1, 0.9273618495495703],
                 "extensions": {"KHR_lights_punctual": {"light": 0},
                                "OMI_physics_body": {"trigger": {"shape": 0}},
                                "OMI_physics_gravity": {"type": "directional", "gravity": 9.8,
                                    "directional": {"direction": [0, 0, -1]}}}}],
      "scenes": [{"nodes": [0]}], "scene": 0}""")
    h.import_file(path)
    gltf = json.loads(path.read_text())
    node_pull = node_world(gltf, 0).to_3x3() @ Vector((0, 0, -1))
    lamp = bpy.data.objects["Lamp"]
    pull = lamp.matrix_world.to_3x3() @ Vector(lamp.gltf_physics.gravity_direction)
    assert (TO_GLTF @ pull.normalized() - node_pull.normalized()).length < 1e-5


def joint_file(path, nodes: list, roots: list, *limits: dict) -> dict:
    """A KHR file of `nodes` (scene roots `roots`) with a 1 m box shape, a point light, a
    camera and one joint, fixed in place and by `limits`; written to `path`, returned."""
    gltf = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes",
                           "KHR_lights_punctual"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
            "KHR_lights_punctual": {"lights": [{"type": "point"}]},
            "KHR_physics_rigid_bodies": {"physicsJoints": [{"limits": [
                {"linearAxes": [0, 1, 2], "min": 0, "max": 0}, *limits]}]}},
        "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}],
        "nodes": nodes, "scenes": [{"nodes": roots}], "scene": 0}
    path.write_text(json.dumps(gltf))
    return gltf


def test_a_strangers_joint_on_a_camera_node_keeps_the_nodes_frame(clean_scene, tmp_path):
    """A hinge set on a camera node (its frame the node's) and connected to a light node:
    imported onto the turned objects themselves, both frames came out a quarter turn off."""
    turn = [0.2, 0.3, 0.1, 0.9273618495495703]
    path = tmp_path / "camera_joint.gltf"
    source = joint_file(path, [
        {"name": "Arm", "children": [1], "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Eye", "camera": 0, "translation": [0.5, 0, 0], "rotation": turn,
         "extensions": {"KHR_physics_rigid_bodies": {
             "joint": {"connectedNode": 3, "joint": 0}}}},
        {"name": "Base", "translation": [2, 0, 0], "children": [3],
         "extensions": {"KHR_physics_rigid_bodies": {
             "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Lamp", "translation": [-1.5, 0, 0], "rotation": turn,
         "extensions": {"KHR_lights_punctual": {"light": 0}}}],
        [0, 2], {"angularAxes": [0, 1], "min": 0, "max": 0})
    h.import_file(path)
    out = h.export(tmp_path / "again.gltf", "KHR", export_cameras=True, export_lights=True)
    h.assert_valid(tmp_path / "again.gltf")
    [frame] = [i for i, n in enumerate(out["nodes"])
               if "joint" in n.get("extensions", {}).get(BODY, {})]
    connected = out["nodes"][frame]["extensions"][BODY]["joint"]["connectedNode"]
    for written, stated in ((frame, 1), (connected, 3)):
        a, b = node_world(out, written), node_world(source, stated)
        assert a.to_quaternion().rotation_difference(b.to_quaternion()).angle < 1e-5, \
            out["nodes"][written]["name"]
        assert (a.translation - b.translation).length < 1e-5


def test_joints_connected_to_one_light_node_share_its_frame_empty(clean_scene, tmp_path):
    path = tmp_path / "two_joints.gltf"
    joint = {"joint": {"connectedNode": 2, "joint": 0}}
    body = {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}
    joint_file(path, [
        {"name": "A", "extensions": {"KHR_physics_rigid_bodies": {**body, **joint}}},
        {"name": "B", "translation": [3, 0, 0],
         "extensions": {"KHR_physics_rigid_bodies": {**body, **joint}}},
        {"name": "Lamp", "translation": [1.5, 2, 0],
         "extensions": {"KHR_lights_punctual": {"light": 0}}}], [0, 1, 2])
    h.import_file(path)
    frames = [o for o in bpy.data.objects if o.name.startswith("Lamp.connected")]
    assert len(frames) == 1
    assert {bpy.data.objects[name].gltf_physics.joint_attachment for name in "AB"} \
        == set(frames)


def test_a_round_gravity_shape_on_a_cameras_compound_trigger_is_said_turned(clean_scene,
                                                                          tmp_path, caplog):
    """A capsule's axis cannot turn back on the node itself (a box's sides can): said."""
    cam = carrying("Cam", True, "compound gravity")
    h.set_physics(cam, gravity_type="SHAPED", gravity_shape_type="CAPSULE")
    bpy.context.view_layer.update()
    with caplog.at_level(logging.WARNING):
        h.export(tmp_path / "out.gltf", "OMI", export_cameras=True)
    assert [r.getMessage() for r in caplog.records if "gravity-shape-turned" in r.getMessage()
            and "Cam: its capsule gravity shape" in r.getMessage()]


@pytest.mark.parametrize("kind", ["DISC", "TORUS"])
def test_a_circle_gravity_on_a_cameras_compound_trigger_is_said_turned(clean_scene, tmp_path,
                                                                       caplog, kind):
    """A disc's or torus's circle lies in its node's XZ plane: on the turned node it stood
    upright, unsaid."""
    cam = carrying("Cam", True, "compound gravity")
    h.set_physics(cam, gravity_type=kind)
    bpy.context.view_layer.update()
    with caplog.at_level(logging.WARNING):
        h.export(tmp_path / "out.gltf", "OMI", export_cameras=True)
    assert [r.getMessage() for r in caplog.records if "gravity-shape-turned" in r.getMessage()
            and f"Cam: its {kind.lower()} gravity's circle" in r.getMessage()]



def test_a_zero_inertia_orientation_on_a_camera_node_costs_nothing_else(clean_scene, tmp_path):
    """[0, 0, 0, 0] turned divided by zero: the camera lost its body and collider."""
    path = tmp_path / "zero.gltf"
    path.write_text(json.dumps({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {}}]}},
        "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}],
        "nodes": [{"name": "Eye", "camera": 0, "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": 1, "inertiaDiagonal": [1, 2, 3],
                       "inertiaOrientation": [0, 0, 0, 0]},
            "collider": {"geometry": {"shape": 0}}}}}],
        "scenes": [{"nodes": [0]}], "scene": 0}))
    h.import_file(path)
    props = bpy.data.objects["Eye"].gltf_physics
    assert (props.motion_type, props.shape_type) == ("DYNAMIC", "BOX")


@pytest.mark.parametrize(("kind", "part", "said"), [
    ("CAMERA", "WHEEL", "wheel"), ("LIGHT", "THRUSTER", "thruster"),
    ("LIGHT", "HOVER_THRUSTER", "hover thruster")])
def test_a_wheel_or_thruster_on_a_turned_node_is_said(clean_scene, tmp_path, caplog, kind,
                                                      part, said):
    """A wheel rolls and a thruster pushes along its node's +Z, which the exporter turned
    from the object's +Y unsaid."""
    data = bpy.data.cameras.new("Lens") if kind == "CAMERA" \
        else bpy.data.lights.new("Bulb", "POINT")
    obj = bpy.data.objects.new("Part", data)
    bpy.context.scene.collection.objects.link(obj)
    obj.gltf_physics.vehicle_part = part
    with caplog.at_level(logging.WARNING):
        h.export(tmp_path / "out.gltf", "OMI", export_cameras=True, export_lights=True)
    assert [r.getMessage() for r in caplog.records if "vehicle-part-turned" in r.getMessage()
            and f"Part: its {said} is written" in r.getMessage()]
