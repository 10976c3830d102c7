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
mass_bridge = importlib.import_module(f"{MODULE}.io.blender.exporter.mass_bridge")

OMI_BODY = "OMI_physics_body"


@pytest.fixture
def solids(monkeypatch):
    """A fresh process cache, and a count of the hulls and solids actually computed."""
    cache = mass_bridge.SolidCache()
    monkeypatch.setattr(mass_bridge, "SOLIDS", cache)
    made = {"hulls": 0, "solids": 0}
    hull, solid = mass_bridge.hull_triangles, mass_bridge.mass_properties.mesh_part

    def counted_hull(points):
        made["hulls"] += 1
        return hull(points)

    def counted_solid(triangles):
        made["solids"] += 1
        return solid(triangles)

    monkeypatch.setattr(mass_bridge, "hull_triangles", counted_hull)
    monkeypatch.setattr(mass_bridge.mass_properties, "mesh_part", counted_solid)
    return made


def off_centre_body(name: str, shape_type: str, shift: float):
    """A dynamic body (Auto centre of mass) whose cube mesh sits `shift` m along +X."""
    obj = h.mesh_object(name)
    for vertex in obj.data.vertices:
        vertex.co.x += shift
    return h.set_physics(obj, motion_type="DYNAMIC", shape_type=shape_type)


def centres(gltf: dict) -> dict[str, list[float]]:
    return {node["name"]: node["extensions"][OMI_BODY]["motion"]["centerOfMass"]
            for node in gltf["nodes"] if OMI_BODY in node.get("extensions", {})}


@pytest.mark.parametrize("shape_type", ["CONVEX", "TRIMESH"])
def test_a_second_export_reuses_the_solid(clean_scene, solids, tmp_path: Path, shape_type):
    off_centre_body("Crate", shape_type, 0.5)
    first = h.export(tmp_path / "first.gltf", "OMI")
    h.assert_valid(tmp_path / "first.gltf")
    assert centres(first)["Crate"] == pytest.approx([0.5, 0.0, 0.0], abs=1e-6)
    made = dict(solids)
    assert made == {"hulls": int(shape_type == "CONVEX"), "solids": 1}
    second = h.export(tmp_path / "second.gltf", "OMI")
    assert solids == made  # nothing computed again
    assert centres(second) == centres(first)


@pytest.mark.parametrize("shape_type", ["CONVEX", "TRIMESH"])
def test_an_edited_mesh_is_computed_again(clean_scene, solids, tmp_path: Path, shape_type):
    crate = off_centre_body("Crate", shape_type, 0.5)
    h.export(tmp_path / "first.gltf", "OMI")
    for vertex in crate.data.vertices:
        vertex.co.x += 0.25
    crate.data.update()
    edited = h.export(tmp_path / "edited.gltf", "OMI")
    assert solids["solids"] == 2
    assert centres(edited)["Crate"] == pytest.approx([0.75, 0.0, 0.0], abs=1e-6)


def test_a_changed_modifier_is_computed_again(clean_scene, solids, tmp_path: Path):
    crate = off_centre_body("Crate", "CONVEX", 0.5)
    shift = crate.modifiers.new("Shift", "DISPLACE")  # no texture: along the normals
    shift.strength = 0.0
    h.export(tmp_path / "first.gltf", "OMI")
    shift.mid_level, shift.direction, shift.strength = 0.0, "X", 1.0
    moved = h.export(tmp_path / "moved.gltf", "OMI")
    assert solids["hulls"] == 2
    assert centres(moved)["Crate"] == pytest.approx([1.5, 0.0, 0.0], abs=1e-6)


def test_the_same_geometry_in_another_body_shares_the_solid(clean_scene, solids,
                                                            tmp_path: Path):
    off_centre_body("Crate", "CONVEX", 0.5)
    off_centre_body("Twin", "CONVEX", 0.5)  # its own mesh data, equal geometry
    gltf = h.export(tmp_path / "twins.gltf", "OMI")
    assert solids == {"hulls": 1, "solids": 1}
    assert centres(gltf)["Twin"] == centres(gltf)["Crate"]


def test_kept_solids_are_read_only_and_bounded():
    cache = mass_bridge.SolidCache(size=2)
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)],
                    dtype=np.float32)
    made: list[float] = []

    def solid_of(points):
        made.append(float(points[0, 0]))
        return mass_bridge.mass_properties.mesh_part(mass_bridge.hull_triangles(points))

    parts = [cache.get(cube + shift, None, lambda s=shift: solid_of(cube + s))
             for shift in (0.0, 1.0, 2.0)]
    assert len(cache) == 2 and made == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError):
        parts[0].centroid[0] = 9.0  # shared: never changed in place
    assert cache.get(cube + 2.0, None, lambda: solid_of(cube)) is parts[2]  # kept
    cache.get(cube, None, lambda: solid_of(cube))  # the oldest was dropped: made again
    assert made == [0.0, 1.0, 2.0, 0.0]
    # the same points as a triangle list are another solid than their hull
    faces = np.array([[0, 1, 2]], dtype=np.int32)
    assert cache.get(cube, faces, lambda: None) is None
