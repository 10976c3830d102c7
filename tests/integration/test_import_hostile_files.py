# SPDX-License-Identifier: GPL-3.0-or-later
"""Files from strangers, through a real import: a bad part of a file is said once and
skipped; the rest of its physics (and all of its geometry) is kept, and nothing a file
merely claims is allocated."""

import copy
import importlib
import json

import bpy
import pytest

from tests.conftest import CORPUS
from tests.integration import scene_helpers as h

#: A dynamic Body whose convex shape uses mesh 1, which no node uses (the importer never
#: reads it), and a Geo mesh node with a box collider after it.
UNUSED_MESH_SHAPE = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
    "nodes": [
        {"name": "Body", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Geo", "mesh": 0, "extensions": {"OMI_physics_body": {
            "motion": {"type": "static"}, "collider": {"shape": 1}}}},
    ],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
               {"primitives": [{"attributes": {"POSITION": 2}}]}],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
         "min": [0, 0, 0], "max": [1, 1, 1]},
        {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"},
        {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
         "min": [0, 0, 0], "max": [1, 1, 1]},
    ],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48},
                    {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
    "buffers": [{"byteLength": 72, "uri": "data:application/octet-stream;base64,"
                 "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAACAAEAAAAB"
                 "AAMAAAADAAIAAQACAAMA"}],
    "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
    "extensions": {"OMI_physics_shape": {"shapes": [
        {"type": "convex", "convex": {"mesh": 1}}, {"type": "box", "box": {"size": [1, 2, 3]}}]}},
}


def import_logged(path, caplog) -> list[str]:
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("gltf_physics:")]


def lower_caps(monkeypatch, per_mesh: int, per_import: int) -> None:
    """The collision mesh reader's caps, lowered so that a test allocates little."""
    from tests.integration.conftest import MODULE

    collision_mesh = importlib.import_module(f"{MODULE}.io.blender.bridge.collision_mesh")
    monkeypatch.setattr(collision_mesh, "MAX_ACCESSOR_COUNT", per_mesh)
    monkeypatch.setattr(collision_mesh, "MAX_DOCUMENT_COUNT", per_import)


def add_convex_bodies(gltf: dict, stem: str, count: int, accessor: int) -> None:
    """`count` dynamic bodies `<stem>0`… in the scene, each with a convex shape of a mesh of
    its own whose one primitive reads POSITION `accessor` (meshes and shapes from 2 on)."""
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    for number in range(count):
        gltf["meshes"].append({"primitives": [{"attributes": {"POSITION": accessor}}]})
        shapes.append({"type": "convex", "convex": {"mesh": 2 + number}})
        gltf["nodes"].append({"name": f"{stem}{number}", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 2 + number}}}})
        gltf["scenes"][0]["nodes"].append(2 + number)


