# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender's cross-family export says what the converter says: a fully locked rotation in
OMI, the centre of a static joint partner, and KHR `geometry.node` meshes below the node."""

import json
from pathlib import Path
from typing import Any

import pytest

from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from tests.unit.test_cross_family_losses import (
    HINGE,
    OMI_BODY,
    door_on_a_world_frame,
    khr_document,
    khr_ext,
)

from .scene_helpers import load_gltf
from .test_import_hostile_files import import_logged
from .test_meaning_cases import locked_box, through_blender
from .test_meaning_roundtrip import export_logged, reported_codes


def khr_file(path: Path, nodes: list[dict[str, Any]], roots: list[int] | None = None,
             **root: Any) -> Path:
    path.write_text(json.dumps(khr_document(nodes, roots, **root)))
    return path


def converted(path: Path) -> tuple[dict[str, Any], Report]:
    report = Report()
    return convert_document(json.loads(path.read_text()), "OMI", report=report,
                            base_dir=path.parent), report


def motion_named(gltf: dict[str, Any], name: str) -> dict[str, Any]:
    node = next(n for n in gltf["nodes"] if n.get("name") == name)
    return node["extensions"][OMI_BODY]["motion"]


# -- a fully locked rotation in OMI -------------------------------------------------------------


def test_full_khr_lock_is_written_like_the_converter(tmp_path: Path, caplog) -> None:
    source = khr_file(tmp_path / "locked.gltf", [
        {"name": "Locked", "children": [1],
         **khr_ext(motion={"mass": 5, "inertiaDiagonal": [0, 0, 0]})},
        {"name": "Part", **khr_ext(collider={"geometry": {"shape": 0}})}])
    omi, codes = through_blender(source, "OMI", tmp_path, caplog)
    written = motion_named(omi, "Locked")["inertiaDiagonal"]
    assert written == pytest.approx([1000 * 5 / 6] * 3, rel=1e-6)  # 1 m cube of 5 kg
    assert "omi-locked-rotation" in codes and "omi-lock-unwritten" not in codes
    out, report = converted(source)
    assert motion_named(out, "Locked")["inertiaDiagonal"] == pytest.approx(written, rel=1e-6)
    assert "omi-locked-rotation" in report.codes()


def test_blender_full_lock_scales_on_the_colliders(clean_scene, helpers, tmp_path: Path,
                                                    caplog) -> None:
    locked_box(helpers, (True, True, True))
    log = export_logged(tmp_path / "locked.gltf", "OMI", caplog)
    helpers.assert_valid(tmp_path / "locked.gltf")
    # a 2 m cube of 6 kg: 4 kg·m² about each axis
    written = motion_named(load_gltf(tmp_path / "locked.gltf"), "Body")
    assert written["inertiaDiagonal"] == pytest.approx([4000.0] * 3, rel=1e-6)
    assert reported_codes(log)["omi-locked-rotation"] == 1
    assert "inertia-not-computed" not in reported_codes(log)


def test_blender_full_lock_without_colliders_is_not_claimed(clean_scene, helpers,
                                                            tmp_path: Path, caplog) -> None:
    body = helpers.empty_object("Body")
    helpers.set_physics(body, motion_type="DYNAMIC", mass=2.0, lock_rotation=(True, True, True))
    log = export_logged(tmp_path / "bare.gltf", "OMI", caplog)
    helpers.assert_valid(tmp_path / "bare.gltf")
    assert "inertiaDiagonal" not in motion_named(load_gltf(tmp_path / "bare.gltf"), "Body")
    codes = reported_codes(log)
    assert codes["omi-lock-unwritten"] == 1
    assert not {"omi-locked-rotation", "inertia-not-computed"} & set(codes)


# -- the centre of a static joint partner ---------------------------------------------------------


def test_static_joint_partner_centre_matches_the_converter(tmp_path: Path, caplog) -> None:
    """Blender and the converter both write a static partner without a centre of mass."""
    source = khr_file(tmp_path / "hinge.gltf", door_on_a_world_frame(), physicsJoints=HINGE)
    omi, codes = through_blender(source, "OMI", tmp_path, caplog)
    out, report = converted(source)
    for gltf in (omi, out):
        partner = motion_named(gltf, "Frame")
        assert partner["type"] == "static"
        assert "centerOfMass" not in partner  # a static body's is not simulated
    assert "omi-computed-center" not in codes and "omi-computed-center" not in report.codes()


# -- KHR geometry.node meshes below the node ---------------------------------------------------


def test_geometry_node_children_are_said_on_import(clean_scene, tmp_path: Path,
                                                   caplog) -> None:
    source = khr_file(tmp_path / "children.gltf", [
        {"name": "Body", "children": [1], **khr_ext(motion={"mass": 1})},
        {"name": "Col", **khr_ext(collider={"geometry": {"node": 2, "convexHull": True}})},
        {"name": "Visual", "mesh": 0, "children": [3]},
        {"name": "VisualChild", "mesh": 0, "translation": [0, 3, 0]}], roots=[0, 2])
    log = import_logged(source, caplog)
    assert sum("[geometry-node-children]" in line for line in log) == 1
    _out, report = converted(source)
    assert report.codes().count("geometry-node-children") == 1


def test_blender_full_lock_with_custom_inertia_and_centre_scales_on_the_colliders(
        clean_scene, helpers, tmp_path: Path, caplog) -> None:
    """A body with Custom inertia and centre needs no computed mass, but a rotation locked
    about every axis still needs the colliders' moments in OMI (it was left free)."""
    locked_box(helpers, (True, True, True), inertia_mode="CUSTOM", center_of_mass_mode="CUSTOM")
    log = export_logged(tmp_path / "locked.gltf", "OMI", caplog)
    helpers.assert_valid(tmp_path / "locked.gltf")
    written = motion_named(load_gltf(tmp_path / "locked.gltf"), "Body")
    assert written["inertiaDiagonal"] == pytest.approx([4000.0] * 3, rel=1e-6)
    assert "omi-lock-unwritten" not in reported_codes(log)


