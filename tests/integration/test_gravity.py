# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_gravity through Blender: every corpus file and a hand-made file with each type
(rotated and scaled nodes, negative amounts, priorities, replace/stop) imported and exported
as OMI give the same world gravity and the same volumes in world space (the pull at world
probe points, matched by node name); volumes authored in Blender are written in world-correct
axes; a KHR export says once what it cannot write; exported files validate."""

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
from gltf_physics.io.gravity import pull
from gltf_physics.io.node_graph import NodeGraph
from tests.conftest import CORPUS
from tests.integration.conftest import MODULE
from tests.integration.scene_helpers import assert_valid, import_file
from tests.integration.test_meaning_roundtrip import export_logged, reported_codes
from tests.support.schemas import load_gltf
from tests.unit.test_gravity import PROBES, hand_made

bridge = importlib.import_module(f"{MODULE}.io.blender.gravity.bridge")
GRAVITY_CORPUS = CORPUS / "omi" / "current" / "OMI_physics_gravity"
EXT = "OMI_physics_gravity"
#: Blender (Z-up) → glTF (Y-up) for points and directions.
TO_GLTF = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])


def corpus_files() -> list[Path]:
    return sorted(GRAVITY_CORPUS.glob("*/*.glb")) if GRAVITY_CORPUS.is_dir() else []


def meaning_by_name(gltf: dict[str, Any]) -> dict[str, Any]:
    """World gravity and, per volume node name, its settings and pull at the probes."""
    gravity = decode_gravity_document(DocumentView.from_json(gltf), Report())
    graph = NodeGraph.of(gltf)
    volumes = {}
    for index, volume in gravity.nodes.items():
        name = gltf["nodes"][index].get("name", str(index))
        world = graph.world(index)
        volumes[name] = ((volume.kind, volume.priority, volume.replace, volume.stop),
                         [pull(volume, world, p) for p in PROBES])
    world = None if gravity.world is None else (
        gravity.world.gravity * np.asarray(gravity.world.direction))
    return {"world": world, "volumes": volumes}


def assert_same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert (a["world"] is None) == (b["world"] is None)
    if a["world"] is not None:
        assert np.allclose(a["world"], b["world"], atol=1e-5)
    assert a["volumes"].keys() == b["volumes"].keys()
    for name, (settings, pulls) in a["volumes"].items():
        assert settings == b["volumes"][name][0], name
        for mine, theirs in zip(pulls, b["volumes"][name][1], strict=True):
            assert np.allclose(mine, theirs, rtol=1e-4, atol=1e-5), (name, mine, theirs)


def through_blender(source: Path, tmp_path: Path, caplog, fmt: str = "OMI") -> tuple[dict, list]:
    import_file(source)
    out = tmp_path / f"out_{fmt}.gltf"
    log = export_logged(out, fmt, caplog)
    assert_valid(out)
    return load_gltf(out), log


@pytest.mark.skipif(not corpus_files(), reason="the shared corpus is absent (needs ../shared)")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.stem)
def test_corpus_file_keeps_its_gravity(path: Path, tmp_path: Path, caplog) -> None:
    out, log = through_blender(path, tmp_path, caplog)
    assert [line for line in log if "gravity" in line] == []
    assert_same(meaning_by_name(load_gltf(path)), meaning_by_name(out))


def test_hand_made_file_with_every_type_keeps_its_gravity(tmp_path: Path, caplog) -> None:
    source = tmp_path / "hand_made.gltf"
    source.write_text(json.dumps(hand_made()))
    out, log = through_blender(source, tmp_path, caplog)
    assert [line for line in log if "gravity" in line] == []
    assert_same(meaning_by_name(hand_made()), meaning_by_name(out))
    props = bpy.context.scene.gltf_physics
    assert props.use_world_gravity and props.world_gravity_amount == pytest.approx(3.5)
    assert tuple(props.world_gravity_direction) == pytest.approx((1.0, 0.0, 0.0))


def _trigger(name: str, kind: str, location, rotation, scale, **values: Any) -> bpy.types.Object:
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler, obj.scale = location, rotation, scale
    props = obj.gltf_physics
    props.shape_type, props.shape_role, props.size_mode = "SPHERE", "TRIGGER", "CUSTOM"
    props.radius = 20.0
    props.gravity_type = kind
    for key, value in values.items():
        setattr(props, key, value)
    return obj


def test_authored_volumes_are_written_in_world_correct_axes(clean_scene, tmp_path: Path,
                                                            caplog) -> None:
    curve = bpy.data.curves.new("Spine", "CURVE")
    spline = curve.splines.new("POLY")
    spline.points.add(2)
    for point, co in zip(spline.points, ((0, 0, 0, 1), (0, 3, 1, 1), (2, 4, 1, 1)), strict=True):
        point.co = co
    spine = bpy.data.objects.new("Spine", curve)
    clean_scene.collection.objects.link(spine)
    spine.location = (1.0, 0.0, 0.0)
    made = [
        _trigger("Ramp", "DIRECTIONAL", (1, 2, 3), (0.3, 0.0, 0.9), (1, 2, 1),
                 gravity_amount=-4.0, gravity_direction=(0.0, 0.6, -0.8),
                 gravity_priority=500, gravity_stop=True),
        _trigger("Planet", "POINT", (-3, 0, 1), (0.0, 0.0, 0.0), (2, 2, 2),
                 gravity_unit_distance=1.5, gravity_replace=True),
        _trigger("Disc", "DISC", (0, 5, 0), (0.7, 0.2, 0.0), (1, 1, 1), gravity_radius=2.0),
        _trigger("Ring", "TORUS", (0, -5, 0), (0.0, 1.2, 0.0), (1, 1, 1), gravity_radius=3.0,
                 gravity_unit_distance=0.5, gravity_amount=-2.0),
        _trigger("Snake", "LINE", (4, 4, 0), (0.0, 0.0, 0.5), (1, 1, 1),
                 gravity_line_source="OBJECT", gravity_line_object=spine),
        _trigger("Cube", "SHAPED", (-4, -4, 2), (0.4, 0.0, 0.0), (1, 1, 1),
                 gravity_shape_type="BOX", gravity_shape_size=(1.0, 2.0, 3.0),
                 gravity_priority=-1000),
    ]
    clean_scene.gltf_physics.use_world_gravity = True
    clean_scene.gltf_physics.world_gravity_direction = (0.0, 1.0, 0.0)  # glTF −Z
    bpy.context.view_layer.update()
    out = tmp_path / "authored.gltf"
    log = export_logged(out, "OMI", caplog)
    assert_valid(out)
    assert [line for line in log if "gravity" in line] == []
    gltf = load_gltf(out)
    written = meaning_by_name(gltf)
    assert written["world"] == pytest.approx((0.0, 0.0, -9.80665))
    for obj in made:
        volume = bridge.gravity_of(obj)  # glTF axes, the object's frame
        basis = np.identity(4)
        basis[:3, :3] = TO_GLTF
        matrix = basis @ np.array(obj.matrix_world) @ basis.T  # the object's frame, glTF axes
        expected = [pull(volume, matrix, p) for p in PROBES]
        settings, pulls = written["volumes"][obj.name]
        assert settings[0] == obj.gltf_physics.gravity_type.lower()
        for mine, theirs in zip(expected, pulls, strict=True):
            assert np.allclose(mine, theirs, rtol=1e-4, atol=1e-5), obj.name
    assert len(gltf["extensions"]["OMI_physics_shape"]["shapes"]) == 2  # trigger + gravity box
    snake = next(n for n in gltf["nodes"] if n.get("name") == "Snake")
    assert len(snake["extensions"][EXT]["line"]["points"]) == 9


def test_offset_trigger_shape_becomes_a_compound_trigger(clean_scene, tmp_path: Path,
                                                         caplog) -> None:
    obj = _trigger("Well", "POINT", (0, 0, 0), (0, 0, math.pi / 2), (1, 1, 1))
    obj.gltf_physics.shape_offset = (0.0, 0.0, 2.0)
    out = tmp_path / "offset.gltf"
    log = export_logged(out, "OMI", caplog)
    assert_valid(out)
    assert [line for line in log if "gravity" in line] == []
    gltf = load_gltf(out)
    well = next(n for n in gltf["nodes"] if n.get("name") == "Well")
    assert well["extensions"]["OMI_physics_body"] == {"trigger": {"nodes": well["children"]}}
    assert well["extensions"][EXT]["type"] == "point"


def test_khr_export_says_once_what_it_cannot_write(clean_scene, tmp_path: Path, caplog) -> None:
    for i in range(3):
        _trigger(f"Zone{i}", "POINT", (i * 50, 0, 0), (0, 0, 0), (1, 1, 1))
    clean_scene.gltf_physics.use_world_gravity = True
    out = tmp_path / "khr.gltf"
    log = export_logged(out, "KHR", caplog)
    assert_valid(out)
    assert EXT not in out.read_text()
    said = [line for line in log if "[khr-no-gravity]" in line]
    assert len(said) == 1 and reported_codes(log)["khr-no-gravity"] == 1
    assert all(f"point volume on node Zone{i}" in said[0] for i in range(3))
    assert "the world gravity" in said[0]


def test_gravity_on_a_collider_or_a_compound_part_is_said_not_written(clean_scene,
                                                                     tmp_path: Path,
                                                                     caplog) -> None:
    rock = _trigger("Rock", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1), shape_role="COLLIDER")
    root = bpy.data.objects.new("Zone", None)
    clean_scene.collection.objects.link(root)
    root.gltf_physics.is_compound_trigger = True
    part = _trigger("Part", "POINT", (5, 0, 0), (0, 0, 0), (1, 1, 1))
    part.parent = root
    out = tmp_path / "misplaced.gltf"
    log = export_logged(out, "OMI", caplog)
    assert_valid(out)
    assert EXT not in out.read_text()
    assert [line for line in log if "[gravity-not-on-trigger]" in line] == [
        f"gltf_physics: {rock.name}: gravity belongs on a trigger without motion or collider "
        "(it has a collider); not written [gravity-not-on-trigger]"]
    assert [line for line in log if "[gravity-on-compound-part]" in line] == [
        f"gltf_physics: {part.name}: gravity on a part of compound trigger Zone: a compound "
        "trigger has one volume, on its root; not written [gravity-on-compound-part]"]


# -- storage, panel and operators ------------------------------------------------------------

field_props = importlib.import_module(f"{MODULE}.io.blender.settings.field_props")
table = importlib.import_module(f"{MODULE}.io.field_table")
gravity_panels = importlib.import_module(f"{MODULE}.panels.gravity_panels")


@pytest.mark.parametrize("row", [*table.GRAVITY, *table.WORLD_GRAVITY],
                         ids=lambda r: f"{r.group}.{r.attr}")
def test_gravity_row_is_a_stored_property(row: Any) -> None:
    owner = bpy.types.Scene if row.group == "world_gravity" else bpy.types.Object
    prop = owner.bl_rna.properties["gltf_physics"].fixed_type.properties[row.prop]
    assert (prop.name, prop.description) == (row.label, row.tooltip)
    default = field_props.to_blender(row, row.default)
    if row.size:
        assert tuple(prop.default_array) == pytest.approx(default)
    else:
        assert prop.default == pytest.approx(default)
    if row.attr == "priority":
        assert prop.type == "INT"
    if row.minimum is not None:
        assert prop.hard_min == pytest.approx(row.minimum)


class _Layout:
    """Records the properties and operators a panel draws."""

    def __init__(self) -> None:
        self.drawn: list[str] = []

    def prop(self, _data: Any, name: str, **_kw: Any) -> None:
        self.drawn.append(name)

    def operator(self, name: str, **_kw: Any) -> Any:
        self.drawn.append(name)
        return type("Props", (), {})()

    def template_list(self, *args: Any, **_kw: Any) -> None:
        self.drawn.append(args[3])

    def __getattr__(self, _name: str) -> Any:
        return lambda *args, **kw: self

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)


def _drawn(panel: Any, context: Any) -> list[str]:
    from types import SimpleNamespace

    layout = _Layout()
    panel.draw(SimpleNamespace(layout=layout), context)
    return layout.drawn


@pytest.mark.parametrize("kind", ["DIRECTIONAL", "POINT", "DISC", "TORUS", "LINE", "SHAPED"])
def test_panel_draws_the_type_and_its_rows(clean_scene, kind: str) -> None:
    from types import SimpleNamespace

    obj = _trigger("Zone", kind, (0, 0, 0), (0, 0, 0), (1, 1, 1))
    context = SimpleNamespace(object=obj, scene=clean_scene)
    panel = gravity_panels.GLTF_PHYSICS_PT_gravity
    assert panel.poll(context)
    drawn = _drawn(panel, context)
    rows = gravity_panels.gravity_rows(kind)
    assert [name for name in drawn if name in rows] == rows
    assert ("gravity_direction" in drawn) == (kind == "DIRECTIONAL")
    assert ("gravity_radius" in drawn) == (kind in ("DISC", "TORUS"))
    assert ("gravity_unit_distance" in drawn) == (kind != "DIRECTIONAL")
    assert ("gravity_line_points" in drawn) == (kind == "LINE")
    assert ("gravity_shape_type" in drawn) == (kind == "SHAPED")
    obj.gltf_physics.shape_role = "COLLIDER"
    assert not panel.poll(context)  # only on triggers and compound trigger roots
    obj.gltf_physics.is_compound_trigger = True
    assert panel.poll(context)


def test_world_gravity_panel_draws_its_rows(clean_scene) -> None:
    from types import SimpleNamespace

    drawn = _drawn(gravity_panels.GLTF_PHYSICS_PT_world_gravity,
                   SimpleNamespace(scene=clean_scene))
    assert drawn == [row.prop for row in table.WORLD_GRAVITY]


def test_line_point_operators_edit_the_list_and_undo(clean_scene) -> None:
    curve = bpy.data.curves.new("Path", "CURVE")
    spline = curve.splines.new("POLY")
    spline.points.add(1)
    spline.points[1].co = (0.0, 0.0, 4.0, 1.0)
    path = bpy.data.objects.new("Path", curve)
    clean_scene.collection.objects.link(path)
    path.location = (0.0, 2.0, 0.0)
    obj = _trigger("Snake", "LINE", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    bpy.context.view_layer.objects.active = obj
    bpy.context.view_layer.update()
    props = obj.gltf_physics
    for name in ("gravity_point_add", "gravity_point_remove", "gravity_points_from_object"):
        assert getattr(bpy.types, f"GLTF_PHYSICS_OT_{name}").bl_options >= {"REGISTER", "UNDO"}
    bpy.ops.gltf_physics.gravity_point_add()
    bpy.ops.gltf_physics.gravity_point_add()
    assert [tuple(p.co) for p in props.gravity_line_points] == [(0, 0, 0), (0, 0, 1)]
    bpy.ops.gltf_physics.gravity_point_remove()
    assert len(props.gravity_line_points) == 1
    with pytest.raises(RuntimeError, match="Pick a curve or mesh object first"):
        bpy.ops.gltf_physics.gravity_points_from_object()  # none picked: said, nothing changed
    assert len(props.gravity_line_points) == 1
    props.gravity_line_object = path
    bpy.ops.gltf_physics.gravity_points_from_object()
    assert props.gravity_line_source == "POINTS"
    assert [tuple(p.co) for p in props.gravity_line_points] == [
        pytest.approx((0, 2, 0)), pytest.approx((0, 2, 4))]


validation = importlib.import_module(f"{MODULE}.io.blender.tools.validation")


def test_check_physics_reports_the_shared_gravity_rules(clean_scene) -> None:
    good = _trigger("Good", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    body = _trigger("Body", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1), motion_type="DYNAMIC")
    root = bpy.data.objects.new("Zone", None)
    clean_scene.collection.objects.link(root)
    root.gltf_physics.is_compound_trigger = True
    root.gltf_physics.gravity_type = "DIRECTIONAL"
    root.gltf_physics.gravity_direction = (0.0, 0.0, -2.0)
    part = _trigger("Part", "POINT", (5, 0, 0), (0, 0, 0), (1, 1, 1))
    part.parent = root
    line = _trigger("Line", "LINE", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    line.gltf_physics.gravity_line_points.add()
    flat = _trigger("Flat", "SHAPED", (0, 0, 0), (0, 0, 0), (1, 1, 1),
                    gravity_shape_type="SPHERE", gravity_shape_radius=0.0)
    found = {(p.obj, p.code) for p in validation.validate_scene(clean_scene)
             if "gravity" in p.code}
    assert found == {
        (body.name, "gravity-not-on-trigger"), (part.name, "gravity-on-compound-part"),
        (root.name, "gravity-direction-not-normalised"), (line.name, "gravity-line-points"),
        (flat.name, "gravity-shape-missing")}
    assert good.name not in {obj for obj, _code in found}


gravity_overlay = importlib.import_module(f"{MODULE}.panels.gravity_overlay")


def test_overlay_builds_a_batch_per_volume_and_rebuilds_only_on_change(clean_scene) -> None:
    made: list[Any] = []
    cache = gravity_overlay.GravityBatches(lambda lines: made.append(lines) or len(made))
    disc = _trigger("Disc", "DISC", (0, 0, 0), (0, 0, 0), (1, 1, 1), gravity_radius=2.0)
    plain = _trigger("Plain", "NONE", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    assert cache.batch(plain) is None
    first = cache.batch(disc)
    assert cache.batch(disc) == first and cache.builds == 1  # redraws reuse the batch
    figure = made[0][:32]  # the circle: in the object's XY plane (Blender axes)
    assert np.allclose(figure[..., 2], 0.0)
    assert np.allclose(np.linalg.norm(figure[..., :2], axis=-1), 2.0, atol=1e-5)
    disc.location = (5.0, 0.0, 0.0)  # placement is the draw-time matrix: no rebuild
    assert cache.batch(disc) == first and cache.builds == 1
    disc.gltf_physics.gravity_radius = 3.0
    assert cache.batch(disc) != first and cache.builds == 2
    disc.gltf_physics.gravity_type = "NONE"
    assert cache.batch(disc) is None and "Disc" not in cache.entries
    assert clean_scene.gltf_physics.show_gravity


gravity_preview = importlib.import_module(f"{MODULE}.io.blender.gravity.preview")
native_rigid_body = importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")


def test_preview_uses_the_world_gravity_and_names_the_volumes_it_cannot_show(
        clean_scene, helpers) -> None:
    box = helpers.mesh_object("Crate", location=(0.0, 0.0, 5.0))
    helpers.set_physics(box, motion_type="DYNAMIC", shape_type="BOX")
    _trigger("Well", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    settings = clean_scene.gltf_physics
    settings.use_world_gravity = True
    settings.world_gravity_amount = 0.0  # space
    own = tuple(clean_scene.gravity)
    bpy.ops.gltf_physics.preview()
    assert tuple(clean_scene.gravity) == pytest.approx((0.0, 0.0, 0.0))
    native_rigid_body.step(clean_scene, 24)
    assert box.matrix_world.translation.z == pytest.approx(5.0, abs=1e-4)  # floats in space
    note = gravity_preview.preview_note(clean_scene)
    assert note.startswith("gravity volumes not previewed") and note.endswith(": Well")
    settings.world_gravity_amount = 3.5
    settings.world_gravity_direction = (1.0, 0.0, 0.0)
    bpy.ops.gltf_physics.preview()  # again: from the scene's own gravity, not the last one
    assert tuple(clean_scene.gravity) == pytest.approx((3.5, 0.0, 0.0))
    bpy.ops.gltf_physics.preview_remove()
    assert tuple(clean_scene.gravity) == pytest.approx(own)
    assert gravity_preview.SCENE_GRAVITY_TAG not in clean_scene


def test_preview_without_world_gravity_keeps_the_scene_gravity(clean_scene, helpers) -> None:
    box = helpers.mesh_object("Crate", location=(0.0, 0.0, 5.0))
    helpers.set_physics(box, motion_type="DYNAMIC", shape_type="BOX")
    own = tuple(clean_scene.gravity)
    bpy.ops.gltf_physics.preview()
    assert tuple(clean_scene.gravity) == pytest.approx(own)
    assert gravity_preview.preview_note(clean_scene) == ""
    bpy.ops.gltf_physics.preview_remove()
    assert tuple(clean_scene.gravity) == pytest.approx(own)


def test_instanced_volumes_each_get_their_node_and_a_second_scene_keeps_its_own(
        clean_scene, tmp_path: Path, caplog) -> None:
    planets = bpy.data.collections.new("Planets")
    well = _trigger("Well", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1), gravity_unit_distance=2.0)
    clean_scene.collection.objects.unlink(well)
    planets.objects.link(well)
    for i, x in enumerate((10.0, -10.0)):
        instance = bpy.data.objects.new(f"Planet{i}", None)
        instance.instance_type, instance.instance_collection = "COLLECTION", planets
        instance.location = (x, 0.0, 0.0)
        clean_scene.collection.objects.link(instance)
    other = bpy.data.scenes.new("Other")  # a second scene with a world gravity of its own
    other.gltf_physics.use_world_gravity = True
    other.gltf_physics.world_gravity_amount = 1.0
    out = tmp_path / "instances.gltf"
    log = export_logged(out, "OMI", caplog)
    assert_valid(out)
    said = [line for line in log if "[world-gravity-other-scenes]" in line]
    assert len(said) == 1 and "scene Other" in said[0]  # the other scene's, not written
    assert [line for line in log if "gravity" in line and "world-gravity-other" not in line] \
        == []
    gltf = load_gltf(out)
    assert EXT not in gltf.get("extensions", {})  # the exporting scene sets none
    graph = NodeGraph.of(gltf)
    centres = sorted(
        tuple(np.round(graph.world(i)[:3, 3], 6)) for i, node in enumerate(gltf["nodes"])
        if EXT in node.get("extensions", {}))
    assert centres == [(-10.0, 0.0, 0.0), (10.0, 0.0, 0.0)]  # glTF X = Blender X


def test_linked_volume_is_exported_and_its_points_are_not_edited(clean_scene, tmp_path: Path,
                                                                caplog) -> None:
    kit = bpy.data.collections.new("GravityKit")
    snake = _trigger("Snake", "LINE", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    for co in ((0.0, 0.0, 0.0), (0.0, 0.0, 3.0)):
        snake.gltf_physics.gravity_line_points.add().co = co
    clean_scene.collection.objects.unlink(snake)
    kit.objects.link(snake)
    library = tmp_path / "kit.blend"
    bpy.data.libraries.write(str(library), {kit}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_src, dst):
        dst.collections = ["GravityKit"]
    linked = bpy.data.collections["GravityKit"]
    scene = bpy.context.scene
    instance = bpy.data.objects.new("Kit", None)
    instance.instance_type, instance.instance_collection = "COLLECTION", linked
    scene.collection.objects.link(instance)
    for obj in linked.objects:
        scene.collection.objects.link(obj)
    linked_snake = linked.objects["Snake"]
    bpy.context.view_layer.objects.active = linked_snake
    assert linked_snake.library is not None
    assert not bpy.ops.gltf_physics.gravity_point_add.poll()  # linked: refused, unchanged
    out = tmp_path / "linked.gltf"
    log = export_logged(out, "OMI", caplog)
    assert_valid(out)
    assert [line for line in log if "gravity" in line] == []
    written = [n["extensions"][EXT] for n in load_gltf(out)["nodes"]
               if EXT in n.get("extensions", {})]
    assert len(written) == 2  # the instance's node and the directly linked object's
    assert all(w["line"]["points"] == [0.0, 0.0, 0.0, 0.0, 3.0, 0.0] for w in written)


def test_gravity_settings_are_kept_by_a_library_override() -> None:
    group = bpy.types.Object.bl_rna.properties["gltf_physics"].fixed_type.properties
    names = [prop.identifier for prop in group if prop.identifier.startswith("gravity_")]
    assert len(names) >= 17 and all(group[name].is_overridable for name in names), names
    point = group["gravity_line_points"].fixed_type.properties["co"]
    assert point.is_overridable
