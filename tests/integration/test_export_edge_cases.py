# SPDX-License-Identifier: GPL-3.0-or-later
"""Every way artists export: selection, visibility, collections, instancing, shared meshes,
unit scale, negative and non-uniform scale, bones, animation, modifiers, Draco, GLB/glTF."""

import json
import logging

import bpy
import pytest

from tests.integration import scene_helpers as h

KHR = "KHR_physics_rigid_bodies"


def nodes_by_name(gltf: dict) -> dict:
    return {n.get("name"): n for n in gltf.get("nodes", [])}


def body_of(gltf: dict, name: str) -> dict:
    return nodes_by_name(gltf)[name].get("extensions", {}).get(KHR, {})


@pytest.fixture
def props_scene(clean_scene):
    """Two dynamic crates sharing one mesh, a static floor, a trigger under the floor."""
    floor = h.set_physics(h.mesh_object("Floor", location=(0, 0, -0.5)), motion_type="STATIC",
                          shape_type="TRIMESH")
    crate = h.set_physics(h.mesh_object("Crate", location=(0, 0, 1)), motion_type="DYNAMIC",
                          shape_type="CONVEX")
    twin = bpy.data.objects.new("CrateTwin", crate.data)  # a linked duplicate
    clean_scene.collection.objects.link(twin)
    twin.location = (2, 0, 1)
    h.set_physics(twin, motion_type="DYNAMIC", shape_type="CONVEX")
    zone = h.set_physics(h.empty_object("Zone", (0, 0, 2), parent=floor), shape_type="SPHERE",
                         shape_role="TRIGGER", size_mode="CUSTOM", radius=0.5)
    return {"Floor": floor, "Crate": crate, "CrateTwin": twin, "Zone": zone}


def test_linked_duplicates_share_one_collision_mesh(props_scene, tmp_path):
    gltf = h.export(tmp_path / "a.gltf", "KHR")
    h.assert_valid(tmp_path / "a.gltf")
    a = body_of(gltf, "Crate")["collider"]["geometry"]
    b = body_of(gltf, "CrateTwin")["collider"]["geometry"]
    assert a == b and a["convexHull"] is True
    assert nodes_by_name(gltf)["Crate"]["mesh"] == a["mesh"]
    assert len(gltf["meshes"]) == 2  # the crate mesh and the floor: nothing duplicated


def test_selection_only(props_scene, tmp_path):
    for obj in bpy.data.objects:
        obj.select_set(obj.name in ("Crate", "Zone"))
    gltf = h.export(tmp_path / "a.gltf", "KHR", use_selection=True)
    h.assert_valid(tmp_path / "a.gltf")
    assert set(nodes_by_name(gltf)) == {"Crate", "Zone"}
    assert "motion" in body_of(gltf, "Crate") and "trigger" in body_of(gltf, "Zone")


def test_visible_only(props_scene, tmp_path):
    props_scene["CrateTwin"].hide_set(True)
    gltf = h.export(tmp_path / "a.gltf", "KHR", use_visible=True)
    h.assert_valid(tmp_path / "a.gltf")
    assert "CrateTwin" not in nodes_by_name(gltf) and "Crate" in nodes_by_name(gltf)


def test_collection_export(props_scene, tmp_path):
    level = bpy.data.collections.new("Level")
    bpy.context.scene.collection.children.link(level)
    for name in ("Floor", "Zone"):
        level.objects.link(props_scene[name])
        bpy.context.scene.collection.objects.unlink(props_scene[name])
    bpy.context.view_layer.active_layer_collection = \
        bpy.context.view_layer.layer_collection.children["Level"]
    gltf = h.export(tmp_path / "a.gltf", "KHR", use_active_collection=True)
    h.assert_valid(tmp_path / "a.gltf")
    assert set(nodes_by_name(gltf)) == {"Floor", "Zone"}
    assert body_of(gltf, "Floor")["collider"]["geometry"]["convexHull"] is False


def test_gpu_instances_keep_every_body(props_scene, tmp_path):
    gltf = h.export(tmp_path / "a.gltf", "KHR", export_gpu_instances=True)
    h.assert_valid(tmp_path / "a.gltf")
    # Bodies must stay separate nodes: a rigid body cannot be one instance of many.
    assert "motion" in body_of(gltf, "Crate") and "motion" in body_of(gltf, "CrateTwin")


