# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicles in Blender: the Add Wheels tool, export in both formats, corpus imports."""

from pathlib import Path

import bpy
import pytest

from tests.conftest import CORPUS
from tests.integration import scene_helpers as h

PARTS = {"OMI_vehicle_wheel": "wheel", "OMI_vehicle_thruster": "thruster",
         "OMI_vehicle_hover_thruster": "hoverThruster"}
KINDS = {"OMI_vehicle_wheel": "WHEEL", "OMI_vehicle_thruster": "THRUSTER",
         "OMI_vehicle_hover_thruster": "HOVER_THRUSTER"}


def named(gltf: dict, name: str) -> dict:
    return next(n for n in gltf["nodes"] if n.get("name") == name)


def test_add_wheels_makes_a_front_steering_rear_drive_car(clean_scene):
    objs = h.build_car()
    car = objs["Car"]
    wheels = [o for o in car.children if o.gltf_physics.vehicle_part == "WHEEL"]
    assert len(wheels) == 4 and car.gltf_physics.is_vehicle
    front = [w for w in wheels if w.location.y < 0]
    rear = [w for w in wheels if w.location.y > 0]
    assert len(front) == len(rear) == 2
    assert all(w.gltf_physics.wheel_max_steering_angle > 0 for w in front)
    assert all(w.gltf_physics.wheel_max_propulsion_force == 0 for w in front)
    assert all(w.gltf_physics.wheel_max_propulsion_force > 0 for w in rear)
    assert all(w.gltf_physics.wheel_max_steering_angle == 0 for w in rear)
    bpy.context.view_layer.update()
    assert {tuple(round(s, 3) for s in w.matrix_world.to_scale()) for w in wheels} == {(1, 1, 1)}
    local = [car.matrix_world.inverted() @ w.matrix_world.translation for w in wheels]
    assert {round(abs(p.x), 3) for p in local} == {1.0}  # at the sides of the body
    assert {round(p.z, 3) for p in local} == {-0.5}  # a radius above the bottom (z −1 local)
    assert {round(w.gltf_physics.wheel_radius, 3) for w in wheels} == {0.25}


@pytest.mark.parametrize("scale", [(-1, 1, 1), (-2, 3, 1)], ids=["mirrored", "mirrored-scaled"])
def test_add_wheels_on_a_mirrored_car(clean_scene, scale):
    """A car mirrored in X (negative scale): the wheels sit a radius above its bottom, at
    its sides, steer at the front (a reflection had swapped every bound: wheels of radius
    0.05 on the roof, steering at the back)."""
    car = h.set_physics(h.mesh_object("Car", location=(0, 0, 10)), motion_type="DYNAMIC",
                        shape_type="BOX")
    car.scale = scale
    bpy.context.view_layer.update()
    for obj in bpy.data.objects:
        obj.select_set(obj == car)
    bpy.context.view_layer.objects.active = car
    assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    bpy.context.view_layer.update()
    wheels = [o for o in car.children if o.gltf_physics.vehicle_part == "WHEEL"]
    assert {round(w.gltf_physics.wheel_radius, 3) for w in wheels} == {0.25}
    bottom = 10 - abs(scale[2]) / 2
    assert {round(w.matrix_world.translation.z, 3) for w in wheels} == {bottom + 0.25}
    assert {round(abs(w.matrix_world.translation.x), 3) for w in wheels} == {abs(scale[0]) / 2}
    front = [w for w in wheels if w.gltf_physics.wheel_max_steering_angle > 0]
    assert len(front) == 2 and all(w.matrix_world.translation.y < 0 for w in front)


def test_add_wheels_at_selected_empties(clean_scene):
    car = h.set_physics(h.mesh_object("Kart"), motion_type="DYNAMIC", shape_type="BOX")
    markers = [h.empty_object(f"M{i}", (x, y, 0)) for i, (x, y) in
               enumerate(((-1, -1), (1, -1), (0, 1)))]
    for obj in bpy.data.objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = car
    assert bpy.ops.gltf_physics.wheels_add(radius=0.3) == {"FINISHED"}
    wheels = [o for o in car.children if o.gltf_physics.vehicle_part == "WHEEL"]
    assert sorted((round(w.location.x, 3), round(w.location.y, 3)) for w in wheels) == [
        (-1, -1), (0, 1), (1, -1)]
    assert all(m.gltf_physics.vehicle_part == "NONE" for m in markers)


