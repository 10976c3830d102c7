# SPDX-License-Identifier: GPL-3.0-or-later
"""The exporter's object filters (selection, visible objects, a collection) and Apply
Modifiers: a collider written without its body, or a body without its colliders, is said
once (each went silently: a lone collider is a static one); a body's computed mass reads
only the colliders the file has; and a convex shape on an object's own mesh is its evaluated
geometry whether or not the export applies modifiers."""

import logging

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.test_joints import named

FILTERED = "filtered-hierarchy"


def cart():
    """A dynamic Empty 'Cart' (Auto centre of mass) with two box colliders at x = 2 and 3."""
    body = h.set_physics(h.empty_object("Cart"), motion_type="DYNAMIC", mass=20.0)
    parts = [h.set_physics(h.mesh_object(f"Part{i}", location=(2 + i, 0, 0)), shape_type="BOX")
             for i in (0, 1)]
    for part in parts:
        part.parent = body
    return body, parts


def export_logged(path, fmt, caplog, **options) -> tuple[dict, list[str]]:
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        gltf = h.export(path, fmt, **options)
    h.assert_valid(path)
    return gltf, [r.getMessage() for r in caplog.records if r.getMessage().endswith("]")]


def said(log: list[str], code: str) -> list[str]:
    return [line for line in log if line.endswith(f"[{code}]")]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
@pytest.mark.parametrize("selected", ["parts", "body", "all"])
def test_a_selection_that_splits_a_body_from_its_colliders_is_said(clean_scene, tmp_path,
                                                                   caplog, fmt, selected):
    _body, parts = cart()
    for obj in bpy.data.objects:
        obj.select_set(selected == "all" or (obj in parts) == (selected == "parts"))
    gltf, log = export_logged(tmp_path / "out.gltf", fmt, caplog, use_selection=True)
    lines = said(log, FILTERED)
    if selected == "all":
        assert lines == [], log
        return
    what = "Part0 without Cart; Part1 without Cart" if selected == "parts" \
        else "Cart without Part0, Part1"
    assert len(lines) == 1 and f": {what} (a collider without its body" in lines[0], lines
    if selected == "body" and fmt == "OMI":  # (no centre of mass from colliders not in it)
        motion = gltf["nodes"][named(gltf, "Cart")]["extensions"]["OMI_physics_body"]["motion"]
        assert "centerOfMass" not in motion, motion


def test_hidden_colliders_left_out_by_visible_objects_are_said(clean_scene, tmp_path, caplog):
    _body, parts = cart()
    parts[1].hide_set(True)
    _gltf, log = export_logged(tmp_path / "out.gltf", "OMI", caplog, use_visible=True)
    assert len(said(log, FILTERED)) == 1 and "Cart without Part1" in said(log, FILTERED)[0]


def test_a_collection_export_without_the_body_above_is_said(clean_scene, tmp_path, caplog):
    body, parts = cart()
    kit = bpy.data.collections.new("Kit")
    clean_scene.collection.children.link(kit)
    for part in parts:
        clean_scene.collection.objects.unlink(part)
        kit.objects.link(part)
    _gltf, log = export_logged(tmp_path / "out.gltf", "KHR", caplog, collection="Kit")
    assert len(said(log, FILTERED)) == 1 and "Part0 without Cart" in said(log, FILTERED)[0]
    assert body.name == "Cart"


def test_the_whole_scene_says_nothing(clean_scene, tmp_path, caplog):
    cart()
    _gltf, log = export_logged(tmp_path / "out.gltf", "OMI", caplog)
    assert said(log, FILTERED) == [], log


@pytest.mark.parametrize("apply", [False, True])
def test_a_convex_shape_on_a_modified_mesh_is_its_evaluated_geometry(clean_scene, tmp_path,
                                                                     apply):
    """A cube with an Array of 3 and a Convex shape on its own mesh: the hull in the file
    spans the three cubes (without Apply Modifiers it was the bare cube the visible mesh is,
    while the fitted shapes and the centre of mass read the three)."""
    hull = h.set_physics(h.mesh_object("Hull"), motion_type="DYNAMIC", shape_type="CONVEX")
    hull.modifiers.new("Array", "ARRAY").count = 3
    gltf = h.export(tmp_path / "out.gltf", "OMI", export_apply=apply)
    h.assert_valid(tmp_path / "out.gltf")
    body = gltf["nodes"][named(gltf, "Hull")]["extensions"]["OMI_physics_body"]
    shape = gltf["extensions"]["OMI_physics_shape"]["shapes"][body["collider"]["shape"]]
    mesh = gltf["meshes"][shape["convex"]["mesh"]]
    position = gltf["accessors"][mesh["primitives"][0]["attributes"]["POSITION"]]
    assert position["min"][0] == pytest.approx(-0.5) and position["max"][0] == pytest.approx(2.5)