# -- a KHR geometry.node target's own transform ------------------------------------------------


def geometry_node_file(path: Path, target: dict[str, Any]) -> Path:
    """Two colliders of one body name node 3 (`target`, with the cube mesh) in their
    geometry; node 3 is a scene root of its own."""
    collider = khr_ext(collider={"geometry": {"node": 3, "convexHull": True}})
    return khr_file(path, [
        {"name": "Body", "children": [1, 2], **khr_ext(motion={"mass": 1})},
        {"name": "ColA", **collider}, {"name": "ColB", **collider},
        {"name": "Visual", "mesh": 0, **target}], roots=[0, 3])


def test_moved_geometry_node_is_said_once_on_import_as_the_converter_says(
        clean_scene, tmp_path: Path, caplog) -> None:
    source = geometry_node_file(tmp_path / "moved.gltf",
                                {"translation": [2, 0, 0], "scale": [2, 2, 2]})
    log = import_logged(source, caplog)
    said = [line for line in log if "[geometry-node-transform]" in line]
    assert len(said) == 1 and "/nodes/3" in said[0]
    _out, report = converted(source)
    assert [i.where for i in report.issues if i.code == "geometry-node-transform"] == ["/nodes/3"]


@pytest.mark.parametrize("target", [
    {}, {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]},
    {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
], ids=["none", "identity-trs", "identity-matrix"])
def test_geometry_node_at_identity_is_not_said_on_import(clean_scene, tmp_path: Path, caplog,
                                                         target: dict[str, Any]) -> None:
    source = geometry_node_file(tmp_path / "still.gltf", target)
    log = import_logged(source, caplog)
    assert not [line for line in log if "[geometry-node-transform]" in line]
    _out, report = converted(source)
    assert "geometry-node-transform" not in report.codes()


def test_geometry_node_naming_its_own_node_is_not_said_on_import(clean_scene, tmp_path: Path,
                                                                 caplog) -> None:
    source = khr_file(tmp_path / "self.gltf", [
        {"name": "Self", "mesh": 0, "translation": [1, 0, 0], "scale": [2, 2, 2],
         **khr_ext(motion={"mass": 1}, collider={"geometry": {"node": 0}})}])
    assert not [line for line in import_logged(source, caplog)
                if "[geometry-node-transform]" in line]