@pytest.mark.parametrize("fmt", ["OMI", "KHR"])
def test_car_exports_with_wheels_seat_and_colliders(clean_scene, tmp_path, fmt):
    h.build_car()
    gltf = h.export(tmp_path / "car.gltf", fmt)
    h.assert_valid(tmp_path / "car.gltf")
    car = named(gltf, "Car")
    body = car["extensions"]["OMI_vehicle_body"]
    assert gltf["nodes"][body["pilotSeat"]]["name"] == "DriverSeat"
    assert "OMI_seat" in gltf["nodes"][body["pilotSeat"]]["extensions"]
    assert body["linearDampeners"] is True and body["maxSpeed"] == 30.0
    assert body["gyroTorque"] == [100.0, 300.0, 200.0]  # Blender (x, y, z) → glTF (x, z, y)
    wheel_nodes = [n for n in gltf["nodes"] if "OMI_vehicle_wheel" in n.get("extensions", {})]
    assert len(wheel_nodes) == 4
    assert all(gltf["nodes"].index(n) in car["children"] for n in wheel_nodes)
    wheels = gltf["extensions"]["OMI_vehicle_wheel"]["wheels"]
    assert len(wheels) == 2  # front and rear settings, each shared by two wheels
    physics = "OMI_physics_body" if fmt == "OMI" else "KHR_physics_rigid_bodies"
    materials = gltf["extensions"][physics]["physicsMaterials"]
    assert materials[wheels[0]["physicsMaterial"]]["staticFriction"] == pytest.approx(1.2)
    assert physics in car["extensions"]  # the car is a body with its collider
    seat = gltf["nodes"][body["pilotSeat"]]["extensions"]["OMI_seat"]
    assert seat["back"] == pytest.approx([0.0, 0.0, -0.25])  # Blender +Y is glTF −Z


@pytest.mark.parametrize("fmt", ["OMI", "KHR"])
def test_car_round_trip_is_exact(clean_scene, tmp_path, fmt):
    h.build_car()
    first = h.export(tmp_path / "first.gltf", fmt)
    h.assert_valid(tmp_path / "first.gltf")
    h.import_file(tmp_path / "first.gltf")
    car = bpy.data.objects["Car"].gltf_physics
    assert car.is_vehicle and car.vehicle_pilot_seat.name == "DriverSeat"
    second = h.export(tmp_path / "second.gltf", fmt)
    h.assert_valid(tmp_path / "second.gltf")
    assert h.physics_subtree(second) == h.physics_subtree(first)


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    patterns = ("omi/current/OMI_vehicle_*/*.gltf", "omi/current/OMI_seat/*.gltf",
                "omi/legacy/2025-12_vehicle_current_names/*/*.gltf")
    return sorted(p for pattern in patterns for p in CORPUS.glob(pattern))


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_vehicle_file_imports_and_round_trips(clean_scene, tmp_path, path):
    raw = h.load_gltf(path)
    expected = {ext: sum(ext in n.get("extensions", {}) for n in raw["nodes"])
                for ext in (*PARTS, "OMI_seat", "OMI_vehicle_body")}
    h.import_file(path)
    objs = list(bpy.data.objects)
    for ext, kind in KINDS.items():
        assert sum(o.gltf_physics.vehicle_part == kind for o in objs) == expected[ext]
    assert sum(o.gltf_physics.is_seat for o in objs) == expected["OMI_seat"]
    assert sum(o.gltf_physics.is_vehicle for o in objs) == expected["OMI_vehicle_body"]
    first = h.export(tmp_path / "first.gltf", "OMI")
    h.assert_valid(tmp_path / "first.gltf")
    for ext in expected:
        assert sum(ext in n.get("extensions", {}) for n in first["nodes"]) == expected[ext]
    h.import_file(tmp_path / "first.gltf")
    second = h.export(tmp_path / "second.gltf", "OMI")
    assert h.physics_subtree(second) == h.physics_subtree(first)
    h.export(tmp_path / "khr.gltf", "KHR")
    h.assert_valid(tmp_path / "khr.gltf")
