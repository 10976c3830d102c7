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
