# SPDX-License-Identifier: GPL-3.0-or-later
"""Production scenes, export side (issue 23 items 1 and 2): every exported node is its own
identity — collection instances (nested too), duplis of an instancing parent and several
scenes — in KHR and OMI. The scenes are built here; the checks read the written files."""

import logging
import math
from pathlib import Path

import bpy
import pytest
from mathutils import Matrix, Quaternion, Vector

from tests.integration import scene_helpers as h

KHR = "KHR_physics_rigid_bodies"
FORMATS = ["KHR", "OMI"]


# -- reading the written file -----------------------------------------------------------------


def parents_of(gltf: dict) -> dict[int, int]:
    return {c: i for i, n in enumerate(gltf["nodes"]) for c in n.get("children", [])}


def world(gltf: dict, index: int) -> Matrix:
    """A node's world matrix (glTF space) from the file's TRS values."""
    parents = parents_of(gltf)
    matrix = Matrix.Identity(4)
    while index is not None:
        node = gltf["nodes"][index]
        x, y, z, w = node.get("rotation", [0, 0, 0, 1])
        local = Matrix.LocRotScale(Vector(node.get("translation", [0, 0, 0])),
                                   Quaternion((w, x, y, z)), Vector(node.get("scale", [1, 1, 1])))
        matrix = local @ matrix
        index = parents.get(index)
    return matrix


def ancestors(gltf: dict, index: int) -> list[int]:
    parents = parents_of(gltf)
    chain = []
    while index in parents:
        index = parents[index]
        chain.append(index)
    return chain


def indices(gltf: dict, name: str) -> list[int]:
    return [i for i, n in enumerate(gltf["nodes"]) if n.get("name") == name]


def instance_root(gltf: dict, index: int, instancers: list[int]) -> int | None:
    """The nearest instancer node above `index` (None: not inside one of `instancers`)."""
    return next((a for a in ancestors(gltf, index) if a in instancers), None)


def joint_of(gltf: dict, fmt: str, index: int) -> dict | None:
    ext = gltf["nodes"][index].get("extensions", {})
    return ext.get("OMI_physics_joint") if fmt == "OMI" else ext.get(KHR, {}).get("joint")


def body_of(gltf: dict, fmt: str, index: int) -> dict:
    ext = gltf["nodes"][index].get("extensions", {})
    return ext.get("OMI_physics_body" if fmt == "OMI" else KHR, {})


def joint_sites(gltf: dict, fmt: str, name: str) -> list[tuple[int, dict]]:
    """(frame node, joint payload) of every exported node named `name` (the joint may sit on
    the node itself or on a child made for it)."""
    found = []
    for index in indices(gltf, name):
        for candidate in [index, *gltf["nodes"][index].get("children", [])]:
            payload = joint_of(gltf, fmt, candidate)
            if payload is not None:
                found.append((candidate, payload))
    return found


def export_checked(path: Path, fmt: str, **options) -> dict:
    gltf = h.export(path, fmt, **options)
    h.assert_valid(path)
    return gltf


# -- building ---------------------------------------------------------------------------------


def into_collection(objects, collection) -> None:
    for obj in objects:
        for users in list(obj.users_collection):
            users.objects.unlink(obj)
        collection.objects.link(obj)


def instancer(name: str, collection, location, rotation_z: float = 0.0, parent=None):
    obj = bpy.data.objects.new(name, None)
    obj.instance_type = "COLLECTION"
    obj.instance_collection = collection
    obj.location = location
    obj.rotation_euler.z = rotation_z
    (bpy.context.scene.collection if parent is None else parent).objects.link(obj)
    return obj


def door_kit(connected_outside=None):
    """A kit collection (not in the scene): static frame, dynamic door, hinge on the door."""
    kit = bpy.data.collections.new("DoorKit")
    frame = h.set_physics(h.mesh_object("DoorFrame", "cube", (0, 0, 1)),
                          motion_type="STATIC", shape_type="BOX")
    frame.scale = (0.1, 0.1, 1)
    door = h.set_physics(h.mesh_object("Door", "cube", (0.6, 0, 1)),
                         motion_type="DYNAMIC", shape_type="BOX", mass=10)
    door.scale = (0.5, 0.05, 0.9)
    bpy.context.view_layer.update()
    hinge = h.empty_object("DoorHinge", (0.1, 0, 1), parent=door)
    hinge.matrix_parent_inverse = door.matrix_world.inverted()
    h.set_physics(hinge, joint_type="HINGE", joint_axis="Z", joint_use_limit=True,
                  joint_angle_min=-1.5, joint_angle_max=0.0,
                  joint_connected_body=connected_outside or frame)
    into_collection([frame, door, hinge], kit)
    return kit


def check_joints_in_instances(gltf: dict, fmt: str, instancers: list[int], outside=None):
    """Each instance's hinge connects to its own frame (or to `outside`), at its own pose."""
    sites = joint_sites(gltf, fmt, "DoorHinge")
    assert len(sites) == len(instancers)
    seen_roots = set()
    for frame, payload in sites:
        root = instance_root(gltf, frame, instancers)
        assert root is not None
        seen_roots.add(root)
        connected = payload["connectedNode"]
        body = parents_of(gltf)[connected]
        if outside is None:
            assert gltf["nodes"][body]["name"] == "DoorFrame"
            assert instance_root(gltf, body, instancers) == root, "frame of another instance"
        else:
            assert body == outside
        a, b = world(gltf, frame), world(gltf, connected)
        assert (a.translation - b.translation).length < 1e-4, (a.translation, b.translation)
        assert a.to_quaternion().rotation_difference(b.to_quaternion()).angle < 1e-4
    assert seen_roots == set(instancers)


