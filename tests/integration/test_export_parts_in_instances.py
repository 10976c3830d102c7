# SPDX-License-Identifier: GPL-3.0-or-later
"""Export parts that were written displaced or dropped without a word: vehicle parts and
seats on collection instancers of an offset collection, pilot seats the car's scope does not
have (in the instancer's own kit, in a kit nested in the car's kit, left out of the export),
gravity on an object without a trigger, and the world gravity of a second exported scene."""

import logging
from pathlib import Path

import bpy
import pytest
from mathutils import Vector

from tests.integration import scene_helpers as h
from tests.integration.test_production_scenes_export import (
    FORMATS,
    ancestors,
    indices,
    instancer,
    into_collection,
    world,
)

OFFSET = "instance-offset-physics"
UNRESOLVED = "pilot-seat-unresolved"


def said(caplog, code: str) -> list[str]:
    """The export's physics report lines of issue `code`."""
    return [r.getMessage() for r in caplog.records if r.getMessage().endswith(f"[{code}]")]


def export_logged(path: Path, fmt: str, caplog, **options) -> dict:
    """Export (its log in `caplog`), checked against the schemas and glTF-Validator."""
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(path, fmt, **options)
    h.assert_valid(path)
    return gltf


def to_gltf(v) -> Vector:
    return Vector((v[0], v[2], -v[1]))


def vehicle_body(gltf: dict, index: int) -> dict:
    return gltf["nodes"][index]["extensions"]["OMI_vehicle_body"]


# -- 1. vehicle parts and seats on an instancer of an offset collection ------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_parts_and_seats_on_offset_instancers_are_said_and_seat_points_stay(
        clean_scene, tmp_path, fmt, caplog):
    """Wheels and a seat set on Empties instancing kits with an Instance Offset: the
    exporter moves their nodes by it. Each wheel is said; the seat's points are moved back
    (they stay where the seat is in Blender) and the moved seat node is said. A vehicle body
    on such an Empty (its shape is moved back) says nothing."""
    wheel_kit = bpy.data.collections.new("WheelKit")
    into_collection([h.mesh_object("WheelMesh", "cube", (2.0, 0.0, 0.3), size=0.6)], wheel_kit)
    wheel_kit.instance_offset = (2.0, 0.0, 0.3)
    car = h.set_physics(h.mesh_object("Car", "cube", (0, 0, 1)), motion_type="DYNAMIC",
                        shape_type="BOX", is_vehicle=True, mass=800)
    wheels = []
    for i, (x, y) in enumerate(((-1, -1), (1, -1))):
        wheel = instancer(f"Wheel{i}", wheel_kit, (x, y, -0.5))
        wheel.parent = car
        wheels.append(h.set_physics(wheel, vehicle_part="WHEEL", wheel_radius=0.3))
    thruster = h.set_physics(instancer("Jet", wheel_kit, (0, 1, 0)), vehicle_part="THRUSTER")
    thruster.parent = car
    seat_kit = bpy.data.collections.new("SeatKit")
    into_collection([h.mesh_object("SeatMesh", "cube", (0, 3, 0), size=0.5)], seat_kit)
    seat_kit.instance_offset = (0.0, 3.0, 0.0)
    seat = h.set_physics(instancer("Seat", seat_kit, (0, 0, 0.5)), is_seat=True,
                         seat_back=(0.1, 0.2, -0.25), seat_knee=(0.0, -0.3, 0.45))
    seat.parent = car
    car.gltf_physics.vehicle_pilot_seat = seat
    hull_kit = bpy.data.collections.new("HullKit")
    into_collection([h.mesh_object("HullMesh", "cube", (0, 0, 4))], hull_kit)
    hull_kit.instance_offset = (0.0, 0.0, 4.0)
    h.set_physics(instancer("Hover", hull_kit, (20, 0, 1)), motion_type="DYNAMIC",
                  shape_type="BOX", size_mode="CUSTOM", is_vehicle=True, mass=100)
    bpy.context.view_layer.update()
    gltf = export_logged(tmp_path / "offset_parts.gltf", fmt, caplog)
    lines = said(caplog, OFFSET)
    for name, part in (("Wheel0", "wheel"), ("Wheel1", "wheel"), ("Jet", "thruster"),
                       ("Seat", "seat")):
        mine = [line for line in lines if line.startswith(f"gltf_physics: {name}: ")]
        assert len(mine) == 1 and part in mine[0], (name, lines)
    assert len(lines) == 4, lines  # the Hover body says nothing
    node = indices(gltf, "Seat")[0]
    written = gltf["nodes"][node]["extensions"]["OMI_seat"]
    placed = world(gltf, node)
    for key, prop in (("back", "seat_back"), ("foot", "seat_foot"), ("knee", "seat_knee")):
        expected = to_gltf(seat.matrix_world @ Vector(getattr(seat.gltf_physics, prop)))
        assert ((placed @ Vector(written[key])) - expected).length < 1e-5, key
    assert vehicle_body(gltf, indices(gltf, "Car")[0])["pilotSeat"] == node


