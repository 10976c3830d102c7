# SPDX-License-Identifier: GPL-3.0-or-later
"""Names a file gives its shapes, physics materials, collision filters and joint settings
come back through Blender: stored on the objects, shown in the panels, written again (an
artist may name them too), and entries that differ only by name stay apart."""

import json
from pathlib import Path

import bpy
import pytest

from tests.integration import scene_helpers as h

BODIES, SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
FORMATS = ("KHR", "OMI")


def _named_file(tmp_path: Path) -> Path:
    """Two crates with equal values whose shape, material and filter have different names,
    and a named hinge."""
    bpy.ops.wm.read_homefile(use_empty=True)
    layers = bpy.context.scene.gltf_physics.layers
    layers.add().name = "Walls"
    for index, name in enumerate(("CrateA", "CrateB")):
        h.set_physics(h.mesh_object(name, "cube", (3 * index, 0, 0)), motion_type="DYNAMIC",
                      shape_type="BOX", use_material=True, use_filter=True,
                      filter_layers=[True] + [False] * 31)
    h.build_jointed()
    path = tmp_path / "named.gltf"
    gltf = h.export(path, "KHR")
    root = gltf["extensions"][BODIES]
    root["physicsMaterials"].append(dict(root["physicsMaterials"][0], name="Ice"))
    root["collisionFilters"].append(dict(root["collisionFilters"][0], name="Walls only"))
    shapes = gltf["extensions"][SHAPES]["shapes"]
    shapes.append(dict(shapes[0], name="Crate box"))
    hinge = next(n for n in gltf["nodes"] if n.get("name") == "DoorHinge")
    root["physicsJoints"][hinge["extensions"][BODIES]["joint"]["joint"]]["name"] = "Door hinge"
    crate_b = next(n for n in gltf["nodes"] if n.get("name") == "CrateB")
    collider = crate_b["extensions"][BODIES]["collider"]
    collider["physicsMaterial"] = len(root["physicsMaterials"]) - 1
    collider["collisionFilter"] = len(root["collisionFilters"]) - 1
    collider["geometry"]["shape"] = len(shapes) - 1
    path.write_text(json.dumps(gltf))
    h.assert_valid(path)
    return path


def _entry(gltf: dict, node_name: str, fmt: str, part: str) -> dict:
    node = next(n for n in gltf["nodes"] if n.get("name") == node_name)
    ext = "OMI_physics_body" if fmt == "OMI" else BODIES
    collider = node["extensions"][ext]["collider"]
    if part == "shape":
        index = collider["shape"] if fmt == "OMI" else collider["geometry"]["shape"]
        root = "OMI_physics_shape" if fmt == "OMI" else SHAPES
        return gltf["extensions"][root]["shapes"][index]
    key = {"material": "physicsMaterial", "filter": "collisionFilter"}[part]
    pool = {"material": "physicsMaterials", "filter": "collisionFilters"}[part]
    return gltf["extensions"][ext][pool][collider[key]]


@pytest.mark.parametrize("fmt", FORMATS)
def test_imported_names_are_stored_and_written_again(clean_scene, tmp_path, fmt):
    h.import_file(_named_file(tmp_path))
    objects = bpy.data.objects
    crate_b = objects["CrateB"].gltf_physics
    assert (crate_b.shape_name, crate_b.material_name, crate_b.filter_name) == (
        "Crate box", "Ice", "Walls only")
    crate_a = objects["CrateA"].gltf_physics
    assert (crate_a.shape_name, crate_a.material_name, crate_a.filter_name) == ("", "", "")
    [hinge] = [o for o in objects if o.gltf_physics.joint_type == "HINGE"]
    assert hinge.gltf_physics.joint_name == "Door hinge"

    out = tmp_path / f"again.{fmt}.gltf"
    gltf = h.export(out, fmt)
    h.assert_valid(out)
    for part, name in (("shape", "Crate box"), ("material", "Ice"), ("filter", "Walls only")):
        assert _entry(gltf, "CrateB", fmt, part).get("name") == name, part
        assert "name" not in _entry(gltf, "CrateA", fmt, part), part
    joints = gltf["extensions"]["OMI_physics_joint" if fmt == "OMI" else BODIES]["physicsJoints"]
    assert sorted(j.get("name", "") for j in joints) == ["", "Door hinge"]


def test_names_set_in_blender_are_written(clean_scene, tmp_path):
    h.set_physics(h.mesh_object("Rock", "cube"), motion_type="STATIC", shape_type="CONVEX",
                  mesh_source="SELF", shape_name="Rock hull", use_material=True,
                  material_name="Granite")
    gltf = h.export(tmp_path / "rock.gltf", "OMI")
    h.assert_valid(tmp_path / "rock.gltf")
    assert _entry(gltf, "Rock", "OMI", "shape")["name"] == "Rock hull"
    assert _entry(gltf, "Rock", "OMI", "material")["name"] == "Granite"


def test_a_shaped_gravity_volumes_shape_name_comes_back(clean_scene, tmp_path):
    h.set_physics(h.empty_object("Well"), shape_type="SPHERE", shape_role="TRIGGER",
                  gravity_type="SHAPED", gravity_shape_type="BOX",
                  gravity_shape_name="Pull box")
    path = tmp_path / "well.gltf"
    h.export(path, "OMI")
    h.assert_valid(path)
    h.import_file(path)
    assert bpy.data.objects["Well"].gltf_physics.gravity_shape_name == "Pull box"
    gltf = h.export(tmp_path / "again.gltf", "OMI")
    h.assert_valid(tmp_path / "again.gltf")
    names = [s.get("name") for s in gltf["extensions"]["OMI_physics_shape"]["shapes"]]
    assert names.count("Pull box") == 1


def test_decomposition_parts_take_the_materials_name(clean_scene):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    rock = h.set_physics(h.mesh_object("Rock", "sphere"), motion_type="STATIC",
                         shape_type="TRIMESH", use_material=True, material_name="Granite",
                         use_filter=True, filter_name="Walls only")
    for obj in bpy.data.objects:
        obj.select_set(obj == rock)
    bpy.context.view_layer.objects.active = rock
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    parts = [child.gltf_physics for child in rock.children]
    assert parts and all((p.material_name, p.filter_name) == ("Granite", "Walls only")
                         for p in parts)