# -- 1. instances -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_door_kit_instances_joint_their_own_frame(clean_scene, tmp_path, fmt):
    kit = door_kit()
    for i, x in enumerate((0, 10, 20)):
        instancer(f"Door.{i}", kit, (x, 0, 0), rotation_z=0.3 * i)
    gltf = export_checked(tmp_path / "doors.gltf", fmt)
    roots = [indices(gltf, f"Door.{i}")[0] for i in range(3)]
    check_joints_in_instances(gltf, fmt, roots)
    # every instance has its own bodies
    doors = indices(gltf, "Door")
    assert len(doors) == 3
    assert all(body_of(gltf, fmt, d) for d in doors)


@pytest.mark.parametrize("fmt", FORMATS)
def test_joint_partner_outside_the_kit_is_the_one_outside_object(clean_scene, tmp_path, fmt):
    wall = h.set_physics(h.mesh_object("Wall", "cube", (5, 5, 1)),
                         motion_type="STATIC", shape_type="BOX")
    kit = door_kit(connected_outside=wall)
    for i, x in enumerate((0, 10)):
        instancer(f"Door.{i}", kit, (x, 0, 0), rotation_z=0.5 * i)
    gltf = export_checked(tmp_path / "doors.gltf", fmt)
    roots = [indices(gltf, f"Door.{i}")[0] for i in range(2)]
    check_joints_in_instances(gltf, fmt, roots, outside=indices(gltf, "Wall")[0])


@pytest.mark.parametrize("fmt", FORMATS)
def test_nested_instances(clean_scene, tmp_path, fmt):
    kit = door_kit()
    row = bpy.data.collections.new("DoorRow")
    instancer("RowDoor.a", kit, (0, 0, 0), parent=row)
    instancer("RowDoor.b", kit, (0, 4, 0), rotation_z=1.0, parent=row)
    instancer("Row.0", row, (0, 0, 0))
    instancer("Row.1", row, (30, 0, 0), rotation_z=-0.7)
    gltf = export_checked(tmp_path / "rows.gltf", fmt)
    inner = indices(gltf, "RowDoor.a") + indices(gltf, "RowDoor.b")
    assert len(inner) == 4
    check_joints_in_instances(gltf, fmt, inner)


@pytest.mark.parametrize("fmt", FORMATS)
def test_kit_objects_also_in_the_scene_keep_their_own_joint(clean_scene, tmp_path, fmt):
    """The kit's collection is in the scene too: the originals form one more place."""
    kit = door_kit()
    bpy.context.scene.collection.children.link(kit)
    instancer("Door.0", kit, (10, 0, 0))
    gltf = export_checked(tmp_path / "doors.gltf", fmt)
    sites = joint_sites(gltf, fmt, "DoorHinge")
    assert len(sites) == 2
    root = indices(gltf, "Door.0")[0]
    for frame, payload in sites:
        body = parents_of(gltf)[payload["connectedNode"]]
        assert instance_root(gltf, body, [root]) == instance_root(gltf, frame, [root])
        assert (world(gltf, frame).translation
                - world(gltf, payload["connectedNode"]).translation).length < 1e-4


@pytest.mark.parametrize("fmt", FORMATS)
def test_vehicle_kit_instances_have_their_own_seat_and_wheels(clean_scene, tmp_path, fmt):
    objs = h.build_car()
    kit = bpy.data.collections.new("CarKit")
    into_collection(objs.values(), kit)
    for i in range(2):
        instancer(f"Car.{i}", kit, (i * 10, 0, 0))
    gltf = export_checked(tmp_path / "cars.gltf", fmt)
    roots = [indices(gltf, f"Car.{i}")[0] for i in range(2)]
    cars = indices(gltf, "Car")
    assert len(cars) == 2
    for car in cars:
        body = gltf["nodes"][car]["extensions"]["OMI_vehicle_body"]
        seat = body["pilotSeat"]
        assert gltf["nodes"][seat]["name"] == "DriverSeat"
        assert instance_root(gltf, seat, roots) == instance_root(gltf, car, roots)
        wheels = [c for c in gltf["nodes"][car]["children"]
                  if "OMI_vehicle_wheel" in gltf["nodes"][c].get("extensions", {})]
        assert len(wheels) == 4


def gate_kit(members_elsewhere: bool = False):
    """A compound trigger gate with two trigger posts under it, in a kit collection; with
    `members_elsewhere` the posts are in another collection, not in the scene (they are
    still instanced: the exporter writes an instanced object's children)."""
    kit = bpy.data.collections.new("GateKit")
    gate = h.set_physics(h.empty_object("Gate"), is_compound_trigger=True)
    posts = []
    for i, x in enumerate((-1, 1)):
        post = h.empty_object(f"GatePost{i}", (x, 0, 1), parent=gate)
        posts.append(h.set_physics(
            post, shape_type="CYLINDER", shape_role="TRIGGER", size_mode="CUSTOM", height=2,
            radius_top=0.2, radius_bottom=0.2))
    if members_elsewhere:
        into_collection([gate], kit)
        into_collection(posts, bpy.data.collections.new("Helpers"))
    else:
        into_collection([gate, *posts], kit)
    return kit


