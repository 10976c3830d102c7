# SPDX-License-Identifier: GPL-3.0-or-later
"""A line gravity volume's points from an object the view layer does not evaluate (only in
another scene, excluded, disabled in viewports): Blender would read that object's own mesh,
without its modifiers. Copy Points refuses it, once and changing nothing; an export reads it
in an exported scene that evaluates it, and when none does, says so once per object."""

import logging
from pathlib import Path

import bpy
import pytest

from tests.integration.test_meaning_roundtrip import reported_codes
from tests.integration.test_production_scenes_tools import refused, select, state
from tests.support.schemas import load_gltf

EXT = "OMI_physics_gravity"
NOT_EVALUATED = "gravity-line-object-not-evaluated"


def _rail(scene: bpy.types.Scene) -> bpy.types.Object:
    """A 2-vertex mesh 'Rail' at x = 5 in `scene`, with an Array modifier of 3 along Z: 6
    vertices when evaluated, 2 without its modifiers."""
    mesh = bpy.data.meshes.new("Rail")
    mesh.from_pydata([(0, 0, 0), (0, 0, 1)], [(0, 1)], [])
    rail = bpy.data.objects.new("Rail", mesh)
    scene.collection.objects.link(rail)
    rail.location = (5.0, 0.0, 0.0)
    array = rail.modifiers.new("Array", "ARRAY")
    array.count, array.relative_offset_displace = 3, (0.0, 0.0, 1.0)
    return rail


def _snake(scene: bpy.types.Scene, rail: bpy.types.Object) -> bpy.types.Object:
    """A line gravity trigger 'Snake' in `scene` taking its points from `rail`."""
    snake = bpy.data.objects.new("Snake", None)
    scene.collection.objects.link(snake)
    props = snake.gltf_physics
    props.shape_type, props.shape_role, props.gravity_type = "SPHERE", "TRIGGER", "LINE"
    props.gravity_line_source, props.gravity_line_object = "OBJECT", rail
    return snake


def _two_scenes() -> tuple[bpy.types.Scene, bpy.types.Scene]:
    """The empty scene A (the window's) and a scene B, evaluated once as when built there."""
    scene_a = bpy.context.scene
    scene_a.name = "A"
    return scene_a, bpy.data.scenes.new("B")


def _evaluate(scene: bpy.types.Scene) -> None:
    """Evaluate `scene` as the window's, as when the artist worked there, then go back."""
    back = bpy.context.window.scene
    bpy.context.window.scene = scene
    bpy.context.view_layer.update()
    bpy.context.window.scene = back


def _copy_points(snake: bpy.types.Object) -> str:
    bpy.context.view_layer.update()
    select(snake)
    return refused(bpy.ops.gltf_physics.gravity_points_from_object)


def test_copy_points_refuses_a_line_object_only_in_another_scene(clean_scene) -> None:
    scene_a, scene_b = _two_scenes()
    rail = _rail(scene_b)
    _evaluate(scene_b)
    snake = _snake(scene_a, rail)
    before = state()
    message = _copy_points(snake)
    assert message.count("Rail is not in this scene: link it here so its modifiers count; "
                         "nothing was changed") == 1, message
    assert state() == before
    assert len(snake.gltf_physics.gravity_line_points) == 0


@pytest.mark.parametrize("how", ["excluded", "disabled"])
def test_copy_points_refuses_a_line_object_the_view_layer_does_not_evaluate(clean_scene,
                                                                            how: str) -> None:
    rail = _rail(clean_scene)
    if how == "excluded":
        kit = bpy.data.collections.new("Kit")
        clean_scene.collection.children.link(kit)
        clean_scene.collection.objects.unlink(rail)
        kit.objects.link(rail)
        bpy.context.view_layer.layer_collection.children["Kit"].exclude = True
    else:
        rail.hide_viewport = True
    snake = _snake(clean_scene, rail)
    before = state()
    message = _copy_points(snake)
    assert "Rail is not evaluated in this view layer (it or its collection is excluded or " \
        "disabled in viewports): enable it so its modifiers count; nothing was changed" \
        in message, message
    assert state() == before