@pytest.mark.parametrize("accessor, reason", [
    ({"componentType": 5126, "count": 5_000_000, "type": "VEC3"},
     "POSITION has no data (no bufferView)"),
    ({"componentType": 5126, "count": 5_000_000, "type": "VEC3", "sparse": {
        "count": 1, "indices": {"bufferView": 1, "componentType": 5123},
        "values": {"bufferView": 0}}},
     "claim 5,000,000 elements without data"),
    ({"bufferView": 0, "componentType": 5126, "count": 200_000_000, "type": "VEC3"},
     "buffer is smaller"),
    ({"bufferView": 0, "componentType": 5126, "count": 40, "type": "VEC3"},
     "buffer is smaller"),
    (None, "accessor 99 does not exist"),
], ids=["no-buffer-5M", "sparse-5M", "view-200M", "short-view", "missing"])
def test_a_shape_mesh_nobody_reads_is_checked_before_it_is_read(clean_scene, tmp_path, caplog,
                                                               accessor, reason):
    """The importer never reads a mesh only a shape uses: what it claims without bytes is
    capped before anything is allocated, a claim with bytes is read only as far as they go,
    and a bad mesh costs that shape only (it aborted the rest of the file's physics)."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    if accessor is None:
        gltf["meshes"][1]["primitives"][0]["attributes"]["POSITION"] = 99
    else:
        gltf["accessors"][2] = accessor
    path = tmp_path / "claims.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    assert all(len(mesh.vertices) <= 4 for mesh in bpy.data.meshes)  # nothing claimed made
    problems = [line for line in said if "[proxy-mesh]" in line]
    assert len(problems) == 1 and reason in problems[0], said
    assert not [line for line in said if "[import-failed]" in line], said
    body, geo = bpy.data.objects["Body"], bpy.data.objects["Geo"]
    assert body.gltf_physics.motion_type == "DYNAMIC"
    assert body.gltf_physics.shape_type == "CONVEX" and body.gltf_physics.mesh_object is None
    assert geo.gltf_physics.shape_type == "BOX" and len(geo.data.vertices) == 4


def test_claims_without_data_are_capped_per_mesh_and_per_import(clean_scene, tmp_path, caplog,
                                                                 monkeypatch):
    """Zeros the file only claims (a sparse accessor's base) count against a cap per mesh and
    one for the whole import (many small claims add up); a mesh whose data is in the file is
    read whatever its size.
    The caps are lowered here so that the test allocates little."""
    lower_caps(monkeypatch, per_mesh=10, per_import=25)
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    gltf["accessors"].append({"componentType": 5126, "count": 9, "type": "VEC3", "sparse": {
        "count": 1, "indices": {"bufferView": 1, "componentType": 5123},
        "values": {"bufferView": 0}}})  # 3: zeros (and one point)
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    shapes[0] = {"type": "trimesh", "trimesh": {"mesh": 1}}  # 16 elements, all in the file
    gltf["meshes"][1]["primitives"][0]["indices"] = 1
    add_convex_bodies(gltf, "Zeros", 4, accessor=3)  # 9 zeros each: the third passes 25
    path = tmp_path / "many.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    assert bpy.data.objects["Body"].gltf_physics.mesh_object is not None  # 16 > 10: read
    made = [bpy.data.objects[f"Zeros{n}"].gltf_physics.mesh_object is not None
            for n in range(4)]
    problems = [line for line in said if "[proxy-mesh]" in line]
    assert made == [True, True, False, False], said
    assert len(problems) == 2 and all("past the 25 read at most" in p for p in problems)


def v1_joint_file(joint_on: str) -> dict:
    """Two dynamic bodies A and B and an OMI_physics_joint v1 (nodeA/nodeB world frames) on
    A itself ("A") or on a node J above A ("parent")."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    body = {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 1}}}
    joint = {"OMI_physics_joint": {"constraints": [0], "nodeA": 0, "nodeB": 1}}
    gltf["nodes"] = [
        {"name": "A", "mesh": 0, "translation": [5, 0, 0], "extensions": copy.deepcopy(body)},
        {"name": "B", "mesh": 0, "translation": [0, 0, 7], "extensions": copy.deepcopy(body)},
    ]
    if joint_on == "A":
        gltf["nodes"][0]["extensions"].update(joint)
        gltf["scenes"][0]["nodes"] = [0, 1]
    else:
        gltf["nodes"].append({"name": "J", "translation": [0, 3, 0], "children": [0],
                              "extensions": joint})
        gltf["scenes"][0]["nodes"] = [2, 1]
    gltf["extensionsUsed"].append("OMI_physics_joint")
    gltf["extensions"]["OMI_physics_joint"] = {"constraints": [
        {"linearAxes": [0, 1, 2], "angularAxes": [0, 1, 2]}]}
    return gltf


@pytest.mark.parametrize("joint_on", ["A", "parent"])
def test_a_v1_joint_on_body_a_or_above_it_moves_nothing(clean_scene, tmp_path, caplog,
                                                        joint_on):
    """A v1 joint's node is body A itself, or A's parent: nothing can move under A (one
    raised, the other moved both), so the joint goes on A or on a new frame under A."""
    path = tmp_path / "v1.gltf"
    path.write_text(json.dumps(v1_joint_file(joint_on)))
    said = import_logged(path, caplog)
    assert not [line for line in said if "[import-failed]" in line], said
    a, b = bpy.data.objects["A"], bpy.data.objects["B"]
    bpy.context.view_layer.update()
    expected_a = (5.0, 0.0, 3.0) if joint_on == "parent" else (5.0, 0.0, 0.0)
    assert tuple(a.matrix_world.translation) == pytest.approx(expected_a)
    assert tuple(b.matrix_world.translation) == pytest.approx((0.0, -7.0, 0.0))
    holders = [o for o in bpy.data.objects if o.gltf_physics.joint_type != "NONE"]
    assert len(holders) == 1 and holders[0].gltf_physics.joint_connected_body == b
    holder = holders[0]
    assert holder == a or holder.parent == a
    if joint_on == "parent":
        j = bpy.data.objects["J"]
        assert tuple(j.matrix_world.translation) == pytest.approx((0.0, 0.0, 3.0))
        assert tuple(holder.matrix_world.translation) == pytest.approx((0.0, 0.0, 3.0))


def gravity_file(priority: int) -> dict:
    """Two gravity volumes (sphere triggers): Body's with `priority`, then G2's."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    trigger = {"OMI_physics_body": {"trigger": {"shape": 1}}}
    gltf["nodes"] = [
        {"name": "Body", "extensions": {**copy.deepcopy(trigger), "OMI_physics_gravity": {
            "type": "directional", "gravity": 3.5, "priority": priority,
            "directional": {"direction": [1, 0, 0]}}}},
        {"name": "G2", "translation": [0, 0, 4], "extensions": {
            **copy.deepcopy(trigger),
            "OMI_physics_gravity": {"type": "point", "gravity": 2.5, "point": {}}}},
    ]
    gltf["scenes"][0]["nodes"] = [0, 1]
    gltf["extensionsUsed"].append("OMI_physics_gravity")
    return gltf


@pytest.mark.parametrize("priority, kept", [(3_000_000_000, 2**31 - 1), (-2**40, -2**31),
                                            (7, 7)])
def test_a_gravity_priority_beyond_what_blender_stores_is_clamped(clean_scene, tmp_path,
                                                                  caplog, priority, kept):
    """The schema's priority is any integer; Blender stores 32 bits: clamped and said (it
    raised and dropped the next volume's gravity)."""
    path = tmp_path / "priority.gltf"
    path.write_text(json.dumps(gravity_file(priority)))
    said = import_logged(path, caplog)
    assert not [line for line in said if "[import-failed]" in line], said
    body, g2 = bpy.data.objects["Body"], bpy.data.objects["G2"]
    assert body.gltf_physics.gravity_type == "DIRECTIONAL"
    assert body.gltf_physics.gravity_priority == kept
    assert g2.gltf_physics.gravity_type == "POINT"
    clamped = [line for line in said if "[gravity-priority-clamped]" in line]
    assert len(clamped) == (priority != kept), said


def exported_level(path) -> dict:
    """An Empty "Level" whose triangle-mesh shape is its child mesh "LevelMesh", exported to
    `path` as KHR with `geometry.node` (the child's node is the shape's target)."""
    from tests.integration import scene_helpers as h

    level = h.empty_object("Level")
    mesh = h.mesh_object("LevelMesh", "cube")
    mesh.parent = level
    h.set_physics(level, shape_type="TRIMESH", mesh_source="OBJECT", mesh_object=mesh)
    return h.export(path, "KHR", "NODE")


def test_a_file_without_scenes_keeps_its_geometry_nodes(clean_scene, tmp_path, caplog):
    """KHR `geometry.node` targets are dropped only when they lie outside the file's
    scenes; a file without scenes imports every node as its scene, so none is dropped (the
    visible mesh was deleted, and a target first among the roots crashed the importer).
    With scenes, the orphan target goes with its mesh (no mesh of no user is left)."""
    with_scene = tmp_path / "level.gltf"
    gltf = exported_level(with_scene)
    gltf.pop("scenes")
    gltf.pop("scene", None)
    (tmp_path / "sceneless.gltf").write_text(json.dumps(gltf))
    for path, kept in ((tmp_path / "sceneless.gltf", True), (with_scene, False)):
        bpy.ops.wm.read_homefile(use_empty=True)
        said = import_logged(path, caplog)
        assert not [line for line in said if "[import-failed]" in line], said
        assert "LevelMesh" in bpy.data.objects
        assert bpy.data.objects["Level"].gltf_physics.shape_type == "TRIMESH"
        targets = [o for o in bpy.data.objects if o.name.endswith(".physicsMesh")]
        assert bool(targets) == kept
        assert not [m.name for m in bpy.data.meshes if m.users == 0]


def bone_physics_file() -> dict:
    """An armature Rig with bones Upper (a dynamic body that is also a vehicle) and Lower
    (a trigger that is also a gravity volume): physics on bone nodes, several extensions
    each."""
    import base64
    import struct

    matrices = [(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1) for y in (2.0, 1.0)]
    data = b"".join(struct.pack("<16f", *m) for m in matrices)
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "Rig", "children": [1]},
            {"name": "Upper", "translation": [0, 2, 0], "children": [2], "extensions": {
                "OMI_physics_body": {"motion": {"type": "dynamic", "mass": 5},
                                     "collider": {"shape": 0}},
                "OMI_vehicle_body": {"gyroTorque": [10, 10, 10]}}},
            {"name": "Lower", "translation": [0, -1, 0], "extensions": {
                "OMI_physics_body": {"trigger": {"shape": 0}},
                "OMI_physics_gravity": {"type": "directional", "gravity": 3.0,
                                        "directional": {"direction": [1, 0, 0]}}}},
        ],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": 0}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "MAT4"}],
        "bufferViews": [{"buffer": 0, "byteLength": len(data)}],
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64,"
                     + base64.b64encode(data).decode()}],
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_vehicle_body",
                           "OMI_physics_gravity"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box",
                                                          "box": {"size": [1, 1, 1]}}]}},
    }


