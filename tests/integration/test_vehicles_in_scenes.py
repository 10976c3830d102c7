# SPDX-License-Identifier: GPL-3.0-or-later
"""Vehicles as artists set them up: a vehicle whose body is not dynamic is said wherever it
is met (export, import, Check Physics)."""

import json
import logging

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.test_check_physics_in_scenes import listed
from tests.integration.test_export_filters import export_logged, said


@pytest.mark.parametrize("motion", ["KINEMATIC", "STATIC", "NONE"])
def test_a_vehicle_not_on_a_dynamic_body_is_said_by_export_and_check(clean_scene, tmp_path,
                                                                      caplog, motion):
    """Switched to Kinematic for a cutscene, the car lost its vehicle and pilot seat from the
    file, unsaid (Check Physics named only its wheels)."""
    h.build_car()
    bpy.data.objects["Car"].gltf_physics.motion_type = motion
    assert ("Car", "vehicle-not-dynamic", "") in listed()
    gltf, log = export_logged(tmp_path / "car.gltf", "OMI", caplog)
    assert not any("OMI_vehicle_body" in n.get("extensions", {}) for n in gltf["nodes"])
    [line] = said(log, "vehicle-not-dynamic")
    assert line.startswith("gltf_physics: Car: a vehicle body belongs on a dynamic body")


def test_a_strangers_vehicle_on_a_kinematic_body_is_said_and_kept(clean_scene, tmp_path,
                                                                  caplog):
    h.build_car()
    gltf = h.export(tmp_path / "car.gltf", "OMI")
    car = next(n for n in gltf["nodes"] if n["name"] == "Car")
    car["extensions"]["OMI_physics_body"]["motion"]["type"] = "kinematic"
    (tmp_path / "kinematic.gltf").write_text(json.dumps(gltf))
    with caplog.at_level(logging.WARNING):
        h.import_file(tmp_path / "kinematic.gltf")
    lines = [r.getMessage() for r in caplog.records
             if r.getMessage().endswith("[vehicle-not-dynamic]")]
    assert len(lines) == 1 and "kept on Car" in lines[0]
    props = bpy.data.objects["Car"].gltf_physics
    assert props.is_vehicle and props.vehicle_max_speed == 30.0


def wheel_kit() -> bpy.types.Collection:
    """A reusable wheel: a wheel Empty and its tyre, in a collection of their own."""
    kit = bpy.data.collections.new("WheelKit")
    wheel = bpy.data.objects.new("WheelPhys", None)
    kit.objects.link(wheel)
    h.set_physics(wheel, vehicle_part="WHEEL", wheel_radius=0.4)
    tyre = bpy.data.objects.new("Tyre", h.mesh_object("TyreMesh", "cylinder").data)
    bpy.data.objects.remove(bpy.data.objects["TyreMesh"])
    tyre.parent = wheel
    kit.objects.link(tyre)
    return kit


def instancer(name: str, kit: bpy.types.Collection, parent=None) -> bpy.types.Object:
    obj = bpy.data.objects.new(name, None)
    obj.instance_type, obj.instance_collection, obj.parent = "COLLECTION", kit, parent
    bpy.context.scene.collection.objects.link(obj)
    return obj


@pytest.mark.parametrize("car_is", ["parent", "instancer"])
def test_an_instanced_wheel_kit_under_a_vehicle_is_no_problem(clean_scene, car_is):
    """Check Physics walked only Blender parents: each wheel of a kit placed under a car (or
    a vehicle body on the instancing Empty itself) was a false part-outside-vehicle."""
    kit = wheel_kit()
    if car_is == "parent":
        car = h.set_physics(h.mesh_object("Car", "cube"), motion_type="DYNAMIC",
                            shape_type="BOX", is_vehicle=True)
        for index in range(4):
            instancer(f"Slot{index}", kit, car)
    else:
        h.set_physics(instancer("Car", kit), motion_type="DYNAMIC", is_vehicle=True)
    assert [p for p in listed() if p[1] == "part-outside-vehicle"] == []


@pytest.mark.parametrize("outside", ["instance", "kit in the scene"])
def test_a_wheel_kit_placed_once_outside_a_vehicle_is_said(clean_scene, outside):
    """Placed by a second instance on the ground, or written where it is by a kit collection
    linked into the scene (the default export writes it, excluded or not)."""
    kit = wheel_kit()
    car = h.set_physics(h.mesh_object("Car", "cube"), motion_type="DYNAMIC", shape_type="BOX",
                        is_vehicle=True)
    instancer("Slot", kit, car)
    if outside == "instance":
        instancer("Spare", kit)  # (on the ground: its wheel has no vehicle)
    else:
        bpy.context.scene.collection.children.link(kit)
    assert ("WheelPhys", "part-outside-vehicle", "") in listed()


