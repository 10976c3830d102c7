# SPDX-License-Identifier: GPL-3.0-or-later
"""Mesh solids kept between exports (OMI's Auto centre of mass): computed once per geometry,
recomputed as soon as the geometry changes, never changed in place."""

import importlib
from pathlib import Path

import numpy as np
import pytest

from . import scene_helpers as h
from .conftest import MODULE

#: the add-on's own module (the one its export runs)
kept_solids = importlib.import_module(f"{MODULE}.io.blender.exporter.kept_solids")

OMI_BODY = "OMI_physics_body"


def counting(monkeypatch, size: int = kept_solids.KEPT_SOLIDS) -> dict[str, int]:
    """Fresh kept solids for the process, and a count of the hulls and solids computed."""
    monkeypatch.setattr(kept_solids, "SOLIDS", kept_solids.KeptSolids(size))
    made = {"hulls": 0, "solids": 0}
    hull, solid = kept_solids.hull_triangles, kept_solids.mass_properties.mesh_part

    def counted_hull(points):
        made["hulls"] += 1
        return hull(points)

    def counted_solid(triangles):
        made["solids"] += 1
        return solid(triangles)

    monkeypatch.setattr(kept_solids, "hull_triangles", counted_hull)
    monkeypatch.setattr(kept_solids.mass_properties, "mesh_part", counted_solid)
    return made


@pytest.fixture
def solids(monkeypatch) -> dict[str, int]:
    return counting(monkeypatch)


def off_centre_body(name: str, shape_type: str, shift: float):
    """A dynamic body (Auto centre of mass) whose cube mesh sits `shift` m along +X."""
    obj = h.mesh_object(name)
    for vertex in obj.data.vertices:
        vertex.co.x += shift
    return h.set_physics(obj, motion_type="DYNAMIC", shape_type=shape_type)


def exported(path: Path) -> dict:
    """An OMI export of the scene, checked against the schemas and glTF-Validator."""
    gltf = h.export(path, "OMI")
    h.assert_valid(path)
    return gltf


def centres(gltf: dict) -> dict[str, list[float]]:
    return {node["name"]: node["extensions"][OMI_BODY]["motion"]["centerOfMass"]
            for node in gltf["nodes"] if OMI_BODY in node.get("extensions", {})}


@pytest.mark.parametrize("shape_type", ["CONVEX", "TRIMESH"])
def test_a_second_export_reuses_the_solid(clean_scene, solids, tmp_path: Path, shape_type):
    off_centre_body("Crate", shape_type, 0.5)
    first = exported(tmp_path / "first.gltf")
    assert centres(first)["Crate"] == pytest.approx([0.5, 0.0, 0.0], abs=1e-6)
    made = dict(solids)
    assert made == {"hulls": int(shape_type == "CONVEX"), "solids": 1}
    second = exported(tmp_path / "second.gltf")
    assert solids == made  # nothing computed again
    assert centres(second) == centres(first)


@pytest.mark.parametrize("shape_type", ["CONVEX", "TRIMESH"])
def test_an_edited_mesh_is_computed_again(clean_scene, solids, tmp_path: Path, shape_type):
    crate = off_centre_body("Crate", shape_type, 0.5)
    exported(tmp_path / "first.gltf")
    for vertex in crate.data.vertices:
        vertex.co.x += 0.25
    crate.data.update()
    edited = exported(tmp_path / "edited.gltf")
    assert solids["solids"] == 2
    assert centres(edited)["Crate"] == pytest.approx([0.75, 0.0, 0.0], abs=1e-6)


def test_a_changed_modifier_is_computed_again(clean_scene, solids, tmp_path: Path):
    crate = off_centre_body("Crate", "CONVEX", 0.5)
    shift = crate.modifiers.new("Shift", "DISPLACE")  # no texture: a uniform shift
    shift.strength = 0.0
    exported(tmp_path / "first.gltf")
    shift.mid_level, shift.direction, shift.strength = 0.0, "X", 1.0
    moved = exported(tmp_path / "moved.gltf")
    assert solids["hulls"] == 2
    assert centres(moved)["Crate"] == pytest.approx([1.5, 0.0, 0.0], abs=1e-6)


@pytest.mark.parametrize("kept", [kept_solids.KEPT_SOLIDS, 0])
def test_the_same_geometry_in_another_body_shares_the_solid(clean_scene, monkeypatch,
                                                            tmp_path: Path, kept):
    solids = counting(monkeypatch, kept)
    off_centre_body("Crate", "CONVEX", 0.5)
    off_centre_body("Twin", "CONVEX", 0.5)  # its own mesh data, equal geometry
    gltf = exported(tmp_path / "twins.gltf")
    hulls = 1 if kept else 2  # (keeping none: each body's mesh is computed)
    assert solids == {"hulls": hulls, "solids": hulls}
    assert centres(gltf)["Twin"] == centres(gltf)["Crate"]


