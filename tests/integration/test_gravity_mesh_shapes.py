# SPDX-License-Identifier: GPL-3.0-or-later
"""Shaped gravity towards a convex or triangle-mesh shape through Blender: the importer makes
the shape's mesh a collision-only child (tagged as its own), the Gravity panel points at it,
and an OMI export writes the shape back with its mesh: the pull at world-space probe points
is unchanged, and the file validates (official schemas, Khronos glTF-Validator)."""

from __future__ import annotations

import base64
import importlib
import json
import math
from pathlib import Path
from typing import Any

import bpy
import numpy as np
import pytest

from gltf_physics.io.codecs.registry import decode_gravity_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.gravity import mesh_figure, pull
from gltf_physics.io.mesh_data import MeshData
from gltf_physics.io.node_graph import NodeGraph
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE
from tests.integration.scene_helpers import assert_valid
from tests.integration.test_gravity import EXT, _trigger, through_blender
from tests.integration.test_meaning_roundtrip import export_logged
from tests.support.schemas import load_gltf
from tests.unit.test_meaning import CUBE_POINTS, CUBE_TRIANGLES

validation = importlib.import_module(f"{MODULE}.io.blender.tools.validation")
SHAPE_EXT = "OMI_physics_shape"
#: World-space probes around and inside both volumes.
PROBES = [np.array(p, float) for p in (
    (0.3, 0.2, -0.1), (2.5, -1.0, 0.7), (-3.0, 4.0, 1.5), (0.0, 10.0, 0.0), (7.0, -2.0, -6.0),
    (3.1, 0.4, -2.2), (-2.0, 1.0, 3.0), (-2.4, 0.9, 2.8), (4.0, 1.0, 1.0),
)]
#: A lopsided convex block (the file lists its points as a cube's triangles).
CONVEX = CUBE_POINTS * (1.0, 2.0, 0.5) + np.array([[0.0, 0.0, 0.0]] * 7 + [[0.4, 0.3, 0.2]])
#: A cube with one corner pushed in: not convex, so its surface is not its hull's.
DENTED = np.where(np.arange(8)[:, None] == 7, [[0.05, 0.05, 0.05]], CUBE_POINTS) * 1.5


def _mesh_file() -> dict[str, Any]:
    """Two shaped volumes (convex → mesh 0, trimesh → mesh 1) on turned, scaled triggers."""
    indices = CUBE_TRIANGLES.astype("<u2").tobytes()
    blobs, views, accessors, meshes = b"", [], [], []
    for points in (CONVEX, DENTED):
        data = points.astype("<f4").tobytes()
        views.append({"buffer": 0, "byteOffset": len(blobs), "byteLength": len(data),
                      "target": 34962})
        accessors.append({"bufferView": len(views) - 1, "componentType": 5126, "count": 8,
                          "type": "VEC3", "min": points.min(0).tolist(),
                          "max": points.max(0).tolist()})
        blobs += data
        views.append({"buffer": 0, "byteOffset": len(blobs), "byteLength": len(indices),
                      "target": 34963})
        accessors.append({"bufferView": len(views) - 1, "componentType": 5123,
                          "count": len(CUBE_TRIANGLES), "type": "SCALAR"})
        blobs += indices
        meshes.append({"primitives": [{"attributes": {"POSITION": len(accessors) - 2},
                                       "indices": len(accessors) - 1}]})
    half = math.sqrt(0.5)
    volumes = [
        ("GravityConvex", {"rotation": [0.0, half, 0.0, half], "translation": [2.0, 0.0, -2.0],
                           "scale": [1.0, 1.5, 1.0]},
         {"type": "shaped", "gravity": 12.0, "priority": 3,
          "shaped": {"shape": 1, "unitDistance": 0.5}}),
        ("GravityTrimesh", {"rotation": [0.2, 0.3, 0.1, math.sqrt(1 - 0.14)],
                            "translation": [-2.0, 1.0, 3.0], "scale": [2.0, 2.0, 2.0]},
         {"type": "shaped", "gravity": -4.0, "replace": True, "shaped": {"shape": 2}}),
    ]
    nodes: list[dict[str, Any]] = [{"name": "Root", "children": [1, 2],
                                    "rotation": [0.0, 0.0, 0.25, math.sqrt(1 - 0.0625)]}]
    for name, transform, volume in volumes:
        nodes.append({"name": name, **transform, "extensions": {
            "OMI_physics_body": {"trigger": {"shape": 0}}, EXT: volume}})
    uri = "data:application/octet-stream;base64," + base64.b64encode(blobs).decode()
    return {
        "asset": {"version": "2.0"},
        "extensions": {SHAPE_EXT: {"shapes": [
            {"type": "sphere", "sphere": {"radius": 10.0}},
            {"type": "convex", "convex": {"mesh": 0}},
            {"type": "trimesh", "trimesh": {"mesh": 1}}]}},
        "extensionsUsed": ["OMI_physics_body", EXT, SHAPE_EXT],
        "buffers": [{"byteLength": len(blobs), "uri": uri}], "bufferViews": views,
        "accessors": accessors, "meshes": meshes,
        "nodes": nodes, "scene": 0, "scenes": [{"nodes": [0]}],
    }