@pytest.mark.parametrize("placed", ["linked", "instanced"])
def test_copy_points_reads_the_modifiers_of_a_line_object_this_scene_evaluates(
        clean_scene, placed: str) -> None:
    """Linked into this scene, or only placed by one of its collection instancers."""
    scene_a, scene_b = _two_scenes()
    rail = _rail(scene_b)
    if placed == "linked":
        scene_a.collection.objects.link(rail)
    else:
        kit = bpy.data.collections.new("Kit")
        scene_b.collection.objects.unlink(rail)
        kit.objects.link(rail)
        instancer = bpy.data.objects.new("Instancer", None)
        instancer.instance_type, instancer.instance_collection = "COLLECTION", kit
        scene_a.collection.objects.link(instancer)
    snake = _snake(scene_a, rail)
    bpy.context.view_layer.update()
    select(snake)
    assert bpy.ops.gltf_physics.gravity_points_from_object() == {"FINISHED"}
    points = [tuple(round(c, 5) for c in p.co) for p in snake.gltf_physics.gravity_line_points]
    assert points == [(5, 0, z) for z in (0, 1, 1, 2, 2, 3)]


def _export(path: Path, caplog, **options) -> tuple[dict, list[str]]:
    """Export as OMI (from the window's scene): the file and the physics report lines."""
    bpy.context.scene.gltf_physics.export_format = "OMI"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE",
                                  **options)
    lines = [r.getMessage() for r in caplog.records
             if r.getMessage().startswith("gltf_physics:")]
    return load_gltf(path), lines


def _written_points(gltf: dict) -> list[list[float]]:
    return [node["extensions"][EXT]["line"]["points"] for node in gltf["nodes"]
            if EXT in node.get("extensions", {})]


#: Rail's evaluated vertices in Snake's space (Snake at the origin), glTF axes (Y up).
EVALUATED = [v for z in (0, 1, 1, 2, 2, 3) for v in (5.0, float(z), 0.0)]


@pytest.mark.parametrize("snake_in", ["A", "B"])
def test_a_multi_scene_export_reads_the_line_object_in_its_scene(clean_scene, tmp_path: Path,
                                                                 caplog, snake_in: str) -> None:
    """Rail only in scene B, the export started in A with Active Scene off: Rail is read as
    scene B evaluates it, its modifiers counted (it wrote Rail's bare 2 vertices)."""
    scene_a, scene_b = _two_scenes()
    _snake(scene_a if snake_in == "A" else scene_b, _rail(scene_b))
    gltf, log = _export(tmp_path / "two.gltf", caplog, use_active_scene=False)
    assert bpy.context.window.scene == scene_a
    assert [line for line in log if "gravity" in line] == []
    assert [[round(v, 5) for v in points] for points in _written_points(gltf)] == [EVALUATED]


@pytest.mark.parametrize("rail_in", ["B", "none"])
def test_an_export_says_once_that_no_exported_scene_evaluates_the_line_object(
        clean_scene, tmp_path: Path, caplog, rail_in: str) -> None:
    """Rail only in scene B, the active scene A exported; or Rail in no scene, Snake in
    scenes A and B, both exported: Rail's own mesh is written on each of Snake's nodes, and
    that is said once."""
    scene_a, scene_b = _two_scenes()
    rail = _rail(scene_b)
    snake = _snake(scene_a, rail)
    _evaluate(scene_b)  # (Rail placed at x = 5)
    if rail_in == "none":
        scene_b.collection.objects.unlink(rail)
        rail.use_fake_user = True
        scene_b.collection.objects.link(snake)
    gltf, log = _export(tmp_path / "one.gltf", caplog, use_active_scene=rail_in == "B")
    assert reported_codes(log)[NOT_EVALUATED] == 1, log
    assert [line for line in log if line.endswith(f"[{NOT_EVALUATED}]")] == [
        "gltf_physics: Snake: its line object Rail is in no exported scene (or is excluded or "
        "disabled in viewports there): its points are written from its own mesh, without its "
        f"modifiers (link Rail into the scene) [{NOT_EVALUATED}]"]
    written = _written_points(gltf)
    assert len(written) == (1 if rail_in == "B" else 2)
    assert all([round(v, 5) for v in points] == [5, 0, 0, 5, 1, 0] for points in written)


