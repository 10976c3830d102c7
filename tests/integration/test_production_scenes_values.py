# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 23, items 5 and 6 on scenes built here: values a file says come back unchanged
(Blender import and the converter agree), layer names stay unique, Copy Physics never copies
links to other objects, Fixes keep what the user sees, every data-changing operator is
undoable, and the batch exporter never overwrites one .blend's output with another's."""

import copy
import importlib
import json
import math
from pathlib import Path

import bpy
import pytest

from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE
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
    assert mass[0] < -1e30 and mass[1] == pytest.approx(0.001)  # OMI's mass: any number
    assert inertia[0] < -1e30 and inertia[1] == pytest.approx(1e-6)  # OMI's: any number
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


# -- Copy Physics to Selected --------------------------------------------------------------


def _select(active, *others) -> None:
    for obj in bpy.data.objects:
        obj.select_set(obj == active or obj in others)
    bpy.context.view_layer.objects.active = active


def test_copy_physics_keeps_each_objects_links(clean_scene, tmp_path):
    cars = {}
    for name, x in (("A", 0), ("B", 10)):
        car = h.set_physics(h.mesh_object(f"Car{name}", location=(x, 0, 0)),
                            motion_type="DYNAMIC", shape_type="CONVEX", mesh_source="OBJECT",
                            is_vehicle=True, vehicle_max_speed=10.0 * (x + 1))
        seat = h.set_physics(h.empty_object(f"Seat{name}", (x, 0, 1), parent=car), is_seat=True)
        proxy = h.set_physics(h.mesh_object(f"Proxy{name}", location=(x, 0, 0)),
                              collision_only=True)
        proxy.parent = car
        car.gltf_physics.vehicle_pilot_seat = seat
        car.gltf_physics.mesh_object = proxy
        frame = h.empty_object(f"Frame{name}", (x, 0, 2))
        hinge = h.set_physics(h.empty_object(f"Hinge{name}", (x, 0, 2), parent=car),
                              joint_type="HINGE", joint_connected_body=car,
                              joint_attachment=frame)
        cars[name] = (car, seat, proxy, hinge, frame)
    car_a, _, _, hinge_a, _ = cars["A"]
    car_b, seat_b, proxy_b, hinge_b, frame_b = cars["B"]
    _select(car_a, car_b)
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}
    props = car_b.gltf_physics
    assert props.vehicle_max_speed == pytest.approx(10.0)  # the settings were copied
    assert props.vehicle_pilot_seat == seat_b and props.mesh_object == proxy_b
    h.set_physics(hinge_b, joint_connected_body=car_b)
    _select(hinge_a, hinge_b)
    hinge_a.gltf_physics.joint_type = "SLIDER"
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}
    assert hinge_b.gltf_physics.joint_type == "SLIDER"
    assert hinge_b.gltf_physics.joint_connected_body == car_b
    assert hinge_b.gltf_physics.joint_attachment == frame_b
    for fmt in FORMATS:
        path = tmp_path / f"copied_{fmt}.gltf"
        gltf = h.export(path, fmt)
        h.assert_valid(path)
        seat = _node(gltf, "CarB")["extensions"]["OMI_vehicle_body"]["pilotSeat"]
        assert gltf["nodes"][seat]["name"] == "SeatB"


# -- Fixes ----------------------------------------------------------------------------------


def _fix(obj, code: str) -> str:
    store = importlib.import_module(f"{MODULE}.operators.validation").store

    bpy.context.view_layer.update()  # as the UI has it before Check Physics runs
    assert store(bpy.context.scene)
    problems = bpy.context.scene.gltf_physics.problems
    index = next(i for i, p in enumerate(problems) if p.obj == obj.name and p.code == code)
    assert problems[index].fix
    assert bpy.ops.gltf_physics.problem_fix(index=index) == {"FINISHED"}
    return problems[index].fix if index < len(problems) else ""


def _apply_scale(obj) -> None:
    """The apply-scale Fix: through Check Physics and its Fix button where the check offers
    it; run directly where the scale is no problem (uniform, or a scaled box)."""
    from gltf_physics.io.blender.tools.validation import apply_fix, validate_scene

    bpy.context.view_layer.update()
    codes = {p.code for p in validate_scene(bpy.context.scene)
             if p.obj == obj.name and p.fix == "apply-scale"}
    if codes:
        _fix(obj, codes.pop())
    else:
        apply_fix(obj, "apply-scale")


def _world_shape(obj) -> dict:
    """What the user sees of a custom-sized shape, in world space: its centre, its axis ends
    (capsule/cylinder) or corners (box) as an order-free set, and its radii."""
    from mathutils import Quaternion, Vector

    bpy.context.view_layer.update()
    props = obj.gltf_physics
    world = obj.matrix_world
    centre = world @ Vector(props.shape_offset)
    axes = world.to_3x3() @ Quaternion(props.shape_rotation).to_matrix()
    lengths = [axes.col[i].length for i in range(3)]
    out = {"centre": tuple(centre)}
    if props.shape_type == "BOX":
        half = [Vector(axes.col[i]) * props.box_size[i] / 2 for i in range(3)]
        corners = (tuple(centre + sx * half[0] + sy * half[1] + sz * half[2])
                   for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1))
        out["corners"] = sorted(corners, key=lambda c: tuple(round(v, 3) for v in c))
    elif props.shape_type == "SPHERE":
        out["radius"] = props.radius * max(lengths)
    else:
        tip = Vector(axes.col[2]) * props.height / 2
        out["ends"] = (tuple(centre + tip), tuple(centre - tip))
        out["radii"] = (props.radius_top * max(lengths[:2]),
                        props.radius_bottom * max(lengths[:2]))
    return out


def _assert_world_equal(before: dict, after: dict) -> None:
    assert before.keys() == after.keys()
    for key in before:
        assert _flat(after[key]) == pytest.approx(_flat(before[key]), abs=1e-5), key


def _flat(value) -> list[float]:
    if isinstance(value, int | float):
        return [value]
    return [number for item in value for number in _flat(item)]


SCALES = {
    "uniform": (1.5, 1.5, 1.5),
    "non-uniform": (1.0, 2.0, 3.0),
    "negative": (2.0, 2.0, -2.0),
    "mirrored-non-uniform": (-1.0, 2.0, 0.5),
}
#: Round shapes stay round: under a non-uniform scale they are tested to enclose (below).
CASES = [(kind, scale) for kind in ("SPHERE", "BOX", "CAPSULE") for scale in SCALES
         if kind == "BOX" or len({abs(s) for s in SCALES[scale]}) == 1]


@pytest.mark.parametrize(("kind", "scale"), CASES, ids=[f"{k}-{s}" for k, s in CASES])
def test_apply_scale_keeps_custom_world_sizes_and_offsets(clean_scene, kind, scale):
    from mathutils import Euler

    obj = h.mesh_object("Thing", "cube", (1.0, 0.5, 2.0))
    obj.rotation_euler = (0.3, 0.0, 0.7)
    obj.scale = SCALES[scale]
    # a quarter turn about Z keeps a box on the scaled axes; round shapes turn freely
    turn = Euler((0.0, 0.0, math.pi / 2)) if kind == "BOX" else Euler((0.4, 0.0, 0.0))
    h.set_physics(obj, motion_type="STATIC", shape_type=kind, size_mode="CUSTOM",
                  shape_offset=(0.25, 0.5, -0.25), shape_rotation=turn.to_quaternion(),
                  box_size=(0.5, 1.0, 2.0), radius=1.0, height=1.2, radius_top=0.3,
                  radius_bottom=0.5, center_of_mass_mode="CUSTOM", center_of_mass=(0, 0, 1))
    child = h.set_physics(h.mesh_object("Child", location=(0.0, 0.0, 3.0)),
                          motion_type="STATIC", shape_type="BOX")
    child.parent = obj
    bpy.context.view_layer.update()
    child_before = [tuple(row) for row in child.matrix_world]
    before = _world_shape(obj)
    centre_of_mass = tuple(obj.matrix_world @ obj.gltf_physics.center_of_mass)
    _apply_scale(obj)
    assert tuple(obj.scale) == pytest.approx((1, 1, 1))
    _assert_world_equal(before, _world_shape(obj))
    assert tuple(obj.matrix_world @ obj.gltf_physics.center_of_mass) == pytest.approx(
        centre_of_mass, abs=1e-5)
    for row, old in zip(child.matrix_world, child_before, strict=True):  # Blender keeps them
        assert tuple(row) == pytest.approx(old, abs=1e-6)


def test_apply_scale_on_the_issue_sphere(clean_scene):
    """The issue's case: custom radius, world radius 2, scale (2, 2, -2)."""
    obj = h.mesh_object("Ball", "sphere", (1.0, 1.0, 1.0))
    obj.scale = (2.0, 2.0, -2.0)
    h.set_physics(obj, motion_type="DYNAMIC", shape_type="SPHERE", size_mode="CUSTOM",
                  radius=1.0, shape_offset=(0.25, 0.0, -0.25))
    before = _world_shape(obj)
    assert before["radius"] == pytest.approx(2.0)
    assert before["centre"] == pytest.approx((1.5, 1.0, 1.5))
    _fix(obj, "negative-scale")
    after = _world_shape(obj)
    _assert_world_equal(before, after)
    assert obj.gltf_physics.radius == pytest.approx(2.0)


