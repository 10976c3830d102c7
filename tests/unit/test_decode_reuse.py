# SPDX-License-Identifier: GPL-3.0-or-later
"""Equal node payloads are decoded once; problems are still reported for every node."""

from __future__ import annotations

from typing import Any

import pytest
from gltf_physics.io.codecs import khr, registry
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView, NodeView
from gltf_physics.io.json_read import freeze


def khr_view(payloads: list[Any]) -> DocumentView:
    extensions = {
        khr.SHAPES_EXT: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
        khr.BODIES_EXT: {"physicsMaterials": [{"staticFriction": 0.3}]},
    }
    nodes = [NodeView(extensions={khr.BODIES_EXT: p}, mesh=None, children=()) for p in payloads]
    return DocumentView(extensions, nodes, 0)


BODY = {"motion": {"mass": 2}, "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}


@pytest.mark.parametrize(("a", "b"), [
    (True, 1), (1, 1.0), ({"a": 1}, [["a", 1]]), ([1, 2], [2, 1]), ({"x": True}, {"x": 1}),
])
def test_freeze_tells_apart_values_that_decode_differently(a, b):
    assert freeze(a) != freeze(b)
    assert freeze(a) == freeze(a) and hash(freeze(a)) == hash(freeze(a))


def test_equal_payloads_share_one_decoding():
    report = Report()
    scene = registry.decode_document(khr_view([dict(BODY), dict(BODY), {"motion": {"mass": 3}}]),
                                     report)
    assert scene.nodes[0] is scene.nodes[1]
    assert scene.nodes[0].motion.mass == 2.0 and scene.nodes[2].motion.mass == 3.0
    assert scene.nodes[0].collider.material.static_friction == pytest.approx(0.3)
    assert report.issues == []


def test_a_bad_payload_is_reported_at_every_node_that_carries_it():
    bad = {"motion": {"mass": "heavy"}, "collider": {"geometry": {"shape": 9}}}
    report = Report()
    scene = registry.decode_document(khr_view([bad, dict(bad), bad]), report)
    pointers = {issue.where for issue in report.issues}
    for index in range(3):
        assert f"/nodes/{index}/extensions/{khr.BODIES_EXT}/motion/mass" in pointers
        assert scene.nodes[index].motion.mass is None


def test_triggers_and_joints_are_decoded_per_node():
    """A compound trigger's members depend on its node: never shared."""
    trigger = {"trigger": {"nodes": [2]}}
    scene = registry.decode_document(khr_view([trigger, trigger, {"trigger": {
        "geometry": {"shape": 0}}}]), Report())
    assert scene.nodes[0] is not scene.nodes[1]
    assert scene.nodes[0].trigger.nodes == (2,) and scene.nodes[1].trigger.nodes == (2,)
