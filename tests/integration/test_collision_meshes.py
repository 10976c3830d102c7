# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision meshes as the file has them: a shape-keyed mesh under Apply Modifiers, a
mirrored proxy, loose vertices and edges, a curve's mesh, and one mesh written once for the
objects that share it in one place."""

import importlib
import logging
from pathlib import Path

import bpy
import numpy as np
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE
from tests.integration.test_joints import diagnostics, document, registry

asset_files = importlib.import_module(f"{MODULE}.io.asset_files")
mesh_data = importlib.import_module(f"{MODULE}.io.mesh_data")
node_graph = importlib.import_module(f"{MODULE}.io.node_graph")


def collider_triangles(path: Path, name: str) -> np.ndarray:
    """The world triangles (glTF axes) of node `name`'s mesh collider, as the file has them."""
    gltf, binary = asset_files.read_asset(path)
    meshes = mesh_data.MeshData(gltf, path.parent, binary)
    scene = registry.decode_document(document.DocumentView.from_json(gltf),
                                     diagnostics.Report())
    graph = node_graph.NodeGraph.of(gltf)
    for index, physics in scene.nodes.items():
        if gltf["nodes"][index].get("name") == name and physics.collider is not None:
            _points, triangles = meshes.mesh(physics.collider.shape.mesh)
            world = np.asarray(graph.world(index))
            corners = np.asarray(triangles, float).reshape(-1, 3, 3)
            return corners @ world[:3, :3].T + world[:3, 3]
    raise AssertionError(f"no mesh collider on {name}")


def outward_volume(path: Path, name: str) -> float:
    """The signed volume of the collider, as glTF reads its winding (a mirrored node's
    triangles face the other way)."""
    gltf, _binary = asset_files.read_asset(path)
    graph = node_graph.NodeGraph.of(gltf)
    index = next(i for i, n in enumerate(gltf["nodes"]) if n.get("name") == name)
    corners = collider_triangles(path, name)
    volume = np.einsum("ij,ij->i", corners[:, 0],
                       np.cross(corners[:, 1], corners[:, 2])).sum() / 6
    return float(volume * np.sign(np.linalg.det(np.asarray(graph.world(index))[:3, :3])))


@pytest.mark.parametrize("mirrored", ["body", "proxy", "both"])
def test_a_mirrored_body_or_proxy_writes_its_triangle_mesh_facing_out(clean_scene, tmp_path,
                                                                      mirrored):
    proxy = h.mesh_object("Proxy", "cube", size=2)
    proxy.gltf_physics.collision_only = True
    body = h.set_physics(h.mesh_object("Body", location=(3, 0, 0)), motion_type="STATIC",
                         shape_type="TRIMESH", mesh_source="OBJECT", mesh_object=proxy)
    if mirrored in ("body", "both"):
        body.scale = (-1, 1, 1)
    if mirrored in ("proxy", "both"):
        proxy.scale = (-1, 1, 1)
    bpy.context.view_layer.update()
    path = tmp_path / "out.gltf"
    h.export(path, "KHR")
    assert outward_volume(path, "Body") == pytest.approx(8.0)  # (a 2 m cube, facing out)


@pytest.mark.parametrize("apply", [False, True])
def test_a_shape_keyed_body_writes_its_shape_where_blender_has_it(clean_scene, tmp_path,
                                                                  apply):
    """Apply Modifiers on, no modifier: the exporter writes the mesh at its basis (the key
    a morph target), so the shape named the basis (y −0.5..0.5, Blender's 1.5..2.5)."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", shape_type="CONVEX")
    crate.shape_key_add(name="Basis")
    raised = crate.shape_key_add(name="Raised")
    for point in raised.data:
        point.co.y += 2.0
    raised.value = 1.0
    bpy.context.view_layer.update()
    path = tmp_path / "out.gltf"
    h.export(path, "KHR", export_apply=apply)
    h.assert_valid(path)
    corners = collider_triangles(path, "Crate")
    # (glTF's z is Blender's −y)
    assert corners[..., 2].min() == pytest.approx(-2.5) and corners[..., 2].max() \
        == pytest.approx(-1.5)


@pytest.mark.parametrize("collision_only", [False, True])
def test_loose_vertices_are_no_part_of_a_hull(clean_scene, tmp_path, collision_only):
    """A cube with a far loose edge: the collision-only hull reached the edge (and the
    centre of mass counted it either way)."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", shape_type="CONVEX",
                          collision_only=collision_only)
    mesh = crate.data
    start = len(mesh.vertices)
    mesh.vertices.add(2)
    mesh.vertices[start].co, mesh.vertices[start + 1].co = (6, 0, 0), (6, 1, 0)
    mesh.edges.add(1)
    mesh.edges[-1].vertices = (start, start + 1)
    mesh.update()
    bpy.context.view_layer.update()
    path = tmp_path / "out.gltf"
    gltf = h.export(path, "OMI")
    assert collider_triangles(path, "Crate")[..., 0].max() == pytest.approx(0.5)
    node = next(n for n in gltf["nodes"] if n["name"] == "Crate")
    assert "centerOfMass" not in node["extensions"]["OMI_physics_body"]["motion"]