# -- 2. pilot seats the car's own scope does not have ------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_car_instancer_finds_the_seat_in_its_own_kit(clean_scene, tmp_path, fmt, caplog):
    """The car body is the Empty instancing the car kit, its pilot seat an object of the
    kit: each car's seat is the copy in its own instance."""
    kit = bpy.data.collections.new("CarKit")
    chassis = h.set_physics(h.mesh_object("Chassis", "cube", (0, 0, 1)), shape_type="BOX")
    seat = h.set_physics(h.empty_object("Seat", (0, 0, 1.5)), is_seat=True)
    into_collection([chassis, seat], kit)
    cars = [h.set_physics(instancer(name, kit, (x, 0, 0)), motion_type="DYNAMIC",
                          is_vehicle=True, mass=500, vehicle_pilot_seat=seat)
            for name, x in (("CarA", 0.0), ("CarB", 10.0))]
    gltf = export_logged(tmp_path / "car_kit.gltf", fmt, caplog)
    assert said(caplog, UNRESOLVED) == []
    seats = set()
    for car in cars:
        node = indices(gltf, car.name)[0]
        pilot = vehicle_body(gltf, node)["pilotSeat"]
        assert gltf["nodes"][pilot]["name"] == "Seat"
        assert node in ancestors(gltf, pilot), "another instance's seat"
        seats.add(pilot)
    assert len(seats) == 2


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kits_in_scene", [False, True])
def test_a_seat_from_a_kit_nested_in_the_car_kit_is_found(clean_scene, tmp_path, fmt, caplog,
                                                          kits_in_scene):
    """A car kit whose pilot seat comes from a seat kit instanced inside it (a chair asset
    reused in every vehicle), the car kit instanced twice: each car has its own chair's
    seat. Also with both kits linked into the scene and excluded (the usual layout, which
    the exporter writes at the top level too): each car took that top-level seat."""
    seat_kit = bpy.data.collections.new("SeatKit")
    seat = h.set_physics(h.empty_object("Seat"), is_seat=True)
    into_collection([seat], seat_kit)
    car_kit = bpy.data.collections.new("CarKit")
    car = h.set_physics(h.mesh_object("Car", "cube", (0, 0, 1)), motion_type="DYNAMIC",
                        shape_type="BOX", is_vehicle=True, vehicle_pilot_seat=seat)
    chair = instancer("Chair", seat_kit, (0, 0, 0.5), parent=car_kit)
    chair.parent = car
    into_collection([car], car_kit)
    for name, x in (("CarA", 0.0), ("CarB", 10.0)):
        instancer(name, car_kit, (x, 0, 0))
    if kits_in_scene:
        for kit in (seat_kit, car_kit):
            clean_scene.collection.children.link(kit)
            bpy.context.view_layer.layer_collection.children[kit.name].exclude = True
    gltf = export_logged(tmp_path / "chairs.gltf", fmt, caplog)
    assert said(caplog, UNRESOLVED) == []
    cars = indices(gltf, "Car")
    assert len(cars) == (3 if kits_in_scene else 2)  # (and the kit's own car, at the top)
    pilots = {vehicle_body(gltf, node)["pilotSeat"] for node in cars}
    assert len(pilots) == len(cars)
    for node in cars:
        pilot = vehicle_body(gltf, node)["pilotSeat"]
        assert gltf["nodes"][pilot]["name"] == "Seat" and node in ancestors(gltf, pilot)