def check_gates(gltf: dict, fmt: str, roots: list[int]) -> None:
    """Each gate's trigger lists its own two posts (in its own instance, under it)."""
    gates = indices(gltf, "Gate")
    assert len(gates) == len(roots)
    for gate_index in gates:
        members = body_of(gltf, fmt, gate_index)["trigger"]["nodes"]
        assert len(members) == 2
        root = instance_root(gltf, gate_index, roots)
        assert all(instance_root(gltf, m, roots) == root for m in members)
        assert all(gate_index in ancestors(gltf, m) for m in members)


@pytest.mark.parametrize("fmt", FORMATS)
def test_compound_trigger_instances_list_their_own_members(clean_scene, tmp_path, fmt):
    kit = gate_kit()
    for i in range(3):
        instancer(f"Gate.{i}", kit, (0, i * 5, 0))
    gltf = export_checked(tmp_path / "gates.gltf", fmt)
    check_gates(gltf, fmt, [indices(gltf, f"Gate.{i}")[0] for i in range(3)])


@pytest.mark.parametrize("fmt", FORMATS)
def test_instanced_objects_children_from_outside_the_kit_stay_in_their_instance(
        clean_scene, tmp_path, fmt):
    """An instanced object's children belong to its instance even when they are not in the
    kit collection themselves (a hinge or posts kept in a helper collection)."""
    kit = door_kit()
    hinge = bpy.data.objects["DoorHinge"]
    into_collection([hinge], bpy.data.collections.new("Hinges"))
    for i, x in enumerate((0, 10)):
        instancer(f"Door.{i}", kit, (x, 0, 0), rotation_z=0.4 * i)
    gates = gate_kit(members_elsewhere=True)
    for i in range(2):
        instancer(f"Gate.{i}", gates, (0, -5 - 5 * i, 0))
    gltf = export_checked(tmp_path / "kits.gltf", fmt)
    check_joints_in_instances(gltf, fmt, [indices(gltf, f"Door.{i}")[0] for i in range(2)])
    check_gates(gltf, fmt, [indices(gltf, f"Gate.{i}")[0] for i in range(2)])


@pytest.mark.parametrize("fmt", FORMATS)
def test_collections_written_as_nodes_keep_joints_seats_and_triggers(clean_scene, tmp_path,
                                                                     fmt):
    """With the exporter's "Full Collection Hierarchy" a collection is a node of its own
    (also under an instancer): instances are still told apart, and nothing is dropped."""
    kit = door_kit()
    level = bpy.data.collections.new("Level")
    bpy.context.scene.collection.children.link(level)
    for i, x in enumerate((0, 10)):
        instancer(f"Door.{i}", kit, (x, 0, 0), rotation_z=0.4 * i, parent=level)
    gates = gate_kit()
    for i in range(2):
        instancer(f"Gate.{i}", gates, (0, -5 - 5 * i, 0))
    h.build_car()
    gltf = export_checked(tmp_path / "full.gltf", fmt, export_hierarchy_full_collections=True)
    assert indices(gltf, "Level"), "the exporter wrote no collection node: option ignored"
    doors = [indices(gltf, f"Door.{i}")[0] for i in range(2)]
    if gltf["nodes"][doors[0]].get("children") or bpy.app.version >= (5, 2):
        check_joints_in_instances(gltf, fmt, doors)
        check_gates(gltf, fmt, [indices(gltf, f"Gate.{i}")[0] for i in range(2)])
    # (else the exporter of Blender 4.x and 5.0 writes nothing under an instancer here)
    car = indices(gltf, "Car")[0]
    seat = gltf["nodes"][car]["extensions"]["OMI_vehicle_body"]["pilotSeat"]
    assert gltf["nodes"][seat]["name"] == "DriverSeat"


@pytest.mark.parametrize("fmt", FORMATS)
def test_flattened_hierarchy_joints_connect_in_their_own_instance(clean_scene, tmp_path, fmt,
                                                                  caplog):
    """The exporter's "Flatten Object Hierarchy" puts every node at the root: instances are
    still told apart (by the tree as it was before the flattening), and a joint whose object
    lost its body above goes on a node of its own under that body, so it loses nothing (and
    nothing is said)."""
    kit = door_kit()
    for i, x in enumerate((0, 10)):
        instancer(f"Door.{i}", kit, (x, 0, 0), rotation_z=0.5 * i)
    path = tmp_path / "flat.gltf"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = export_checked(path, fmt, export_hierarchy_flatten_objs=True)
    frames = indices(gltf, "DoorFrame")
    assert len(frames) == 2 and not any(ancestors(gltf, f) for f in frames), "not flattened"
    sites = joint_sites(gltf, fmt, "DoorHinge.joint")
    assert len(sites) == 2
    doors = indices(gltf, "Door")
    assert sorted(parents_of(gltf)[frame] for frame, _payload in sites) == sorted(doors)
    connected_to = set()
    for frame, payload in sites:
        body = parents_of(gltf)[payload["connectedNode"]]
        # the frame of the hinge's own instance: the nearer of the two
        near = min(frames, key=lambda f: (world(gltf, f).translation
                                          - world(gltf, frame).translation).length)
        assert body == near, "connected to the frame of another instance"
        connected_to.add(body)
    assert connected_to == set(frames)
    assert "[flattened-hierarchy]" not in caplog.text