def test_all_of_a_bone_nodes_physics_goes_on_one_empty(clean_scene, tmp_path, caplog):
    """A bone node with a body and a vehicle, one with a trigger and a gravity volume: one
    Empty per bone carries everything (each extension had made an Empty of its own, and the
    re-export lost the mass, the collider and the gravity)."""
    path = tmp_path / "bones.gltf"
    path.write_text(json.dumps(bone_physics_file()))
    import_logged(path, caplog)
    on_bones = {}
    for obj in bpy.data.objects:
        if obj.parent_type == "BONE":
            on_bones.setdefault(obj.parent_bone, []).append(obj)
    assert sorted((bone, len(objs)) for bone, objs in on_bones.items()) == [("Lower", 1),
                                                                           ("Upper", 1)]
    upper, lower = on_bones["Upper"][0].gltf_physics, on_bones["Lower"][0].gltf_physics
    assert (upper.motion_type, upper.shape_type, upper.is_vehicle) == ("DYNAMIC", "BOX", True)
    assert upper.mass == pytest.approx(5.0)
    assert (lower.shape_role, lower.gravity_type) == ("TRIGGER", "DIRECTIONAL")


@pytest.mark.parametrize("joint_on", ["A", "parent"])
def test_a_v1_joint_imported_into_a_collection_off_in_viewports_keeps_its_frame(
        clean_scene, tmp_path, caplog, joint_on):
    """Objects imported into a collection disabled in viewports are not evaluated: a v1
    joint's frame is placed from the file's transforms, not from stale world matrices (it
    collapsed onto body A's origin)."""
    path = tmp_path / "v1.gltf"
    path.write_text(json.dumps(v1_joint_file(joint_on)))
    import_logged(path, caplog)
    bpy.context.view_layer.update()
    expected = {o.name: tuple(o.matrix_world.translation) for o in bpy.data.objects}
    bpy.ops.wm.read_homefile(use_empty=True)
    off = bpy.data.collections.new("Off")
    bpy.context.scene.collection.children.link(off)
    off.hide_viewport = True
    layer = bpy.context.view_layer.layer_collection.children["Off"]
    bpy.context.view_layer.active_layer_collection = layer
    import_logged(path, caplog)
    off.hide_viewport = False
    bpy.context.view_layer.update()
    placed = {o.name: tuple(o.matrix_world.translation) for o in bpy.data.objects}
    assert placed.keys() == expected.keys()
    for name, where in expected.items():
        assert placed[name] == pytest.approx(where), name