def test_a_static_body_needs_no_solid(clean_scene, solids, tmp_path: Path, caplog):
    """A static body does not move about a centre of mass: its mesh's solid is not computed,
    none is written and nothing is said (a moving body's still is)."""
    import logging

    floor = off_centre_body("Floor", "TRIMESH", 0.5)
    floor.gltf_physics.motion_type = "STATIC"
    off_centre_body("Crate", "CONVEX", 0.5).location.y = 5.0
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = exported(tmp_path / "static.gltf")
    motions = {node["name"]: node["extensions"][OMI_BODY]["motion"] for node in gltf["nodes"]
               if "motion" in node.get("extensions", {}).get(OMI_BODY, {})}
    assert motions["Floor"]["type"] == "static" and "centerOfMass" not in motions["Floor"]
    assert motions["Crate"]["centerOfMass"][0] == pytest.approx(0.5, abs=1e-6)
    assert solids == {"hulls": 1, "solids": 1}  # the crate's only
    assert "omi-computed-center" not in caplog.text


CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)


def test_kept_solids_are_read_only_and_bounded(monkeypatch):
    solids = counting(monkeypatch)
    cache = kept_solids.KeptSolids(size=2)
    parts = [cache.hull_solid(CUBE + shift) for shift in (0.0, 1.0, 2.0)]
    assert len(cache) == 2 and solids["hulls"] == 3
    assert parts[0].centroid == pytest.approx([0.5, 0.5, 0.5])
    with pytest.raises(ValueError):
        parts[0].centroid[0] = 9.0  # shared: never changed in place
    assert cache.hull_solid(CUBE + 2.0) is parts[2] and solids["hulls"] == 3  # kept
    assert cache.hull_solid(CUBE) is not parts[0] and solids["hulls"] == 4  # dropped: again
    assert cache.hull_solid(CUBE + 1.0) is not parts[1] and solids["hulls"] == 5


def test_no_volume_is_kept_too_and_bad_points_are_not(monkeypatch):
    solids = counting(monkeypatch)
    cache = kept_solids.KeptSolids()
    flat = CUBE * (1.0, 1.0, 0.0)
    assert cache.hull_solid(flat) is None and cache.hull_solid(flat) is None
    assert solids["hulls"] == 1
    bad = CUBE.copy()
    bad[0, 0] = np.nan
    for _ in range(2):
        with pytest.raises(ValueError):
            cache.hull_solid(bad)
    assert solids["hulls"] == 3 and len(cache) == 1


def test_a_triangle_list_is_another_solid_than_the_hull_of_its_points(monkeypatch):
    solids = counting(monkeypatch)
    cache = kept_solids.KeptSolids()
    hull = cache.hull_solid(CUBE)
    one_triangle = cache.mesh_solid(CUBE, np.array([[0, 1, 2]], dtype=np.int32))
    assert hull is not None and one_triangle is None  # a lone triangle encloses nothing
    assert solids == {"hulls": 1, "solids": 2}


def test_check_physics_builds_a_shared_hull_once(clean_scene, monkeypatch):
    """Check Physics looks at each convex shape's hull: objects sharing a mesh, and a check
    run again (after a Fix), build it once; an edited mesh builds it again."""
    import bpy

    monkeypatch.setattr(kept_solids, "SOLIDS", kept_solids.KeptSolids())
    hull = importlib.import_module(f"{MODULE}.io.blender.tools.hull")
    validation = importlib.import_module(f"{MODULE}.io.blender.tools.validation")
    built = []
    real = hull.hull_of_points
    monkeypatch.setattr(hull, "hull_of_points", lambda points: built.append(1) or real(points))
    first = h.set_physics(h.mesh_object("Rock", "monkey"), shape_type="CONVEX")
    for index in range(3):
        twin = bpy.data.objects.new(f"Rock.{index}", first.data)
        bpy.context.scene.collection.objects.link(twin)
        h.set_physics(twin, shape_type="CONVEX")
    before = validation.validate_scene(bpy.context.scene)
    assert len(built) == 1
    assert validation.validate_scene(bpy.context.scene) == before and len(built) == 1
    first.data.vertices[0].co.x += 5.0
    first.data.update()
    validation.validate_scene(bpy.context.scene)
    assert len(built) == 2