def test_loose_edges_the_export_writes_are_no_part_of_a_collider(clean_scene, tmp_path):
    """With Loose Edges on, the visible mesh gets a lines primitive: an edges-only object's
    shape named it (no triangles); now it is skipped and said, as a collision-only one."""
    edges = h.mesh_object("Edges")
    edges.data.clear_geometry()
    edges.data.from_pydata([(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 1), (1, 2)], [])
    h.set_physics(edges, motion_type="STATIC", shape_type="TRIMESH")
    h.set_physics(h.mesh_object("Crate", location=(3, 0, 0)), motion_type="STATIC",
                  shape_type="TRIMESH")
    path = tmp_path / "out.gltf"
    gltf = h.export(path, "KHR", use_mesh_edges=True)
    h.assert_valid(path)
    body = {n["name"]: n.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
            for n in gltf["nodes"]}
    assert "collider" not in body["Edges"]
    mesh = gltf["meshes"][body["Crate"]["collider"]["geometry"]["mesh"]]
    assert [p.get("mode", 4) for p in mesh["primitives"]] == [4]
    assert mesh["name"] == "Crate"  # (no loose parts: its visible mesh, not a second copy)


def test_a_curve_bodys_hull_is_its_mesh(clean_scene, tmp_path, caplog):
    """A curve with a modifier: its hull was skipped ("no collision mesh"), and a curve's
    centre of mass was put at the origin for want of volume (said so)."""
    bpy.ops.curve.primitive_bezier_circle_add(location=(3, 0, 0))
    pipe = bpy.context.active_object
    pipe.name = "Pipe"
    pipe.data.bevel_depth = 0.2
    pipe.modifiers.new("Thicker", "SOLIDIFY")
    h.set_physics(pipe, motion_type="DYNAMIC", shape_type="CONVEX")
    bpy.context.view_layer.update()
    path = tmp_path / "out.gltf"
    with caplog.at_level(logging.WARNING):
        h.export(path, "OMI")
    h.assert_valid(path)
    assert collider_triangles(path, "Pipe")[..., 0].max() == pytest.approx(4.2, abs=0.05)
    said = " ".join(record.getMessage() for record in caplog.records)
    assert "centre-at-origin" not in said and "shape-mesh-missing" not in said, said


def test_objects_sharing_one_mesh_in_one_place_share_its_collision_mesh(clean_scene,
                                                                        tmp_path):
    """Four collision-only Alt+D copies wrote four equal meshes."""
    wall = h.set_physics(h.mesh_object("Wall", "sphere"), motion_type="STATIC",
                         shape_type="CONVEX", collision_only=True)
    for number in range(3):
        copy = wall.copy()
        copy.location.x = 3 * (number + 1)
        clean_scene.collection.objects.link(copy)
    path = tmp_path / "out.gltf"
    gltf = h.export(path, "KHR")
    h.assert_valid(path)
    used = {n["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["mesh"]
            for n in gltf["nodes"] if "KHR_physics_rigid_bodies" in n.get("extensions", {})}
    assert len(used) == 1 and [m["name"] for m in gltf["meshes"]] == ["Wall.collision"]


def test_colliders_the_gpu_instances_option_merges_away_are_said(clean_scene, tmp_path,
                                                                 caplog):
    """Four Alt+D rocks under one Empty: the exporter's GPU Instances option merged them into
    one EXT_mesh_gpu_instancing node, and every collider was gone, unsaid."""
    rock = h.set_physics(h.mesh_object("Rock", "monkey"), shape_type="TRIMESH")
    scatter = h.empty_object("Scatter")
    rock.parent = scatter
    for index in range(1, 4):
        copy = rock.copy()
        copy.name, copy.location = f"Rock{index}", (3 * index, 0, 0)
        bpy.context.scene.collection.objects.link(copy)
    bpy.context.view_layer.update()
    with caplog.at_level(logging.WARNING):
        h.export(tmp_path / "out.gltf", "KHR", export_gpu_instances=True)
    lines = [r.getMessage() for r in caplog.records
             if r.getMessage().endswith("[gpu-instanced-physics]")]
    assert len(lines) == 1 and "merged Rock, Rock1, Rock2 and 1 more" in lines[0], lines


def test_a_shape_on_a_skinned_mesh_is_said(clean_scene, tmp_path, caplog):
    """The exporter writes a skinned mesh's node without a place of its own (the rig's
    frame): its convex collider landed 1.4 m off, unsaid."""
    rig = h.armature_object("Rig", [("Bone", (0, 0, -1), (0, 0, 1), None)])
    rig.location = (2, 0, 0)
    prop = h.mesh_object("Prop", "cube", location=(3, 1, 0))
    bpy.context.view_layer.update()
    prop.parent, prop.matrix_parent_inverse = rig, rig.matrix_world.inverted()
    prop.vertex_groups.new(name="Bone").add(list(range(8)), 1.0, "REPLACE")
    prop.modifiers.new("Armature", "ARMATURE").object = rig
    h.set_physics(prop, motion_type="DYNAMIC", shape_type="CONVEX")
    bpy.context.view_layer.update()
    with caplog.at_level(logging.WARNING):
        h.export(tmp_path / "out.gltf", "KHR")
    assert [r for r in caplog.records if r.getMessage().endswith("[skinned-shape]")
            and "Prop: a skinned mesh's node" in r.getMessage()]