def test_a_second_scene_of_the_file_gets_its_own_collision_layers(clean_scene, tmp_path,
                                                                  caplog):
    """A file's second scene imported as a Blender scene of its own (not as a collection):
    its colliders' layers are that scene's (they indexed the active scene's, so the second
    scene exported an empty filter)."""
    if "import_scene_as_collection" not in bpy.ops.import_scene.gltf.get_rna_type().properties:
        pytest.skip("this Blender's glTF importer has no 'scene as collection' option")
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    gltf["extensions"]["OMI_physics_shape"]["shapes"][0] = {"type": "sphere",
                                                            "sphere": {"radius": 1}}
    gltf["nodes"][0]["extensions"]["OMI_physics_body"]["collider"]["collisionFilter"] = 0
    gltf["extensions"]["OMI_physics_body"] = {"collisionFilters": [
        {"collisionSystems": ["Props"], "collideWithSystems": ["Props", "Players"]}]}
    gltf["scenes"] = [{"name": "Main", "nodes": [1]}, {"name": "Extra", "nodes": [0]}]
    path = tmp_path / "two_scenes.gltf"
    path.write_text(json.dumps(gltf))
    caplog.clear()
    assert bpy.ops.import_scene.gltf(filepath=str(path),
                                     import_scene_as_collection=False) == {"FINISHED"}
    body = bpy.data.objects["Body"]
    scene = body.users_scene[0]
    assert scene != bpy.context.scene
    names = [layer.name for layer in scene.gltf_physics.layers]
    props = body.gltf_physics
    assert [names[i] for i, on in enumerate(props.filter_layers) if on] == ["Props"]
    assert [names[i] for i, on in enumerate(props.filter_targets) if on] == ["Props",
                                                                            "Players"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"shared corpus not found at {CORPUS} "
                    "(../shared beside the checkout)")
