# SPDX-License-Identifier: GPL-3.0-or-later
"""Any mass OMI's schema allows (0 and below included) is read, kept and written unchanged to
OMI; KHR, which cannot say it (its 0 is infinite, below 0 invalid), omits it and says so once
per body. Pure: the codecs and the converter."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gltf_physics.io.codecs.registry import decode_document
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from tests.conftest import SHARED
from tests.support.schemas import PhysicsSchemaValidator

MASSES = (-2.0, 0.0, 1e-30)
BODY, SHAPE = "OMI_physics_body", "OMI_physics_shape"


def omi_file(masses: tuple[float, ...]) -> dict[str, Any]:
    """One dynamic boxed body per mass."""
    nodes = [{"name": f"Body{i}", "translation": [3.0 * i, 0.0, 0.0], "extensions": {BODY: {
        "motion": {"type": "dynamic", "mass": mass}, "collider": {"shape": 0}}}}
        for i, mass in enumerate(masses)]
    return {"asset": {"version": "2.0"}, "extensionsUsed": [BODY, SHAPE],
            "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes,
            "extensions": {SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}}}


def written_masses(gltf: dict[str, Any], ext: str) -> list[float | None]:
    return [node["extensions"][ext]["motion"].get("mass") for node in gltf["nodes"]]


@pytest.mark.parametrize("mass", MASSES)
def test_the_omi_reader_keeps_the_mass(mass) -> None:
    report = Report()
    scene = decode_document(DocumentView.from_json(omi_file((mass,))), report)
    assert report.issues == []
    assert scene.nodes[0].motion.mass == mass  # not computed (None), not infinite


def test_the_converter_keeps_an_omi_mass_in_omi() -> None:
    source = omi_file(MASSES)
    report = Report()
    out = convert_document(copy.deepcopy(source), "OMI", report=report)
    assert written_masses(out, BODY) == list(MASSES)
    assert report.issues == []
    assert PhysicsSchemaValidator(SHARED / "specs").errors(out) == []


@pytest.mark.parametrize("form", ["mesh", "node"])
def test_khr_omits_a_mass_it_cannot_say_and_says_so_once_per_body(form) -> None:
    report = Report()
    out = convert_document(omi_file(MASSES), "KHR", khr_geometry=form, report=report)
    ext = "KHR_physics_rigid_bodies"
    assert written_masses(out, ext) == [None, None, 1e-30]
    said = [i for i in report.issues if i.code == "khr-mass-not-positive"]
    assert len(said) == 2 and len({i.where for i in said}) == 2
    assert all(i.severity == "warning" for i in said)
    validator = PhysicsSchemaValidator(SHARED / "specs", node_geometry=form == "node")
    assert validator.errors(out) == []


def legacy_omi_file(masses: tuple[float, ...]) -> dict[str, Any]:
    """The 2023 OMI_physics_body revision (body `type`, node-level shape): one rigid body per
    mass."""
    nodes = [{"name": f"Body{i}", "translation": [3.0 * i, 0.0, 0.0], "extensions": {
        BODY: {"type": "rigid", "mass": mass}, SHAPE: {"shape": 0}}}
        for i, mass in enumerate(masses)]
    return {"asset": {"version": "2.0"}, "extensionsUsed": [BODY, SHAPE],
            "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes,
            "extensions": {SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}}}


@pytest.mark.parametrize("mass", MASSES)
def test_the_legacy_omi_reader_keeps_the_mass(mass) -> None:
    report = Report()
    scene = decode_document(DocumentView.from_json(legacy_omi_file((mass,))), report)
    assert not [i for i in report.issues if i.severity != "info"]
    assert scene.nodes[0].motion.mass == mass


def test_the_converter_keeps_a_legacy_omi_mass_in_omi() -> None:
    report = Report()
    out = convert_document(legacy_omi_file(MASSES), "OMI", report=report)
    assert written_masses(out, BODY) == list(MASSES)
    assert "out-of-range" not in report.codes()
    assert PhysicsSchemaValidator(SHARED / "specs").errors(out) == []


INERTIAS = ([-2.0, 3.0, 4.0], [1e-30, -1e-3, 5.0], [1.0, 2.0, 3.0])


def omi_inertia_file() -> dict[str, Any]:
    gltf = omi_file((1.0,) * len(INERTIAS))
    for node, diagonal in zip(gltf["nodes"], INERTIAS, strict=True):
        node["extensions"][BODY]["motion"]["inertiaDiagonal"] = diagonal
    return gltf


def written_inertias(gltf: dict[str, Any], ext: str) -> list[list[float] | None]:
    return [node["extensions"][ext]["motion"].get("inertiaDiagonal") for node in gltf["nodes"]]


def test_the_omi_reader_keeps_any_inertia() -> None:
    report = Report()
    scene = decode_document(DocumentView.from_json(omi_inertia_file()), report)
    assert report.issues == []
    assert [list(scene.nodes[i].motion.inertia_diagonal) for i in range(3)] == list(INERTIAS)


def test_the_converter_keeps_an_omi_inertia_in_omi() -> None:
    report = Report()
    out = convert_document(omi_inertia_file(), "OMI", report=report)
    assert written_inertias(out, BODY) == list(INERTIAS)
    assert report.issues == []
    assert PhysicsSchemaValidator(SHARED / "specs").errors(out) == []


@pytest.mark.parametrize("form", ["mesh", "node"])
def test_khr_omits_a_negative_inertia_and_says_so_once_per_body(form) -> None:
    report = Report()
    out = convert_document(omi_inertia_file(), "KHR", khr_geometry=form, report=report)
    ext = "KHR_physics_rigid_bodies"
    assert written_inertias(out, ext) == [None, None, [1.0, 2.0, 3.0]]
    motions = [node["extensions"][ext]["motion"] for node in out["nodes"]]
    assert ["inertiaOrientation" in m for m in motions] == [False, False, True]
    said = [i for i in report.issues if i.code == "khr-inertia-not-positive"]
    assert len(said) == 2 and len({i.where for i in said}) == 2
    assert all(i.severity == "warning" for i in said)
    validator = PhysicsSchemaValidator(SHARED / "specs", node_geometry=form == "node")
    assert validator.errors(out) == []


def test_khr_keeps_a_locked_axis() -> None:
    """A KHR 0 moment is a locked axis (infinite): written back as 0, nothing reported."""
    gltf = omi_file((1.0,))
    gltf["nodes"][0]["extensions"] = {"KHR_physics_rigid_bodies": {
        "motion": {"mass": 2.0, "inertiaDiagonal": [0.0, 1.0, 2.0]}, "collider": {
            "geometry": {"shape": 0}}}}
    gltf["extensionsUsed"] = ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"]
    gltf["extensions"] = {"KHR_implicit_shapes": {"shapes": [
        {"type": "box", "box": {"size": [1, 1, 1]}}]}}
    report = Report()
    out = convert_document(gltf, "KHR", report=report)
    assert written_inertias(out, "KHR_physics_rigid_bodies") == [[0.0, 1.0, 2.0]]
    assert "khr-inertia-not-positive" not in report.codes()


def test_what_khr_drops_of_an_omi_inertia_is_all_it_cannot_say() -> None:
    from tests.support.meaning import meaning_differences

    source = omi_inertia_file()
    omi = convert_document(copy.deepcopy(source), "OMI", report=Report())
    assert meaning_differences(source, None, omi, None, "OMI") == []
    khr = convert_document(copy.deepcopy(source), "KHR", report=Report())
    diffs = meaning_differences(source, None, khr, None, "KHR")
    assert len(diffs) == 2 and all("inertia" in d for d in diffs)
    assert all(d.endswith("(KHR cannot express this)") for d in diffs)


def test_a_zero_moment_is_not_written_to_omi_where_it_means_computed() -> None:
    """A custom moment of exactly 0 (only Blender can make one: a file's OMI 0 reads as
    computed, a KHR 0 as a locked axis) is left out of OMI and said once."""
    import math

    from gltf_physics.io.codecs.omi import _encode_motion
    from gltf_physics.io.diagnostics import Report
    from gltf_physics.io.model import Motion

    report = Report()
    out = _encode_motion(Motion(kind="dynamic", mass=2.0, center_of_mass=(0.0, 0.0, 0.0),
                                inertia_diagonal=(1.0, 0.0, 2.0)),
                         report, "Body")
    assert "inertiaDiagonal" not in out and report.codes() == ["omi-zero-inertia"]
    report = Report()
    out = _encode_motion(Motion(kind="dynamic", mass=2.0,
                                inertia_diagonal=(1.0, math.inf, -2.0)), report, "Body")
    assert out["inertiaDiagonal"] == [1.0, 2000.0, -2.0]


def test_an_omi_sphere_of_radius_0_is_kept_in_omi_and_said_in_khr() -> None:
    """OMI's schema allows a sphere radius of 0 (KHR's wants more than 0)."""
    source = omi_file((1.0,))
    source["extensions"][SHAPE]["shapes"] = [{"type": "sphere", "sphere": {"radius": 0.0}}]
    report = Report()
    out = convert_document(copy.deepcopy(source), "OMI", report=report)
    assert out["extensions"][SHAPE]["shapes"][0]["sphere"]["radius"] == 0
    assert report.issues == []
    assert PhysicsSchemaValidator(SHARED / "specs").errors(out) == []
    report = Report()
    khr = convert_document(copy.deepcopy(source), "KHR", report=report)
    shape = khr["extensions"]["KHR_implicit_shapes"]["shapes"][0]
    assert 0.0 < shape["sphere"]["radius"] < 1e-30
    assert report.codes() == ["degenerate-shape"]
    assert PhysicsSchemaValidator(SHARED / "specs").errors(khr) == []
    report = Report()
    source["extensions"][SHAPE]["shapes"][0]["sphere"]["radius"] = -1.0
    decode_document(DocumentView.from_json(source), report)
    assert report.issues  # below OMI's bound: reported