MESH_NOT_EVALUATED = "mesh-object-not-evaluated"


def _box_rail(scene: bpy.types.Scene, name: str) -> bpy.types.Object:
    """A cube 'name' at the origin of `scene` with an Array modifier of 4 along X: 32
    vertices evaluated, 8 without its modifiers."""
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], [],
                     [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4),
                      (1, 5, 7, 3)])
    obj = bpy.data.objects.new(name, mesh)
    scene.collection.objects.link(obj)
    obj.modifiers.new("Array", "ARRAY").count = 4
    return obj


def _mesh_counts(gltf: dict) -> dict[str, int]:
    return {mesh["name"]: gltf["accessors"][mesh["primitives"][0]["attributes"]["POSITION"]]
            ["count"] for mesh in gltf.get("meshes", [])}


@pytest.mark.parametrize("user", ["gravity shape", "collider"])
@pytest.mark.parametrize("active_scene", [True, False])
def test_a_shapes_mesh_no_exported_scene_evaluates_is_said_once(
        clean_scene, tmp_path: Path, caplog, user: str, active_scene: bool) -> None:
    """A shaped gravity volume's Shape Mesh, or a hull collider's Mesh Object, only in scene
    B with an Array modifier: exporting the active scene A writes its own 8 vertices and
    says so once (it was not said); exporting both scenes reads it as B evaluates it (32)."""
    scene_a, scene_b = _two_scenes()
    source = _box_rail(scene_b, "Source")
    _evaluate(scene_b)
    holder = bpy.data.objects.new("Holder", None)
    scene_a.collection.objects.link(holder)
    props = holder.gltf_physics
    if user == "gravity shape":
        props.shape_type, props.shape_role, props.gravity_type = "SPHERE", "TRIGGER", "SHAPED"
        props.gravity_shape_type, props.gravity_shape_object = "CONVEX", source
    else:
        props.motion_type, props.shape_type = "DYNAMIC", "CONVEX"
        props.mesh_source, props.mesh_object = "OBJECT", source
    gltf, log = _export(tmp_path / "out.gltf", caplog, use_active_scene=active_scene)
    said = [line for line in log if line.endswith(f"[{MESH_NOT_EVALUATED}]")]
    if active_scene:
        assert said == [
            "gltf_physics: Holder: its mesh Source is not evaluated in any exported scene (it "
            "is in none, or excluded or disabled in viewports there, or its scene was not shown "
            "since the file was opened): its own mesh is written, without its modifiers and "
            f"shape keys (link Source into Holder's scene) [{MESH_NOT_EVALUATED}]"], log
        assert _mesh_counts(gltf)["Source.collision"] == 8
    else:
        assert said == [], log
        assert _mesh_counts(gltf)["Source.collision"] == 32


def test_an_unevaluated_mesh_without_modifiers_is_not_said(clean_scene, tmp_path: Path,
                                                           caplog) -> None:
    """Nothing is lost when the mesh has no modifiers or shape keys: nothing is said."""
    scene_a, scene_b = _two_scenes()
    source = _box_rail(scene_b, "Source")
    source.modifiers.clear()
    holder = bpy.data.objects.new("Holder", None)
    scene_a.collection.objects.link(holder)
    props = holder.gltf_physics
    props.motion_type, props.shape_type = "DYNAMIC", "CONVEX"
    props.mesh_source, props.mesh_object = "OBJECT", source
    gltf, log = _export(tmp_path / "out.gltf", caplog, use_active_scene=True)
    assert not [line for line in log if MESH_NOT_EVALUATED in line], log
    assert _mesh_counts(gltf)["Source.collision"] == 8
