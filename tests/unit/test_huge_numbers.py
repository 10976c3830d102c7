# SPDX-License-Identifier: GPL-3.0-or-later
"""Numbers no float holds (a 401-digit integer literal) or whose products overflow one, in
every reader of a file: the decoders, the checker and the converter go on (saying what they
skip); none raises, and nothing non-finite reaches a written file."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gltf_physics.io import convert
from gltf_physics.io.check.checker import check_document
from gltf_physics.io.codecs import registry
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView

BIG = 10**400  # a JSON integer literal of 401 digits
SPHERE = {"type": "sphere", "sphere": {"radius": 0.5}}

BASE: dict[str, Any] = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
    "nodes": [
        {"name": "Ball", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic", "mass": 3}, "collider": {"shape": 0}}}},
        {"name": "Field", "translation": [0, 5, 0], "extensions": {
            "OMI_physics_body": {"trigger": {"shape": 0}},
            "OMI_physics_gravity": {"type": "line", "gravity": 2,
                                    "line": {"points": [0, 0, 0, 0, 1, 0]}}}},
    ],
    "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"],
    "extensions": {"OMI_physics_shape": {"shapes": [copy.deepcopy(SPHERE)]},
                   "OMI_physics_gravity": {"gravity": 9.8, "direction": [0, -1, 0]}},
}


def with_value(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    gltf = copy.deepcopy(BASE)
    owner = gltf
    for key in path[:-1]:
        owner = owner[key]
    owner[path[-1]] = value
    return gltf


HUGE_PLACES = {
    "line-points": (("nodes", 1, "extensions", "OMI_physics_gravity", "line", "points"),
                    [0, 0, 0, 0, BIG, 0]),
    "world-direction": (("extensions", "OMI_physics_gravity", "direction"), [0, -BIG, 0]),
    "sphere-radius": (("extensions", "OMI_physics_shape", "shapes", 0, "sphere", "radius"),
                      BIG),
    "translation": (("nodes", 1, "translation"), [0, BIG, 0]),
    "scale": (("nodes", 0, "scale"), [1, BIG, 1]),
}


@pytest.mark.parametrize("where", list(HUGE_PLACES))
def test_an_integer_no_float_holds_raises_in_no_reader(where: str) -> None:
    path, value = HUGE_PLACES[where]
    gltf = with_value(path, value)
    view = DocumentView.from_json(gltf)
    for decode in (registry.decode_document, registry.decode_vehicle_document,
                   registry.decode_gravity_document):
        decode(view, Report())  # no exception
    checked = check_document(copy.deepcopy(gltf))
    assert not [i for i in checked.issues if i.code == "check-failed"], checked.issues
    for target in ("OMI", "KHR"):
        out = convert.convert_document(copy.deepcopy(gltf), target, report=Report())
        json.dumps(out, allow_nan=False)  # nothing non-finite written


@pytest.mark.parametrize("shape", [
    {"type": "sphere", "sphere": {"radius": 1e200}},
    {"type": "capsule", "capsule": {"radius": 1e200, "height": 1}},
], ids=["sphere", "capsule"])
def test_colliders_too_large_for_their_volume_still_convert(shape: dict[str, Any]) -> None:
    """The centre of mass cannot be computed (the volume overflows a float): the file still
    converts (it failed), with the centre as the file states it, said once."""
    gltf = with_value(("extensions", "OMI_physics_shape", "shapes", 0), shape)
    report = Report()
    out = convert.convert_document(gltf, "KHR", report=report)
    json.dumps(out, allow_nan=False)
    assert report.codes().count("mass-not-computed") == 1, report.issues
    assert out["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"] == 3


@pytest.mark.parametrize("tensor", [
    [1, 1e308, 0, 1e308, 1, 0, 0, 0, 1],
    [1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308],
    [1e308, 0, 0, 0, -1e308, 0, 0, 0, 1e308],
])
def test_a_legacy_inertia_tensor_never_decodes_to_nan(tensor: list[float]) -> None:
    """The 2023 OMI body's inertiaTensor: a huge one gives finite moments or none (the
    engine computes them, said), never NaN."""
    gltf = {"asset": {"version": "2.0"}, "nodes": [{"extensions": {"OMI_physics_body": {
        "type": "rigid", "inertiaTensor": tensor}}}]}
    report = Report()
    scene = registry.decode_document(DocumentView.from_json(gltf), report)
    motion = scene.nodes[0].motion
    assert motion is not None
    if motion.inertia_diagonal is None:
        assert any("inertiaTensor" in issue.where for issue in report.issues), report.issues
    else:
        assert all(abs(v) < float("inf") for v in motion.inertia_diagonal)
        assert all(abs(v) <= 1 for v in motion.inertia_orientation)
    out = convert.convert_document(gltf, "OMI", report=Report())
    json.dumps(out, allow_nan=False)