def meaning(gltf: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Per volume node name: its settings, shape kind and pull at the probes (the mesh
    shapes' geometry read from the file)."""
    gravity = decode_gravity_document(DocumentView.from_json(gltf), Report())
    graph, meshes = NodeGraph.of(gltf), MeshData(gltf, folder, None)
    out = {}
    for index, volume in gravity.nodes.items():
        shape = volume.shape
        assert shape is not None and shape.mesh is not None
        figure = mesh_figure(shape.kind, meshes.mesh(shape.mesh)[1])
        assert len(figure)
        world = graph.world(index)
        out[gltf["nodes"][index]["name"]] = (
            (volume.kind, shape.kind, volume.gravity, volume.unit_distance, volume.priority,
             volume.replace, volume.stop),
            [pull(volume, world, p, figure) for p in PROBES])
    return out


def assert_same(source: dict[str, Any], out: dict[str, Any]) -> None:
    assert source.keys() == out.keys() == {"GravityConvex", "GravityTrimesh"}
    for name, (settings, pulls) in source.items():
        assert settings == out[name][0], name
        assert sum(np.linalg.norm(p) > 1e-3 for p in pulls) >= 5, name  # probes that pull
        for mine, theirs in zip(pulls, out[name][1], strict=True):
            assert np.allclose(mine, theirs, rtol=1e-4, atol=1e-5), (name, mine, theirs)


def test_mesh_shaped_gravity_keeps_its_pull_through_blender(tmp_path: Path, caplog) -> None:
    source = tmp_path / "mesh_shaped.gltf"
    source.write_text(json.dumps(_mesh_file()))
    out, log = through_blender(source, tmp_path, caplog)  # validated: schemas + glTF-Validator
    assert [line for line in log if "gravity" in line] == []
    assert_same(meaning(_mesh_file(), tmp_path), meaning(out, tmp_path))
    shapes = {s["type"] for s in out["extensions"][SHAPE_EXT]["shapes"]}
    assert {"convex", "trimesh"} <= shapes
    # what the importer made: a collision-only mesh child per volume, tagged as its own
    for name, kind in (("GravityConvex", "CONVEX"), ("GravityTrimesh", "TRIMESH")):
        volume = bpy.data.objects[name]
        props = volume.gltf_physics
        child = props.gravity_shape_object
        assert props.gravity_shape_type == kind and child is not None
        assert child.parent == volume and child.gltf_physics.collision_only
        assert child["gltf_physics_made_by"] == "import_gravity_shape"
        assert child["gltf_physics_made_for"] == volume
        assert len(child.data.vertices) == 8
    # the children are not written as nodes of their own
    assert sorted(n.get("name") for n in out["nodes"]) == sorted(
        n["name"] for n in _mesh_file()["nodes"])


def test_the_picked_mesh_is_what_the_export_writes(tmp_path: Path, caplog) -> None:
    """Picking another mesh object (a user's, named like ours) changes the pull; the
    importer's child is then unused, not removed."""
    source = tmp_path / "mesh_shaped.gltf"
    source.write_text(json.dumps(_mesh_file()))
    through_blender(source, tmp_path, caplog)
    bpy.ops.mesh.primitive_cube_add(size=4.0, location=(0.0, 0.0, 0.0))
    cube = bpy.context.object
    cube.name = "GravityConvex.gravity_shape"  # the importer's name, but the user's object
    volume = bpy.data.objects["GravityConvex"]
    volume.gltf_physics.gravity_shape_object = cube
    out = tmp_path / "picked.gltf"
    export_logged(out, "OMI", caplog)
    assert_valid(out)
    written = meaning(load_gltf(out), tmp_path)
    assert not np.allclose(written["GravityConvex"][1], meaning(_mesh_file(), tmp_path)[
        "GravityConvex"][1])
    assert "gltf_physics_made_by" not in cube
    made = [o for o in volume.children if o.get("gltf_physics_made_by") == "import_gravity_shape"]
    assert len(made) == 1 and made[0] != cube  # the importer's own, kept


def test_check_physics_reports_a_mesh_shape_without_a_mesh(clean_scene) -> None:
    volume = _trigger("Cube Planet", "SHAPED", (0, 0, 0), (0, 0, 0), (1, 1, 1),
                      gravity_shape_type="TRIMESH")

    def found() -> set:
        return {(p.obj, p.code) for p in validation.validate_scene(clean_scene)
                if "gravity" in p.code}

    assert found() == {(volume.name, "gravity-shape-missing")}
    bpy.ops.mesh.primitive_ico_sphere_add()
    volume.gltf_physics.gravity_shape_object = bpy.context.object
    assert found() == set()


def test_instanced_volume_shares_its_mesh_shape_and_khr_writes_no_mesh(clean_scene,
                                                                        tmp_path: Path,
                                                                        caplog) -> None:
    planets = bpy.data.collections.new("Planets")
    planet = _trigger("Planet", "SHAPED", (0, 0, 0), (0, 0, 0), (1, 1, 1),
                      gravity_shape_type="CONVEX", gravity_unit_distance=1.0)
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    rock = bpy.context.object
    rock.name = "Planet.gravity_shape"  # named like the importer's, but the user's
    for obj in (planet, rock):
        clean_scene.collection.objects.unlink(obj)
        planets.objects.link(obj)
    planet.gltf_physics.gravity_shape_object = rock
    for i, x in enumerate((10.0, -10.0)):
        instance = bpy.data.objects.new(f"Planets{i}", None)
        instance.instance_type, instance.instance_collection = "COLLECTION", planets
        instance.location = (x, 0.0, 0.0)
        clean_scene.collection.objects.link(instance)
    out = tmp_path / "instances.gltf"
    assert [line for line in export_logged(out, "OMI", caplog) if "gravity" in line] == []
    assert_valid(out)
    gltf = load_gltf(out)
    shaped = [n["extensions"][EXT]["shaped"]["shape"] for n in gltf["nodes"]
              if EXT in n.get("extensions", {})]
    assert len(shaped) == 2 and shaped[0] == shaped[1]  # one shape, one mesh, two volumes
    entry = gltf["extensions"][SHAPE_EXT]["shapes"][shaped[0]]
    assert entry["type"] == "convex"
    graph, meshes = NodeGraph.of(gltf), MeshData(gltf, tmp_path, None)
    figure = mesh_figure("convex", meshes.mesh(entry["convex"]["mesh"])[1])
    centres = []
    for index, volume in decode_gravity_document(DocumentView.from_json(gltf),
                                                 Report()).nodes.items():
        world = graph.world(index)
        centres.append(world[0, 3])
        # 3 m above the rock's top face (the cube is 2 m): pulled straight down, 1/9 g
        above = world[:3, 3] + (0.0, 4.0, 0.0)
        assert np.allclose(pull(volume, world, above, figure), (0.0, -9.80665 / 9, 0.0))
    assert sorted(centres) == [-10.0, 10.0]
    khr = tmp_path / "instances_khr.gltf"
    log = export_logged(khr, "KHR", caplog)
    assert_valid(khr)
    assert sum(line.endswith("[khr-no-gravity]") for line in log) == 1
    assert len(load_gltf(khr).get("meshes", [])) == 1  # the rock's own, no gravity shape mesh


def test_overlay_draws_the_mesh_shape_and_rebuilds_when_the_mesh_changes(clean_scene) -> None:
    overlay = importlib.import_module(f"{MODULE}.panels.gravity_overlay")
    made: list[Any] = []
    cache = overlay.GravityBatches(lambda lines: made.append(lines) or len(made))
    volume = _trigger("Rock Planet", "SHAPED", (0, 0, 0), (0, 0, 0), (1, 1, 1),
                      gravity_shape_type="CONVEX")
    assert cache.batch(volume) is None and cache.builds == 1  # no mesh yet: nothing to draw
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 3.0))
    rock = bpy.context.object
    volume.gltf_physics.gravity_shape_object = rock
    first = cache.batch(volume)
    assert cache.builds == 2 and cache.batch(volume) == first and cache.builds == 2
    edges = made[-1][:18]  # the cube's edges, in the volume's space (Blender axes)
    assert np.allclose(edges[..., 2].min(), 2.0) and np.allclose(edges[..., 2].max(), 4.0)
    rock.data.vertices[0].co.x -= 1.0  # an edit of the shape's mesh rebuilds
    rock.data.update()
    assert cache.batch(volume) != first and cache.builds == 3