@pytest.mark.parametrize("fmt", FORMATS)
def test_flattened_hierarchy_with_a_parent_left_out_still_tells_instances_apart(
        clean_scene, tmp_path, fmt):
    """A kit's frame and door hang from a lamp the export leaves out (lights off): the
    exporter moves them up to the instance before it flattens, and so does the index."""
    kit = door_kit()
    lamp = bpy.data.objects.new("Lamp", bpy.data.lights.new("Lamp", "POINT"))
    kit.objects.link(lamp)
    for name in ("DoorFrame", "Door"):
        bpy.data.objects[name].parent = lamp
    for i, x in enumerate((0, 10)):
        instancer(f"Door.{i}", kit, (x, 0, 0), rotation_z=0.5 * i)
    gltf = export_checked(tmp_path / "flat.gltf", fmt, export_hierarchy_flatten_objs=True,
                          export_lights=False)
    frames = indices(gltf, "DoorFrame")
    assert len(frames) == 2 and not indices(gltf, "Lamp")
    connected_to = {parents_of(gltf)[payload["connectedNode"]]
                    for _frame, payload in joint_sites(gltf, fmt, "DoorHinge.joint")}
    assert connected_to == set(frames), "a hinge connected to the other instance's frame"


@pytest.mark.parametrize("fmt", FORMATS)
def test_flattened_hierarchy_writes_no_trigger_member_outside_its_trigger(clean_scene,
                                                                         tmp_path, fmt):
    """Flattened, a compound trigger's members are no longer under it: the file lists none
    (a member must be a descendant), and stays valid."""
    gate = h.set_physics(h.empty_object("Gate"), is_compound_trigger=True)
    for i, x in enumerate((-1, 1)):
        h.set_physics(h.empty_object(f"Post{i}", (x, 0, 1), parent=gate),
                      shape_type="SPHERE", shape_role="TRIGGER", size_mode="CUSTOM")
    gltf = export_checked(tmp_path / "flat.gltf", fmt, export_hierarchy_flatten_objs=True)
    gate_node = indices(gltf, "Gate")[0]
    assert "trigger" not in body_of(gltf, fmt, gate_node)
    assert all(body_of(gltf, fmt, indices(gltf, f"Post{i}")[0])["trigger"] for i in range(2))