def test_two_chairs_under_a_car_are_no_pilot_seat_and_said(clean_scene, tmp_path, caplog):
    """The same seat kit instanced twice under the car: neither chair is the car's own, so
    no pilot seat is written, and that is said."""
    seat_kit = bpy.data.collections.new("SeatKit")
    seat = h.set_physics(h.empty_object("Seat"), is_seat=True)
    into_collection([seat], seat_kit)
    car = h.set_physics(h.mesh_object("Car", "cube", (0, 0, 1)), motion_type="DYNAMIC",
                        shape_type="BOX", is_vehicle=True, vehicle_pilot_seat=seat)
    for name, x in (("ChairL", -0.3), ("ChairR", 0.3)):
        instancer(name, seat_kit, (x, 0, 1.5)).parent = car
    gltf = export_logged(tmp_path / "two_chairs.gltf", "OMI", caplog)
    assert "pilotSeat" not in vehicle_body(gltf, indices(gltf, "Car")[0])
    lines = said(caplog, UNRESOLVED)
    assert len(lines) == 1 and "Car" in lines[0] and "Seat" in lines[0]


def seat_beside_car():
    car = h.set_physics(h.mesh_object("Car", "cube", (0, 0, 1)), motion_type="DYNAMIC",
                        shape_type="BOX", is_vehicle=True)
    seat = h.set_physics(h.empty_object("Seat", (0, 0, 2)), is_seat=True)
    car.gltf_physics.vehicle_pilot_seat = seat
    return car, seat


@pytest.mark.parametrize("case", ["selection", "other-scene"])
def test_a_pilot_seat_left_out_of_the_export_is_said(clean_scene, tmp_path, case, caplog):
    """A pilot seat that is not exported with its car (not selected with Selected Objects,
    or only in the other scene of a two-scene export): the car is written without a pilot
    seat, said once naming the car and the seat."""
    car, seat = seat_beside_car()
    options = {}
    if case == "selection":
        car.select_set(True)
        seat.select_set(False)
        options["use_selection"] = True
    else:
        showroom = bpy.data.scenes.new("Showroom")
        showroom.collection.objects.link(car)  # the car, not its seat
        options["use_active_scene"] = False
    gltf = export_logged(tmp_path / f"{case}.gltf", "OMI", caplog, **options)
    bodies = [vehicle_body(gltf, node) for node in indices(gltf, "Car")]
    assert len(bodies) == (2 if case == "other-scene" else 1)
    assert ["pilotSeat" in body for body in bodies] == \
        ([True, False] if case == "other-scene" else [False])
    lines = said(caplog, UNRESOLVED)
    assert len(lines) == 1 and lines[0].startswith("gltf_physics: Car: ") and "Seat" in lines[0]


# -- 3. gravity on an object without a trigger shape -------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_gravity_on_an_object_without_a_shape_is_said(clean_scene, tmp_path, fmt, caplog):
    """A gravity volume whose object's shape was set back to None (so no trigger, no body):
    not written, reported as one on a collider is (`gravity-not-on-trigger`)."""
    planet = h.set_physics(h.empty_object("Planet"), shape_type="SPHERE", shape_role="TRIGGER",
                           gravity_type="POINT")
    planet.gltf_physics.shape_type = "NONE"
    h.set_physics(h.empty_object("Hinged", (4, 0, 0)), joint_type="FIXED",
                  gravity_type="DIRECTIONAL")  # a joint, no shape: no record either
    gltf = export_logged(tmp_path / "no_trigger.gltf", fmt, caplog)
    assert "OMI_physics_gravity" not in gltf["nodes"][indices(gltf, "Planet")[0]].get(
        "extensions", {})
    lines = said(caplog, "gravity-not-on-trigger")
    assert sorted(line.split(": ")[1] for line in lines) == ["Hinged", "Planet"], lines
    assert all("it has no trigger" in line for line in lines)