def test_unit_scale_and_scaled_shapes(props_scene, tmp_path):
    bpy.context.scene.unit_settings.scale_length = 0.01
    crate = props_scene["Crate"]
    crate.gltf_physics.shape_type = "BOX"
    crate.scale = (2.0, -1.0, 0.5)  # negative and non-uniform
    gltf = h.export(tmp_path / "a.gltf", "KHR")
    h.assert_valid(tmp_path / "a.gltf")
    node = nodes_by_name(gltf)["Crate"]
    # The node carries the scale (Blender may fold a sign flip into the rotation).
    assert [abs(v) for v in node["scale"]] == pytest.approx([2.0, 0.5, 1.0])
    assert node["scale"][0] * node["scale"][1] * node["scale"][2] < 0
    shape = gltf["extensions"]["KHR_implicit_shapes"]["shapes"][
        body_of(gltf, "Crate")["collider"]["geometry"]["shape"]]
    assert shape["box"]["size"] == pytest.approx([1.0, 1.0, 1.0])  # in Blender units, unscaled


def test_body_parented_to_a_bone_and_animated_kinematic(clean_scene, tmp_path):
    rig = h.armature_object("Rig", [("Hand", (0, 0, 0), (0, 0, 1), None)])
    sword = h.set_physics(h.mesh_object("Sword"), motion_type="KINEMATIC", shape_type="BOX")
    sword.parent, sword.parent_type, sword.parent_bone = rig, "BONE", "Hand"
    sword.location = (0, 0, 0)
    sword.keyframe_insert("location", frame=1)
    sword.location = (0, 0, 2)
    sword.keyframe_insert("location", frame=20)
    gltf = h.export(tmp_path / "a.gltf", "KHR")
    h.assert_valid(tmp_path / "a.gltf")
    assert body_of(gltf, "Sword")["motion"]["isKinematic"] is True
    assert gltf.get("animations"), "the kinematic body keeps its animation"


def test_apply_modifiers_fits_the_evaluated_mesh(clean_scene, tmp_path):
    wall = h.set_physics(h.mesh_object("Wall"), motion_type="STATIC", shape_type="BOX")
    mirror = wall.modifiers.new("Array", "ARRAY")
    mirror.count = 3  # three cubes in a row along X
    gltf = h.export(tmp_path / "a.gltf", "KHR", export_apply=True)
    h.assert_valid(tmp_path / "a.gltf")
    shape = gltf["extensions"]["KHR_implicit_shapes"]["shapes"][0]
    assert shape["box"]["size"] == pytest.approx([3.0, 1.0, 1.0])


def test_draco_compression(props_scene, tmp_path):
    try:
        gltf = h.export(tmp_path / "a.glb", "KHR", export_draco_mesh_compression_enable=True)
    except RuntimeError as exc:  # a bpy build without the Draco library
        pytest.skip(f"Draco not available in this Blender: {exc}")
    h.assert_valid(tmp_path / "a.glb")
    assert body_of(gltf, "Crate")["collider"]["geometry"]["convexHull"] is True


@pytest.mark.parametrize("suffix", [".glb", ".gltf"])
def test_glb_and_separate_gltf_write_the_same_physics(props_scene, tmp_path, suffix):
    gltf = h.export(tmp_path / f"a{suffix}", "OMI")
    h.assert_valid(tmp_path / f"a{suffix}")
    reference = h.export(tmp_path / "ref.gltf", "OMI")
    assert h.physics_subtree(gltf) == h.physics_subtree(reference)