@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_an_emptied_orphan_collection_is_not_exported_with_a_kit(clean_scene, tmp_path, fmt):
    """A KHR file whose colliders name `geometry.node` orphans: the importer puts them in an
    "Orphan Nodes" collection and the import turns them into collision proxies. Instanced as
    part of a kit, the emptied collection was written as an empty node in every instance."""
    asset = bpy.data.collections.new("Asset")
    bpy.context.scene.collection.children.link(asset)
    view_layer = bpy.context.view_layer
    view_layer.active_layer_collection = view_layer.layer_collection.children["Asset"]
    bpy.ops.import_scene.gltf(filepath=str(CORPUS / "khr/samples/ShapeTypes/ShapeTypes.gltf"))
    root = bpy.context.scene.collection  # (4.x's importer ignores the active collection)
    for obj in list(root.objects):
        asset.objects.link(obj)
        root.objects.unlink(obj)
    for collection in [c for c in root.children if c != asset]:
        asset.children.link(collection)
        root.children.unlink(collection)
    direct = h.export(tmp_path / "direct.gltf", fmt)
    bpy.context.scene.collection.children.unlink(asset)
    for x in (0.0, 30.0):
        kit = bpy.data.objects.new(f"Kit{x:g}", None)
        kit.instance_type, kit.instance_collection = "COLLECTION", asset
        kit.location.x = x
        bpy.context.scene.collection.objects.link(kit)
    level = h.export(tmp_path / "level.gltf", fmt)
    h.assert_valid(tmp_path / "level.gltf")
    names = [node.get("name") for node in level["nodes"]]
    assert len(level["nodes"]) == 2 * (len(direct["nodes"]) + 1), names