def test_linked_mesh_shaped_volume_exports_its_shape(clean_scene, tmp_path: Path,
                                                      caplog) -> None:
    kit = bpy.data.collections.new("PlanetKit")
    planet = _trigger("Planet", "SHAPED", (0, 0, 0), (0, 0, 0), (1, 1, 1),
                      gravity_shape_type="TRIMESH", gravity_unit_distance=1.0)
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    rock = bpy.context.object
    planet.gltf_physics.gravity_shape_object = rock
    for obj in (planet, rock):
        clean_scene.collection.objects.unlink(obj)
        kit.objects.link(obj)
    library = tmp_path / "planet_kit.blend"
    bpy.data.libraries.write(str(library), {kit}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_src, dst):
        dst.collections = ["PlanetKit"]
    linked = bpy.data.collections["PlanetKit"]
    instance = bpy.data.objects.new("Kit", None)
    instance.instance_type, instance.instance_collection = "COLLECTION", linked
    instance.location = (0.0, 5.0, 0.0)  # Blender +Y: glTF −Z
    bpy.context.scene.collection.objects.link(instance)
    assert linked.objects["Planet"].library is not None
    out = tmp_path / "linked.gltf"
    assert [line for line in export_logged(out, "OMI", caplog) if "gravity" in line] == []
    assert_valid(out)
    gltf = load_gltf(out)
    (index, volume), = decode_gravity_document(DocumentView.from_json(gltf), Report()).nodes.items()
    assert volume.shape is not None and volume.shape.kind == "trimesh"
    figure = mesh_figure("trimesh", MeshData(gltf, tmp_path, None).mesh(volume.shape.mesh)[1])
    world = NodeGraph.of(gltf).world(index)
    assert np.allclose(world[:3, 3], (0.0, 0.0, -5.0))
    # inside the rock, 0.5 m below its top face (the trimesh is a surface): pulled up, 4 g
    assert np.allclose(pull(volume, world, (0.0, 0.5, -5.0), figure), (0.0, 4 * 9.80665, 0.0))


