# SPDX-License-Identifier: GPL-3.0-or-later
"""Malformed physics JSON never raises; JsonReader and axis conversions behave (no bpy)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from gltf_physics.io import axes, json_read
from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Issue, Report
from gltf_physics.io.document import DocumentView, LazyNodes, NodeView, node_view
from gltf_physics.io.json_read import JsonReader
from gltf_physics.io.model import Trigger

OMI_SHAPE, OMI_BODY = omi.SHAPE_EXT, omi.BODY_EXT
KHR_SHAPES, KHR_BODIES = khr.SHAPES_EXT, khr.BODIES_EXT
NAN, INF = float("nan"), float("inf")
HUGE = json_read.MAX_LIST + 1
O_SHAPE0 = f"/extensions/{OMI_SHAPE}/shapes/0"
K_SHAPE0 = f"/extensions/{KHR_SHAPES}/shapes/0"
O_NODE0 = f"/nodes/0/extensions/{OMI_BODY}"
K_NODE0 = f"/nodes/0/extensions/{KHR_BODIES}"


# -- helpers ------------------------------------------------------------------------------


def omi_doc(shapes: Any = None, payload: Any = None, root: Any = None,
            extra_nodes: list[Any] | None = None) -> dict[str, Any]:
    """An OMI document: node 0 carries `payload` (a sphere collider by default)."""
    extensions: dict[str, Any] = {
        OMI_SHAPE: {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]
                    if shapes is None else shapes},
    }
    if root is not None:
        extensions[OMI_BODY] = root
    node = {"extensions": {OMI_BODY: {"collider": {"shape": 0}} if payload is None else payload}}
    return {"asset": {"version": "2.0"}, "nodes": [node, *(extra_nodes or [])],
            "meshes": [{}], "extensions": extensions}


def khr_doc(shapes: Any = None, payload: Any = None, root: Any = None,
            extra_nodes: list[Any] | None = None) -> dict[str, Any]:
    """A KHR document: node 0 carries `payload` (a sphere collider by default)."""
    extensions: dict[str, Any] = {
        KHR_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]
                     if shapes is None else shapes},
    }
    if root is not None:
        extensions[KHR_BODIES] = root
    node = {"extensions": {
        KHR_BODIES: {"collider": {"geometry": {"shape": 0}}} if payload is None else payload
    }}
    return {"asset": {"version": "2.0"}, "nodes": [node, *(extra_nodes or [])],
            "meshes": [{}], "extensions": extensions}


def decode(gltf: Mapping[str, Any]) -> tuple[Any, Report]:
    report = Report()
    return registry.decode_document(DocumentView.from_json(gltf), report), report


def resolve(document: Any, pointer: str) -> Any:
    """Follow a JSON pointer (RFC 6901); raise LookupError when it leads nowhere."""
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        raise LookupError(f"not a JSON pointer: {pointer!r}")
    value = document
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                raise LookupError(f"{pointer}: no item {token}")
            value = value[int(token)]
        elif isinstance(value, Mapping) and token in value:
            value = value[token]
        else:
            raise LookupError(f"{pointer}: no key {token!r}")
    return value


def assert_pointers_resolve(gltf: Mapping[str, Any], report: Report) -> None:
    for issue in report.issues:
        resolve(gltf, issue.where)


def found(report: Report) -> list[tuple[str, str]]:
    return [(issue.code, issue.where) for issue in report.issues]


# -- malformed documents: one specific issue each ----------------------------------------------

CASES: list[Any] = [
    # wrong types
    pytest.param(omi_doc([{"type": "sphere", "sphere": {"radius": "big"}}]),
                 "not-a-number", f"{O_SHAPE0}/sphere/radius", id="omi-radius-string"),
    pytest.param(khr_doc([{"type": "sphere", "sphere": {"radius": True}}]),
                 "not-a-number", f"{K_SHAPE0}/sphere/radius", id="khr-radius-bool"),
    pytest.param(omi_doc([{"type": "box", "box": {"size": "1 1 1"}}]),
                 "bad-value", f"{O_SHAPE0}/box/size", id="omi-size-string"),
    pytest.param(khr_doc([{"type": "box", "box": {"size": [1, 2]}}]),
                 "bad-value", f"{K_SHAPE0}/box/size", id="khr-size-short"),
    pytest.param(khr_doc([{"type": "plane", "plane": {"doubleSided": "yes"}}]),
                 "not-a-boolean", f"{K_SHAPE0}/plane/doubleSided", id="khr-double-sided"),
    pytest.param(khr_doc(payload={"motion": {"isKinematic": 1}}),
                 "not-a-boolean", f"{K_NODE0}/motion/isKinematic", id="khr-is-kinematic-int"),
    pytest.param(omi_doc(payload={"motion": {"type": "flying"}}),
                 "bad-enum", f"{O_NODE0}/motion/type", id="omi-motion-type"),
    pytest.param(omi_doc(payload={"motion": {"type": 3}}),
                 "bad-enum", f"{O_NODE0}/motion/type", id="omi-motion-type-int"),
    pytest.param(omi_doc(payload={"motion": {"type": "dynamic", "centerOfMass": {"x": 1}}}),
                 "bad-value", f"{O_NODE0}/motion/centerOfMass", id="omi-com-object"),
    pytest.param(omi_doc(root={"physicsMaterials": [{"frictionCombine": "sum"}]}),
                 "bad-enum", f"/extensions/{OMI_BODY}/physicsMaterials/0/frictionCombine",
                 id="omi-combine"),
    pytest.param(omi_doc(root={"collisionFilters": [{"collisionSystems": ["a", 1, "a"]}]}),
                 "bad-value", f"/extensions/{OMI_BODY}/collisionFilters/0/collisionSystems",
                 id="omi-filter-non-strings"),
    pytest.param(omi_doc(root={"collisionFilters": [{"collisionSystems": "a"}]}),
                 "bad-value", f"/extensions/{OMI_BODY}/collisionFilters/0/collisionSystems",
                 id="omi-filter-string"),
    pytest.param(khr_doc(root={"collisionFilters": [
        {"collideWithSystems": ["a"], "notCollideWithSystems": ["b"]}]}),
                 "filter-both", f"/extensions/{KHR_BODIES}/collisionFilters/0",
                 id="khr-filter-both"),
    pytest.param(khr_doc(payload={"collider": {"geometry": {"shape": 0, "convexHull": "no"}}}),
                 "not-a-boolean", f"{K_NODE0}/collider/geometry/convexHull", id="khr-hull"),
    # NaN and infinity
    pytest.param(omi_doc([{"type": "sphere", "sphere": {"radius": NAN}}]),
                 "not-a-number", f"{O_SHAPE0}/sphere/radius", id="omi-radius-nan"),
    pytest.param(khr_doc([{"type": "capsule", "capsule": {"height": INF}}]),
                 "not-a-number", f"{K_SHAPE0}/capsule/height", id="khr-height-inf"),
    pytest.param(omi_doc([{"type": "box", "box": {"size": [1, NAN, 1]}}]),
                 "bad-value", f"{O_SHAPE0}/box/size", id="omi-size-nan"),
    pytest.param(omi_doc(payload={"motion": {"type": "dynamic", "mass": NAN}}),
                 "not-a-number", f"{O_NODE0}/motion/mass", id="omi-mass-nan"),
    pytest.param(khr_doc(payload={"motion": {"mass": -INF}}),
                 "not-a-number", f"{K_NODE0}/motion/mass", id="khr-mass-neg-inf"),
    pytest.param(khr_doc(payload={"motion": {"linearVelocity": [0, INF, 0]}}),
                 "bad-value", f"{K_NODE0}/motion/linearVelocity", id="khr-velocity-inf"),
    pytest.param(omi_doc(payload={"motion": {"type": "dynamic", "gravityFactor": NAN}}),
                 "not-a-number", f"{O_NODE0}/motion/gravityFactor", id="omi-gravity-nan"),
    pytest.param(khr_doc(payload={"motion": {"inertiaOrientation": [0, 0, NAN, 1]}}),
                 "bad-value", f"{K_NODE0}/motion/inertiaOrientation", id="khr-orientation-nan"),
    pytest.param(omi_doc(root={"physicsMaterials": [{"restitution": NAN}]}),
                 "not-a-number", f"/extensions/{OMI_BODY}/physicsMaterials/0/restitution",
                 id="omi-restitution-nan"),
    # out of range
    pytest.param(omi_doc([{"type": "sphere", "sphere": {"radius": -1}}]),
                 "out-of-range", f"{O_SHAPE0}/sphere/radius", id="omi-radius-negative"),
    pytest.param(khr_doc([{"type": "cylinder", "cylinder": {"radiusTop": -0.5}}]),
                 "out-of-range", f"{K_SHAPE0}/cylinder/radiusTop", id="khr-radius-top-neg"),
    pytest.param(omi_doc([{"type": "capsule", "capsule": {"radius": -1, "height": 2}}]),
                 "out-of-range", f"{O_SHAPE0}/capsule/radius", id="omi-legacy-radius-neg"),
    pytest.param(khr_doc([{"type": "box", "box": {"size": [1, -1, 1]}}]),
                 "out-of-range", f"{K_SHAPE0}/box/size", id="khr-size-negative"),
    pytest.param(khr_doc([{"type": "plane", "plane": {"sizeX": 0}}]),
                 "out-of-range", f"{K_SHAPE0}/plane/sizeX", id="khr-plane-size-zero"),
    pytest.param(khr_doc(payload={"motion": {"mass": -2}}),  # OMI's mass has no bound
                 "out-of-range", f"{K_NODE0}/motion/mass", id="khr-mass-negative"),
    pytest.param(khr_doc(payload={"motion": {"inertiaDiagonal": [1, -1, 1]}}),
                 "out-of-range", f"{K_NODE0}/motion/inertiaDiagonal", id="khr-inertia-negative"),
    pytest.param(omi_doc(root={"physicsMaterials": [{"staticFriction": -0.1}]}),
                 "out-of-range", f"/extensions/{OMI_BODY}/physicsMaterials/0/staticFriction",
                 id="omi-friction-negative"),
    # indices: out of range, negative, bool, float, string
    pytest.param(omi_doc(payload={"collider": {"shape": 1}}),
                 "bad-index", f"{O_NODE0}/collider/shape", id="omi-shape-out-of-range"),
    pytest.param(omi_doc(payload={"collider": {"shape": -1}}),
                 "bad-index", f"{O_NODE0}/collider/shape", id="omi-shape-minus-one"),
    pytest.param(omi_doc(payload={"trigger": {"shape": True}}),
                 "bad-index", f"{O_NODE0}/trigger/shape", id="omi-shape-bool"),
    pytest.param(omi_doc(payload={"collider": {"shape": 0.0}}),
                 "bad-index", f"{O_NODE0}/collider/shape", id="omi-shape-float"),
    pytest.param(omi_doc(payload={"collider": {"shape": 0, "physicsMaterial": 0}}),
                 "bad-index", f"{O_NODE0}/collider/physicsMaterial", id="omi-material-missing"),
    pytest.param(omi_doc(payload={"collider": {"shape": 0, "collisionFilter": False}},
                         root={"collisionFilters": [{}]}),
                 "bad-index", f"{O_NODE0}/collider/collisionFilter", id="omi-filter-bool"),
    pytest.param(khr_doc(payload={"collider": {"geometry": {"shape": 5}}}),
                 "bad-index", f"{K_NODE0}/collider/geometry/shape", id="khr-shape-out"),
    pytest.param(khr_doc(payload={"collider": {"geometry": {"mesh": 1}}}),
                 "bad-index", f"{K_NODE0}/collider/geometry/mesh", id="khr-mesh-out"),
    pytest.param(khr_doc(payload={"collider": {"geometry": {"mesh": -3}}}),
                 "bad-index", f"{K_NODE0}/collider/geometry/mesh", id="khr-mesh-negative"),
    pytest.param(khr_doc(payload={"trigger": {"geometry": {"node": "0"}}}),
                 "bad-index", f"{K_NODE0}/trigger/geometry/node", id="khr-node-string"),
    pytest.param(khr_doc(payload={"trigger": {"geometry": {"shape": 0}, "collisionFilter": 0}}),
                 "bad-index", f"{K_NODE0}/trigger/collisionFilter", id="khr-trigger-filter"),
    pytest.param(omi_doc([{"type": "convex", "convex": {"mesh": 1}}]),
                 "bad-index", f"{O_SHAPE0}/convex/mesh", id="omi-convex-mesh-out"),
    pytest.param(omi_doc([{"type": "trimesh", "trimesh": {"mesh": True}}]),
                 "bad-index", f"{O_SHAPE0}/trimesh/mesh", id="omi-trimesh-mesh-bool"),
    # missing required keys
    pytest.param(omi_doc([{"sphere": {"radius": 1}}]),
                 "unknown-shape", O_SHAPE0, id="omi-shape-without-type"),
    pytest.param(omi_doc([{"type": "convex"}]),
                 "shape-mesh-missing", O_SHAPE0, id="omi-convex-without-mesh"),
    pytest.param(khr_doc(payload={"collider": {"physicsMaterial": 0}}),
                 "geometry-missing", f"{K_NODE0}/collider", id="khr-collider-without-geometry"),
    pytest.param(khr_doc(payload={"trigger": {"geometry": {"convexHull": True}}}),
                 "geometry-missing", f"{K_NODE0}/trigger/geometry", id="khr-empty-geometry"),
    pytest.param(omi_doc(payload={"motion": {"mass": 2}}),
                 "motion-without-type", f"{O_NODE0}/motion", id="omi-motion-without-type"),
    # unknown shape types
    pytest.param(omi_doc([{"type": "torus", "torus": {}}]),
                 "unknown-shape", O_SHAPE0, id="omi-torus"),
    pytest.param(omi_doc([{"type": "plane", "plane": {}}]),
                 "unknown-shape", O_SHAPE0, id="omi-plane"),
    pytest.param(khr_doc([{"type": "convex", "convex": {"mesh": 0}}]),
                 "unknown-shape", K_SHAPE0, id="khr-legacy-convex"),
    pytest.param(khr_doc([{"type": ["box"]}]),
                 "unknown-shape", K_SHAPE0, id="khr-type-list"),
    # huge arrays are bounded
    pytest.param(omi_doc([None] * HUGE),
                 "bad-value", f"/extensions/{OMI_SHAPE}/shapes", id="omi-huge-shapes"),
    pytest.param(khr_doc(root={"physicsMaterials": [{}] * HUGE}),
                 "bad-value", f"/extensions/{KHR_BODIES}/physicsMaterials",
                 id="khr-huge-materials"),
    pytest.param(omi_doc(payload={"trigger": {"nodes": [0] * HUGE}}),
                 "bad-value", f"{O_NODE0}/trigger/nodes", id="omi-huge-trigger-nodes"),
    pytest.param(omi_doc(root={"collisionFilters": [{"collisionSystems": ["a"] * HUGE}]}),
                 "bad-value", f"/extensions/{OMI_BODY}/collisionFilters/0/collisionSystems",
                 id="omi-huge-systems"),
    pytest.param(khr_doc(payload={"motion": {"centerOfMass": [0.0] * HUGE}}),
                 "bad-value", f"{K_NODE0}/motion/centerOfMass", id="khr-huge-vector"),
    # non-dict objects
    pytest.param(omi_doc(payload=[{"collider": {"shape": 0}}]),
                 "not-an-object", O_NODE0, id="omi-node-payload-list"),
    pytest.param(khr_doc(payload="collider"),
                 "not-an-object", K_NODE0, id="khr-node-payload-string"),
    pytest.param(omi_doc(payload={"motion": "fast"}),
                 "not-an-object", f"{O_NODE0}/motion", id="omi-motion-string"),
    pytest.param(khr_doc(payload={"collider": [0]}),
                 "not-an-object", f"{K_NODE0}/collider", id="khr-collider-list"),
    pytest.param(omi_doc(payload={"trigger": 0}),
                 "not-an-object", f"{O_NODE0}/trigger", id="omi-trigger-int"),
    pytest.param(khr_doc(payload={"collider": {"geometry": 0}}),
                 "not-an-object", f"{K_NODE0}/collider/geometry", id="khr-geometry-int"),
    pytest.param(omi_doc([{"type": "box", "box": [1, 1, 1]}]),
                 "not-an-object", f"{O_SHAPE0}/box", id="omi-sub-object-list"),
    pytest.param(khr_doc([7]), "not-an-object", K_SHAPE0, id="khr-shape-int"),
    pytest.param(omi_doc(root={"physicsMaterials": ["ice"]}),
                 "not-an-object", f"/extensions/{OMI_BODY}/physicsMaterials/0",
                 id="omi-material-string"),
    pytest.param(omi_doc({"type": "box"}),
                 "bad-value", f"/extensions/{OMI_SHAPE}/shapes", id="omi-shapes-object"),
    # triggers
    pytest.param(omi_doc(payload={"trigger": {"shape": 0, "nodes": [1]}}),
                 "trigger-both", f"{O_NODE0}/trigger", id="omi-trigger-both"),
    pytest.param(khr_doc(payload={"trigger": {"nodes": []}}),
                 "trigger-empty", f"{K_NODE0}/trigger", id="khr-trigger-nodes-empty"),
    pytest.param(khr_doc(payload={"trigger": {"nodes": [0]}}),
                 "trigger-empty", f"{K_NODE0}/trigger", id="khr-trigger-only-itself"),
    pytest.param(omi_doc(payload={"trigger": {"nodes": "1"}}),
                 "bad-value", f"{O_NODE0}/trigger/nodes", id="omi-trigger-nodes-string"),
    # Godot's 4-element inertia under the key of the diagonal, with bad values
    pytest.param(omi_doc(payload={"motion": {"type": "dynamic", "inertiaDiagonal": [1, 2]}}),
                 "bad-value", f"{O_NODE0}/motion/inertiaDiagonal", id="omi-inertia-short"),
]


@pytest.mark.parametrize(("gltf", "code", "where"), CASES)
def test_malformed_input_is_reported_not_raised(
    gltf: dict[str, Any], code: str, where: str
) -> None:
    _scene, report = decode(gltf)
    assert (code, where) in found(report), found(report)
    assert all(isinstance(issue, Issue) and issue.message for issue in report.issues)
    assert_pointers_resolve(gltf, report)


@pytest.mark.parametrize(
    "gltf",
    [
        omi_doc([{"type": "sphere", "sphere": {"radius": 10**400}}]),
        khr_doc(payload={"motion": {"mass": 10**400}}),
        khr_doc(payload={"motion": {"centerOfMass": [0, 10**400, 0]}}),
    ],
    ids=["omi-radius", "khr-mass", "khr-vector"],
)
def test_integer_too_large_for_a_float_is_reported(gltf: dict[str, Any]) -> None:
    _scene, report = decode(gltf)
    assert {"not-a-number", "out-of-range", "bad-value"} & set(report.codes())


@pytest.mark.parametrize("diagonal", [[0, 0, 0, 1], [NAN, 0, 0, 1], ["a", 0, 0, 1]])
def test_godot_inertia_never_raises(diagonal: list[Any]) -> None:
    gltf = khr_doc(payload={"motion": {"inertiaDiagonal": diagonal}})
    _scene, report = decode(gltf)
    assert "godot-inertia" in report.codes()


@pytest.mark.parametrize("member", [7, -1, True, "1"])
def test_bad_trigger_member_pointer(member: Any) -> None:
    gltf = omi_doc(payload={"trigger": {"nodes": [member]}})
    _scene, report = decode(gltf)
    assert ("bad-index", f"{O_NODE0}/trigger/nodes/0") in found(report)
    assert_pointers_resolve(gltf, report)


@pytest.mark.parametrize(("name", "value"), [
    (OMI_SHAPE, [{"type": "box"}]), (OMI_BODY, "materials"),
    (KHR_SHAPES, 3), (KHR_BODIES, [[]]),
])
def test_non_object_root_extension_is_reported(name: str, value: Any) -> None:
    gltf: dict[str, Any] = {"nodes": [], "extensions": {name: value}}
    _scene, report = decode(gltf)
    assert ("not-an-object", f"/extensions/{name}") in found(report)


@pytest.mark.parametrize(("gltf", "where"), [
    (omi_doc([{"type": "box", "box": {"size": [1, 0, 1]}}]), f"{O_SHAPE0}/box/size"),
    (khr_doc([{"type": "box", "box": {"size": [0, 0, 0]}}]), f"{K_SHAPE0}/box/size"),
    (khr_doc([{"type": "sphere", "sphere": {"radius": 0}}]), f"{K_SHAPE0}/sphere/radius"),
])
def test_degenerate_shape_is_reported(gltf: dict[str, Any], where: str) -> None:
    _scene, report = decode(gltf)
    assert where in [issue.where for issue in report.issues]


def test_bad_values_fall_back_and_keep_the_rest() -> None:
    gltf = omi_doc(
        [{"type": "capsule", "capsule": {"height": "tall", "radiusTop": NAN, "radiusBottom": 0.2}}],
        payload={"motion": {"type": "dynamic", "mass": -1, "linearVelocity": [1, 2, 3]},
                 "collider": {"shape": 0, "physicsMaterial": 0}},
        root={"physicsMaterials": [{"staticFriction": "x", "restitution": 0.5}]},
    )
    scene, report = decode(gltf)
    physics = scene.nodes[0]
    shape = physics.collider.shape
    assert (shape.kind, shape.height, shape.radius_top, shape.radius_bottom) == (
        "capsule", 1.0, 0.5, 0.2)  # OMI defaults replace the bad values
    assert physics.collider.material.static_friction == 0.6
    assert physics.collider.material.restitution == 0.5
    assert physics.motion.mass == -1.0  # OMI's schema allows any mass: kept as written
    assert physics.motion.linear_velocity == (1.0, 2.0, 3.0)
    assert report.codes().count("not-a-number") == 3
    assert "out-of-range" not in report.codes()


def test_each_block_is_skipped_on_its_own() -> None:
    gltf = khr_doc(payload={"motion": "x", "collider": {"geometry": {"shape": 9}},
                            "trigger": {"geometry": {"shape": 0}}})
    scene, report = decode(gltf)
    physics = scene.nodes[0]
    assert physics.motion is None
    assert physics.collider is None
    assert physics.trigger is not None
    assert physics.trigger.shape.kind == "sphere"
    assert report.codes() == ["not-an-object", "bad-index"]


@pytest.mark.parametrize("gltf", [
    {}, {"nodes": None}, {"nodes": {"0": {}}}, {"nodes": [None, 1, "x", []]},
    {"nodes": [{"extensions": []}]}, {"nodes": [{"extensions": {OMI_BODY: None}}]},
    {"extensions": None, "meshes": {}}, {"nodes": [{"children": "0", "mesh": True}]},
])
def test_malformed_core_structure_is_tolerated(gltf: dict[str, Any]) -> None:
    scene, _report = decode(gltf)
    assert scene.nodes == {}


# -- cycles in node children for the implicit compound trigger ---------------------------------


def trigger_node(payload: dict[str, Any], children: list[Any]) -> dict[str, Any]:
    return {"extensions": {OMI_BODY: payload}, "children": children}


@pytest.mark.parametrize(("children", "members"), [
    ({0: [1], 1: [2], 2: [0]}, (1, 2)),  # a 3-cycle through the trigger node
    ({0: [0, 1], 1: [1, 2], 2: [2]}, (1, 2)),  # self loops
    ({0: [1, 1, 2], 1: [2], 2: [1]}, (1, 2)),  # repeated and mutual children
    ({0: [1, -1, 99, True], 1: [], 2: []}, (1,)),  # bad child indices
    ({0: [2], 1: [], 2: [0, 1]}, (2, 1)),  # depth-first order
])
def test_implicit_compound_trigger_survives_cycles(
    children: dict[int, list[Any]], members: tuple[int, ...],
) -> None:
    nodes = [
        trigger_node({"trigger": {}}, children[0]),
        trigger_node({"trigger": {"shape": 0}}, children[1]),
        trigger_node({"trigger": {"shape": 0}}, children[2]),
    ]
    gltf = {"nodes": nodes, "extensions": {OMI_SHAPE: {"shapes": [{"type": "box"}]}}}
    scene, report = decode(gltf)
    assert scene.nodes[0].trigger == Trigger(nodes=members)
    assert "implicit-compound-trigger" in report.codes()


def test_descendants_is_bounded_on_a_long_chain() -> None:
    count = 5000
    nodes = [{"children": [i + 1, 0]} for i in range(count - 1)] + [{"children": [0]}]
    view = DocumentView.from_json({"nodes": nodes})
    assert list(view.descendants(0)) == list(range(1, count))


def test_users_and_used_list_the_nodes_of_each_extension_in_order() -> None:
    nodes = [
        {"extensions": {omi.BODY_EXT: {}, khr.BODIES_EXT: {}}}, {}, "not a node",
        {"extensions": "not an object"}, {"extensions": {khr.BODIES_EXT: None}},
    ]
    view = DocumentView.from_json({"nodes": nodes})
    assert view.users(khr.BODIES_EXT) == (0, 4)
    assert view.users(omi.BODY_EXT) == (0,)
    assert view.users("EXT_unknown") == ()
    assert list(view.used(khr.BODIES_EXT)) == [(0, {}), (4, None)]
    assert list(view.used("EXT_unknown")) == []


def test_subtrees_are_the_roots_and_everything_below_them_without_cycles() -> None:
    nodes = [{"children": [1]}, {"children": [2, 0, 99, -1, True]}, {}, {"children": [2]}, {}]
    view = DocumentView.from_json({"nodes": nodes})
    assert view.subtrees([0]) == {0, 1, 2}
    assert view.subtrees([3, 3, 4]) == {2, 3, 4}
    assert view.subtrees([99, -1, "0", None, True, [0], {"a": 0}]) == set()
    assert view.subtrees([]) == set()


class _RawNodes(LazyNodes):
    """Raw JSON nodes behind the LazyNodes scans, as the importer's nodes are."""

    def __init__(self, nodes: list[Any]) -> None:
        self.raw = nodes

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, index: Any) -> Any:
        return node_view(self.raw[index])

    def extension_maps(self) -> Any:
        return (self[i].extensions for i in range(len(self)))

    def children(self, index: int) -> tuple[int, ...]:
        return self[index].children