def test_a_vehicle_exported_without_y_up_is_said_once(clean_scene, tmp_path, caplog):
    """OMI's forward is a node's +Z: with +Y Up off that is Blender's up (wheels rolled
    upwards), unsaid."""
    h.build_car()
    _gltf, log = export_logged(tmp_path / "car.gltf", "OMI", caplog, export_yup=False)
    assert len(said(log, "vehicle-z-up")) == 1
    _gltf, log = export_logged(tmp_path / "car.gltf", "OMI", caplog)
    assert said(log, "vehicle-z-up") == []
    bpy.ops.wm.read_homefile(use_empty=True)
    h.set_physics(h.empty_object("Chair"), is_seat=True)  # (a seat alone has no forward)
    _gltf, log = export_logged(tmp_path / "chair.gltf", "OMI", caplog, export_yup=False)
    assert said(log, "vehicle-z-up") == []


def test_a_seat_point_a_script_made_nan_is_written_as_its_default(clean_scene, tmp_path,
                                                                  caplog):
    """Said "written as its default", the seat was then left out and the car's pilotSeat
    named a node without a seat (the checker's pilot-seat-not-a-seat)."""
    h.build_car()
    seat = bpy.data.objects["DriverSeat"]
    default = tuple(seat.gltf_physics.bl_rna.properties["seat_back"].default_array)
    seat.gltf_physics.seat_back = (float("nan"), 0.0, 0.0)
    gltf, log = export_logged(tmp_path / "car.gltf", "OMI", caplog)
    car = next(n for n in gltf["nodes"] if n["name"] == "Car")
    pilot = gltf["nodes"][car["extensions"]["OMI_vehicle_body"]["pilotSeat"]]
    back = pilot["extensions"]["OMI_seat"]["back"]
    assert back == pytest.approx([default[0], default[2], -default[1]])
    assert len(said(log, "value-not-finite")) == 1 and said(log, "seat-invalid") == []


def test_a_pilot_seat_no_longer_marked_seat_is_listed(clean_scene):
    h.build_car()
    bpy.data.objects["DriverSeat"].gltf_physics.is_seat = False
    assert ("Car", "pilot-seat-not-a-seat", "") in listed()


def test_add_wheels_refuses_a_car_whose_wheels_are_an_instanced_kit(clean_scene):
    """It added four wheels beside the four the kit's instances place (eight in the file)."""
    kit = wheel_kit()
    car = h.set_physics(h.mesh_object("Car", "cube"), motion_type="DYNAMIC", shape_type="BOX",
                        is_vehicle=True)
    for index in range(4):
        instancer(f"Slot{index}", kit, car)
    for obj in bpy.data.objects:
        obj.select_set(obj == car)
    bpy.context.view_layer.objects.active = car
    before = set(bpy.data.objects)
    with pytest.raises(RuntimeError, match=r"Car already has 1 wheel\(s\) \(WheelPhys\)"):
        bpy.ops.gltf_physics.wheels_add()
    assert set(bpy.data.objects) == before


def test_a_pilot_seat_only_in_another_scene_is_listed(clean_scene):
    """The export said pilot-seat-unresolved; Check Physics listed nothing."""
    h.build_car()
    seat = bpy.data.objects["DriverSeat"]
    other = bpy.data.scenes.new("Garage")
    for holder in list(seat.users_collection):
        holder.objects.unlink(seat)
    other.collection.objects.link(seat)
    assert ("Car", "pilot-seat-unresolved", "") in listed()


@pytest.mark.parametrize(("instances", "said"), [(1, False), (2, True)])
def test_a_pilot_seat_from_a_kit_is_listed_as_the_export_finds_it(clean_scene, instances,
                                                                  said):
    """Placed once under the car the export finds it; twice, it names no one seat (the
    export says so) and Check Physics listed nothing."""
    car = h.set_physics(h.mesh_object("Car", "cube"), motion_type="DYNAMIC", shape_type="BOX",
                        is_vehicle=True)
    kit = bpy.data.collections.new("SeatKit")
    seat = h.set_physics(bpy.data.objects.new("Seat", None), is_seat=True)
    kit.objects.link(seat)
    car.gltf_physics.vehicle_pilot_seat = seat
    for index in range(instances):
        instancer(f"Slot{index}", kit, car)
    assert (("Car", "pilot-seat-unresolved", "") in listed()) is said