def test_apply_scale_on_a_non_uniform_sphere_encloses_it(clean_scene):
    obj = h.mesh_object("Egg", "sphere")
    obj.scale = (1.0, 1.0, 2.0)
    h.set_physics(obj, motion_type="STATIC", shape_type="SPHERE", size_mode="CUSTOM", radius=0.5)
    _fix(obj, "non-uniform-scale")
    assert tuple(obj.scale) == pytest.approx((1, 1, 1))
    assert obj.gltf_physics.radius == pytest.approx(1.0)  # the largest world radius


def _world_corners(obj) -> list[tuple[float, ...]]:
    from mathutils import Vector

    bpy.context.view_layer.update()
    return sorted(tuple(round(c, 4) for c in obj.matrix_world @ Vector(v)) for v in obj.bound_box)


@pytest.mark.parametrize("scale", [(2.0, 2.0, -2.0), (1.0, 3.0, 0.5), (-1.0, -2.0, 1.0)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_apply_scale_keeps_a_fitted_box_in_the_file(clean_scene, tmp_path, scale, fmt):
    obj = h.mesh_object("Crate", "cube", (1.0, 2.0, 3.0))
    obj.scale = scale
    h.set_physics(obj, motion_type="DYNAMIC", shape_type="BOX", size_mode="FIT")
    corners = _world_corners(obj)
    _apply_scale(obj)
    assert _flat(_world_corners(obj)) == pytest.approx(_flat(corners), abs=1e-4)
    path = tmp_path / f"fitted_{fmt}.gltf"
    gltf = h.export(path, fmt)
    h.assert_valid(path)
    shapes = gltf["extensions"]["KHR_implicit_shapes" if fmt == "KHR" else "OMI_physics_shape"]
    (shape,) = shapes["shapes"]
    extents = sorted(abs(hi - lo) for lo, hi in zip(corners[0], corners[-1], strict=True))
    assert sorted(shape["box"]["size"]) == pytest.approx(extents, abs=1e-4)


def test_move_filter_to_members_skips_opted_out_members(clean_scene, tmp_path):
    zone = h.set_physics(h.empty_object("Zone"), is_compound_trigger=True, use_filter=True,
                         filter_layers=[i == 0 for i in range(32)])
    clean_scene.gltf_physics.layers.add().name = "Sensors"
    joined = h.set_physics(h.mesh_object("Joined", location=(1, 0, 0)), shape_type="BOX",
                           shape_role="TRIGGER")
    apart = h.set_physics(h.mesh_object("Apart", location=(-1, 0, 0)), shape_type="BOX",
                          shape_role="TRIGGER", join_compound_trigger=False)
    for member in (joined, apart):
        member.parent = zone
    _fix(zone, "compound-trigger-filter")
    assert joined.gltf_physics.use_filter and joined.gltf_physics.filter_layers[0]
    assert not apart.gltf_physics.use_filter  # it is not part of the compound trigger
    assert not zone.gltf_physics.use_filter
    for fmt in FORMATS:
        path = tmp_path / f"zone_{fmt}.gltf"
        gltf = h.export(path, fmt)
        h.assert_valid(path)
        body = _body(gltf, "Zone", fmt)
        members = {gltf["nodes"][i]["name"] for i in body["trigger"]["nodes"]}
        assert "Apart" not in members and "Joined" in "".join(members)


# -- undo -------------------------------------------------------------------------------------

#: Operators that change nothing a .blend file keeps (none today).
NO_DATA_CHANGE: frozenset[str] = frozenset()


def test_every_data_changing_operator_is_undoable(clean_scene):
    names = sorted(dir(bpy.ops.gltf_physics))
    assert len(names) >= 18
    missing = []
    for name in names:
        idname = getattr(bpy.ops.gltf_physics, name).idname()
        cls = bpy.types.Operator.bl_rna_get_subclass_py(idname)
        assert cls is not None, idname
        if name not in NO_DATA_CHANGE and not {"REGISTER", "UNDO"} <= set(cls.bl_options):
            missing.append(name)
    assert missing == []


# -- the batch exporter -------------------------------------------------------------------


def test_batch_export_keeps_same_named_files_apart(clean_scene, tmp_path, monkeypatch):
    """Also: run from the checkout, it leaves no stand-in repository folder behind."""
    from tests.conftest import ROOT
    from tests.integration.test_readme_examples import run

    blends = []
    for folder, shape in (("forest", "BOX"), ("desert", "SPHERE")):
        bpy.ops.wm.read_homefile(use_empty=True)
        h.set_physics(h.mesh_object(folder.title()), motion_type="DYNAMIC", shape_type=shape)
        path = tmp_path / "levels" / folder / "level.blend"
        path.parent.mkdir(parents=True)
        bpy.ops.wm.save_as_mainfile(filepath=str(path))
        blends.append(path)
    bpy.ops.wm.read_homefile(use_empty=True)
    user = tmp_path / "user"
    user.mkdir()
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    out = tmp_path / "out"
    for fmt in ("khr", "omi"):
        done = run([str(ROOT / "scripts" / "export_physics.py"), *map(str, blends), "--out",
                    str(out / fmt), "--format", fmt, "--gltf"], tmp_path, user)
        assert done.returncode == 0, done.stderr[-3000:]
        assert "2 of 2 file(s) exported" in done.stdout
        for folder, kind in (("forest", "box"), ("desert", "sphere")):
            path = out / fmt / folder / "level.gltf"
            gltf = load_gltf(path)
            assert _node(gltf, folder.title())  # each file's own object
            ext = "KHR_implicit_shapes" if fmt == "khr" else "OMI_physics_shape"
            assert gltf["extensions"][ext]["shapes"][0]["type"] == kind
            h.assert_valid(path)
    assert not list(temporary.glob("gltf_physics_checkout_*"))


# -- wheels on collider nodes, two parts on one node ----------------------------------------


def _car_with_a_colliding_wheel():
    objs = h.build_car()
    wheel = next(o for o in objs.values() if o.gltf_physics.vehicle_part == "WHEEL")
    h.set_physics(wheel, shape_type="CYLINDER", shape_role="COLLIDER", use_material=True,
                  static_friction=0.3, dynamic_friction=0.25, wheel_own_material=True)
    own = wheel.gltf_physics.wheel_material
    own.use_material, own.static_friction, own.dynamic_friction = True, 1.5, 1.4
    return wheel


def _wheel_and_collider_materials(gltf: dict, name: str, fmt: str) -> tuple[dict, dict]:
    ext = "KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"
    pool = gltf["extensions"][ext]["physicsMaterials"]
    node = _node(gltf, name)
    collider = pool[node["extensions"][ext]["collider"]["physicsMaterial"]]
    wheel_index = node["extensions"]["OMI_vehicle_wheel"]["wheel"]
    wheel = gltf["extensions"]["OMI_vehicle_wheel"]["wheels"][wheel_index]
    return collider, pool[wheel["physicsMaterial"]]


def _frictions(material: dict) -> tuple[float, float]:
    return material["staticFriction"], material["dynamicFriction"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_wheel_on_a_collider_keeps_both_materials(clean_scene, tmp_path, fmt):
    wheel = _car_with_a_colliding_wheel()
    name = wheel.name
    path = tmp_path / f"wheel_{fmt}.gltf"
    collider, own = _wheel_and_collider_materials(h.export(path, fmt), name, fmt)
    h.assert_valid(path)
    assert _frictions(collider) == pytest.approx((0.3, 0.25))
    assert _frictions(own) == pytest.approx((1.5, 1.4))
    report = Report()  # the converter keeps both
    converted = convert_document(load_gltf(path), fmt, report=report, base_dir=tmp_path)
    collider, own = _wheel_and_collider_materials(converted, name, fmt)
    assert [*_frictions(collider), *_frictions(own)] == pytest.approx([0.3, 0.25, 1.5, 1.4])
    h.import_file(path)  # Blender keeps both
    props = bpy.data.objects[name].gltf_physics
    assert props.wheel_own_material and props.use_material
    assert (props.static_friction, props.wheel_material.static_friction) == pytest.approx(
        (0.3, 1.5))
    again = tmp_path / f"wheel_again_{fmt}.gltf"
    collider, own = _wheel_and_collider_materials(h.export(again, fmt), name, fmt)
    assert [*_frictions(collider), *_frictions(own)] == pytest.approx([0.3, 0.25, 1.5, 1.4])
    h.assert_valid(again)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_wheel_sharing_its_colliders_material_stays_shared(clean_scene, tmp_path, fmt):
    wheel = _car_with_a_colliding_wheel()
    wheel.gltf_physics.wheel_own_material = False
    path = tmp_path / f"shared_{fmt}.gltf"
    collider, own = _wheel_and_collider_materials(h.export(path, fmt), wheel.name, fmt)
    assert collider == own
    name = wheel.name
    h.import_file(path)
    assert not bpy.data.objects[name].gltf_physics.wheel_own_material


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_vehicle_parts_on_one_node_report_the_dropped_one(clean_scene, tmp_path, fmt,
                                                              caplog):
    import logging

    objs = h.build_car()
    name = next(o for o in objs.values() if o.gltf_physics.vehicle_part == "WHEEL").name
    path = tmp_path / f"car_{fmt}.gltf"
    gltf = h.export(path, fmt)
    gltf["extensions"]["OMI_vehicle_thruster"] = {"thrusters": [{"maxForce": 50.0}]}
    gltf["extensionsUsed"].append("OMI_vehicle_thruster")
    _node(gltf, name)["extensions"]["OMI_vehicle_thruster"] = {"thruster": 0}
    both = tmp_path / f"both_{fmt}.gltf"
    both.write_text(json.dumps(gltf))
    converted = convert_document(load_gltf(both), fmt, report=Report(), base_dir=tmp_path)
    kept = _node(converted, name)["extensions"]  # the converter keeps both parts
    assert {"OMI_vehicle_wheel", "OMI_vehicle_thruster"} <= kept.keys()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        h.import_file(both)
    assert bpy.data.objects[name].gltf_physics.vehicle_part == "WHEEL"
    said = [r.getMessage() for r in caplog.records if "thruster dropped" in r.getMessage()]
    assert len(said) == 1 and name in said[0] and "wheel was kept" in said[0]


def test_apply_scale_on_a_child_of_a_scaled_parent_says_where_to_fix(clean_scene):
    parent = h.empty_object("Rig")
    parent.scale = (1.0, 1.0, -1.0)
    obj = h.set_physics(h.mesh_object("Ball", "sphere"), motion_type="STATIC",
                        shape_type="SPHERE", size_mode="CUSTOM", radius=0.5)
    obj.parent = parent
    bpy.context.view_layer.update()
    store = importlib.import_module(f"{MODULE}.operators.validation").store

    store(clean_scene)
    problem = next(p for p in clean_scene.gltf_physics.problems if p.obj == "Ball")
    assert problem.fix == "" and "comes from its parent Rig: fix it there" in problem.message
    apply_fix = importlib.import_module(f"{MODULE}.io.blender.tools.validation").apply_fix
    with pytest.raises(ValueError, match="comes from its parent Rig"):
        apply_fix(obj, "apply-scale")
    assert obj.gltf_physics.radius == pytest.approx(0.5) and tuple(parent.scale) == (1, 1, -1)


def test_a_saved_file_with_two_layers_of_one_name_loads_them_distinct(clean_scene, tmp_path):
    layers = clean_scene.gltf_physics.layers
    for _ in range(3):
        layers.add()  # a script's unnamed layers: all "Layer", as files saved before the fix
    assert _layer_names() == ["Layer", "Layer", "Layer"]
    h.set_physics(h.mesh_object("Box"), motion_type="DYNAMIC", shape_type="BOX",
                  use_filter=True, filter_layers=[i == 2 for i in range(32)],
                  filter_mode="EXCEPT", filter_targets=[i == 1 for i in range(32)])
    path = tmp_path / "old.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.open_mainfile(filepath=str(path))
    assert _layer_names() == ["Layer", "Layer.001", "Layer.002"]
    for fmt in FORMATS:
        out = tmp_path / f"old_{fmt}.gltf"
        gltf = h.export(out, fmt)
        h.assert_valid(out)
        ext = "KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"
        (flt,) = gltf["extensions"][ext]["collisionFilters"]
        assert (flt["collisionSystems"], flt["notCollideWithSystems"]) == (
            ["Layer.002"], ["Layer.001"])


def test_apply_scale_keeps_seat_points_and_wheel_size_in_the_world(clean_scene):
    from mathutils import Vector

    car = h.set_physics(h.mesh_object("Kart"), motion_type="DYNAMIC", shape_type="BOX",
                        is_vehicle=True)
    seat = h.set_physics(h.mesh_object("Bench", location=(0, 0, 1)), shape_type="BOX",
                         is_seat=True, seat_back=(0.0, 0.2, 0.3))
    wheel = h.set_physics(h.mesh_object("Wheel", location=(1, 0, 0)), shape_type="CYLINDER",
                          vehicle_part="WHEEL", wheel_radius=0.25, wheel_width=0.1)
    for part, scale in ((seat, (2.0, 2.0, -2.0)), (wheel, (3.0, 2.0, 2.0))):
        part.parent = car
        part.scale = scale
    bpy.context.view_layer.update()
    back = seat.matrix_world @ Vector(seat.gltf_physics.seat_back)
    _apply_scale(seat)
    _apply_scale(wheel)
    assert tuple(seat.matrix_world @ Vector(seat.gltf_physics.seat_back)) == pytest.approx(
        tuple(back))
    props = wheel.gltf_physics
    assert (props.wheel_radius, props.wheel_width) == pytest.approx((0.5, 0.3))


def test_a_linked_scenes_layers_are_left_as_they_are(clean_scene, tmp_path):
    from gltf_physics.io.blender.settings.properties import distinct_layer_names

    clean_scene.name = "Kit"
    for _ in range(2):
        clean_scene.gltf_physics.layers.add()
    library = tmp_path / "kit.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(library))
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_source, target):
        target.scenes = ["Kit"]
    linked = next(s for s in bpy.data.scenes if s.library is not None)
    distinct_layer_names()  # no error on data Blender will not keep; nothing changed
    assert _layer_names(linked) == ["Layer", "Layer"]


def _box_corners_in_file(gltf: dict, fmt: str) -> list[float]:
    """Every box collider's world corners in the file (nodes' world matrices applied)."""
    import numpy as np

    from gltf_physics.io.node_graph import NodeGraph

    graph = NodeGraph.of(gltf)
    ext = "KHR_physics_rigid_bodies" if fmt == "KHR" else "OMI_physics_body"
    shapes = gltf["extensions"]["KHR_implicit_shapes" if fmt == "KHR" else "OMI_physics_shape"]
    found = []
    for index, node in enumerate(gltf["nodes"]):
        collider = (node.get("extensions") or {}).get(ext, {}).get("collider")
        if collider is None:
            continue
        shape = shapes["shapes"][collider["geometry"]["shape"] if fmt == "KHR"
                                 else collider["shape"]]
        half = np.array(shape["box"]["size"]) / 2
        world = graph.world(index)
        corners = [world @ np.array([sx * half[0], sy * half[1], sz * half[2], 1.0])
                   for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        found.extend(sorted(tuple(round(float(c), 4) for c in corner[:3]) for corner in corners))
    return _flat(sorted(found))


@pytest.mark.parametrize("fmt", FORMATS)
def test_apply_scale_on_an_instanced_kit_keeps_every_instance(clean_scene, tmp_path, fmt):
    kit = bpy.data.collections.new("Kit")  # placed only as instances
    crate = h.mesh_object("Crate")
    clean_scene.collection.objects.unlink(crate)
    kit.objects.link(crate)
    crate.scale = (2.0, 1.0, -3.0)
    crate.rotation_euler = (0.0, 0.0, 0.5)
    h.set_physics(crate, motion_type="DYNAMIC", shape_type="BOX", size_mode="CUSTOM",
                  box_size=(1.0, 2.0, 0.5), shape_offset=(0.2, 0.0, 0.1))
    for x in (0.0, 10.0):
        holder = h.empty_object(f"Place{int(x)}", (x, 0.0, 0.0))
        holder.instance_type, holder.instance_collection = "COLLECTION", kit
    before = _box_corners_in_file(h.export(tmp_path / f"before_{fmt}.gltf", fmt), fmt)
    assert len(before) == 2 * 8 * 3
    _apply_scale(crate)
    path = tmp_path / f"after_{fmt}.gltf"
    after = _box_corners_in_file(h.export(path, fmt), fmt)
    h.assert_valid(path)
    assert after == pytest.approx(before, abs=2e-4)


# -- the apply-scale Fix keeps gravity volumes in the world -----------------------------------

GRAVITY_SCALES = {
    "uniform": (1.5, 1.5, 1.5),
    "negative": (2.0, 2.0, -2.0),
    "non-uniform": (1.0, 2.0, 3.0),
    "mirrored-non-uniform": (-1.0, 2.0, 0.5),
    "flat-mirrored": (2.0, -2.0, 0.5),
}


def _gravity_volumes(scale) -> dict:
    """Gravity triggers at `scale`, one per figure, with the settings each sets. Only
    figures whose pull the Fix keeps exactly at that scale (a round one needs equal factors
    across it); the others are checked to enclose (the test below)."""
    a = [abs(s) for s in scale]
    volumes = {
        "Ramp": {"gravity_type": "DIRECTIONAL", "gravity_direction": (0.6, 0.0, -0.8),
                 "gravity_amount": -4.0},
        "Planet": {"gravity_type": "POINT", "gravity_unit_distance": 1.5},
        "Rod": {"gravity_type": "LINE", "gravity_unit_distance": 1.0,
                "line": ((0.0, 0.0, 1.5), (0.0, 0.0, -1.0))},
        "Crate": {"gravity_type": "SHAPED", "gravity_shape_type": "BOX",
                  "gravity_shape_size": (1.0, 2.0, 0.5), "gravity_unit_distance": 1.0},
    }
    if a[0] == a[1]:  # circles in the XY plane stay round
        volumes |= {
            "Disc": {"gravity_type": "DISC", "gravity_radius": 1.5,
                     "gravity_unit_distance": 2.0},
            "Ring": {"gravity_type": "TORUS", "gravity_radius": 2.5, "gravity_amount": -2.0},
        }
    if len(set(a)) == 1:  # (a tapered side keeps its nearest points under no other scale)
        volumes |= {
            "Drum": {"gravity_type": "SHAPED", "gravity_shape_type": "CYLINDER",
                     "gravity_shape_height": 1.0, "gravity_shape_radius_top": 0.4,
                     "gravity_shape_radius_bottom": 0.8},
            "Snake": {"gravity_type": "LINE", "line": ((0, 0, 0), (1, 2, 0.5), (2, 0, -1))},
            "Ball": {"gravity_type": "SHAPED", "gravity_shape_type": "SPHERE",
                     "gravity_shape_radius": 0.7, "gravity_unit_distance": 0.5},
            "Pill": {"gravity_type": "SHAPED", "gravity_shape_type": "CAPSULE",
                     "gravity_shape_height": 1.2, "gravity_shape_radius_top": 0.5,
                     "gravity_shape_radius_bottom": 0.5},
        }
    return volumes


def _gravity_trigger(name: str, scale, location, values: dict) -> bpy.types.Object:
    obj = h.mesh_object(name, "cube", location)
    obj.rotation_euler = (0.3, 0.0, 0.7)
    obj.scale = scale
    h.set_physics(obj, shape_type="SPHERE", shape_role="TRIGGER", size_mode="CUSTOM",
                  radius=20.0)
    values = dict(values)
    for co in values.pop("line", ()):
        obj.gltf_physics.gravity_line_points.add().co = co
    return h.set_physics(obj, **values)


@pytest.mark.parametrize("scale", GRAVITY_SCALES, ids=list(GRAVITY_SCALES))
def test_apply_scale_keeps_gravity_volumes_in_the_world(clean_scene, tmp_path, scale):
    """Export OMI before and after the Fix: every volume pulls the same at world probes."""
    from tests.integration.test_gravity import assert_same, meaning_by_name

    factors = GRAVITY_SCALES[scale]
    made = [_gravity_trigger(name, factors, (0.5 * i, -0.3 * i, 0.2), values)
            for i, (name, values) in enumerate(_gravity_volumes(factors).items())]
    before_path, after_path = tmp_path / "before.gltf", tmp_path / "after.gltf"
    before = meaning_by_name(h.export(before_path, "OMI"))
    h.assert_valid(before_path)
    for obj in made:
        _apply_scale(obj)
        assert tuple(obj.scale) == pytest.approx((1, 1, 1))
    after = meaning_by_name(h.export(after_path, "OMI"))
    h.assert_valid(after_path)
    assert set(before["volumes"]) == {obj.name for obj in made}
    assert_same(before, after)
    if "Drum" in before["volumes"]:  # the tapered ends stay where they were
        drum = bpy.data.objects["Drum"].gltf_physics
        top, bottom = drum.gravity_shape_radius_top, drum.gravity_shape_radius_bottom
        flipped = factors[2] < 0
        assert (top, bottom) == pytest.approx(
            (0.8 * abs(factors[0]), 0.4 * abs(factors[0])) if flipped
            else (0.4 * abs(factors[0]), 0.8 * abs(factors[0])))


def test_apply_scale_makes_a_round_gravity_figure_enclose_its_ellipse(clean_scene):
    """Under a non-uniform scale a circle or sphere becomes the round figure enclosing it
    (its largest factor), as the round collision shapes do."""
    settings = {
        "Disc": {"gravity_type": "DISC", "gravity_radius": 1.5},
        "Ball": {"gravity_type": "SHAPED", "gravity_shape_type": "SPHERE",
                 "gravity_shape_radius": 0.7},
    }
    made = {name: _gravity_trigger(name, (1.0, 2.0, 3.0), (0, 0, 0), values)
            for name, values in settings.items()}
    for obj in made.values():
        _apply_scale(obj)
    assert made["Disc"].gltf_physics.gravity_radius == pytest.approx(3.0)  # max(1, 2)
    assert made["Ball"].gltf_physics.gravity_shape_radius == pytest.approx(2.1)  # 0.7 × 3


# -- the quirk fields' hard minimums come from the field table --------------------------------

def test_quirk_properties_take_their_hard_minimum_from_the_table(clean_scene):
    from gltf_physics.io.field_table import QUIRK_PROPS, blender_min

    rna = bpy.types.Object.bl_rna.properties["gltf_physics"].fixed_type.properties
    lowest_float32 = -3.4028234663852886e38  # Blender's hard_min when none is given
    for prop in QUIRK_PROPS:
        least = blender_min(prop)
        expected = lowest_float32 if least is None else least
        assert rna[prop].hard_min == pytest.approx(expected, rel=1e-6, abs=0), prop
    assert rna["radius"].hard_min == 0.0  # OMI's sphere may be 0: the loosest family wins
    assert blender_min("mass") is None  # OMI's mass has no bound: any value is stored
    assert rna["mass"].soft_min == pytest.approx(0.001)  # the slider keeps its floor


def test_a_zero_radius_sphere_stays_zero_in_omi_and_valid_in_khr(clean_scene, tmp_path, caplog):
    from tests.integration.test_meaning_roundtrip import export_logged

    obj = h.mesh_object("Dot", "sphere")
    h.set_physics(obj, motion_type="DYNAMIC", shape_type="SPHERE", size_mode="CUSTOM",
                  radius=0.0)
    assert obj.gltf_physics.radius == 0.0
    radii = {}
    for fmt in FORMATS:
        path = tmp_path / f"dot_{fmt}.gltf"
        log = export_logged(path, fmt, caplog)
        h.assert_valid(path)
        ext = "KHR_implicit_shapes" if fmt == "KHR" else "OMI_physics_shape"
        (shape,) = load_gltf(path)["extensions"][ext]["shapes"]
        radii[fmt] = (shape["sphere"]["radius"], [line for line in log if "radius 0" in line])
    assert radii["OMI"] == (0, [])
    assert 0 < radii["KHR"][0] < 1e-30 and len(radii["KHR"][1]) == 1


OMI_MASSES = {"Neg": -2.0, "Zero": 0.0, "Tiny": 1e-30}  # OMI's schema states no bound


def _omi_motion_file(tmp_path: Path, key: str, values: dict) -> Path:
    """Dynamic boxes named after `values`, exported to OMI, then given the motion `key`
    values another OMI tool may write (OMI's schema allows them)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    for i, name in enumerate(values):
        h.set_physics(h.mesh_object(name, location=(3 * i, 0, 0)), motion_type="DYNAMIC",
                      shape_type="BOX", mass_mode="VALUE")
    gltf = h.export(tmp_path / "boxes.gltf", "OMI")
    for name, value in values.items():
        _body(gltf, name, "OMI")["motion"][key] = value
    edited = tmp_path / f"omi_{key}.gltf"
    edited.write_text(json.dumps(gltf))
    h.assert_valid(edited)
    return edited


def _omi_masses_file(tmp_path: Path) -> Path:
    return _omi_motion_file(tmp_path, "mass", OMI_MASSES)


def _motion_values(gltf: dict, fmt: str, key: str, names) -> dict:
    return {name: _body(gltf, name, fmt)["motion"].get(key) for name in names}


def _masses(gltf: dict, fmt: str) -> dict:
    return _motion_values(gltf, fmt, "mass", OMI_MASSES)


def _exported_and_converted(edited: Path, tmp_path: Path, caplog, read, code: str
                            ) -> tuple[dict, dict]:
    """The imported scene exported, and the file `edited` converted, in each format (every
    file checked against the schemas): per format, the values `read` finds and what was said
    with `code` (the export's log lines; the converter's count)."""
    from tests.integration.test_meaning_roundtrip import export_logged

    source = load_gltf(edited)
    exported, converted = {}, {}
    for fmt in FORMATS:
        path = tmp_path / f"again_{fmt}.gltf"
        log = export_logged(path, fmt, caplog)
        h.assert_valid(path)
        said = [line for line in log if line.endswith(f"[{code}]")]
        exported[fmt] = (read(load_gltf(path), fmt), said)
        report = Report()
        out = convert_document(copy.deepcopy(source), fmt, report=report,
                               base_dir=edited.parent)
        path = tmp_path / f"converted_{fmt}.gltf"
        path.write_text(json.dumps(out))
        h.assert_valid(path)
        converted[fmt] = (read(out, fmt), report.codes().count(code))
    return exported, converted


def test_any_omi_mass_survives_blender_and_the_converter(clean_scene, tmp_path, caplog):
    edited = _omi_masses_file(tmp_path)
    h.import_file(edited)
    for name, mass in OMI_MASSES.items():
        props = bpy.data.objects[name].gltf_physics
        assert (props.mass_mode, props.mass) == ("VALUE", pytest.approx(mass, rel=1e-6)), name
    exported, converted = _exported_and_converted(edited, tmp_path, caplog, _masses,
                                                  "khr-mass-not-positive")
    assert exported["OMI"][0] == converted["OMI"][0] == pytest.approx(OMI_MASSES, rel=1e-6)
    assert exported["OMI"][1] == [] and converted["OMI"][1] == 0
    # KHR: 0 is infinite and below 0 invalid; omitted (engine-computed), said once per body.
    khr = {"Neg": None, "Zero": None, "Tiny": pytest.approx(1e-30, rel=1e-6)}
    assert exported["KHR"][0] == khr and converted["KHR"][0] == khr
    assert len(exported["KHR"][1]) == 2 and converted["KHR"][1] == 2
    assert all(("Neg" in line) != ("Zero" in line) for line in exported["KHR"][1])


def test_the_preview_raises_a_mass_below_blenders_and_says_so(clean_scene, tmp_path):
    from gltf_physics.io.blender.preview import native_rigid_body as nrb

    h.import_file(_omi_masses_file(tmp_path))
    scene = bpy.context.scene
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}  # the operator says the note
    least = nrb.blender_least_mass()
    bodies = [bpy.data.objects[name] for name in OMI_MASSES]
    assert {obj.name: obj.rigid_body.mass for obj in bodies} == dict.fromkeys(OMI_MASSES, least)
    note = nrb.mass_note(bodies)
    assert all(name in note for name in OMI_MASSES) and note.count("\n") == 0
    assert [obj.gltf_physics.mass for obj in bodies] == pytest.approx([-2.0, 0.0, 1e-30])
    assert nrb.mass_note([]) == ""
    nrb.remove_preview(scene)


OMI_INERTIAS = {"Neg": [-2.0, 3.0, 4.0], "Mixed": [1e-30, -1e-3, 5.0], "Plain": [1.0, 2.0, 3.0]}


def _omi_inertias_file(tmp_path: Path) -> Path:
    return _omi_motion_file(tmp_path, "inertiaDiagonal", OMI_INERTIAS)


def _inertias(gltf: dict, fmt: str) -> dict:
    return _motion_values(gltf, fmt, "inertiaDiagonal", OMI_INERTIAS)


def test_any_omi_inertia_survives_blender_and_the_converter(clean_scene, tmp_path, caplog):
    edited = _omi_inertias_file(tmp_path)
    h.import_file(edited)
    for name, diagonal in OMI_INERTIAS.items():
        props = bpy.data.objects[name].gltf_physics
        assert props.inertia_mode == "CUSTOM", name
        assert sorted(props.inertia_diagonal) == pytest.approx(sorted(diagonal), rel=1e-6)
    exported, converted = _exported_and_converted(edited, tmp_path, caplog, _inertias,
                                                  "khr-inertia-not-positive")
    expected = {name: pytest.approx(d, rel=1e-6) for name, d in OMI_INERTIAS.items()}
    assert exported["OMI"][0] == expected and converted["OMI"][0] == expected
    assert exported["OMI"][1] == [] and converted["OMI"][1] == 0
    # KHR: no moment below 0 (its 0 is a locked axis); omitted (engine-computed), said once.
    khr = {"Neg": None, "Mixed": None, "Plain": pytest.approx([1.0, 2.0, 3.0])}
    assert exported["KHR"][0] == khr and converted["KHR"][0] == khr
    assert len(exported["KHR"][1]) == 2 and converted["KHR"][1] == 2
    assert all(("Neg" in line) != ("Mixed" in line) for line in exported["KHR"][1])


def test_a_legacy_omi_mass_survives_blender_to_omi(clean_scene, tmp_path):
    """The 2023 OMI_physics_body revision (body `type`) states no mass bound either."""
    masses = {"Neg": -2.0, "Zero": 0.0, "Tiny": 1e-30}
    nodes = [{"name": name, "translation": [3.0 * i, 0.0, 0.0], "extensions": {
        "OMI_physics_body": {"type": "rigid", "mass": mass},
        "OMI_physics_shape": {"shape": 0}}} for i, (name, mass) in enumerate(masses.items())]
    legacy = tmp_path / "legacy.gltf"
    legacy.write_text(json.dumps({
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "scene": 0, "scenes": [{"nodes": [0, 1, 2]}], "nodes": nodes,
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "size": [1, 1, 1]}]}}}))
    bpy.ops.wm.read_homefile(use_empty=True)
    h.import_file(legacy)
    for name, mass in masses.items():
        props = bpy.data.objects[name].gltf_physics
        assert (props.mass_mode, props.mass) == ("VALUE", pytest.approx(mass, rel=1e-6)), name
    gltf = h.export(tmp_path / "current.gltf", "OMI")
    h.assert_valid(tmp_path / "current.gltf")
    written = {name: _body(gltf, name, "OMI")["motion"]["mass"] for name in masses}
    assert written == pytest.approx(masses, rel=1e-6)
    out = convert_document(json.loads(legacy.read_text()), "OMI", report=Report(),
                           base_dir=tmp_path)
    assert {n["name"]: n["extensions"]["OMI_physics_body"]["motion"]["mass"]
            for n in out["nodes"]} == masses


def test_the_preview_takes_a_negative_inertia_as_bullets_own(clean_scene, tmp_path):
    """Blender's rigid body has no inertia: the preview leaves it to Bullet (from the shape)
    whatever the custom moments, and the body still simulates."""
    from gltf_physics.io.blender.preview import native_rigid_body as nrb

    h.import_file(_omi_inertias_file(tmp_path))
    scene = bpy.context.scene
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    for name in OMI_INERTIAS:
        rigid = bpy.data.objects[name].rigid_body
        assert rigid.type == "ACTIVE" and rigid.mass == pytest.approx(1.0)
    start = bpy.data.objects["Neg"].matrix_world.translation.z
    nrb.step(scene, 20)
    assert bpy.data.objects["Neg"].matrix_world.translation.z < start - 0.1  # it falls
    assert bpy.data.objects["Neg"].gltf_physics.inertia_diagonal[0] == pytest.approx(-2.0)
    nrb.remove_preview(scene)


def test_an_omi_sphere_of_radius_0_survives_blender_to_omi(clean_scene, tmp_path):
    """OMI's schema allows a sphere radius of 0: imported, stored and written back as 0."""
    ball = h.set_physics(h.mesh_object("Ball", "sphere"), motion_type="STATIC",
                         shape_type="SPHERE", size_mode="CUSTOM", radius=0.5)
    source = tmp_path / "ball.gltf"
    gltf = h.export(source, "OMI")
    gltf["extensions"]["OMI_physics_shape"]["shapes"][0]["sphere"] = {"radius": 0.0}
    source.write_text(json.dumps(gltf))
    h.import_file(source)
    ball = bpy.data.objects["Ball"]
    assert ball.gltf_physics.radius == 0.0
    out = h.export(tmp_path / "again.gltf", "OMI")
    h.assert_valid(tmp_path / "again.gltf")
    shape = out["extensions"]["OMI_physics_shape"]["shapes"][0]
    assert shape["sphere"]["radius"] == 0


def test_batch_export_says_a_bad_output_folder_in_one_line(clean_scene, tmp_path):
    """--out naming a file: one error line and exit 1 (it was a traceback)."""
    from tests.conftest import ROOT
    from tests.integration.test_readme_examples import run

    bpy.ops.wm.read_homefile(use_empty=True)
    blend = tmp_path / "level.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))
    user = tmp_path / "user"
    user.mkdir()
    taken = tmp_path / "taken"
    taken.write_text("a file", encoding="utf-8")
    done = run([str(ROOT / "scripts" / "export_physics.py"), str(blend), "--out", str(taken)],
               tmp_path, user)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("error:")] == [
        f"error: --out {taken}: File exists: nothing exported"], done.stderr
    assert taken.read_text(encoding="utf-8") == "a file"
