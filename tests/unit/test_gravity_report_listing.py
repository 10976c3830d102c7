# SPDX-License-Identifier: GPL-3.0-or-later
"""KHR's one `khr-no-gravity` warning names each volume once, with a count when it is
exported more than once (collection instances), and lists at most `LIST_LIMIT` of them,
counting the rest (the reports' listing rule)."""

from __future__ import annotations

from dataclasses import dataclass

from gltf_physics.io.codecs.omi_gravity import report_unwritten
from gltf_physics.io.codecs.registry import encode_document
from gltf_physics.io.diagnostics import LIST_LIMIT, Report
from gltf_physics.io.gravity import Gravity, GravityScene, WorldGravity
from gltf_physics.io.model import PhysicsScene
from gltf_physics.io.vehicle_model import VehicleScene


@dataclass(frozen=True)
class Ref:
    """An exported node: each instance is a distinct reference with its object's name."""

    name: str
    instance: int


def _said(gravity: GravityScene) -> str:
    report = Report()
    encode_document(PhysicsScene(), VehicleScene(), "KHR", lambda ref: 0, lambda ref: 0,
                    report, gravity=gravity)
    [said] = [issue for issue in report.issues if issue.code == "khr-no-gravity"]
    return said.message


def test_an_instanced_volume_is_named_once_with_its_count() -> None:
    gravity = GravityScene(world=WorldGravity(0.0))
    for instance in range(4):
        gravity.nodes[Ref("Well", instance)] = Gravity("point", 5.0)
        gravity.nodes[Ref("Ramp", instance)] = Gravity("directional", 2.0)
    gravity.nodes[Ref("Solo", 0)] = Gravity("point", 1.0)
    assert _said(gravity) == (
        "KHR has no gravity; not written: the world gravity, point volume on node Well ×4, "
        "directional volume on node Ramp ×4, point volume on node Solo")


def test_the_listing_is_capped_and_the_rest_counted() -> None:
    gravity = GravityScene()
    for index in range(LIST_LIMIT + 7):
        for instance in range(3):
            gravity.nodes[Ref(f"Zone{index}", instance)] = Gravity("point", 1.0)
    message = _said(gravity)
    assert message.count("point volume on node") == LIST_LIMIT
    assert message.count("×3") == LIST_LIMIT
    assert f"node Zone{LIST_LIMIT - 1} ×3" in message
    assert f"node Zone{LIST_LIMIT} " not in message
    assert message.endswith(", 7 more volumes not listed")


def test_one_more_is_said_in_the_singular() -> None:
    gravity = GravityScene(nodes={index: Gravity("disc", 1.0) for index in range(LIST_LIMIT + 1)})
    report = Report()
    report_unwritten(gravity, lambda ref: f"node {ref}", report)
    [said] = report.issues
    assert said.message.endswith(f"disc volume on node {LIST_LIMIT - 1}, 1 more volume not "
                                 "listed")