@pytest.mark.parametrize("kind", ["CONVEX", "TRIMESH"])
@pytest.mark.parametrize("broken", ["nan-location", "huge-scale"])
def test_the_overlay_never_raises_for_a_transform_without_a_figure(clean_scene, kind,
                                                                   broken) -> None:
    """A NaN location or a 1e20 scale makes the shape's triangles non-finite: the overlay
    draws nothing for that volume (its draw callback raised on every redraw)."""
    overlay = importlib.import_module(f"{MODULE}.panels.gravity_overlay")
    cache = overlay.GravityBatches(lambda lines: lines)
    volume = _trigger("Planet Zone", "SHAPED", (0, 0, 0), (0, 0, 0), (1, 1, 1),
                      gravity_shape_type=kind)
    rock = h.mesh_object("Rock", "cube", (0, 0, 3))
    volume.gltf_physics.gravity_shape_object = rock
    if broken == "nan-location":
        rock.location.x = float("nan")
    else:
        volume.scale = (1e20, 1e20, 1e20)
    bpy.context.view_layer.update()
    assert cache.batch(volume) is None


@pytest.mark.parametrize(("shape", "body"), [("CONVEX", "DYNAMIC"), ("TRIMESH", "NONE")])
def test_a_misplaced_volume_writes_no_mesh_for_its_shape(clean_scene, tmp_path: Path, caplog,
                                                        shape: str, body: str) -> None:
    """A volume left out (set on a body, or with no trigger) wrote its shape's mesh anyway:
    unused in the file."""
    source = h.mesh_object("Pull", "cube")
    for collection in source.users_collection:  # (in no scene: no visible mesh written)
        collection.objects.unlink(source)
    pad = h.set_physics(bpy.data.objects.new("Pad", None), motion_type=body,
                        shape_type="BOX" if body != "NONE" else "NONE", gravity_type="SHAPED",
                        gravity_shape_type=shape)
    bpy.context.scene.collection.objects.link(pad)
    pad.gltf_physics.gravity_shape_object = source
    out = tmp_path / "out.gltf"
    export_logged(out, "OMI", caplog)
    assert [r for r in caplog.records if "gravity-not-on-trigger" in r.getMessage()]
    assert load_gltf(out).get("meshes", []) == []


