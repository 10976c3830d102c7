# SPDX-License-Identifier: GPL-3.0-or-later
"""Importing into a level whose collision layers are already used: a filter ticks layers by
number, so a layer the import adds, a scene sharing the imported objects, or a full layer
list changes what ticks mean. The import changes none of the user's objects, and says once
(naming the objects) what its layers did."""

import json
import re

import bpy
import pytest

from tests.integration import scene_helpers as h

ALL = 32


def _ticks(*indices: int) -> list[bool]:
    return [i in indices for i in range(ALL)]


def _asset(path, filters: list[dict], nodes: list[tuple[str, int]]):
    """A KHR file of sphere colliders, node `name` using filter `index` of `filters`."""
    path.write_text(json.dumps({
        "asset": {"version": "2.0"}, "scene": 0,
        "scenes": [{"nodes": list(range(len(nodes)))}],
        "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            "KHR_physics_rigid_bodies": {"collisionFilters": filters}},
        "nodes": [{"name": name, "translation": [2.0 * i, 0, 0], "extensions": {
            "KHR_physics_rigid_bodies": {"collider": {"geometry": {"shape": 0},
                                                      "collisionFilter": index}}}}
                  for i, (name, index) in enumerate(nodes)],
    }))
    return path


def _import(path, caplog) -> dict[str, list[str]]:
    """Import `path`; the physics lines logged, by code."""
    caplog.clear()
    with caplog.at_level("INFO"):
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    said: dict[str, list[str]] = {}
    for record in caplog.records:
        line = re.match(r"gltf_physics: (.*) \[([\w-]+)\]$", record.getMessage())
        if line:
            said.setdefault(line[2], []).append(line[1])
    return said


def _names_ticked(obj, scene, name="filter_layers") -> list[str]:
    layers = [layer.name for layer in scene.gltf_physics.layers]
    return [layers[i] for i, on in enumerate(getattr(obj.gltf_physics, name))
            if on and i < len(layers)]


def _filtered(name: str, layers: list[bool], targets: list[bool] | None = None):
    obj = h.mesh_object(name, size=0.3)
    return h.set_physics(obj, motion_type="KINEMATIC", shape_type="SPHERE", use_filter=True,
                         filter_layers=layers, filter_mode="ONLY" if targets else "ALL",
                         filter_targets=targets or _ticks())


PICKUPS = [{"collisionSystems": ["Pickups"], "collideWithSystems": ["Players"]}]


# -- 1. a new layer, whose slot the user's objects tick already --------------------------------


def _level_with_stale_ticks(scene):
    """Layers Walls, Props, Players; Coin (and KitCoin, placed by a collection instance)
    tick slot 3, a fourth layer they came with; Off ticks it with its filter off."""
    for name in ("Walls", "Props", "Players"):
        scene.gltf_physics.layers.add().name = name
    _filtered("Coin", _ticks(3), _ticks(2))
    kit = bpy.data.collections.new("Kit")
    kit.objects.link(_filtered("KitCoin", _ticks(0), _ticks(3)))
    scene.collection.objects.unlink(bpy.data.objects["KitCoin"])
    placer = bpy.data.objects.new("KitPlacer", None)
    placer.instance_type, placer.instance_collection = "COLLECTION", kit
    scene.collection.objects.link(placer)
    h.set_physics(_filtered("Off", _ticks(3)), use_filter=False)


def test_a_new_layer_keeps_the_ticks_already_on_its_slot_and_names_their_objects(
        clean_scene, tmp_path, caplog):
    _level_with_stale_ticks(clean_scene)
    said = _import(_asset(tmp_path / "pickups.gltf", PICKUPS, [("Gem", 0), ("Gem2", 0)]),
                   caplog)
    layers = [layer.name for layer in clean_scene.gltf_physics.layers]
    assert layers == ["Walls", "Props", "Players", "Pickups"]
    coin, kit_coin = bpy.data.objects["Coin"].gltf_physics, bpy.data.objects["KitCoin"]
    assert list(coin.filter_layers) == _ticks(3) and list(coin.filter_targets) == _ticks(2)
    assert list(kit_coin.gltf_physics.filter_targets) == _ticks(3)
    assert _names_ticked(bpy.data.objects["Gem"], clean_scene) == ["Pickups"]
    [line] = said["layer-already-ticked"]
    assert "layer 4 Pickups of scene Scene by Coin, KitCoin" in line
    assert "Gem" not in line and "Off" not in line


def test_no_new_layer_or_no_tick_on_its_slot_says_nothing(clean_scene, tmp_path, caplog):
    _level_with_stale_ticks(clean_scene)
    clean_scene.gltf_physics.layers.add().name = "Pickups"  # (matched: nothing appended)
    said = _import(_asset(tmp_path / "pickups.gltf", PICKUPS, [("Gem", 0)]), caplog)
    assert "layer-already-ticked" not in said
    bpy.ops.wm.read_homefile(use_empty=True)
    for name in ("Walls", "Props", "Players"):
        bpy.context.scene.gltf_physics.layers.add().name = name
    _filtered("Rock", _ticks(0), _ticks(1))
    said = _import(_asset(tmp_path / "pickups.gltf", PICKUPS, [("Gem", 0)]), caplog)
    assert "layer-already-ticked" not in said