def spots(xs=(0.0, 10.0)):
    """An instancing parent (Instancing: Vertices) with a vertex at each x."""
    import bmesh

    mesh = bpy.data.meshes.new("Spots")
    bm = bmesh.new()
    for x in xs:
        bm.verts.new((x, 0.0, 0.0))
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new("Spots", mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.instance_type = "VERTS"
    return obj


@pytest.mark.parametrize("fmt", FORMATS)
def test_duplis_of_an_instancing_parent_each_get_a_body(clean_scene, tmp_path, fmt):
    parent = spots((0.0, 3.0, 6.0))
    crate = h.set_physics(h.mesh_object("Crate", "cube"), motion_type="DYNAMIC",
                          shape_type="BOX", mass=3)
    crate.parent = parent
    gltf = export_checked(tmp_path / "duplis.gltf", fmt)
    crates = indices(gltf, "Crate")
    assert len(crates) == 3
    assert all(body_of(gltf, fmt, c).get("collider") is not None or
               body_of(gltf, fmt, c).get("shape") is not None for c in crates)
    xs = sorted(round(world(gltf, c).translation.x, 4) for c in crates)
    assert xs == [0.0, 3.0, 6.0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_duplis_at_one_vertex_are_one_instance(clean_scene, tmp_path, fmt, caplog):
    """A frame and a hinged door duplicated at each vertex: each door's hinge connects to
    the frame at its own vertex (each dupli had been an instance of its own: none found its
    partner). The exporter places the copied doors' hinges as the original's: said."""
    parent = spots()
    frame = h.set_physics(h.mesh_object("DoorFrame", "cube", (0, 0, 1)),
                          motion_type="STATIC", shape_type="BOX")
    door = h.set_physics(h.mesh_object("Door", "cube", (0.6, 0, 1)), motion_type="DYNAMIC",
                         shape_type="BOX", mass=10)
    frame.parent = door.parent = parent
    bpy.context.view_layer.update()
    hinge = h.empty_object("DoorHinge", (0.1, 0, 1), parent=door)
    hinge.matrix_parent_inverse = door.matrix_world.inverted()
    h.set_physics(hinge, joint_type="HINGE", joint_axis="Z", joint_use_limit=True,
                  joint_angle_min=-1.5, joint_angle_max=0.0, joint_connected_body=frame)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = export_checked(tmp_path / "duplis.gltf", fmt)
    said = [r.getMessage() for r in caplog.records if "[dupli-written-twice]" in r.getMessage()]
    assert len(said) == 1 and "placed as under the original" in said[0]
    sites = joint_sites(gltf, fmt, "DoorHinge")
    assert len(sites) == 2  # (the exporter's stray copies carry none)
    frames = set()
    for site, payload in sites:
        body = parents_of(gltf)[payload["connectedNode"]]
        assert gltf["nodes"][body]["name"] == "DoorFrame"
        # the frame at the vertex of the door above the hinge (the exporter places a copied
        # door's hinge as the original one: only the door tells its vertex)
        door = next(a for a in ancestors(gltf, site) if gltf["nodes"][a]["name"] == "Door")
        assert (world(gltf, body).translation - world(gltf, door).translation).length < 1
        assert (world(gltf, site).translation
                - world(gltf, payload["connectedNode"]).translation).length < 1e-4
        frames.add(body)
    assert len(frames) == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_duplis_child_the_exporter_writes_twice_gets_physics_once(clean_scene, tmp_path, fmt):
    """The exporter writes a duplicated child's child both under its parent's copy and
    directly under the instancing parent: only the first carries the collider (the second
    was a stray static collider jammed into the moving cart)."""
    parent = spots()
    cart = h.set_physics(h.mesh_object("Cart", "cube", (0, 0, 1)), motion_type="DYNAMIC",
                         shape_type="BOX", mass=5)
    cart.parent = parent
    bumper = h.set_physics(h.mesh_object("Bumper", "cube", (0, 0, 2), 0.5), shape_type="BOX")
    bumper.parent = cart
    gltf = export_checked(tmp_path / "carts.gltf", fmt)
    top = indices(gltf, "Spots")[0]
    with_physics = [i for i in indices(gltf, "Bumper") if body_of(gltf, fmt, i)]
    assert len(with_physics) == 2
    assert all(gltf["nodes"][parents_of(gltf)[i]]["name"] == "Cart" for i in with_physics)
    assert all(not body_of(gltf, fmt, i) for i in indices(gltf, "Bumper")
               if parents_of(gltf)[i] == top)


def test_instance_export_cost_is_linear(clean_scene, tmp_path):
    """The node index is built by dictionaries: twice the instances, about twice the nodes
    visited (counted, not timed)."""
    import importlib

    from tests.integration.conftest import MODULE

    node_index = importlib.import_module(f"{MODULE}.io.blender.exporter.node_index")
    calls = {"n": 0}
    original = node_index.NodeIndex._scope_of

    def counted(self, *args):
        calls["n"] += 1
        return original(self, *args)

    kit = door_kit()
    counts = []
    node_index.NodeIndex._scope_of = counted
    try:
        for total in (10, 20):
            for i in range(len([o for o in bpy.data.objects if o.name.startswith("Door.")]),
                           total):
                instancer(f"Door.{i}", kit, (i * 3, 0, 0))
            calls["n"] = 0
            h.export(tmp_path / f"n{total}.glb", "KHR")
            counts.append(calls["n"])
    finally:
        node_index.NodeIndex._scope_of = original
    assert counts[1] <= 2 * counts[0] + 2


# -- 2. several scenes ------------------------------------------------------------------------


def layered_scene(scene, layers: list[str], name: str, x: float):
    settings = scene.gltf_physics
    settings.layers.clear()
    for layer in layers:
        settings.layers.add().name = layer
    window = bpy.context.window
    previous = window.scene
    window.scene = scene
    try:
        box = h.set_physics(h.mesh_object(name, "cube", (x, 0, 0)), motion_type="STATIC",
                            shape_type="BOX", use_filter=True, filter_mode="ONLY",
                            filter_layers=[False, True] + [False] * 30,
                            filter_targets=[True, False] + [False] * 30)
    finally:
        window.scene = previous
    return box


def filter_of_node(gltf: dict, fmt: str, name: str) -> dict:
    body = body_of(gltf, fmt, indices(gltf, name)[0])
    part = body.get("collider") or {}
    root = gltf["extensions"]["OMI_physics_body" if fmt == "OMI" else KHR]
    return root["collisionFilters"][part["collisionFilter"]]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("active", ["A", "B"])
def test_each_scene_writes_its_own_layers(clean_scene, tmp_path, fmt, active):
    scene_a = bpy.context.scene
    scene_a.name = "A"
    scene_b = bpy.data.scenes.new("B")
    layered_scene(scene_a, ["Player", "Enemy"], "Hero", 0)
    layered_scene(scene_b, ["Water", "Lava"], "Pool", 5)
    bpy.context.window.scene = scene_a if active == "A" else scene_b
    # the export's own settings come from the scene it is started in, for every scene
    other = scene_b if active == "A" else scene_a
    other.gltf_physics.export_format = "OMI" if fmt == "KHR" else "KHR"
    path = tmp_path / "two.gltf"
    gltf = export_checked(path, fmt, use_active_scene=False)
    assert len(gltf["scenes"]) == 2
    assert filter_of_node(gltf, fmt, "Hero") == {"collisionSystems": ["Enemy"],
                                                  "collideWithSystems": ["Player"]}
    assert filter_of_node(gltf, fmt, "Pool") == {"collisionSystems": ["Lava"],
                                                  "collideWithSystems": ["Water"]}
    other_family = "OMI_physics_body" if fmt == "KHR" else KHR
    assert other_family not in gltf.get("extensionsUsed", [])
    assert bpy.context.window.scene == (scene_a if active == "A" else scene_b)


@pytest.mark.parametrize("fmt", FORMATS)
def test_object_in_two_scenes_is_two_nodes_with_their_scenes_layers(clean_scene, tmp_path,
                                                                    fmt):
    scene_a = bpy.context.scene
    scene_b = bpy.data.scenes.new("B")
    box = layered_scene(scene_a, ["Player", "Enemy"], "Shared", 0)
    scene_b.gltf_physics.layers.add().name = "Water"
    scene_b.gltf_physics.layers.add().name = "Lava"
    scene_b.collection.objects.link(box)
    gltf = export_checked(tmp_path / "shared.gltf", fmt, use_active_scene=False)
    nodes = indices(gltf, "Shared")
    assert len(nodes) == 2
    root = gltf["extensions"]["OMI_physics_body" if fmt == "OMI" else KHR]
    found = sorted(tuple(root["collisionFilters"][body_of(gltf, fmt, n)["collider"]
                                                  ["collisionFilter"]]["collisionSystems"])
                   for n in nodes)
    assert found == [("Enemy",), ("Lava",)]


def test_auto_centres_of_bodies_sharing_a_mesh(clean_scene, tmp_path):
    """OMI writes an Auto centre of mass; bodies sharing a hull mesh share its solid, and a
    body with another mesh gets its own centre."""
    import bmesh

    def offset_mesh(name: str, dx: float):
        mesh = bpy.data.meshes.new(name)
        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=1.0)
        bmesh.ops.translate(bm, vec=(dx, 0.0, 0.0), verts=bm.verts)
        bm.to_mesh(mesh)
        bm.free()
        return mesh

    shared, other = offset_mesh("Shared", 1.0), offset_mesh("Other", -2.0)
    for name, mesh, x in (("A", shared, 0), ("B", shared, 5), ("C", other, 10)):
        obj = bpy.data.objects.new(name, mesh)
        bpy.context.scene.collection.objects.link(obj)
        obj.location = (x, 0, 0)
        h.set_physics(obj, motion_type="DYNAMIC", shape_type="CONVEX", mass=2)
    gltf = export_checked(tmp_path / "centres.gltf", "OMI")
    centres = {n: body_of(gltf, "OMI", indices(gltf, n)[0])["motion"]["centerOfMass"]
               for n in "ABC"}
    assert centres["A"] == pytest.approx([1.0, 0.0, 0.0], abs=1e-5)
    assert centres["B"] == pytest.approx([1.0, 0.0, 0.0], abs=1e-5)
    assert centres["C"] == pytest.approx([-2.0, 0.0, 0.0], abs=1e-5)


def test_auto_centre_of_a_flat_convex_mesh_away_from_the_origin(clean_scene, tmp_path):
    """A flat hull encloses no volume, wherever it lies: the body keeps the origin as its
    centre (OMI writes none) instead of a false centroid of an open surface."""
    mesh = bpy.data.meshes.new("Sheet")
    mesh.from_pydata([(3, 0, 2), (4, 0, 2), (4, 1, 2), (3, 1, 2)], [], [(0, 1, 2, 3)])
    sheet = bpy.data.objects.new("Sheet", mesh)
    bpy.context.scene.collection.objects.link(sheet)
    h.set_physics(sheet, motion_type="DYNAMIC", shape_type="CONVEX", mass=2)
    gltf = export_checked(tmp_path / "sheet.gltf", "OMI")
    assert "centerOfMass" not in body_of(gltf, "OMI", indices(gltf, "Sheet")[0])["motion"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_layers_added_by_script_without_names_stay_distinct(clean_scene, tmp_path, fmt):
    layers = bpy.context.scene.gltf_physics.layers
    layers.clear()
    layers.add()
    layers.add()  # both "Layer": a script that did not name them
    h.set_physics(h.mesh_object("Box", "cube"), motion_type="STATIC", shape_type="BOX",
                  use_filter=True, filter_mode="EXCEPT",
                  filter_layers=[True, False] + [False] * 30,
                  filter_targets=[False, True] + [False] * 30)
    gltf = export_checked(tmp_path / "layers.gltf", fmt)
    assert filter_of_node(gltf, fmt, "Box") == {"collisionSystems": ["Layer"],
                                                 "notCollideWithSystems": ["Layer.001"]}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_pilot_seat_under_a_duplicated_car_is_the_cars_own(clean_scene, tmp_path, fmt):
    """The seat is a duplicated child's child, so the exporter writes it twice: the car's
    pilot seat is the copy under that car, never the stray copy (made first here, as the
    seat was linked before the car)."""
    seat = h.set_physics(h.empty_object("Seat", (0, 0, 1.5)), is_seat=True)
    parent = spots()
    car = h.set_physics(h.mesh_object("Car", "cube", (0, 0, 1)), motion_type="DYNAMIC",
                        shape_type="BOX", is_vehicle=True)
    car.parent = parent
    seat.parent = car
    car.gltf_physics.vehicle_pilot_seat = seat
    gltf = export_checked(tmp_path / "cars.gltf", fmt)
    cars = indices(gltf, "Car")
    assert len(cars) == 2
    for index in cars:
        body = gltf["nodes"][index]["extensions"]["OMI_vehicle_body"]
        assert index in ancestors(gltf, body["pilotSeat"]), "a stray copy as the seat"


def crate_kit():
    """A kit (not in the scene) with a box collider 1 m off its origin along x, a unit cube
    of 2 m side, and the kit origin moved by `instance_offset` (the instancer puts it at
    its own origin)."""
    kit = bpy.data.collections.new("CrateKit")
    kit.instance_offset = (0.0, 0.0, 5.0)
    box = h.set_physics(h.mesh_object("CrateBox", "cube", (1.0, 0.0, 5.0), size=2.0),
                        shape_type="BOX")
    into_collection([box], kit)
    return kit


def test_a_body_instancing_a_collection_has_its_colliders_centre(clean_scene, tmp_path):
    """An Empty with a dynamic body instancing a kit of colliders: the file puts the kit's
    colliders under the body's node, so OMI's Auto centre of mass is theirs (placed as the
    instance places them, offset included), in every instance."""
    kit = crate_kit()
    crates = [instancer(f"Crate{i}", kit, (4.0 * i, 0, 0), rotation_z=math.pi / 2 * i)
              for i in range(2)]
    for crate in crates:
        h.set_physics(crate, motion_type="DYNAMIC", mass=3)
    gltf = export_checked(tmp_path / "crates.gltf", "OMI")
    for crate in crates:
        motion = body_of(gltf, "OMI", indices(gltf, crate.name)[0])["motion"]
        # the collider is 1 m along +x and 5 m up in the kit; the exporter places the
        # instancer's node at the kit's offset (5 m down), the centre is in that frame
        assert motion["centerOfMass"] == pytest.approx([1.0, 5.0, 0.0], abs=1e-5)
        box = next(i for i in gltf["nodes"][indices(gltf, crate.name)[0]]["children"])
        assert gltf["nodes"][box]["translation"] == pytest.approx([1.0, 5.0, 0.0], abs=1e-5)
    for crate in crates:  # KHR with a locked axis: the free moments of the kit's 2 m box
        crate.gltf_physics.lock_rotation = (True, False, False)
    gltf = export_checked(tmp_path / "crates_khr.gltf", "KHR")
    for crate in crates:
        motion = body_of(gltf, "KHR", indices(gltf, crate.name)[0])["motion"]
        assert motion["inertiaDiagonal"][1:] == pytest.approx([2.0, 2.0], rel=1e-5)


def test_a_static_body_in_a_kit_under_a_moving_instancer_stays_apart(clean_scene, tmp_path,
                                                                       caplog):
    """A static body of a kit that a dynamic instancer instances is, in the file, under a
    moving body: KHR (which has no static motion) writes it as kinematic so that it does not
    join the moving body, and says so, as for a static child of a moving body."""
    kit = crate_kit()
    h.set_physics(kit.objects["CrateBox"], motion_type="STATIC")
    crate = instancer("Crate", kit, (0, 0, 0))
    h.set_physics(crate, motion_type="DYNAMIC", mass=3)
    with caplog.at_level(logging.WARNING):
        gltf = export_checked(tmp_path / "static_in_crate.gltf", "KHR")
    box = body_of(gltf, "KHR", indices(gltf, "CrateBox")[0])
    assert box["motion"].get("isKinematic") is True
    assert "static-in-moving-body" in caplog.text


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_kit_joint_under_a_moving_instancer_joins_the_instancers_body(clean_scene, tmp_path,
                                                                         fmt, caplog):
    """A chest kit: a lid body and a hinge with no body of its own above it in the kit; the
    instancer Empty is the chest's body. In the file the hinge is under that body, so it
    joins the chest to the lid (OMI had skipped it: "needs a body on both sides")."""
    kit = bpy.data.collections.new("ChestKit")
    lid = h.set_physics(h.mesh_object("Lid", "cube", (0, 0, 2)), shape_type="BOX",
                        motion_type="DYNAMIC", mass=1)
    box = h.set_physics(h.mesh_object("ChestBox", "cube"), shape_type="BOX")
    hinge = h.set_physics(h.empty_object("LidHinge", (0, 0, 1)), joint_type="HINGE",
                          joint_axis="X", joint_connected_body=lid)
    into_collection([lid, box, hinge], kit)
    chests = [instancer(f"Chest{i}", kit, (6.0 * i, 0, 0)) for i in range(2)]
    for chest in chests:
        h.set_physics(chest, motion_type="DYNAMIC", mass=5)
    with caplog.at_level(logging.WARNING):
        gltf = export_checked(tmp_path / "chests.gltf", fmt)
    assert "joint-skipped" not in caplog.text
    sites = joint_sites(gltf, fmt, "LidHinge")
    roots = [indices(gltf, chest.name)[0] for chest in chests]
    assert sorted(instance_root(gltf, frame, roots) for frame, _payload in sites) == roots
    for frame, payload in sites:
        lid_node = parents_of(gltf).get(payload["connectedNode"], payload["connectedNode"])
        assert instance_root(gltf, lid_node, roots) == instance_root(gltf, frame, roots)


@pytest.mark.parametrize("fmt", FORMATS)
def test_flattened_hierarchy_keeps_a_connected_frame_on_its_body(clean_scene, tmp_path, fmt):
    """A joint whose Connected Frame is an object under body B: Flatten Object Hierarchy
    writes that object at the root, so the joint connects to a frame made in its place
    under B (else it would join the world)."""
    h.set_physics(h.mesh_object("A", "cube"), motion_type="DYNAMIC", shape_type="BOX")
    b = h.set_physics(h.mesh_object("B", "cube", (0, 0, 3)), motion_type="DYNAMIC",
                      shape_type="BOX")
    frame = h.empty_object("BFrame", (0, 0, 1.5), parent=b)
    hinge = h.set_physics(h.empty_object("J", (0, 0, 1.5), parent=bpy.data.objects["A"]),
                          joint_type="HINGE", joint_connected_body=b)
    hinge.gltf_physics.joint_attachment = frame
    gltf = export_checked(tmp_path / "flat_frame.gltf", fmt, export_hierarchy_flatten_objs=True)
    sites = joint_sites(gltf, fmt, "J.joint") or joint_sites(gltf, fmt, "J")
    assert len(sites) == 1
    connected = sites[0][1]["connectedNode"]
    assert parents_of(gltf).get(connected) == indices(gltf, "B")[0]
    placed = world(gltf, connected).translation
    assert (placed - world(gltf, indices(gltf, "BFrame")[0]).translation).length < 1e-5


@pytest.mark.parametrize("full", [False, True])
def test_an_instancer_bodys_centre_counts_only_colliders_in_the_file(clean_scene, tmp_path,
                                                                     full):
    """With Full Collection Hierarchy, Blender 4.x writes nothing under an instancer: the
    body's Auto centre of mass then counts no kit collider (5.x writes them, and counts)."""
    kit = bpy.data.collections.new("Kit")
    box = h.set_physics(h.mesh_object("KitBox", "cube", (1.0, 0.0, 0.0), size=2.0),
                        shape_type="BOX")
    into_collection([box], kit)
    crate = h.set_physics(instancer("Crate", kit, (0, 0, 0)), motion_type="DYNAMIC", mass=3)
    gltf = export_checked(tmp_path / "crate.gltf", "OMI",
                          export_hierarchy_full_collections=full)
    crate_node = indices(gltf, crate.name)[0]
    in_file = any(crate_node in ancestors(gltf, i) for i in indices(gltf, "KitBox"))
    motion = body_of(gltf, "OMI", crate_node)["motion"]
    assert ("centerOfMass" in motion) == in_file
    if in_file:
        assert motion["centerOfMass"] == pytest.approx([1.0, 0.0, 0.0], abs=1e-5)


@pytest.mark.parametrize("fmt", FORMATS)
def test_physics_on_an_instancer_of_an_offset_collection_stays_in_place(clean_scene, tmp_path,
                                                                        fmt, caplog):
    """The exporter writes a collection instancer's node moved by the collection's Instance
    Offset (5 m down here): a shape and a custom centre of mass set on the instancer itself
    are moved back, so they stay at the instancer (in world space) as in Blender; a joint on
    it is said (`instance-offset-physics`)."""
    kit = crate_kit()
    crate = h.set_physics(instancer("Crate", kit, (2.0, 0, 0)), motion_type="DYNAMIC", mass=3,
                          shape_type="BOX", size_mode="CUSTOM", center_of_mass_mode="CUSTOM",
                          center_of_mass=(0.0, 0.0, 0.25))
    with caplog.at_level(logging.WARNING):
        gltf = export_checked(tmp_path / "offset.gltf", fmt)
    assert "instance-offset-physics" not in caplog.text
    node = indices(gltf, crate.name)[0]
    assert list(world(gltf, node).translation) == pytest.approx([2.0, -5.0, 0.0], abs=1e-5)
    shape = next(c for c in gltf["nodes"][node]["children"]
                 if gltf["nodes"][c]["name"] == "Crate.shape")
    assert list(world(gltf, shape).translation) == pytest.approx([2.0, 0.0, 0.0], abs=1e-5)
    motion = body_of(gltf, fmt, node)["motion"]
    assert motion["centerOfMass"] == pytest.approx([0.0, 5.25, 0.0], abs=1e-5)
    h.set_physics(crate, joint_type="HINGE", joint_connected_body=bpy.data.objects["CrateBox"])
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        h.export(tmp_path / "joint.gltf", fmt)
    said = [r.getMessage() for r in caplog.records if "[instance-offset-physics]" in r.getMessage()]
    assert len(said) == 1 and "Crate" in said[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_joint_frame_under_an_offset_instancer_body_is_where_the_joint_is(clean_scene,
                                                                          tmp_path, fmt):
    """A hinge on a post connects to a crate body that instances an offset kit: its
    connected frame, made under the crate's (moved) node, is at the hinge in world space."""
    crate = h.set_physics(instancer("Crate", crate_kit(), (2.0, 0, 0)),
                          motion_type="DYNAMIC", mass=3)
    post = h.set_physics(h.mesh_object("Post", "cube", (0, 0, 0)), motion_type="STATIC",
                         shape_type="BOX")
    hinge = h.empty_object("Hinge", (2.0, 0.0, 1.0), parent=post)
    h.set_physics(hinge, joint_type="HINGE", joint_connected_body=crate)
    gltf = export_checked(tmp_path / "hinge.gltf", fmt)
    sites = joint_sites(gltf, fmt, "Hinge.joint") or joint_sites(gltf, fmt, "Hinge")
    connected = sites[0][1]["connectedNode"]
    assert parents_of(gltf)[connected] == indices(gltf, "Crate")[0]
    assert list(world(gltf, connected).translation) == pytest.approx([2.0, 1.0, 0.0], abs=1e-5)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_linked_filter_is_said_to_read_this_scenes_layers(clean_scene, tmp_path, fmt, caplog):
    """Collision layers belong to a scene and a filter ticks them by number: a linked
    object's ticks are read against the level's layers, not its library scene's (which
    linking does not bring). That is said once per library; a local filter says nothing."""
    layers = bpy.context.scene.gltf_physics.layers
    for name in ("Rocks", "Water"):
        layers.add().name = name
    kit = bpy.data.collections.new("Props")
    for index in range(2):
        rock = h.set_physics(h.mesh_object(f"Rock{index}", "cube"), motion_type="STATIC",
                             shape_type="BOX", use_filter=True)
        rock.gltf_physics.filter_layers[0] = True
        into_collection([rock], kit)
    library = tmp_path / "props.blend"
    bpy.data.libraries.write(str(library), {kit}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.context.scene.gltf_physics.layers.add().name = "Player"
    local = h.set_physics(h.mesh_object("Local", "cube", (5, 0, 0)), motion_type="STATIC",
                          shape_type="BOX", use_filter=True)
    local.gltf_physics.filter_layers[0] = True
    with caplog.at_level(logging.WARNING):
        export_checked(tmp_path / "local.gltf", fmt)
    assert "filter-from-library" not in caplog.text
    with bpy.data.libraries.load(str(library), link=True) as (_source, target):
        target.collections = ["Props"]
    instancer("Props.0", bpy.data.collections["Props"], (0, 0, 0))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        export_checked(tmp_path / "level.gltf", fmt)
    said = [r.getMessage() for r in caplog.records if "[filter-from-library]" in r.getMessage()]
    assert len(said) == 1 and "props.blend" in said[0] and "(Player)" in said[0]
