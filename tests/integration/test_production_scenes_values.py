# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 23, items 5 and 6 on scenes built here: values a file says come back unchanged
(Blender import and the converter agree), layer names stay unique, Copy Physics never copies
links to other objects, Fixes keep what the user sees, every data-changing operator is
undoable, and the batch exporter never overwrites one .blend's output with another's."""

import copy
import json
import math
from pathlib import Path

import bpy
import pytest

from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from tests.integration import scene_helpers as h
from tests.support.schemas import load_gltf

FORMATS = ("KHR", "OMI")
TINY_MASS = 0.0005  # kg; the KHR schema asks only > 0 (imported as 0.001 before)
TINY_INERTIA = [4e-8, 5e-8, 6e-8]  # kg·m² (imported as 1e-6 before)
GYRO = [-100.0, 250.0, -3.5]  # N·m/rad; the schema has no minimum
SEAT_ANGLE = 3.5  # rad, above π; the schema has no maximum


def _node(gltf: dict, name: str) -> dict:
    return next(n for n in gltf["nodes"] if n.get("name") == name)


def _body(gltf: dict, name: str, fmt: str) -> dict:
    return _node(gltf, name)["extensions"][
        "KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"]


def _values(gltf: dict, fmt: str) -> dict:
    """The values this module sets, read from a document."""
    motion = _body(gltf, "Car", fmt)["motion"]
    vehicle = _node(gltf, "Car")["extensions"]["OMI_vehicle_body"]
    seat = _node(gltf, "DriverSeat")["extensions"]["OMI_seat"]
    return {"mass": motion["mass"], "inertia": motion["inertiaDiagonal"],
            "gyro": vehicle["gyroTorque"], "angle": seat["angle"]}


def _file_with_schema_edge_values(tmp_path: Path, fmt: str) -> Path:
    """A car exported by the add-on, then edited as another tool may write it: a tiny mass
    and inertia, a negative gyro torque and a seat angle above π (all schema-valid)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    objs = h.build_car()
    h.set_physics(objs["Car"], mass_mode="VALUE", inertia_mode="CUSTOM")
    exported = tmp_path / f"car_{fmt}.gltf"
    gltf = h.export(exported, fmt)
    motion = _body(gltf, "Car", fmt)["motion"]
    motion["mass"] = TINY_MASS
    motion["inertiaDiagonal"] = TINY_INERTIA
    _node(gltf, "Car")["extensions"]["OMI_vehicle_body"]["gyroTorque"] = GYRO
    _node(gltf, "DriverSeat")["extensions"]["OMI_seat"]["angle"] = SEAT_ANGLE
    edited = tmp_path / f"edge_{fmt}.gltf"
    edited.write_text(json.dumps(gltf))
    h.assert_valid(edited)
    return edited


def _expected() -> dict:
    return {"mass": TINY_MASS, "inertia": TINY_INERTIA, "gyro": GYRO, "angle": SEAT_ANGLE}


def _assert_same(values: dict) -> None:
    expected = _expected()
    assert values.keys() == expected.keys()
    for key, value in expected.items():
        assert values[key] == pytest.approx(value, rel=1e-6), key


@pytest.mark.parametrize("fmt", FORMATS)
def test_schema_valid_values_survive_blender_import_and_export(clean_scene, tmp_path, fmt):
    edited = _file_with_schema_edge_values(tmp_path, fmt)
    h.import_file(edited)
    car = bpy.data.objects["Car"].gltf_physics
    assert car.mass == pytest.approx(TINY_MASS, rel=1e-6)
    blender_inertia = (TINY_INERTIA[0], TINY_INERTIA[2], TINY_INERTIA[1])  # glTF Y up
    assert tuple(car.inertia_diagonal) == pytest.approx(blender_inertia, rel=1e-6)
    assert bpy.data.objects["DriverSeat"].gltf_physics.seat_angle == pytest.approx(SEAT_ANGLE)
    assert min(car.vehicle_gyro_torque) < 0
    out = tmp_path / f"again_{fmt}.gltf"
    _assert_same(_values(h.export(out, fmt), fmt))
    h.assert_valid(out)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("target", FORMATS)
def test_the_converter_keeps_the_same_values(clean_scene, tmp_path, fmt, target):
    edited = _file_with_schema_edge_values(tmp_path, fmt)
    source = load_gltf(edited)
    report = Report()
    out = convert_document(copy.deepcopy(source), target, report=report,
                           base_dir=edited.parent)
    assert not {"value-clamped", "value-defaulted", "out-of-range"} & set(report.codes())
    _assert_same(_values(out, target))
    path = tmp_path / f"converted_{fmt}_{target}.gltf"
    path.write_text(json.dumps(out))
    h.assert_valid(path)