def test_an_orphan_named_only_beside_a_shape_is_kept(clean_scene, tmp_path, caplog):
    """A collider whose geometry names a shape and a node: the decoder uses the shape, so
    the node outside every scene is not a collision mesh and the import keeps its object
    (it was deleted as one)."""
    path = tmp_path / "level.gltf"
    gltf = exported_level(path)
    [geometry] = [n["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]
                  for n in gltf["nodes"] if "KHR_physics_rigid_bodies" in n.get("extensions", {})]
    gltf.setdefault("extensions", {})["KHR_implicit_shapes"] = {
        "shapes": [{"type": "sphere", "sphere": {"radius": 1.0}}]}
    gltf["extensionsUsed"].append("KHR_implicit_shapes")
    geometry["shape"] = 0  # (beside its node: the decoder takes the shape)
    path.write_text(json.dumps(gltf))
    bpy.ops.wm.read_homefile(use_empty=True)
    said = import_logged(path, caplog)
    assert not [line for line in said if "[import-failed]" in line], said
    assert bpy.data.objects["Level"].gltf_physics.shape_type == "SPHERE"
    assert "node" in geometry and [o for o in bpy.data.objects
                                   if o.name.endswith(".physicsMesh")]


def test_metadata_inside_physics_data_is_said_once_and_the_physics_kept(clean_scene, tmp_path,
                                                                        caplog):
    """Extras and nested extensions inside physics payloads have no place in Blender: said
    once with their number (as the converter says it); the rest of the physics is kept."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    gltf["nodes"][1]["extensions"]["OMI_physics_body"]["collider"]["extras"] = {"id": 7}
    gltf["extensions"]["OMI_physics_shape"]["shapes"][1]["extensions"] = {"EXT_x": {}}
    path = tmp_path / "metadata.gltf"
    path.write_text(json.dumps(gltf))
    said = [line for line in import_logged(path, caplog) if "[physics-metadata-dropped]" in line]
    assert len(said) == 1 and "(2 place(s))" in said[0], said
    assert "/extensions/OMI_physics_shape/shapes/1/extensions" in said[0]
    assert bpy.data.objects["Geo"].gltf_physics.shape_type == "BOX"


@pytest.mark.parametrize("where", ["../outside.bin", "absolute"])
def test_a_shape_mesh_never_reads_a_buffer_outside_the_files_folder(clean_scene, tmp_path,
                                                                     caplog, where):
    """A mesh only a shape uses is read for the add-on, not by the importer: a buffer whose
    file is outside the asset's folder is refused, named, and never opened."""
    outside = tmp_path / "outside.bin"
    outside.write_bytes(bytes(48))
    (tmp_path / "asset").mkdir()
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    gltf["buffers"].append({"byteLength": 48,
                            "uri": str(outside) if where == "absolute" else where})
    gltf["bufferViews"].append({"buffer": 1, "byteLength": 48})
    gltf["accessors"][2]["bufferView"] = 2
    path = tmp_path / "asset" / "outside.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    problems = [line for line in said if "[proxy-mesh]" in line]
    assert len(problems) == 1 and "outside" in problems[0], said
    assert bpy.data.objects["Body"].gltf_physics.mesh_object is None
    assert "Body.collision" not in bpy.data.objects
    assert bpy.data.objects["Geo"].gltf_physics.shape_type == "BOX"


def test_an_accessor_read_again_counts_against_the_caps(clean_scene, tmp_path, caplog,
                                                        monkeypatch):
    """One accessor listed in many primitives or meshes is read once for free (the file's
    own data): a primitive repeating another of its mesh is left out, and each further
    mesh reading it again counts against the caps (it was read anew every time: a file
    could make the import allocate thousands of times its size). Caps lowered here."""
    lower_caps(monkeypatch, per_mesh=10, per_import=25)
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    gltf["meshes"][1]["primitives"] *= 50  # (4 backed elements each: read once)
    add_convex_bodies(gltf, "Again", 8, accessor=2)  # each reads it again: 4 more elements
    path = tmp_path / "again.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    assert len(bpy.data.objects["Body"].gltf_physics.mesh_object.data.vertices) == 4
    made = [bpy.data.objects[f"Again{n}"].gltf_physics.mesh_object is not None
            for n in range(8)]
    assert made == [True] * 6 + [False] * 2, said  # 6 × 4 = 24 read again; 28 > 25
    problems = [line for line in said if "[proxy-mesh]" in line]
    assert len(problems) == 2 and all("past the 25 read at most" in p for p in problems)


def test_gravity_volumes_sharing_a_mesh_read_it_once(clean_scene, tmp_path, caplog,
                                                      monkeypatch):
    """Each mesh is read once per import, for every shape and gravity volume naming it: two
    volumes pulling towards one convex mesh share it (the second read counted against the
    caps as a repeat, so a valid file lost the second volume's mesh). Caps lowered here."""
    lower_caps(monkeypatch, per_mesh=3, per_import=3)
    gltf = gravity_file(1)
    for node in gltf["nodes"]:
        node["extensions"]["OMI_physics_gravity"] = {
            "type": "shaped", "gravity": 9.8, "shaped": {"shape": 0}}
    path = tmp_path / "shared.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    assert not [line for line in said if "[proxy-mesh]" in line], said
    meshes = {bpy.data.objects[name].gltf_physics.gravity_shape_object.data
              for name in ("Body", "G2")}
    assert len(meshes) == 1 and len(next(iter(meshes)).vertices) == 4


def test_a_strip_or_fan_shape_mesh_is_read_as_its_triangles(clean_scene, tmp_path, caplog):
    """A triangle strip was "unreadable (it has no triangles)": the body lost its collider."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    gltf["meshes"][1]["primitives"][0].update(indices=1, mode=5)
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    shapes[0] = {"type": "trimesh", "trimesh": {"mesh": 1}}
    path = tmp_path / "strip.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    proxy = bpy.data.objects["Body"].gltf_physics.mesh_object
    # 12 indices: 10 triangles, 3 of them degenerate (a vertex twice: left out), and 3 the
    # same as another (Blender keeps one of each)
    assert proxy is not None and len(proxy.data.polygons) == 4, said
    assert not proxy.data.validate()  # (a valid mesh: nothing for Blender to mend)
    assert not [line for line in said if "mesh" in line], said


@pytest.mark.parametrize(("bad", "said_part"), [
    ({"mode": 1}, "a primitive of lines has no triangles"),
    ({"draco": True}, "a primitive is Draco-compressed, which is not decoded")])
def test_a_primitive_giving_no_triangles_is_said_once_for_all_its_shapes(
        clean_scene, tmp_path, caplog, bad, said_part):
    """Three bodies share a mesh of a good and a bad primitive: the bad one was left out
    silently (lines), or read as zeros, a point collider (Draco); alone, the mesh is
    unreadable, said once for the three (it was said per shape)."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    wrong = {"attributes": {"POSITION": 0}, "indices": 1}
    if bad.get("mode"):
        wrong["mode"] = bad["mode"]
    else:
        gltf["accessors"].append({"componentType": 5126, "count": 4, "type": "VEC3"})
        wrong = {"attributes": {"POSITION": 3},
                 "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0,
                                                               "attributes": {"POSITION": 0}}}}
    gltf["meshes"][1]["primitives"].append(wrong)
    gltf["meshes"].append({"primitives": [wrong]})
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    for name, mesh in (("Two", 1), ("Lone", 2), ("Lone2", 2)):
        shapes.append({"type": "convex", "convex": {"mesh": mesh}})
        gltf["nodes"].append({"name": name, "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": len(shapes) - 1}}}})
        gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]) - 1)
    path = tmp_path / "parts.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    for name in ("Body", "Two"):
        proxy = bpy.data.objects[name].gltf_physics.mesh_object
        assert len(proxy.data.vertices) == 4 and max(v.co.length for v in proxy.data.vertices)
    left_out = [line for line in said if "[mesh-part-left-out]" in line]
    assert left_out == [f"gltf_physics: Body, Two: mesh 1: {said_part}: left out of the "
                        "shape [mesh-part-left-out]"], said
    lost = [line for line in said if "[proxy-mesh]" in line]
    assert lost == [f"gltf_physics: Lone, Lone2: mesh 2 is unreadable ({said_part}): the "
                    "shape has no mesh [proxy-mesh]"], said