def test_settings_never_leak_into_extras(props_scene, tmp_path):
    """Blender 4.2/4.5 copy PropertyGroups into extras when custom properties are exported."""
    bpy.context.scene.gltf_physics.layers.add().name = "Props"
    gltf = h.export(tmp_path / "a.gltf", "KHR", export_extras=True)
    h.assert_valid(tmp_path / "a.gltf")
    for part in (*gltf["nodes"], *gltf["scenes"]):
        assert "gltf_physics" not in (part.get("extras") or {}), part.get("name")


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_a_nan_set_by_a_script_never_fails_the_export(clean_scene, tmp_path, fmt, caplog):
    """The UI takes no NaN, a script can: the export writes the default (or skips the joint
    or volume), says so, and the file is valid (Blender's exporter failed on the NaN and
    wrote nothing)."""
    import logging
    import math

    body = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", shape_type="BOX",
                         size_mode="CUSTOM")
    body.gltf_physics.mass = math.nan
    body.gltf_physics.box_size = (math.nan, 1.0, 1.0)
    hinge = h.set_physics(h.empty_object("Hinge", parent=body), joint_type="CUSTOM",
                          joint_connected_body=h.set_physics(
                              h.mesh_object("Wall", location=(3, 0, 0)),
                              motion_type="STATIC", shape_type="BOX"))
    limit = hinge.gltf_physics.joint_limits.add()
    limit.axes = (True, False, False)
    limit.use_stiffness, limit.stiffness = True, math.nan
    zone = h.set_physics(h.empty_object("Zone", (0, 5, 0)), shape_type="SPHERE",
                         shape_role="TRIGGER", gravity_type="SHAPED",
                         gravity_shape_type="BOX")
    zone.gltf_physics.gravity_shape_size = (math.nan, 1.0, 1.0)
    # a body whose locked rotation needs its colliders' solid, read from the live settings
    cart = h.set_physics(h.empty_object("Cart", (0, -5, 0)), motion_type="DYNAMIC")
    cart.gltf_physics.lock_rotation = (True, False, False)
    for x, size in ((-1, math.nan), (1, 1.0)):
        h.set_physics(h.empty_object(f"Side{x}", (x, -5, 0), parent=cart), shape_type="BOX",
                      size_mode="CUSTOM", box_size=(size, 1.0, 1.0))
    path = tmp_path / f"nan_{fmt}.gltf"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(path, fmt)
    h.assert_valid(path)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "Crate: mass, box_size is not a finite number" in said
    assert "Hinge: a limit or drive of the joint is not a finite number" in said
    # the skipped joint leaves no frame node behind (one was added under the wall)
    assert not [n for n in gltf["nodes"] if n.get("name", "").startswith("Hinge.")]
    assert "Zone: a size of the gravity shape is not a finite number" in said or fmt == "KHR"
    assert "NaN" not in path.read_text()


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_settings_a_reader_would_take_otherwise_are_said(clean_scene, tmp_path, fmt, caplog):
    """A hinge limit with min above max is written swapped (as a reader takes it) and said;
    'Collides Only With' ticking no layer is written as colliding with every layer and said,
    and Check Physics names the object (both were written without a word)."""
    import logging

    scene = bpy.context.scene
    scene.gltf_physics.layers.add().name = "Props"
    door = h.set_physics(h.mesh_object("Door"), motion_type="DYNAMIC", shape_type="BOX",
                         use_filter=True, filter_mode="ONLY")
    door.gltf_physics.filter_layers[0] = True
    wall = h.set_physics(h.mesh_object("Wall", location=(3, 0, 0)), motion_type="STATIC",
                         shape_type="BOX")
    h.set_physics(h.empty_object("Hinge", parent=door), joint_type="HINGE", joint_axis="Z",
                  joint_use_limit=True, joint_angle_min=1.0, joint_angle_max=-1.0,
                  joint_connected_body=wall)
    path = tmp_path / f"said_{fmt}.gltf"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(path, fmt)
    h.assert_valid(path)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "[limit-reversed]" in said and "[filter-only-none]" in said
    def limits(value):
        if isinstance(value, dict):
            if "min" in value and "max" in value:
                yield value
            for item in value.values():
                yield from limits(item)
        elif isinstance(value, list):
            for item in value:
                yield from limits(item)

    found = list(limits(gltf["extensions"]))
    assert found and all(limit["min"] <= limit["max"] for limit in found)
    bpy.ops.gltf_physics.validate()
    assert ("Door", "filter-only-none") in [(p.obj, p.code)
                                            for p in scene.gltf_physics.problems]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_hinges_with_equal_settings_are_each_written_and_said(clean_scene, tmp_path, fmt,
                                                              caplog):
    """Two hinges with equal settings share what is made of them, yet each is written on its
    own frame towards its own wall, and a reversed limit is said for each of them by name;
    two hulls with equal settings keep their own proxies."""
    import logging

    for name, y in (("DoorA", 0.0), ("DoorB", 4.0)):
        wall = h.set_physics(h.mesh_object(f"{name}Wall", location=(3, y, 0)),
                             motion_type="STATIC", shape_type="BOX")
        door = h.set_physics(h.mesh_object(name, location=(0, y, 0)), motion_type="DYNAMIC",
                             shape_type="BOX")
        h.set_physics(h.empty_object(f"{name}Hinge", (0, 1 + y, 1), parent=door),
                      joint_type="HINGE", joint_axis="Z", joint_use_limit=True,
                      joint_angle_min=1.0, joint_angle_max=-1.0, joint_connected_body=wall)
    proxies = {"RockA": h.mesh_object("ProxyA", size=1.0), "RockB": h.mesh_object(
        "ProxyB", size=3.0)}
    for name, proxy in proxies.items():
        proxy.gltf_physics.collision_only = True
        h.set_physics(h.mesh_object(name, location=(0, -5, 0)), motion_type="STATIC",
                      shape_type="CONVEX", mesh_source="OBJECT", mesh_object=proxy)
    path = tmp_path / f"hinges_{fmt}.gltf"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(path, fmt)
    h.assert_valid(path)
    said = [r.getMessage() for r in caplog.records if "with min above max" in r.getMessage()]
    assert len(said) == 2 and any("DoorAHinge" in m for m in said) \
        and any("DoorBHinge" in m for m in said)
    frames = [n["name"] for n in gltf["nodes"] if n.get("name", "").endswith(".connected")]
    assert sorted(frames) == ["DoorAHinge.connected", "DoorBHinge.connected"]
    by_name = {n.get("name"): n for n in gltf["nodes"]}
    parent_of = {gltf["nodes"][child].get("name"): node.get("name")
                 for node in gltf["nodes"] for child in node.get("children", ())}
    for name in frames:  # each under its own wall, at its own hinge's place
        door = name.removesuffix("Hinge.connected")
        assert parent_of[name] == f"{door}Wall"
        hinge, wall = bpy.data.objects[f"{door}Hinge"], bpy.data.objects[f"{door}Wall"]
        offset = hinge.matrix_world.translation - wall.matrix_world.translation
        z = by_name[name]["translation"][2]  # (Blender -y)
        assert z == pytest.approx(-offset.y, abs=1e-5) and abs(offset.y) > 0.5
    extents = {name: _collision_mesh_extent(gltf, by_name[name]) for name in proxies}
    assert extents["RockB"] == pytest.approx(3 * extents["RockA"], rel=1e-4)