def test_gravity_on_an_offset_instancer_without_a_trigger_is_said_once(clean_scene, tmp_path,
                                                                        caplog):
    """Gravity on an Empty instancing an offset kit, with no trigger: it is not written, so
    only that is said (not also "written at the moved node")."""
    kit = bpy.data.collections.new("PlanetKit")
    into_collection([h.mesh_object("Rock", "cube", (0, 0, 5))], kit)
    kit.instance_offset = (0.0, 0.0, 5.0)
    h.set_physics(instancer("Planet", kit, (0, 0, 0)), gravity_type="POINT")
    export_logged(tmp_path / "offset_gravity.gltf", "OMI", caplog)
    assert said(caplog, OFFSET) == []
    assert len(said(caplog, "gravity-not-on-trigger")) == 1


# -- 4. the world gravity of several exported scenes -------------------------------------------


def world_gravity(scene, amount, direction=(0.0, 0.0, -1.0)):
    scene.gltf_physics.use_world_gravity = True
    scene.gltf_physics.world_gravity_amount = amount
    scene.gltf_physics.world_gravity_direction = direction


def test_a_second_scenes_differing_world_gravity_is_said(clean_scene, tmp_path, caplog):
    """With Active Scene off a file holds one world gravity, the starting scene's: another
    exported scene whose world gravity differs is named once (one with the same is not)."""
    clean_scene.name = "Level"
    world_gravity(clean_scene, 3.0)
    h.set_physics(h.empty_object("Well"), shape_type="SPHERE", shape_role="TRIGGER",
                  gravity_type="POINT")
    world_gravity(bpy.data.scenes.new("Space"), 20.0, (1.0, 0.0, 0.0))
    world_gravity(bpy.data.scenes.new("Twin"), 3.0)
    gltf = export_logged(tmp_path / "scenes.gltf", "OMI", caplog, use_active_scene=False)
    assert gltf["extensions"]["OMI_physics_gravity"]["gravity"] == pytest.approx(3.0)
    lines = said(caplog, "world-gravity-other-scenes")
    assert len(lines) == 1 and "Level" in lines[0] and "Space" in lines[0], lines
    assert "Twin" not in lines[0]
    export_logged(tmp_path / "active.gltf", "OMI", caplog, use_active_scene=True)
    assert said(caplog, "world-gravity-other-scenes") == []


def test_a_second_scenes_world_gravity_when_the_first_has_none_is_said(clean_scene, tmp_path,
                                                                       caplog):
    """The starting scene sets no world gravity, another exported scene does: none is
    written (as before), and that is said."""
    clean_scene.name = "Level"
    world_gravity(bpy.data.scenes.new("Space"), 20.0)
    gltf = export_logged(tmp_path / "none.gltf", "OMI", caplog, use_active_scene=False)
    assert "OMI_physics_gravity" not in gltf.get("extensions", {})
    lines = said(caplog, "world-gravity-other-scenes")
    assert len(lines) == 1 and "Level" in lines[0] and "Space" in lines[0], lines


def test_khr_names_another_scenes_world_gravity_it_cannot_write(clean_scene, tmp_path, caplog):
    """KHR has no gravity: another exported scene's world gravity is named as not written,
    as the starting scene's is."""
    clean_scene.name = "Level"
    h.set_physics(h.mesh_object("Floor"), motion_type="STATIC", shape_type="BOX")
    world_gravity(bpy.data.scenes.new("Space"), 20.0)
    export_logged(tmp_path / "khr_scenes.gltf", "KHR", caplog, use_active_scene=False)
    lines = said(caplog, "khr-no-gravity")
    assert len(lines) == 1 and "world gravity of scene Space" in lines[0], lines
    assert said(caplog, "world-gravity-other-scenes") == []