def test_slider_bounds_are_soft_and_schema_bounds_hard(clean_scene):
    rna = bpy.types.Object.bl_rna.properties["gltf_physics"].fixed_type.properties
    def bounds(name: str) -> tuple[float, float, float, float]:
        prop = rna[name]
        return prop.hard_min, prop.soft_min, prop.soft_max, prop.hard_max

    mass, inertia = bounds("mass"), bounds("inertia_diagonal")
    assert 0 < mass[0] < 1e-30 and mass[1] == pytest.approx(0.001)
    assert 0 < inertia[0] < 1e-30 and inertia[1] == pytest.approx(1e-6)
    gyro, angle = bounds("vehicle_gyro_torque"), bounds("seat_angle")
    radius = bounds("wheel_radius")
    assert gyro[0] < -1e30 and gyro[1] == 0
    assert angle[3] > 1e30 and angle[2] == pytest.approx(math.pi)
    assert 0 < radius[0] < 1e-30 and radius[1] == pytest.approx(1e-4)


# -- layers ------------------------------------------------------------------------------------


def _layer_names(scene=None) -> list[str]:
    return [layer.name for layer in (scene or bpy.context.scene).gltf_physics.layers]


def test_removing_then_adding_a_layer_never_repeats_a_name(clean_scene):
    for _ in range(3):
        assert bpy.ops.gltf_physics.layer_add() == {"FINISHED"}
    assert _layer_names() == ["Layer 1", "Layer 2", "Layer 3"]
    clean_scene.gltf_physics.active_layer = 0
    assert bpy.ops.gltf_physics.layer_remove() == {"FINISHED"}
    assert bpy.ops.gltf_physics.layer_add() == {"FINISHED"}
    names = _layer_names()
    assert len(set(names)) == len(names) == 3, names
    assert bpy.ops.gltf_physics.layer_add(name="Layer 2") == {"FINISHED"}
    assert _layer_names()[-1] == "Layer 2.001"


def test_renaming_a_layer_to_another_layers_name_keeps_both(clean_scene):
    layers = clean_scene.gltf_physics.layers
    for name in ("Player", "Enemy", "Water"):
        layers.add().name = name
    layers[2].name = "Enemy"
    assert _layer_names() == ["Player", "Enemy", "Enemy.001"]
    layers[2].name = "Enemy"  # again: still distinct
    assert _layer_names() == ["Player", "Enemy", "Enemy.001"]
    layers[1].name = "Enemy"  # its own name: unchanged
    assert _layer_names() == ["Player", "Enemy", "Enemy.001"]
    other = bpy.data.scenes.new("Other")  # another scene's layers are its own
    other.gltf_physics.layers.add().name = "Enemy"
    assert _layer_names(other) == ["Enemy"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_distinct_layers_stay_distinct_in_the_file_and_on_import(clean_scene, tmp_path, fmt):
    for _ in range(3):
        bpy.ops.gltf_physics.layer_add()
    clean_scene.gltf_physics.active_layer = 0
    bpy.ops.gltf_physics.layer_remove()
    bpy.ops.gltf_physics.layer_add()  # before the fix: a second "Layer 3"
    names = _layer_names()
    bits = [i == 2 for i in range(32)]
    not_bits = [i == 1 for i in range(32)]
    box = h.set_physics(h.mesh_object("Box"), motion_type="DYNAMIC", shape_type="BOX",
                        use_filter=True, filter_layers=bits, filter_mode="EXCEPT",
                        filter_targets=not_bits)
    assert box.gltf_physics.filter_layers[2]
    path = tmp_path / f"layers_{fmt}.gltf"
    gltf = h.export(path, fmt)
    h.assert_valid(path)
    ext = "KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"
    (flt,) = gltf["extensions"][ext]["collisionFilters"]
    assert flt["collisionSystems"] == [names[2]]
    assert flt["notCollideWithSystems"] == [names[1]]
    assert names[1] != names[2]
    h.import_file(path)
    imported = _layer_names()
    assert len(set(imported)) == len(imported) and set(imported) == {names[1], names[2]}
    props = bpy.data.objects["Box"].gltf_physics
    member = [imported[i] for i, on in enumerate(props.filter_layers) if on]
    target = [imported[i] for i, on in enumerate(props.filter_targets) if on]
    assert (member, target) == ([names[2]], [names[1]])


def test_import_into_a_scene_with_layers_keeps_names_unique(clean_scene, tmp_path):
    layers = clean_scene.gltf_physics.layers
    layers.add().name = "Player"
    box = h.set_physics(h.mesh_object("Box"), motion_type="DYNAMIC", shape_type="BOX",
                        use_filter=True, filter_layers=[i == 0 for i in range(32)])
    assert box.gltf_physics.use_filter
    path = tmp_path / "player.gltf"
    h.export(path, "KHR")
    layers.add().name = "Enemy"
    bpy.ops.import_scene.gltf(filepath=str(path))  # into this scene: "Player" is reused
    assert _layer_names() == ["Player", "Enemy"]