def test_check_physics_lists_a_mesh_shape_without_faces(clean_scene) -> None:
    """The export left the volume out (gravity-shape-missing); Check Physics said nothing."""
    import bmesh

    mesh = bpy.data.meshes.new("Rail")
    bm = bmesh.new()
    for point in ((0, 0, 0), (1, 0, 0), (1, 1, 0)):
        bm.verts.new(point)
    bm.to_mesh(mesh)
    bm.free()
    rail = bpy.data.objects.new("Rail", mesh)
    clean_scene.collection.objects.link(rail)
    well = h.set_physics(h.empty_object("Well"), shape_type="BOX", shape_role="TRIGGER",
                         gravity_type="SHAPED", gravity_shape_type="CONVEX")
    well.gltf_physics.gravity_shape_object = rail
    bpy.ops.gltf_physics.validate()
    assert ("Well", "gravity-shape-missing") in {
        (p.obj, p.code) for p in clean_scene.gltf_physics.problems}
    for obj in bpy.context.view_layer.objects:  # (faces added in Edit Mode: not stored yet)
        obj.select_set(obj == rail)
    bpy.context.view_layer.objects.active = rail
    bpy.ops.object.mode_set(mode="EDIT")
    bpy.ops.mesh.select_all(action="SELECT")
    bpy.ops.mesh.edge_face_add()
    bpy.ops.gltf_physics.validate()
    bpy.ops.object.mode_set(mode="OBJECT")
    assert ("Well", "gravity-shape-missing") not in {
        (p.obj, p.code) for p in clean_scene.gltf_physics.problems}
