# SPDX-License-Identifier: GPL-3.0-or-later
"""What a conversion cannot write valid is left out and said, so its output always passes
the checker (a mutation fuzzer over the corpus found each of these writing errors)."""

from __future__ import annotations

from typing import Any

import pytest

from gltf_physics.io.check.checker import check_document
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report

BOX = {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}}
USED = ["OMI_physics_body", "OMI_physics_shape"]


def document(nodes: list[dict[str, Any]], roots: list[int], used: list[str] = USED,
             extensions: dict[str, Any] = BOX) -> dict[str, Any]:
    return {"asset": {"version": "2.0"}, "extensionsUsed": used, "extensions": extensions,
            "nodes": nodes, "scene": 0, "scenes": [{"nodes": roots}]}


def body(payload: dict[str, Any], **node: Any) -> dict[str, Any]:
    return {**node, "extensions": {"OMI_physics_body": payload}}


CASES = {
    # an archived cylinder of height 0 (its schema allows it; the current ones do not)
    "zero height": (document(
        [{"name": "C", "extensions": {"OMI_collider": {"collider": 0}}}], [0], ["OMI_collider"],
        {"OMI_collider": {"colliders": [{"type": "cylinder", "radius": 0.5, "height": -0.0}]}}),
        "degenerate-shape", ("OMI", "KHR")),
    # a v1 joint between a body of no type and a static one: KHR writes no motion for either
    "joint of static sides": (document(
        [{"name": "Root", "children": [1, 3, 4]},
         body({}, name="A", translation=[0, 2, 0], children=[2]),
         {"name": "AShape", "extensions": {"OMI_physics_shape": {"shape": 0}}},
         {"name": "Pin", "extensions": {"OMI_physics_joint": {
             "constraints": [0], "nodeA": 1, "nodeB": 4}}},
         body({"type": "static"}, name="B", children=[5]),
         {"name": "BShape", "extensions": {"OMI_physics_shape": {"shape": 0}}}], [0],
        [*USED, "OMI_physics_joint"],
        {**BOX, "OMI_physics_joint": {"constraints": [{"linearAxes": [0, 1, 2]}]}}),
        "joint-body-missing", ("KHR",)),
    "member without a trigger": (document(
        [body({"trigger": {"nodes": [1]}}, name="Zone", children=[1]),
         body({"trigger": {"shape": 7}}, name="Part")], [0]),
        "trigger-member-no-trigger", ("OMI", "KHR")),
    "member not below": (document(
        [body({"trigger": {"nodes": [1]}}, name="Zone"),
         body({"trigger": {"shape": 0}}, name="Part")], [0, 1]),
        "trigger-member-outside", ("OMI", "KHR")),
    "gravity without its trigger": (document(
        [{"name": "Well", "extensions": {
            "OMI_physics_body": {"trigger": {"shape": 9}},
            "OMI_physics_gravity": {"type": "directional", "gravity": 9.8,
                                    "directional": {"direction": [0, -1, 0]}}}}], [0],
        [*USED, "OMI_physics_gravity"]),
        "gravity-not-on-trigger", ("OMI",)),
    "vehicle without its motion": (document(
        [{"name": "Car", "extensions": {"OMI_physics_body": {"motion": "dynamic"},
                                        "OMI_vehicle_body": {}}}], [0],
        [*USED, "OMI_vehicle_body"]),
        "vehicle-not-dynamic", ("OMI", "KHR")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_what_cannot_be_written_valid_is_left_out_and_said(case: str) -> None:
    gltf, code, targets = CASES[case]
    for target in targets:
        report = Report()
        out = convert_document(gltf, target, report=report)
        assert code in report.codes(), (target, report.codes())
        errors = [i for i in check_document(out).issues if i.severity == "error"]
        assert errors == [], (target, errors)