def test_lazy_nodes_scan_as_a_list_of_views_does() -> None:
    nodes = [
        {"extensions": {omi.BODY_EXT: {"a": 1}}, "children": [1, 3]},
        {"extensions": {khr.BODIES_EXT: {}}, "children": [2, 1, True]}, "not a node",
        {"extensions": "not an object", "mesh": 0}, {"extensions": {omi.BODY_EXT: None}},
    ]
    listed = DocumentView.from_json({"nodes": nodes})
    lazy = DocumentView({}, _RawNodes(nodes), 1)
    assert all(isinstance(node, NodeView) for node in lazy.nodes)
    for name in (omi.BODY_EXT, khr.BODIES_EXT, "EXT_unknown"):
        assert list(lazy.used(name)) == list(listed.used(name))
    for index in range(len(nodes)):
        assert list(lazy.descendants(index)) == list(listed.descendants(index))
    assert lazy.subtrees([0, 4]) == listed.subtrees([0, 4]) == {0, 1, 2, 3, 4}
    assert lazy.parents() == listed.parents() == {1: 0, 3: 0, 2: 1}


def test_parents_are_the_first_node_listing_each_child_never_itself() -> None:
    nodes = [{"children": [2, 0]}, {"children": [2, 1, 99, -1, True, "3"]}, {},
             {"children": [3]}]
    assert DocumentView.from_json({"nodes": nodes}).parents() == {2: 0}