@pytest.mark.parametrize("broken", ["mesh index", "lines only"])
def test_shaped_gravity_whose_shape_has_no_usable_mesh_pulls_nowhere(clean_scene, tmp_path,
                                                                     caplog, broken):
    """It came back pulling towards a 1×1×1 box the file never had (and the export wrote
    that box); a shape that is no usable shape leaves no gravity, a mesh shape without its
    mesh stays one, which Check Physics lists."""
    gltf = gravity_file(0)
    gltf["nodes"][0]["extensions"]["OMI_physics_gravity"] = {
        "type": "shaped", "gravity": 9.8, "shaped": {"shape": 0}}
    if broken == "mesh index":
        gltf["extensions"]["OMI_physics_shape"]["shapes"][0]["convex"]["mesh"] = 77
    else:
        gltf["meshes"][1]["primitives"][0]["mode"] = 1
    path = tmp_path / "shaped.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    props = bpy.data.objects["Body"].gltf_physics
    if broken == "mesh index":
        assert props.gravity_type == "NONE", said
    else:
        assert (props.gravity_type, props.gravity_shape_type, props.gravity_shape_object) \
            == ("SHAPED", "CONVEX", None), said
        bpy.ops.gltf_physics.validate()
        assert ("Body", "gravity-shape-missing") in {
            (p.obj, p.code) for p in bpy.context.scene.gltf_physics.problems}
    assert not [line for line in said if "not-kept" in line], said


