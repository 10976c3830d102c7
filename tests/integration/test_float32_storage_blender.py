# SPDX-License-Identifier: GPL-3.0-or-later
"""Float32 storage through a real import and export: a value a valid file states in a field
the schema wants above 0 comes back as the same float32, subnormals included (1e-40); one
float32 would make 0 (1e-300) comes back as float32's smallest positive number, which the
import says exactly; a shape that small exports and previews without NaN, infinity or a
traceback; and one value many nodes state is said on one line."""

import importlib
import json
import math
import struct
from pathlib import Path
from typing import Any

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

SMALLEST = importlib.import_module(f"{MODULE}.io.float32_storage").SMALLEST
#: Every field above 0 a file below states, by where the written file holds it.
KHR_FIELDS = ("box.size", "capsule.height", "cylinder.height")
OMI_FIELDS = ("box.size", "capsule.height", "wheel.radius", "wheel.width",
              "wheel.suspensionStiffness")


def as_float32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


def _child(name: str, extensions: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "extensions": extensions}


def khr_file(value: float) -> dict[str, Any]:
    """A body with a box, a capsule and a cylinder collider, each `value` along one field."""
    shapes = [{"type": "box", "box": {"size": [1, value, 3]}},
              {"type": "capsule", "capsule": {"height": value, "radiusTop": 0.25,
                                              "radiusBottom": 0.25}},
              {"type": "cylinder", "cylinder": {"height": value, "radiusTop": 0.3,
                                                "radiusBottom": 0.3}}]
    colliders = [_child(name, {"KHR_physics_rigid_bodies": {
        "collider": {"geometry": {"shape": index}}}})
        for index, name in enumerate(("Box", "Capsule", "Cylinder"))]
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Body", "children": [1, 2, 3], "extensions": {
            "KHR_physics_rigid_bodies": {"motion": {"mass": 2}}}}, *colliders],
        "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {"KHR_implicit_shapes": {"shapes": shapes}},
    }


def omi_file(value: float) -> dict[str, Any]:
    """A vehicle with a box and a capsule collider and a wheel, each `value` along the
    fields above 0."""
    shapes = [{"type": "box", "box": {"size": [1, value, 3]}},
              {"type": "capsule", "capsule": {"height": value, "radiusTop": 0.25,
                                              "radiusBottom": 0.25}}]
    wheel = {"radius": value, "width": value, "suspensionStiffness": value}
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "Body", "children": [1, 2, 3], "extensions": {
                "OMI_physics_body": {"motion": {"type": "dynamic", "mass": 2}},
                "OMI_vehicle_body": {}}},
            _child("Box", {"OMI_physics_body": {"collider": {"shape": 0}}}),
            _child("Capsule", {"OMI_physics_body": {"collider": {"shape": 1}}}),
            _child("Wheel", {"OMI_vehicle_wheel": {"wheel": 0}}),
        ],
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_vehicle_body",
                           "OMI_vehicle_wheel"],
        "extensions": {"OMI_physics_shape": {"shapes": shapes},
                       "OMI_vehicle_wheel": {"wheels": [wheel]}},
    }


def written(gltf: dict[str, Any], fields: tuple[str, ...]) -> dict[str, float]:
    """Each field's value in an exported file (a box's the middle of its size)."""
    root = gltf["extensions"]
    pool = (root.get("KHR_implicit_shapes") or root["OMI_physics_shape"])["shapes"]
    shapes = {shape["type"]: shape[shape["type"]] for shape in pool}
    wheel = root.get("OMI_vehicle_wheel", {}).get("wheels", [{}])[0]
    out = {}
    for name in fields:
        part, key = name.split(".")
        found = wheel[key] if part == "wheel" else shapes[part][key]
        out[name] = found[1] if part == "box" else found
    return out


def import_logged(path: Path, caplog) -> list[str]:
    bpy.ops.wm.read_homefile(use_empty=True)
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("gltf_physics:")]


@pytest.mark.parametrize("target", ["OMI", "KHR"])
@pytest.mark.parametrize(("make", "fields"), [(khr_file, KHR_FIELDS), (omi_file, OMI_FIELDS)],
                         ids=["khr-file", "omi-file"])
def test_a_subnormal_value_above_zero_comes_back(clean_scene, tmp_path, caplog, make, fields,
                                                  target):
    """1e-40 is a float32 (a subnormal): kept as it is, unsaid, in both formats (it came
    back as 1.1754944e-38, float32's smallest normal number, and nothing said so)."""
    path = tmp_path / "tiny.gltf"
    path.write_text(json.dumps(make(1e-40)))
    said = import_logged(path, caplog)
    assert not [line for line in said if "float32" in line], said
    back = written(h.export(tmp_path / "out.gltf", target), fields)
    assert {name: as_float32(v) for name, v in back.items()} == dict.fromkeys(
        fields, as_float32(1e-40))