def _found(value, key):
    """The first value stored under `key` anywhere in a JSON value (None when none is)."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = _found(item, key)
            if found is not None:
                return found
    return None


def _collision_mesh_extent(gltf: dict, node: dict) -> float:
    """The largest x of the mesh a node's collider uses (directly, or through its shape)."""
    mesh = _found(node["extensions"], "mesh")
    if mesh is None:
        shapes = _found(gltf["extensions"], "shapes")
        mesh = _found(shapes[_found(node["extensions"], "shape")], "mesh")
    position = gltf["meshes"][mesh]["primitives"][0]["attributes"]["POSITION"]
    return gltf["accessors"][position]["max"][0]


def test_the_last_guard_leaves_out_what_json_cannot_hold(clean_scene):
    """Whatever path a NaN took, the payloads are checked before they are attached: a
    node's extension is left out, a root array's number becomes 0, each said."""
    import importlib
    import math

    from tests.integration.conftest import MODULE

    class Node:  # a gltf node stands for itself (hashed by identity)
        def __init__(self, name: str) -> None:
            self.name = name

    hooks = importlib.import_module(f"{MODULE}.io.blender.exporter.export_hooks")
    common = importlib.import_module(f"{MODULE}.io.codecs.common")
    extension = hooks.PhysicsExportExtension()
    shared = {"motion": {"mass": math.nan}}
    fine = {"motion": {"mass": 1.0}}
    encoded = common.Encoded(
        root={"X_shapes": {"shapes": [{"box": {"size": [1.0, math.inf, 1.0]}}]}},
        nodes={Node("A"): {"X_body": shared}, Node("B"): {"X_body": shared},
               Node("C"): {"X_body": fine}})
    extension._leave_out_non_finite(encoded)
    assert list(encoded.nodes.values()) == [{}, {}, {"X_body": fine}]
    assert encoded.root["X_shapes"]["shapes"][0]["box"]["size"] == [1.0, 0.0, 1.0]
    said = [(i.where, i.code) for i in extension.report.issues]
    assert said == [("A", "value-not-finite"), ("B", "value-not-finite"),
                    ("", "value-not-finite")]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_a_locked_rotation_on_a_scaled_body_is_computed_at_its_size(clean_scene, tmp_path, fmt):
    """A 1 m cube scaled to 2 × 2 × 4 (6 kg, rotation about X locked) turns as its world
    size: the free moments were those of the unscaled cube (1, 1 instead of 10, 10)."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", mass=6.0,
                          shape_type="BOX", size_mode="CUSTOM", box_size=(1.0, 1.0, 1.0))
    crate.gltf_physics.lock_rotation = (True, False, False)
    twin = h.set_physics(h.mesh_object("Twin", location=(5, 0, 0)), motion_type="DYNAMIC",
                         mass=6.0, shape_type="BOX", size_mode="CUSTOM",
                         box_size=(1.0, 1.0, 1.0), lock_rotation=(True, False, False))
    crate.scale = (2.0, 2.0, 4.0)  # glTF: x 2, y (Blender z) 4, z (Blender y) 2
    bpy.context.view_layer.update()
    gltf = h.export(tmp_path / "out.gltf", fmt)
    ext = "KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"
    node = next(n for n in gltf["nodes"] if n["name"] == "Crate")
    motion = node["extensions"][ext]["motion"]
    twin_motion = next(n for n in gltf["nodes"] if n["name"] == twin.name)["extensions"][ext][
        "motion"]  # (equal settings, unscaled: its own moments, not the crate's)
    assert twin_motion["inertiaDiagonal"][1:] == [1, 1]
    # a 2 × 4 × 2 m box of 6 kg: about y, 6 (2² + 2²) / 12 = 4; about z, 6 (2² + 4²) / 12 = 10
    if fmt == "KHR":
        assert motion["inertiaDiagonal"] == [0, 4, 10]
    else:  # (OMI: the locked axis 1000 × the largest free moment)
        assert motion["inertiaDiagonal"] == [10000, 4, 10]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_a_locked_body_scaled_flat_keeps_its_physics(clean_scene, tmp_path, fmt, caplog):
    """Scaled to 0 on one axis, its solid has no volume: the body was skipped whole
    ("float division by zero"); its moments are said not computed instead."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", mass=1.0,
                          shape_type="CONVEX", lock_rotation=(True, False, False))
    crate.scale = (1.0, 1.0, 0.0)
    bpy.context.view_layer.update()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(tmp_path / "out.gltf", fmt)
    node = next(n for n in gltf["nodes"] if n["name"] == "Crate")
    ext = node["extensions"]["KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"]
    assert "motion" in ext and "collider" in ext
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "export-failed" not in said and "inertia-not-computed" in said, said


def test_a_mesh_collider_beyond_floats_range_is_left_out_not_the_export(clean_scene, tmp_path,
                                                                        caplog):
    """A stranger's node at x = 1e39 (infinite once read) with a convex mesh collider: the
    collision mesh was NaN, and Blender's exporter failed: no file."""
    triangle = "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIAAAA="
    source = tmp_path / "far.gltf"
    source.write_text(json.dumps({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies"],
        "buffers": [{"byteLength": 44,
                     "uri": "data:application/octet-stream;base64," + triangle}],
        "bufferViews": [{"buffer": 0, "byteLength": 36},
                        {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "nodes": [{"name": "Far", "translation": [1e39, 0, 0], "extensions": {
            "KHR_physics_rigid_bodies": {"motion": {"mass": 1}, "collider": {
                "geometry": {"mesh": 0, "convexHull": True}}}}},
                  {"name": "Visible", "mesh": 0}],
        "scenes": [{"nodes": [0, 1]}], "scene": 0}))
    h.import_file(source)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(tmp_path / "out.gltf", "KHR")
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "Far: no collision mesh; shape skipped" in said, said
    assert [n["name"] for n in gltf["nodes"] if n["name"] == "Visible"]