MOVED_CASES = [  # (a node's own transform, whether it is moved)
    ({}, False), ("not a node", False),
    ({"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}, False),
    ({"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}, False),
    ({"translation": [1e-12, 0, 0]}, False),  # within the converter's tolerance
    ({"translation": "far", "scale": [2, 2]}, False),  # malformed parts count as absent
    ({"translation": [NAN, 0, 0], "rotation": [True, 0, 0, 1]}, False),
    ({"translation": [2, 0, 0], "scale": [2, 2, 2]}, True),
    ({"translation": [0, 0, 1e-6]}, True), ({"scale": [1, 1, -1]}, True),
    ({"rotation": [0, 0, 0.7071068, 0.7071068]}, True),
    ({"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 3, 0, 1]}, True),
    ({"matrix": [1, 0, 0], "translation": [0, 1, 0]}, True),  # a bad matrix: TRS used
    ({"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], "translation": [5, 0, 0]},
     False),  # a valid matrix wins, as in io/node_graph.py
]


@pytest.mark.parametrize(("node", "moved"), MOVED_CASES)
def test_moved_reads_a_nodes_own_transform_as_json_and_lazy_views(node: Any,
                                                                    moved: bool) -> None:
    nodes = [{"children": [1]}, node]
    assert DocumentView.from_json({"nodes": nodes}).moved(1) is moved
    assert DocumentView({}, _RawNodes(nodes), 0).moved(1) is moved
    assert DocumentView.from_json({"nodes": nodes}).moved(0) is False


@pytest.mark.parametrize(("node", "moved"), [c for c in MOVED_CASES if isinstance(c[0], dict)])
def test_moved_agrees_with_the_converters_geometry_node_transform(node: dict[str, Any],
                                                                   moved: bool) -> None:
    """The import's test of a geometry.node target is the converter's."""
    target = {"mesh": 0, **node}
    collider = {"extensions": {KHR_BODIES: {"collider": {"geometry": {"node": 1}}}}}
    gltf = {"asset": {"version": "2.0"}, "nodes": [collider, target],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
            "extensions": {KHR_BODIES: {}}, "extensionsUsed": [KHR_BODIES]}
    report = Report()
    convert_document(gltf, "OMI", report=report)
    assert ("geometry-node-transform" in report.codes()) is moved
    said = Report()
    khr.report_moved_geometry_nodes(DocumentView.from_json(gltf),
                                    DocumentView.from_json(gltf).moved, said)
    assert said.codes() == (["geometry-node-transform"] if moved else [])


# -- JsonReader --------------------------------------------------------------------------------


def reader() -> tuple[JsonReader, Report]:
    report = Report()
    return JsonReader(report), report


@pytest.mark.parametrize(("value", "expected", "code"), [
    (2, 2.0, None), (2.5, 2.5, None), (0, 0.0, None),
    (-1, 7.0, "out-of-range"), (True, 7.0, "not-a-number"), ("2", 7.0, "not-a-number"),
    (None, 7.0, "not-a-number"), (NAN, 7.0, "not-a-number"), (INF, 7.0, "not-a-number"),
    ([1], 7.0, "not-a-number"),
])
def test_reader_number(value: Any, expected: float, code: str | None) -> None:
    read, report = reader()
    result = read.number({"k": value}, "k", "/o", 7.0, minimum=0.0)
    assert result == expected
    assert type(result) is float
    assert found(report) == ([] if code is None else [(code, "/o/k")])


def test_reader_number_absent_and_positive() -> None:
    read, report = reader()
    assert read.number({}, "k", "/o", 3.0) == 3.0
    assert read.opt_number({}, "k", "/o") is None
    assert read.opt_number({"k": 0}, "k", "/o", positive=True) is None
    assert read.opt_number({"k": 1e-9}, "k", "/o", positive=True) == 1e-9
    assert read.opt_number({"k": -5}, "k", "/o") == -5.0
    assert found(report) == [("out-of-range", "/o/k")]


@pytest.mark.parametrize(("value", "expected", "code"), [
    (True, True, None), (False, False, None), (1, False, "not-a-boolean"),
    ("true", False, "not-a-boolean"), (None, False, "not-a-boolean"),
])
def test_reader_boolean(value: Any, expected: bool, code: str | None) -> None:
    read, report = reader()
    assert read.boolean({"b": value}, "b", "/o", False) is expected
    assert read.boolean({}, "b", "/o", True) is True
    assert found(report) == ([] if code is None else [(code, "/o/b")])


@pytest.mark.parametrize(("value", "expected", "code"), [
    ([1, 2, 3], (1.0, 2.0, 3.0), None), ((1, 2, 3), (1.0, 2.0, 3.0), None),
    ([1, 2], None, "bad-value"), ([1, 2, 3, 4], None, "bad-value"), ("abc", None, "bad-value"),
    ([1, "2", 3], None, "bad-value"), ([1, True, 3], None, "bad-value"),
    ([1, NAN, 3], None, "bad-value"), ({"0": 1}, None, "bad-value"), (5, None, "bad-value"),
    ([1, -2, 3], None, "out-of-range"), ([0, 0, 0], (0.0, 0.0, 0.0), None),
])
def test_reader_vector(value: Any, expected: tuple[float, ...] | None, code: str | None) -> None:
    read, report = reader()
    assert read.vector({"v": value}, "v", "/o", 3, minimum=0.0) == expected
    assert read.vector({}, "v", "/o", 3) is None
    assert found(report) == ([] if code is None else [(code, "/o/v")])


@pytest.mark.parametrize(("value", "expected"), [
    (0, 0), (2, 2), (3, None), (-1, None), (True, None), (False, None), (1.0, None),
    ("1", None), (None, None), ([0], None), (10**30, None),
])
def test_reader_index(value: Any, expected: int | None) -> None:
    read, report = reader()
    assert read.index({"i": value}, "i", "/o", 3) == expected
    assert found(report) == ([] if expected is not None else [("bad-index", "/o/i")])
    assert read.index({}, "i", "/o", 3) is None
    assert read.index({"i": 0}, "i", "/o", 0) is None  # nothing to index


def test_reader_choice_strings_array_obj() -> None:
    read, report = reader()
    assert read.choice({"c": "b"}, "c", "/o", ("a", "b"), "a") == "b"
    assert read.choice({}, "c", "/o", ("a", "b"), "a") == "a"
    assert read.choice({"c": ["b"]}, "c", "/o", ("a", "b"), "a") == "a"
    assert read.strings({"s": ["x", "y", "x", 3]}, "s", "/o") == ("x", "y")
    assert read.strings({}, "s", "/o") == ()
    assert read.array({"a": [1, 2]}, "a", "/o") == [1, 2]
    assert read.array({"a": None}, "a", "/o") == []
    assert read.array({"a": (1,)}, "a", "/o") == []
    assert read.obj({"k": 1}, "/p") == {"k": 1}
    assert read.obj(None, "/p") is None
    assert read.obj([1], "/p") is None
    assert found(report) == [
        ("bad-enum", "/o/c"), ("bad-value", "/o/s"), ("bad-value", "/o/a"),
        ("not-an-object", "/p"),
    ]


def test_reader_array_bound_is_checked_before_copying(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_read, "MAX_LIST", 3)
    read, report = reader()
    assert read.array({"a": [0, 1, 2]}, "a", "/o") == [0, 1, 2]
    assert read.array({"a": [0, 1, 2, 3]}, "a", "/o") == []
    assert read.strings({"s": ["a", "b", "c", "d"]}, "s", "/o") == ()
    assert report.codes() == ["bad-value", "bad-value"]


def test_report_summary_and_severities() -> None:
    report = Report()
    assert report.summary() == ""
    report.info("legacy-radius", "/a", "upgraded")
    assert report.summary() == ""
    report.warn("bad-index", "/b", "x")
    report.warn("bad-index", "/c", "y")
    report.add("error", "not-a-number", "/d", "z")
    assert [i.code for i in report.of("warning")] == ["bad-index", "bad-index"]
    assert report.summary() == "3 physics problems (bad-index×2, not-a-number); see the log"
    assert str(Issue("warning", "c", "/p", "msg")) == "/p: msg"
    assert str(Issue("warning", "c", "", "msg")) == "msg"


# -- axes --------------------------------------------------------------------------------------

RNG_SEED = 20240611
C = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])  # Blender → glTF axes


def rotation(q_xyzw: np.ndarray) -> np.ndarray:
    x, y, z, w = q_xyzw / np.linalg.norm(q_xyzw)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def samples(count: int, width: int) -> list[tuple[float, ...]]:
    rng = np.random.default_rng(RNG_SEED + width)
    return [tuple(float(v) for v in row) for row in rng.normal(size=(count, width))]


def test_vector_conversions_are_inverse_and_match_the_axis_matrix() -> None:
    for v in samples(50, 3):
        g = axes.vector_to_gltf(v)  # type: ignore[arg-type]
        assert np.allclose(g, C @ np.array(v))
        assert axes.vector_to_blender(g) == v
        assert axes.vector_to_gltf(axes.vector_to_blender(v)) == v  # type: ignore[arg-type]
        assert axes.vector_to_gltf(v, yup=False) == v  # type: ignore[arg-type]
        assert axes.vector_to_blender(v, yup=False) == v  # type: ignore[arg-type]
    assert axes.vector_to_gltf((0.0, 0.0, 1.0)) == (0.0, 1.0, -0.0)  # Blender up is glTF up


def test_extent_swap_is_its_own_inverse_and_unsigned() -> None:
    for v in samples(50, 3):
        size = tuple(abs(c) for c in v)
        swapped = axes.extent_swap(size)  # type: ignore[arg-type]
        assert axes.extent_swap(swapped) == size
        assert np.allclose(swapped, np.abs(C @ np.array(size)))
        assert axes.extent_swap(size, yup=False) == size  # type: ignore[arg-type]


def test_quaternion_conversions_are_inverse() -> None:
    for q in samples(50, 4):
        back = axes.quat_to_blender(axes.quat_to_gltf(q))  # type: ignore[arg-type]
        assert back == q
        w, x, y, z = q
        assert axes.quat_to_gltf(q, yup=False) == (x, y, z, w)  # type: ignore[arg-type]
        assert axes.quat_to_blender((x, y, z, w), yup=False) == q
    assert axes.quat_to_gltf((1.0, 0.0, 0.0, 0.0)) == (0.0, 0.0, -0.0, 1.0)  # identity stays


def test_quaternion_conversion_rotates_like_the_axes() -> None:
    for q in samples(50, 4):
        w, x, y, z = q
        blender = rotation(np.array([x, y, z, w]))
        gltf = rotation(np.array(axes.quat_to_gltf(q)))  # type: ignore[arg-type]
        assert np.allclose(gltf, C @ blender @ C.T)


def test_inertia_tensor_is_preserved() -> None:
    """R·D·Rᵀ in Blender space maps to the glTF tensor built from the converted R and D."""
    quats, diagonals = samples(100, 4), samples(100, 3)
    for q, d in zip(quats, diagonals, strict=True):
        w, x, y, z = q
        diag_b = np.abs(d) + 0.1
        tensor_b = rotation(np.array([x, y, z, w])) @ np.diag(diag_b) @ rotation(
            np.array([x, y, z, w])).T
        r_g = rotation(np.array(axes.quat_to_gltf(q)))  # type: ignore[arg-type]
        d_g = np.diag(axes.extent_swap(tuple(diag_b)))  # type: ignore[arg-type]
        assert np.allclose(r_g @ d_g @ r_g.T, C @ tensor_b @ C.T)
        # and back again
        r_b = rotation(_xyzw(axes.quat_to_blender(axes.quat_to_gltf(q))))  # type: ignore[arg-type]
        d_b = np.diag(axes.extent_swap(axes.extent_swap(tuple(diag_b))))  # type: ignore[arg-type]
        assert np.allclose(r_b @ d_b @ r_b.T, tensor_b)


def _xyzw(q_wxyz: tuple[float, float, float, float]) -> np.ndarray:
    w, x, y, z = q_wxyz
    return np.array([x, y, z, w])


def _is_rotation(m: np.ndarray) -> bool:
    return bool(np.allclose(m @ m.T, np.eye(3)) and math.isclose(np.linalg.det(m), 1.0))


def test_rotation_helper_is_a_proper_rotation() -> None:
    assert _is_rotation(C)
    for q in samples(10, 4):
        assert _is_rotation(rotation(np.array(q)))
    # a quarter turn about +Y moves +Z to +X
    quarter = rotation(np.array([0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)]))
    assert np.allclose(quarter @ [0, 0, 1], [1, 0, 0])