@pytest.mark.parametrize("target", ["OMI", "KHR"])
@pytest.mark.parametrize(("make", "fields"), [(khr_file, KHR_FIELDS), (omi_file, OMI_FIELDS)],
                         ids=["khr-file", "omi-file"])
def test_a_value_float32_makes_0_comes_back_as_said(clean_scene, tmp_path, caplog, make,
                                                     fields, target):
    """1e-300 is stored as float32's smallest positive number, and the import says the
    number the file then gets (it said 1.4013e-45 and the file got 1.1754944e-38)."""
    path = tmp_path / "tinier.gltf"
    path.write_text(json.dumps(make(1e-300)))
    said = [line for line in import_logged(path, caplog) if "[number-below-float32]" in line]
    assert said and all("stored as 1e-45" in line for line in said), said
    back = written(h.export(tmp_path / "out.gltf", target), fields)
    assert {name: as_float32(v) for name, v in back.items()} == dict.fromkeys(
        fields, SMALLEST)
    assert as_float32(1.401298e-45) == SMALLEST


def test_a_subnormal_shape_exports_and_previews_finite(clean_scene, tmp_path):
    """Mass, inertia and the preview of bodies with float32's smallest sizes: finite numbers
    and no traceback (the inertia divides by the shape's volume)."""
    shapes = {"Box": {"shape_type": "BOX", "box_size": (SMALLEST,) * 3},
              "Sphere": {"shape_type": "SPHERE", "radius": SMALLEST},
              "Capsule": {"shape_type": "CAPSULE", "height": SMALLEST,
                          "radius_top": SMALLEST, "radius_bottom": SMALLEST}}
    for x, (name, values) in enumerate(shapes.items()):
        obj = h.set_physics(h.mesh_object(name, location=(3 * x, 0, 0)), motion_type="DYNAMIC",
                            size_mode="CUSTOM", lock_rotation=(True, False, False), **values)
        assert obj.gltf_physics.height == values.get("height", 1.0)  # kept, not raised
    assert tuple(bpy.data.objects["Box"].gltf_physics.box_size) == (SMALLEST,) * 3
    for target in ("KHR", "OMI"):
        gltf = h.export(tmp_path / f"{target}.gltf", target)
        motions = [payload["motion"] for node in gltf["nodes"]
                   for payload in (node.get("extensions") or {}).values() if "motion" in payload]
        numbers = [v for m in motions for v in (m.get("mass", 1.0), *m["inertiaDiagonal"])]
        assert len(motions) == 3 and all(math.isfinite(v) for v in numbers), motions
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    for frame in range(1, 4):
        clean_scene.frame_set(frame)
    assert all(math.isfinite(v) for obj in bpy.data.objects for v in obj.matrix_world.col[3])
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}


def test_one_value_many_nodes_state_is_said_once(clean_scene, tmp_path, caplog):
    """150 bodies, each its own motion, with one huge velocity: one line with the count (it
    was 100 lines, then "50 more … not listed")."""
    gltf = omi_file(1.0)
    count = len(gltf["nodes"])
    gltf["nodes"] += [{"name": f"B{i}", "extensions": {"OMI_physics_body": {"motion": {
        "type": "dynamic", "mass": 1 + i, "linearVelocity": [1e300, 0, 0]}}}}
        for i in range(150)]
    gltf["scenes"][0]["nodes"] += range(count, count + 150)
    path = tmp_path / "many.gltf"
    path.write_text(json.dumps(gltf))
    said = [line for line in import_logged(path, caplog) if "number-beyond-float32" in line]
    assert said[0].endswith(f"(150 nodes: /nodes/{count}, /nodes/{count + 1}, "
                            f"/nodes/{count + 2} and 147 more) [number-beyond-float32]"), said
    assert len(said) == 2 and "1 physics problem (" in said[1], said


def test_an_omi_sphere_of_radius_0_is_written_to_khr_as_said(clean_scene, tmp_path, caplog):
    """KHR wants a radius above 0: float32's smallest positive number is written, and the
    export says that number."""
    gltf = omi_file(1.0)
    gltf["extensions"]["OMI_physics_shape"]["shapes"][1] = {"type": "sphere",
                                                           "sphere": {"radius": 0}}
    path = tmp_path / "point.gltf"
    path.write_text(json.dumps(gltf))
    import_logged(path, caplog)
    assert bpy.data.objects["Capsule"].gltf_physics.radius == 0.0
    with caplog.at_level("WARNING"):
        back = h.export(tmp_path / "out.gltf", "KHR")
    said = [r.getMessage() for r in caplog.records if "[degenerate-shape]" in r.getMessage()]
    (radius,) = [shape["sphere"]["radius"]
                 for shape in back["extensions"]["KHR_implicit_shapes"]["shapes"]
                 if shape["type"] == "sphere"]
    assert as_float32(radius) == SMALLEST
    assert len(said) == 1 and f"written with radius {radius!r} " in said[0], said