# -- 2. a collection shared with a scene of other layers ------------------------------------


def _shared_collection(level_layers: list[str], sandbox_layers: list[str]):
    """Scene Level and scene Sandbox, both showing collection Props (active in Level)."""
    level = bpy.context.scene
    level.name = "Level"
    for name in level_layers:
        level.gltf_physics.layers.add().name = name
    props = bpy.data.collections.new("Props")
    level.collection.children.link(props)
    sandbox = bpy.data.scenes.new("Sandbox")
    for name in sandbox_layers:
        sandbox.gltf_physics.layers.add().name = name
    sandbox.collection.children.link(props)
    view_layer = bpy.context.view_layer
    view_layer.active_layer_collection = view_layer.layer_collection.children["Props"]
    return level, sandbox


SHARED = [{"collisionSystems": ["Props"], "collideWithSystems": ["Props", "Pickups"]},
          {"collisionSystems": ["Walls"]}]


def _in_both(name: str, sandbox) -> None:
    if sandbox not in bpy.data.objects[name].users_scene:
        pytest.skip("this Blender's glTF importer ignores the active collection")


def test_imported_filters_in_a_scene_of_other_layers_are_named(clean_scene, tmp_path, caplog):
    level, sandbox = _shared_collection(["Walls", "Props"], ["Walls", "Lava", "Wind"])
    said = _import(_asset(tmp_path / "shared.gltf", SHARED, [("Gem", 0), ("Brick", 1)]),
                   caplog)
    _in_both("Gem", sandbox)
    assert [layer.name for layer in sandbox.gltf_physics.layers] == ["Walls", "Lava", "Wind"]
    assert _names_ticked(bpy.data.objects["Gem"], level, "filter_targets") == ["Props",
                                                                               "Pickups"]
    [line] = said["layers-differ-in-scene"]
    assert line.startswith("Sandbox: ")
    assert "layer 2 is Lava there (Props in Level), layer 3 is Wind there (Pickups in " \
        "Level): Gem;" in line
    assert "Brick" not in line  # (its Walls is layer 1 in both)


def test_a_scene_lacking_the_layers_is_left_as_it_is_and_named(clean_scene, tmp_path, caplog):
    """Sandbox's list is the start of Level's: the import changes only the scene it imports
    into, so Sandbox keeps its one layer, and the shared objects' ticks there are named."""
    level, sandbox = _shared_collection(["Walls", "Props"], ["Walls"])
    said = _import(_asset(tmp_path / "shared.gltf", SHARED, [("Gem", 0), ("Brick", 1)]),
                   caplog)
    _in_both("Gem", sandbox)
    assert [layer.name for layer in level.gltf_physics.layers] == ["Walls", "Props", "Pickups"]
    assert [layer.name for layer in sandbox.gltf_physics.layers] == ["Walls"]
    [differ] = said["layers-differ-in-scene"]
    assert differ.endswith("in scene Sandbox, layer 2 is missing there (Props in Level), layer 3 "
                           "is missing there (Pickups in Level): Gem; give the scene the same "
                           "layers in the same order, or keep the objects out of it")


# -- 3. a full layer list --------------------------------------------------------------------


def test_systems_dropped_from_a_full_list_name_their_objects_and_meaning(clean_scene, tmp_path,
                                                                         caplog):
    for number in range(31):
        clean_scene.gltf_physics.layers.add().name = f"User{number}"
    filters = [{"collisionSystems": ["New0", "New1"], "collideWithSystems": ["New0", "New1"]},
               {"collisionSystems": ["New1"], "collideWithSystems": ["New1"]},
               {"collisionSystems": ["New0"], "collideWithSystems": ["New0"]}]
    said = _import(_asset(tmp_path / "full.gltf", filters,
                          [("Ground", 0), ("Blue", 1), ("Blue2", 1), ("Green", 2)]), caplog)
    assert len(clean_scene.gltf_physics.layers) == ALL
    blue = bpy.data.objects["Blue"].gltf_physics
    assert blue.filter_mode == "ONLY" and not any(blue.filter_targets)
    [line] = said["too-many-layers"]
    assert line.startswith("New1: more than 32 layers; dropped from the collision filters: "
                           "New1 from Blue, Blue2, Ground.")
    assert "Now colliding with every layer, as their 'Collides Only/Except With' named only " \
        "dropped systems: Blue, Blue2." in line
    assert line.endswith("Now in no layer: Blue, Blue2")
    assert "Green" not in line