@pytest.mark.parametrize("case", ["child", "parent", "child in a scene", "gravity child"])
def test_an_orphan_geometry_nodes_children_and_parents_stay_out_of_the_scene(
        clean_scene, tmp_path, case):
    """A KHR geometry.node target outside every scene with a mesh child below it (or an
    empty parent above it) came back as visible objects, written into the scene on the
    next export: the file's collision-only geometry became rendered."""
    rock = h.set_physics(h.mesh_object("Rock", "cube"), motion_type="DYNAMIC")
    h.set_physics(h.empty_object("Crate", (3, 0, 0)), motion_type="DYNAMIC",
                  shape_type="CONVEX", mesh_source="OBJECT").gltf_physics.mesh_object = rock
    gltf = h.export(tmp_path / "node.gltf", "KHR", "NODE")
    crate = next(n for n in gltf["nodes"] if n["name"] == "Crate")
    target = crate["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["node"]
    extra = len(gltf["nodes"])
    if case == "parent":
        gltf["nodes"].append({"name": "PhysicsMeshes", "children": [target]})
    else:
        gltf["nodes"].append({"name": "ExtraPiece", "mesh": gltf["nodes"][target]["mesh"],
                              "translation": [0, 1, 0]})
        gltf["nodes"][target]["children"] = [extra]
    if case == "child in a scene":  # (against the spec: a scene lists a node below it)
        gltf["scenes"][0]["nodes"].append(extra)
    if case == "gravity child":  # (physics of its own: kept, though no scene drew it)
        gltf["nodes"][extra]["extensions"] = {"OMI_physics_gravity": {
            "type": "point", "gravity": 2.0, "point": {}}}
        gltf.setdefault("extensionsUsed", []).append("OMI_physics_gravity")
    path = tmp_path / "orphans.gltf"
    path.write_text(json.dumps(gltf))
    h.import_file(path)
    kept = case in ("child in a scene", "gravity child")
    assert ("ExtraPiece" in bpy.data.objects) is kept
    assert "PhysicsMeshes" not in bpy.data.objects
    if not kept:
        again = h.export(tmp_path / "again.gltf", "KHR", "NODE")
        in_scene = {again["nodes"][i]["name"] for i in again["scenes"][0]["nodes"]}
        assert in_scene == {"Rock", "Crate"}, in_scene


def test_a_compound_trigger_listing_a_node_not_below_it_is_said(clean_scene, tmp_path,
                                                                caplog):
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    part = {"OMI_physics_body": {"trigger": {"shape": 1}}}
    gltf["nodes"] = [
        {"name": "Zone", "children": [1], "extensions": {
            "OMI_physics_body": {"trigger": {"nodes": [1, 2]}}}},
        {"name": "Part", "extensions": copy.deepcopy(part)},
        {"name": "Crate", "translation": [3, 0, 0], "extensions": copy.deepcopy(part)}]
    gltf["scenes"][0]["nodes"] = [0, 2]
    path = tmp_path / "outside.gltf"
    path.write_text(json.dumps(gltf))
    said = import_logged(path, caplog)
    assert [line for line in said if "[trigger-member-outside]" in line] == [
        "gltf_physics: /nodes/0: the compound trigger lists node 2, not below it: no member "
        "of it here [trigger-member-outside]"], said
    assert bpy.data.objects["Part"].gltf_physics.join_compound_trigger
