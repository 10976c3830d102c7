# SPDX-License-Identifier: GPL-3.0-or-later
"""Equal node payloads are decoded once and shared physics is encoded once; problems are
still reported for every node."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView, NodeView
from gltf_physics.io.json_read import json_key
from gltf_physics.io.model import Collider, Motion, NodePhysics, PhysicsScene, Shape, Trigger


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
    (0.0, -0.0), (None, False), ("1", 1), ({"a": 1.5}, {"a": 1.5000000000000002}),
])
def test_json_key_tells_apart_values_that_decode_differently(a, b):
    assert json_key(a) != json_key(b)
    assert json_key(a) == json_key(json.loads(json.dumps(a)))


def test_equal_payloads_share_one_decoding():
    report = Report()
    scene = registry.decode_document(khr_view([dict(BODY), dict(BODY), {"motion": {"mass": 3}}]),
                                     report)
    assert scene.nodes[0] is scene.nodes[1]
    assert scene.nodes[0].motion.mass == 2.0 and scene.nodes[2].motion.mass == 3.0
    assert scene.nodes[0].collider.material.static_friction == pytest.approx(0.3)
    assert report.issues == []


def test_equal_payloads_parsed_apart_share_one_decoding_whatever_their_string_objects():
    """Keys of separately parsed payloads: equal text gives equal keys, whichever string
    objects the parser shared."""
    text = json.dumps({"motion": {"mass": 2, "type": "dynamic"}, "extras": ["dynamic"] * 3})
    first, second = json.loads(text), json.loads(text)
    keep = [first["motion"]["type"]] * 5  # another reference to one of its strings
    assert json_key(first) == json_key(second) and keep


def test_a_payload_too_deep_to_key_is_decoded_on_its_own():
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    payload = {"motion": {"mass": 2}, "extras": deep}
    report = Report()
    scene = registry.decode_document(khr_view([payload, payload]), report)
    assert scene.nodes[0].motion.mass == 2.0 and scene.nodes[1].motion.mass == 2.0
    assert scene.nodes[0] is not scene.nodes[1]


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


@pytest.mark.parametrize("encode", [khr.encode_khr, omi.encode_omi])
def test_nodes_sharing_physics_share_one_payload(encode):
    shared = NodePhysics(Motion(kind="dynamic", mass=2.0, center_of_mass=(0.0, 0.0, 0.0)),
                         Collider(shape=Shape("sphere")))
    scene = PhysicsScene(nodes={"a": shared, "b": shared,
                                "c": NodePhysics(trigger=Trigger(nodes=("a",)))})
    report = Report()
    encoded = encode(scene, {"a": 0, "b": 1, "c": 2}.get, lambda _: None, report)
    (name,) = encoded.nodes["a"]
    assert encoded.nodes["a"][name] is encoded.nodes["b"][name]
    assert encoded.nodes["a"][name]["motion"]["mass"] == 2
    assert report.issues == []


def test_a_shared_payload_with_a_problem_is_reported_for_each_node():
    shared = NodePhysics(collider=Collider(shape=Shape("convex", mesh="missing")))
    report = Report()
    khr.encode_khr(PhysicsScene(nodes={"a": shared, "b": shared}), {"a": 0, "b": 1}.get,
                   lambda _: None, report)
    assert [issue.where for issue in report.issues] == ["node a", "node b"]
