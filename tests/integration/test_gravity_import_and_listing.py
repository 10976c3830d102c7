# SPDX-License-Identifier: GPL-3.0-or-later
"""Gravity in artists' scenes: an import replacing the scene's own world gravity says so
(and a file stating only the default keeps it); Preview in Blender names the gravity volumes
of instanced collections too; KHR's `khr-no-gravity` names an instanced volume once, with a
count."""

import importlib
import json
import logging
from pathlib import Path

import bpy
import pytest

from tests.integration.conftest import MODULE
from tests.integration.scene_helpers import assert_valid
from tests.integration.test_gravity import _trigger
from tests.integration.test_meaning_roundtrip import export_logged, reported_codes

gravity_preview = importlib.import_module(f"{MODULE}.io.blender.gravity.preview")
PLACE = "Scene properties → glTF Physics → World Gravity"


def _prop_file(tmp_path: Path, world: dict) -> Path:
    """A one-node prop file stating `world` as its world gravity."""
    path = tmp_path / "prop.gltf"
    path.write_text(json.dumps({
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_gravity"],
        "extensions": {"OMI_physics_gravity": world},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "Prop"}],
    }))
    return path


def _import_logged(path: Path, caplog) -> list[str]:
    """Import into the current scene (kept); the physics lines of the log, notes too."""
    caplog.clear()
    with caplog.at_level(logging.INFO):
        bpy.ops.import_scene.gltf(filepath=str(path))
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("gltf_physics:")]


def _level(scene: bpy.types.Scene, amount: float, direction=(0.0, 0.0, -1.0)) -> None:
    props = scene.gltf_physics
    props.use_world_gravity = True
    props.world_gravity_amount = amount
    props.world_gravity_direction = direction


def _world(scene: bpy.types.Scene) -> tuple[float, ...]:
    """Whether the scene sets a world gravity, its amount and direction."""
    props = scene.gltf_physics
    return (props.use_world_gravity, props.world_gravity_amount,
            *props.world_gravity_direction)


def test_an_import_replacing_the_scenes_own_world_gravity_says_so(clean_scene, tmp_path: Path,
                                                                    caplog) -> None:
    _level(clean_scene, 1.62)  # a moon level
    prop = _prop_file(tmp_path, {"gravity": 0.0})  # a space prop
    log = _import_logged(prop, caplog)
    assert _world(clean_scene) == pytest.approx((True, 0.0, 0.0, 0.0, -1.0))  # written
    said = [line for line in log if "[world-gravity-replaced]" in line]
    assert said == [
        "gltf_physics: /extensions/OMI_physics_gravity: the scene's world gravity 1.62 m/s² "
        "along (0, 0, -1) replaced by the file's 0 m/s² along (0, 0, -1); set it back in "
        f"{PLACE} [world-gravity-replaced]"]
    assert reported_codes(log)["world-gravity-replaced"] == 1
    assert any("physics problem (world-gravity-replaced)" in line for line in log)  # operator
    assert [line for line in _import_logged(prop, caplog) if "world-gravity" in line] == []


def test_a_file_stating_the_default_keeps_the_scenes_own(clean_scene, tmp_path: Path,
                                                         caplog) -> None:
    _level(clean_scene, 1.62)
    log = _import_logged(_prop_file(tmp_path, {"gravity": 9.80665}), caplog)
    assert _world(clean_scene) == pytest.approx((True, 1.62, 0.0, 0.0, -1.0))
    assert [line for line in log if "world-gravity" in line] == [
        "gltf_physics: /extensions/OMI_physics_gravity: the file's world gravity is the default "
        "(9.807 m/s² along (0, 0, -1)): the scene's own, 1.62 m/s² along (0, 0, -1), kept "
        f"({PLACE}) [world-gravity-kept]"]
    assert reported_codes([line for line in log if "physics problem" in line]) == {}


@pytest.mark.parametrize("ticked", [False, True], ids=["unset", "default"])
def test_a_scene_at_the_default_takes_the_files_world_gravity_silently(
        clean_scene, tmp_path: Path, caplog, ticked: bool) -> None:
    clean_scene.gltf_physics.use_world_gravity = ticked  # unset, or set to the default
    log = _import_logged(_prop_file(tmp_path, {"gravity": 3.5, "direction": [1, 0, 0]}), caplog)
    assert _world(clean_scene) == pytest.approx((True, 3.5, 1.0, 0.0, 0.0))
    assert [line for line in log if "world-gravity" in line] == []


def _instancer(name: str, kit: bpy.types.Collection, collection: bpy.types.Collection,
               x: float) -> bpy.types.Object:
    obj = bpy.data.objects.new(name, None)
    obj.instance_type, obj.instance_collection = "COLLECTION", kit
    obj.location = (x, 0.0, 0.0)
    collection.objects.link(obj)
    return obj


def test_preview_names_the_volumes_of_instanced_collections(clean_scene, helpers) -> None:
    box = helpers.mesh_object("Crate", location=(0.0, 0.0, 5.0))
    helpers.set_physics(box, motion_type="DYNAMIC", shape_type="BOX")
    _trigger("Local", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    kit = bpy.data.collections.new("PlanetKit")  # in no scene: reached only by instances
    well = _trigger("KitWell", "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1))
    clean_scene.collection.objects.unlink(well)
    kit.objects.link(well)
    for i in range(2):
        _instancer(f"Planet{i}", kit, clean_scene.collection, 20.0 * (i + 1))
    system = bpy.data.collections.new("System")  # a kit instanced inside another, nested
    _instancer("Inner", kit, system, 0.0)
    _instancer("Outer", system, clean_scene.collection, -50.0)
    bpy.context.view_layer.update()
    assert gravity_preview.unpreviewed_volumes(clean_scene) == ["KitWell ×3", "Local"]
    assert gravity_preview.preview_note(clean_scene).endswith(": KitWell ×3, Local")
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    bpy.ops.gltf_physics.preview_remove()


def test_khr_names_an_instanced_volume_once_with_its_count(clean_scene, tmp_path: Path,
                                                          caplog) -> None:
    kit = bpy.data.collections.new("Kit")
    for name in ("Well", "Ramp"):
        obj = _trigger(name, "POINT", (0, 0, 0), (0, 0, 0), (1, 1, 1))
        clean_scene.collection.objects.unlink(obj)
        kit.objects.link(obj)
    for i in range(3):
        _instancer(f"Kit{i}", kit, clean_scene.collection, 60.0 * i)
    log = export_logged(tmp_path / "khr.gltf", "KHR", caplog)
    assert_valid(tmp_path / "khr.gltf")
    said = [line for line in log if "[khr-no-gravity]" in line]
    assert len(said) == 1 and reported_codes(log)["khr-no-gravity"] == 1
    assert said[0].count("point volume on node Well") == 1
    assert said[0].count("point volume on node Ramp") == 1
    assert said[0].count(" ×3") == 2
