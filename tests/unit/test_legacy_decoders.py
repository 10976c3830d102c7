# SPDX-License-Identifier: GPL-3.0-or-later
"""Legacy readers: KHR 2024-03 (KHR_collision_shapes) and the archived OMI_collider."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gltf_physics.io.codecs import khr, omi
from gltf_physics.io.codecs.common import MIN_EXTENT
from gltf_physics.io.codecs.khr_legacy import SHAPES_EXT, decode_khr_2024, is_khr_2024
from gltf_physics.io.codecs.omi_collider import (
    COLLIDER_EXT,
    decode_omi_collider,
    is_omi_collider,
    merge_shape_parts,
)
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import (
    INFINITE,
    ZERO3,
    Collider,
    CollisionFilter,
    JointLimit,
    Motion,
    PhysicsMaterial,
    PhysicsScene,
    Shape,
    Trigger,
)
from tests.conftest import CORPUS, SHARED
from tests.support.schemas import load_gltf

BODIES = khr.BODIES_EXT
OMI_BODY = omi.BODY_EXT
NO_CORPUS = "the shared corpus is absent (needs ../shared/corpus)"
KHR_LEGACY_DIR = CORPUS / "khr/legacy/2024-03_collision_shapes"
KHR_SAMPLES_DIR = CORPUS / "khr/samples"
OMI_LEGACY_DIR = CORPUS / "omi/legacy/2023-03_collider_and_body_type"
OMI_CURRENT_DIR = CORPUS / "omi/current"

Gltf = dict[str, Any]


def decode_2024(gltf: Gltf) -> tuple[PhysicsScene, Report]:
    report = Report()
    return decode_khr_2024(DocumentView.from_json(gltf), report), report


def decode_flat(gltf: Gltf) -> tuple[PhysicsScene, Report]:
    report = Report()
    return decode_omi_collider(DocumentView.from_json(gltf), report), report


def decode_omi_era(gltf: Gltf) -> tuple[PhysicsScene, Report]:
    """What registry.decode_document should do for OMI: type bodies plus OMI_collider shapes."""
    report = Report()
    view = DocumentView.from_json(gltf)
    scene = omi.decode_omi(view, report)
    return merge_shape_parts(scene, decode_omi_collider(view, report), report), report


def khr_doc(
    shapes: Any, nodes: list[Any], body: Gltf | None = None, meshes: int = 0
) -> Gltf:
    extensions: Gltf = {SHAPES_EXT: {"shapes": shapes}}
    if body is not None:
        extensions[BODIES] = body
    return {"extensions": extensions, "nodes": nodes, "meshes": [{}] * meshes}


def khr_node(payload: Any, children: list[int] | None = None) -> Gltf:
    node: Gltf = {"extensions": {BODIES: payload}}
    if children is not None:
        node["children"] = children
    return node


def omi_doc(colliders: Any, nodes: list[Any], meshes: int = 0) -> Gltf:
    return {"extensions": {COLLIDER_EXT: {"colliders": colliders}}, "nodes": nodes,
            "meshes": [{}] * meshes}


def omi_node(collider: Any = None, body: Any = None, children: list[int] | None = None) -> Gltf:
    extensions: Gltf = {}
    if collider is not None:
        extensions[COLLIDER_EXT] = {"collider": collider}
    if body is not None:
        extensions[OMI_BODY] = body
    return {"extensions": extensions, "children": children or []}


def warnings(report: Report) -> set[tuple[str, str]]:
    return {(issue.code, issue.where) for issue in report.of("warning")}


BOX = {"type": "box", "box": {"size": [1, 2, 3]}}


# -- KHR 2024-03: detection -----------------------------------------------------------------


@pytest.mark.parametrize(("gltf", "expected"), [
    ({"extensions": {SHAPES_EXT: {"shapes": []}}}, True),
    ({"nodes": [khr_node({"collider": {"shape": 0}})]}, True),
    ({"nodes": [khr_node({"trigger": {"shape": 0}})]}, True),
    ({"nodes": [khr_node({"collider": {"geometry": {"shape": 0}}})]}, False),
    ({"nodes": [khr_node({"motion": {}}), khr_node("junk"), khr_node({"collider": 3})]}, False),
    ({"extensions": {khr.SHAPES_EXT: {"shapes": [BOX]}}}, False),
    ({}, False),
], ids=["root-ext", "collider-shape", "trigger-shape", "current", "junk", "implicit", "empty"])
def test_2024_detection_is_structural(gltf: Gltf, expected: bool) -> None:
    assert is_khr_2024(DocumentView.from_json(gltf)) is expected


# -- KHR 2024-03: shapes ----------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "expected"), [
    ({"type": "box"}, Shape("box")),
    ({"type": "box", "box": {"size": [1, 2, 3]}}, Shape("box", size=(1.0, 2.0, 3.0))),
    ({"type": "sphere", "sphere": {}}, Shape("sphere", radius=0.5)),
    ({"type": "capsule"}, Shape("capsule", height=0.5, radius_top=0.25, radius_bottom=0.25)),
    ({"type": "capsule", "capsule": {"height": 0.6, "radiusTop": 0.4, "radiusBottom": 0.25}},
     Shape("capsule", height=0.6, radius_top=0.4, radius_bottom=0.25)),
    ({"type": "cylinder"}, Shape("cylinder", height=0.5, radius_top=0.25, radius_bottom=0.25)),
    ({"type": "cylinder", "cylinder": {"height": 2, "radiusTop": 0, "radiusBottom": 1}},
     Shape("cylinder", height=2.0, radius_top=0.0, radius_bottom=1.0)),
    ({"type": "convex", "convex": {"mesh": 1}}, Shape("convex", mesh=1)),
    ({"type": "trimesh", "trimesh": {"mesh": 0}}, Shape("trimesh", mesh=0)),
], ids=lambda v: v.get("type") if isinstance(v, dict) else None)
def test_2024_shapes_on_a_collider(raw: Gltf, expected: Shape) -> None:
    scene, report = decode_2024(khr_doc([raw], [khr_node({"collider": {"shape": 0}})], meshes=2))
    assert scene.nodes[0].collider == Collider(shape=expected)
    assert report.of("warning") == []
    assert report.codes() == ["legacy-khr-2024"]


def test_2024_single_radius_keeps_the_mid_height() -> None:
    raw = {"type": "capsule", "capsule": {"height": 0.5, "radius": 0.05}}
    scene, report = decode_2024(khr_doc([raw], [khr_node({"collider": {"shape": 0}})]))
    assert scene.nodes[0].collider.shape == Shape("capsule", height=0.5, radius_top=0.05,
                                                  radius_bottom=0.05)
    assert "khr-single-radius" in report.codes()


T = MIN_EXTENT


@pytest.mark.parametrize(("sub_object", "kind", "expected", "code", "at"), [
    ({"size": [2, 0, 3]}, "box", Shape("box", size=(2.0, T, 3.0)), "degenerate-shape", "/size"),
    ({"size": [0, 0, 3]}, "box", Shape("box", size=(T, T, 3.0)), "degenerate-shape", "/size"),
    ({"radius": 0}, "sphere", Shape("sphere", radius=T), "degenerate-shape", "/radius"),
    ({"height": 0, "radiusTop": 0.2, "radiusBottom": 0.3}, "capsule", Shape("sphere", radius=0.3),
     "zero-size-repaired", ""),
    ({"height": 1, "radiusTop": 0, "radiusBottom": 0}, "capsule",
     Shape("capsule", height=1.0, radius_top=T, radius_bottom=T), "degenerate-shape", ""),
    ({"height": 0, "radiusTop": 0.5, "radiusBottom": 0.5}, "cylinder",
     Shape("cylinder", height=T, radius_top=0.5, radius_bottom=0.5), "degenerate-shape",
     "/height"),
    ({"height": 1, "radiusTop": 0, "radiusBottom": 0}, "cylinder",
     Shape("cylinder", height=1.0, radius_top=T, radius_bottom=T), "degenerate-shape", ""),
])
def test_2024_zero_sizes_are_repaired(
    sub_object: Gltf, kind: str, expected: Shape, code: str, at: str
) -> None:
    gltf = khr_doc([{"type": kind, kind: sub_object}], [khr_node({"trigger": {"shape": 0}})])
    scene, report = decode_2024(gltf)
    assert scene.nodes[0].trigger == Trigger(shape=expected)
    assert (code, f"/extensions/{SHAPES_EXT}/shapes/0/{kind}{at}") in warnings(report)


# -- KHR 2024-03: nodes ----------------------------------------------------------------------


def test_2024_bodies_materials_filters_triggers_and_joints() -> None:
    body = {
        "physicsMaterials": [{"staticFriction": 0.1, "restitutionCombine": "maximum"}],
        "collisionFilters": [{"collisionSystems": ["a"], "collideWithSystems": ["a"]}],
        "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}],
    }
    nodes = [
        khr_node({"motion": {"mass": 2, "isKinematic": True},
                  "collider": {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0}}, [1, 2]),
        khr_node({"trigger": {"shape": 0, "collisionFilter": 0}}),
        khr_node({"joint": {"joint": 0, "connectedNode": 3, "enableCollision": True}}),
        khr_node({"motion": {}, "trigger": {"nodes": [4]}}, [4]),
        khr_node({"trigger": {"shape": 0}}),
    ]
    scene, report = decode_2024(khr_doc([BOX], nodes, body))
    box = Shape("box", size=(1.0, 2.0, 3.0))
    flt = CollisionFilter(("a",), ("a",))
    assert scene.nodes[0].motion == Motion(kind="kinematic", mass=2.0)
    assert scene.nodes[0].collider == Collider(
        box, PhysicsMaterial(static_friction=0.1, friction_combine=None,
                             restitution_combine="maximum"), flt
    )
    assert scene.nodes[1].trigger == Trigger(shape=box, filter=flt)
    joint = scene.nodes[2].joint
    assert joint is not None and joint.connected_node == 3 and joint.enable_collision
    assert joint.settings.limits == (JointLimit((0, 1, 2), (), 0.0, 0.0),)
    assert scene.nodes[3].trigger == Trigger(nodes=(4,))
    assert scene.nodes[3].motion == Motion(kind="dynamic", mass=None)
    assert report.of("warning") == []


def test_2024_zeros_are_infinite_mass_and_inertia() -> None:
    gltf = khr_doc([BOX], [khr_node({"motion": {"mass": 0, "inertiaDiagonal": [0, 1, 0]},
                                     "collider": {"shape": 0}})])
    scene, report = decode_2024(gltf)
    motion = scene.nodes[0].motion
    assert motion.kind == "dynamic" and motion.mass == INFINITE
    assert motion.inertia_diagonal == (INFINITE, 1.0, INFINITE)
    assert warnings(report) == set()


def test_2024_shape_references_into_implicit_shapes_are_read() -> None:
    gltf = {"extensions": {khr.SHAPES_EXT: {"shapes": [BOX]}},
            "nodes": [khr_node({"collider": {"shape": 0}})]}
    scene, report = decode_2024(gltf)
    assert scene.nodes[0].collider == Collider(Shape("box", size=(1.0, 2.0, 3.0)))
    assert report.codes() == ["legacy-khr-2024"]


SHAPES_AT = f"/extensions/{SHAPES_EXT}"
NODE0 = f"/nodes/0/extensions/{BODIES}"


@pytest.mark.parametrize(("shapes", "payload", "code", "where"), [
    ("nope", {"collider": {"shape": 0}}, "bad-value", f"{SHAPES_AT}/shapes"),
    (["nope"], {"collider": {"shape": 0}}, "not-an-object", f"{SHAPES_AT}/shapes/0"),
    ([{"type": "cone"}], {"collider": {"shape": 0}}, "unknown-shape", f"{SHAPES_AT}/shapes/0"),
    ([{"type": 7}], {"collider": {"shape": 0}}, "unknown-shape", f"{SHAPES_AT}/shapes/0"),
    ([{"type": "mesh", "mesh": {"mesh": 0}}], {"collider": {"shape": 0}}, "unsupported-shape",
     f"{SHAPES_AT}/shapes/0"),
    ([{"type": "box", "box": "big"}], {"collider": {"shape": 0}}, "not-an-object",
     f"{SHAPES_AT}/shapes/0/box"),
    ([{"type": "box", "box": {"size": [1, -1, 1]}}], {"collider": {"shape": 0}}, "out-of-range",
     f"{SHAPES_AT}/shapes/0/box/size"),
    ([{"type": "sphere", "sphere": {"radius": "2"}}], {"collider": {"shape": 0}},
     "not-a-number", f"{SHAPES_AT}/shapes/0/sphere/radius"),
    ([{"type": "convex", "convex": {"mesh": 9}}], {"collider": {"shape": 0}}, "bad-index",
     f"{SHAPES_AT}/shapes/0/convex/mesh"),
    ([{"type": "trimesh", "trimesh": {}}], {"collider": {"shape": 0}}, "shape-mesh-missing",
     f"{SHAPES_AT}/shapes/0"),
    ([BOX], {"collider": {"shape": 5}}, "bad-index", f"{NODE0}/collider/shape"),
    ([BOX], {"collider": {"shape": "0"}}, "bad-index", f"{NODE0}/collider/shape"),
    ([BOX], {"collider": {"shape": True}}, "bad-index", f"{NODE0}/collider/shape"),
    ([BOX], {"collider": {}}, "shape-missing", f"{NODE0}/collider"),
    ([BOX], {"collider": {"geometry": {"shape": 0}}}, "shape-missing", f"{NODE0}/collider"),
    ([BOX], {"collider": {"shape": 0, "physicsMaterial": 2}}, "bad-index",
     f"{NODE0}/collider/physicsMaterial"),
    ([BOX], {"trigger": {"nodes": [42]}}, "bad-index", f"{NODE0}/trigger/nodes/0"),
    ([BOX], {"trigger": {"shape": 0, "nodes": [0]}}, "trigger-both", f"{NODE0}/trigger"),
    ([BOX], {"joint": {"joint": 0, "connectedNode": 0}}, "bad-index", f"{NODE0}/joint/joint"),
    ([BOX], {"motion": {"mass": -1}}, "out-of-range", f"{NODE0}/motion/mass"),
    ([BOX], {"motion": []}, "not-an-object", f"{NODE0}/motion"),
    ([BOX], "junk", "not-an-object", NODE0),
])
def test_2024_bad_input_is_reported_with_a_pointer(
    shapes: Any, payload: Any, code: str, where: str
) -> None:
    _scene, report = decode_2024(khr_doc(shapes, [khr_node(payload)], meshes=1))
    assert (code, where) in warnings(report)


@pytest.mark.parametrize("shapes", [[{"type": "cone"}], [{"type": "convex", "convex": {}}], [3]])
@pytest.mark.parametrize("reference", [0, 1, -1, "0", None])
def test_2024_unusable_shapes_leave_no_collider(shapes: Any, reference: Any) -> None:
    scene, report = decode_2024(khr_doc(shapes, [khr_node({"collider": {"shape": reference}})]))
    assert 0 not in scene.nodes and report.of("warning")


@pytest.mark.parametrize("junk", [None, 3, "x", [], {}, [None], {"shapes": {"a": 1}}])
def test_2024_never_raises_on_junk(junk: Any) -> None:
    gltf = {"extensions": {SHAPES_EXT: junk, BODIES: junk},
            "nodes": [junk, khr_node(junk), khr_node({"collider": junk, "trigger": junk,
                                                       "motion": junk, "joint": junk})]}
    decode_2024(gltf)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=True)
    | st.sampled_from(["box", "sphere", "capsule", "cylinder", "convex", "trimesh", "hull"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "shape", "mesh", "size", "radius", "height", "radiusTop",
                         "isTrigger", "collider", "trigger", "nodes", "motion", "mass",
                         "box", "capsule", "convex", "shapes", "colliders"]),
        inner, max_size=4),
    max_leaves=12,
)


def pointers_are_json(report: Report) -> bool:
    return all(issue.where == "" or issue.where.startswith("/") for issue in report.issues)


@settings(max_examples=150, deadline=None)
@given(root=JSON, shape=JSON, payload=JSON)
def test_2024_fuzz_never_raises(root: Any, shape: Any, payload: Any) -> None:
    gltf = {"extensions": {SHAPES_EXT: {"shapes": [shape, BOX]}, BODIES: root},
            "nodes": [khr_node(payload, [1]), khr_node({"collider": payload, "trigger": shape})],
            "meshes": [{}]}
    _scene, report = decode_2024(gltf)
    assert pointers_are_json(report)


@settings(max_examples=150, deadline=None)
@given(collider=JSON, body=JSON, reference=JSON)
def test_flat_fuzz_never_raises(collider: Any, body: Any, reference: Any) -> None:
    gltf = omi_doc([collider, {"type": "box"}], [
        omi_node(reference, body, [1]), omi_node(1, {"type": "trigger"}, [0]),
    ], meshes=1)
    _scene, report = decode_omi_era(gltf)
    assert pointers_are_json(report)


# -- OMI_collider: shapes ----------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "expected"), [
    ({"type": "box"}, Shape("box")),
    ({"type": "box", "size": [1, 2, 3]}, Shape("box", size=(1.0, 2.0, 3.0))),
    ({"type": "sphere"}, Shape("sphere", radius=0.5)),
    ({"type": "sphere", "radius": 2}, Shape("sphere", radius=2.0)),
    ({"type": "capsule"}, Shape("capsule", height=1.0, radius_top=0.5, radius_bottom=0.5)),
    ({"type": "capsule", "radius": 0.25, "height": 1.5},
     Shape("capsule", height=1.0, radius_top=0.25, radius_bottom=0.25)),
    ({"type": "cylinder"}, Shape("cylinder", height=2.0, radius_top=0.5, radius_bottom=0.5)),
    ({"type": "cylinder", "radius": 1, "height": 0.5},
     Shape("cylinder", height=0.5, radius_top=1.0, radius_bottom=1.0)),
    ({"type": "hull", "mesh": 1}, Shape("convex", mesh=1)),
    ({"type": "trimesh", "mesh": 0}, Shape("trimesh", mesh=0)),
], ids=lambda v: v.get("type") if isinstance(v, dict) else None)
def test_flat_colliders_become_current_shapes(raw: Gltf, expected: Shape) -> None:
    scene, report = decode_flat(omi_doc([raw], [omi_node(0)], meshes=2))
    assert scene.nodes == {0: scene.nodes[0]}
    assert scene.nodes[0].collider == Collider(shape=expected)
    assert report.codes() == ["legacy-omi-collider"]
    assert report.issues[0].where == f"/extensions/{COLLIDER_EXT}"


@pytest.mark.parametrize(("radius", "height"), [(0.5, 1.0), (0.5, 0.2), (1.0, 2.0)])
def test_short_capsule_becomes_a_sphere_with_a_warning(radius: float, height: float) -> None:
    raw = {"type": "capsule", "radius": radius, "height": height}
    scene, report = decode_flat(omi_doc([raw], [omi_node(0)]))
    assert scene.nodes[0].collider == Collider(Shape("sphere", radius=radius))
    assert warnings(report) == {("capsule-to-sphere", f"/extensions/{COLLIDER_EXT}/colliders/0")}


# -- OMI_collider: colliders or triggers ------------------------------------------------------


def test_is_trigger_makes_a_trigger_even_under_a_static_body() -> None:
    box = {"type": "box", "isTrigger": True}
    scene, report = decode_flat(omi_doc([box], [
        omi_node(body={"type": "static"}, children=[1]), omi_node(0),
    ]))
    assert scene.nodes == {1: scene.nodes[1]}
    assert scene.nodes[1].trigger == Trigger(shape=Shape("box"))
    assert report.of("warning") == []


def test_trigger_body_makes_its_shapes_triggers_and_a_compound() -> None:
    box = {"type": "box"}
    scene, report = decode_flat(omi_doc([box], [
        omi_node(body={"type": "trigger"}, children=[1, 2]),
        omi_node(0),
        omi_node(children=[3]),
        omi_node(0),
        omi_node(0, body={"type": "trigger"}),
        omi_node(body={"type": "rigid"}, children=[6]),
        omi_node(0),
    ]))
    assert scene.nodes[0].trigger == Trigger(nodes=(1, 3))
    for member in (1, 3):
        assert scene.nodes[member].trigger == Trigger(shape=Shape("box"))
    assert scene.nodes[4].trigger == Trigger(shape=Shape("box"))  # the shape on the body node
    assert scene.nodes[6].collider == Collider(Shape("box"))
    assert 5 not in scene.nodes  # the motion comes from the body decoder
    assert report.of("warning") == []


def test_trigger_body_without_shapes_is_reported() -> None:
    scene, report = decode_flat(omi_doc([{"type": "box"}], [omi_node(body={"type": "trigger"}),
                                                            omi_node(0)]))
    assert 0 not in scene.nodes and 1 in scene.nodes
    assert warnings(report) == {("trigger-empty", f"/nodes/0/extensions/{OMI_BODY}")}


def test_merge_takes_motion_from_bodies_and_shapes_from_omi_collider() -> None:
    gltf = omi_doc([{"type": "sphere", "radius": 1}, {"type": "box", "isTrigger": True}], [
        omi_node(body={"type": "rigid", "mass": 3}, children=[1, 2]),
        omi_node(0),
        omi_node(1),
        omi_node(body={"type": "trigger"}, children=[4]),
        omi_node(0),
    ])
    scene, report = decode_omi_era(gltf)
    assert scene.nodes[0].motion == Motion(kind="dynamic", mass=3.0, center_of_mass=ZERO3)
    assert scene.nodes[1].collider == Collider(Shape("sphere", radius=1.0))
    assert scene.nodes[2].trigger == Trigger(shape=Shape("box"))
    assert scene.nodes[3].motion is None and scene.nodes[3].trigger == Trigger(nodes=(4,))
    assert scene.nodes[4].trigger == Trigger(shape=Shape("sphere", radius=1.0))
    assert list(scene.nodes) == sorted(scene.nodes)
    assert report.of("warning") == []


def test_merge_keeps_a_newer_shape_and_reports_the_clash() -> None:
    gltf = omi_doc([{"type": "sphere"}], [
        {"extensions": {COLLIDER_EXT: {"collider": 0},
                        OMI_BODY: {"type": "static"}, "OMI_physics_shape": {"shape": 0}}},
    ])
    gltf["extensions"]["OMI_physics_shape"] = {"shapes": [BOX]}
    scene, report = decode_omi_era(gltf)
    assert scene.nodes[0].collider == Collider(Shape("box", size=(1.0, 2.0, 3.0)))
    assert ("two-shape-layouts", "/nodes/0") in warnings(report)


def test_documents_without_omi_collider_are_left_alone() -> None:
    view = DocumentView.from_json(khr_doc([BOX], [khr_node({"collider": {"shape": 0}})]))
    report = Report()
    assert not is_omi_collider(view)
    assert decode_omi_collider(view, report).nodes == {} and report.issues == []


COLLIDERS_AT = f"/extensions/{COLLIDER_EXT}/colliders"
OMI_NODE0 = f"/nodes/0/extensions/{COLLIDER_EXT}"


@pytest.mark.parametrize(("colliders", "node", "code", "where"), [
    ("nope", omi_node(0), "bad-value", f"/extensions/{COLLIDER_EXT}/colliders"),
    ([3], omi_node(0), "not-an-object", f"{COLLIDERS_AT}/0"),
    ([{"type": "cone"}], omi_node(0), "unknown-shape", f"{COLLIDERS_AT}/0"),
    ([{"size": [1, 1, 1]}], omi_node(0), "unknown-shape", f"{COLLIDERS_AT}/0"),
    ([{"type": "box", "size": [1, 1]}], omi_node(0), "bad-value", f"{COLLIDERS_AT}/0/size"),
    ([{"type": "capsule", "radius": -1}], omi_node(0), "out-of-range",
     f"{COLLIDERS_AT}/0/radius"),
    ([{"type": "hull", "mesh": -1}], omi_node(0), "bad-index", f"{COLLIDERS_AT}/0/mesh"),
    ([{"type": "hull"}], omi_node(0), "shape-mesh-missing", f"{COLLIDERS_AT}/0"),
    ([{"type": "trimesh", "mesh": 4}], omi_node(0), "bad-index", f"{COLLIDERS_AT}/0/mesh"),
    ([{"type": "box", "isTrigger": "yes"}], omi_node(0), "not-a-boolean",
     f"{COLLIDERS_AT}/0/isTrigger"),
    ([{"type": "box"}], omi_node(1), "bad-index", f"{OMI_NODE0}/collider"),
    ([{"type": "box"}], omi_node("0"), "bad-index", f"{OMI_NODE0}/collider"),
    ([{"type": "box"}], {"extensions": {COLLIDER_EXT: {}}}, "collider-missing", OMI_NODE0),
    ([{"type": "box"}], {"extensions": {COLLIDER_EXT: [0]}}, "not-an-object", OMI_NODE0),
])
def test_flat_bad_input_is_reported_with_a_pointer(
    colliders: Any, node: Gltf, code: str, where: str
) -> None:
    _scene, report = decode_flat(omi_doc(colliders, [node], meshes=1))
    assert (code, where) in warnings(report)


@pytest.mark.parametrize("colliders", [[{"type": "cone"}], [{"type": "hull"}], [3]])
@pytest.mark.parametrize("reference", [0, 1, -1, "0"])
def test_flat_unusable_colliders_leave_nothing(colliders: Any, reference: Any) -> None:
    scene, report = decode_flat(omi_doc(colliders, [omi_node(reference)]))
    assert scene.nodes == {} and report.of("warning")


@pytest.mark.parametrize("junk", [None, 3, "x", [], {}, [None], {"colliders": {"a": 1}}])
def test_flat_never_raises_on_junk(junk: Any) -> None:
    gltf = {"extensions": {COLLIDER_EXT: junk},
            "nodes": [{"extensions": {COLLIDER_EXT: junk, OMI_BODY: junk}, "children": [1, 0, 9]},
                      {"extensions": {COLLIDER_EXT: {"collider": junk}}, "children": [0]}]}
    decode_flat(gltf)
    decode_omi_era(gltf)


# -- corpus: KHR 2024-03 against the current samples --------------------------------------------


def khr_legacy_files() -> list[Path]:
    return sorted(p for p in KHR_LEGACY_DIR.glob("**/*") if p.suffix in (".gltf", ".glb"))


def physics_summary(gltf: Gltf, scene: PhysicsScene) -> Counter[tuple[str, ...]]:
    """Motion kinds, shape kinds and joints, each tagged with its node's name."""
    names = [str(node.get("name")) for node in gltf["nodes"]]
    summary: Counter[tuple[str, ...]] = Counter()
    for index, physics in scene.nodes.items():
        name = names[index]  # type: ignore[index]
        if physics.motion is not None:
            summary["motion", name, physics.motion.kind] += 1
        if physics.collider is not None and physics.collider.shape is not None:
            summary["collider", name, physics.collider.shape.kind] += 1
        if physics.trigger is not None:
            shape = physics.trigger.shape
            summary["trigger", name, "compound" if shape is None else shape.kind] += 1
        if physics.joint is not None:
            summary["joint", name] += 1
    return summary


# The 2024-03 files are older exports, not conversions: what only one side has.
KHR_TWIN_DIFFERENCES: dict[str, tuple[Counter[tuple[str, ...]], Counter[tuple[str, ...]]]] = {
    # The current JointTypes adds a motor and a spring (two joints, four boxes).
    "JointTypes": (Counter(), Counter({
        ("joint", "jointSpaceA"): 2,
        ("motion", "Cube.017", "dynamic"): 1, ("motion", "Cube.019", "dynamic"): 1,
        ("collider", "Cube.016", "box"): 1, ("collider", "Cube.017", "box"): 1,
        ("collider", "Cube.019", "box"): 1, ("collider", "Cube.020", "box"): 1,
    })),
    # Only the 2024-03 Triggers has the compound trigger over ChildA and ChildB.
    "Triggers": (Counter({("trigger", "Triggers", "compound"): 1}), Counter()),
}


@pytest.mark.skipif(not KHR_LEGACY_DIR.is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize("path", khr_legacy_files(), ids=lambda p: p.name)
def test_khr_2024_corpus_matches_its_current_twin(path: Path) -> None:
    gltf = load_gltf(path)
    view = DocumentView.from_json(gltf)
    assert is_khr_2024(view)
    old_report = Report()
    old = physics_summary(gltf, decode_khr_2024(view, old_report))
    twin_path = KHR_SAMPLES_DIR / path.parent.name / f"{path.parent.name}.gltf"
    assert twin_path.is_file(), f"no current twin for {path.name}"
    twin = load_gltf(twin_path)
    twin_view = DocumentView.from_json(twin)
    assert not is_khr_2024(twin_view)
    new = physics_summary(twin, khr.decode_khr(twin_view, Report()))
    only_old, only_new = KHR_TWIN_DIFFERENCES.get(path.parent.name, (Counter(), Counter()))
    assert (old - new, new - old) == (only_old, only_new)
    assert old_report.codes().count("legacy-khr-2024") == 1
    allowed = {"infinite-mass", "infinite-inertia"}
    assert {issue.code for issue in old_report.of("warning")} <= allowed


def test_khr_2024_corpus_listing_is_complete() -> None:
    if not KHR_LEGACY_DIR.is_dir():
        pytest.skip(NO_CORPUS)
    assert len(khr_legacy_files()) == 8


# -- corpus: OMI_collider -----------------------------------------------------------------------


def omi_legacy_files() -> list[Path]:
    return sorted(p for p in OMI_LEGACY_DIR.glob("**/*") if p.suffix in (".gltf", ".glb"))


def raw_flat_counts(gltf: Gltf) -> tuple[int, int, int]:
    """Colliders, shape triggers and compound triggers, counted straight from the JSON."""
    nodes = gltf["nodes"]
    flats = gltf["extensions"][COLLIDER_EXT]["colliders"]
    parent = {child: i for i, node in enumerate(nodes) for child in node.get("children", [])}

    def body_type(index: int | None) -> str | None:
        while index is not None:
            body = nodes[index].get("extensions", {}).get(OMI_BODY)
            if body is not None:
                return body.get("type")
            index = parent.get(index)
        return None

    colliders = triggers = compounds = 0
    for index, node in enumerate(nodes):
        extensions = node.get("extensions", {})
        if COLLIDER_EXT in extensions:
            flat = flats[extensions[COLLIDER_EXT]["collider"]]
            if flat.get("isTrigger") or body_type(index) == "trigger":
                triggers += 1
            else:
                colliders += 1
        elif extensions.get(OMI_BODY, {}).get("type") == "trigger":
            compounds += 1
    return colliders, triggers, compounds


def decoded_counts(scene: PhysicsScene) -> tuple[int, int, int]:
    parts = list(scene.nodes.values())
    return (
        sum(1 for p in parts if p.collider is not None),
        sum(1 for p in parts if p.trigger is not None and p.trigger.shape is not None),
        sum(1 for p in parts if p.trigger is not None and p.trigger.shape is None),
    )


def shape_kinds(gltf: Gltf, scene: PhysicsScene, by_name: bool) -> Counter[tuple[str, ...]]:
    summary = physics_summary(gltf, scene)
    kept = Counter({key: n for key, n in summary.items() if key[0] in ("collider", "trigger")})
    kept = Counter({key: n for key, n in kept.items() if key[2] != "compound"})
    if by_name:
        return kept
    return Counter({(role, kind): n for (role, _name, kind), n in kept.items()})


# Twins whose nodes were renamed upstream (e.g. StaticBox → StaticBody): compared without names.
OMI_RENAMED_TWINS = {"OMI_physics_body/basic/trigger_box.gltf",
                     "OMI_physics_body/complex/two_boxes.gltf"}


@pytest.mark.skipif(not OMI_LEGACY_DIR.is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize("path", omi_legacy_files(), ids=lambda p: p.name)
def test_omi_collider_corpus_decodes_cleanly(path: Path) -> None:
    gltf = load_gltf(path)
    scene, report = decode_flat(gltf)
    assert report.of("warning") == []
    assert report.codes() == ["legacy-omi-collider"]
    assert decoded_counts(scene) == raw_flat_counts(gltf)
    assert all(p.motion is None for p in scene.nodes.values())


def omi_twins() -> list[tuple[Path, Path]]:
    pairs = [(p, OMI_CURRENT_DIR / p.relative_to(OMI_LEGACY_DIR)) for p in omi_legacy_files()]
    return [(old, new) for old, new in pairs if new.is_file()]


@pytest.mark.skipif(not OMI_LEGACY_DIR.is_dir(), reason=NO_CORPUS)
def test_omi_collider_corpus_twins_are_the_expected_three() -> None:
    names = {str(old.relative_to(OMI_LEGACY_DIR)) for old, _new in omi_twins()}
    assert names == OMI_RENAMED_TWINS | {"OMI_physics_body/complex/ball_pit.gltf"}


@pytest.mark.skipif(not OMI_LEGACY_DIR.is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize(("old", "new"), omi_twins(), ids=lambda p: p.name)
def test_omi_collider_corpus_matches_its_current_twin(old: Path, new: Path) -> None:
    old_gltf, new_gltf = load_gltf(old), load_gltf(new)
    old_scene, report = decode_omi_era(old_gltf)
    new_scene = omi.decode_omi(DocumentView.from_json(new_gltf), Report())
    renamed = str(old.relative_to(OMI_LEGACY_DIR)) in OMI_RENAMED_TWINS
    assert (shape_kinds(old_gltf, old_scene, not renamed)
            == shape_kinds(new_gltf, new_scene, not renamed))
    assert (shape_kinds(old_gltf, old_scene, True) != shape_kinds(new_gltf, new_scene, True)) \
        is renamed
    motions = [sorted(p.motion.kind for p in s.nodes.values() if p.motion)
               for s in (old_scene, new_scene)]
    assert motions[0] == motions[1]
    assert report.of("warning") == []


# The archived OMI_collider examples and their re-authored OMI_physics_shape counterparts.
OMI_COLLIDER_TWINS = {
    "box_collider.gltf": "OMI_physics_shape/box_collider.gltf",
    "sphere_collider.gltf": "OMI_physics_shape/sphere_collider.gltf",
    "capsule_collider.gltf": "OMI_physics_shape/capsule_collider.gltf",
    "cylinder_collider.gltf": "OMI_physics_shape/cylinder_collider.gltf",
    "hull/convex_hull.gltf": "OMI_physics_shape/convex/convex_hull.gltf",
    "hull/convex_hull_only.gltf": "OMI_physics_shape/convex/convex_hull_only.gltf",
    "trimesh/concave_trimesh.gltf": "OMI_physics_shape/trimesh/concave_trimesh.gltf",
    "trimesh/concave_trimesh_only.gltf": "OMI_physics_shape/trimesh/concave_trimesh_only.gltf",
    "trigger_box.gltf": "OMI_physics_body/basic/trigger_box.gltf",
}


def exact_shapes(scene: PhysicsScene) -> Counter[tuple[str, Shape | None]]:
    out: Counter[tuple[str, Shape | None]] = Counter()
    for physics in scene.nodes.values():
        if physics.collider is not None:
            out["collider", physics.collider.shape] += 1
        if physics.trigger is not None:
            out["trigger", physics.trigger.shape] += 1
    return out


@pytest.mark.skipif(not (OMI_CURRENT_DIR / COLLIDER_EXT).is_dir(), reason=NO_CORPUS)
@pytest.mark.parametrize(("old", "new"), sorted(OMI_COLLIDER_TWINS.items()))
def test_archived_omi_collider_examples_equal_their_shape_twins(old: str, new: str) -> None:
    old_scene, report = decode_flat(load_gltf(OMI_CURRENT_DIR / COLLIDER_EXT / old))
    new_scene = omi.decode_omi(DocumentView.from_json(load_gltf(OMI_CURRENT_DIR / new)), Report())
    assert exact_shapes(old_scene) == exact_shapes(new_scene)  # capsule: full 2 → mid 1
    assert report.codes() == ["legacy-omi-collider"]


def test_archived_omi_collider_listing_is_complete() -> None:
    folder = OMI_CURRENT_DIR / COLLIDER_EXT
    if not folder.is_dir():
        pytest.skip(NO_CORPUS)
    found = {str(p.relative_to(folder)) for p in folder.glob("**/*.gltf")}
    assert found == set(OMI_COLLIDER_TWINS)
    assert (SHARED / "specs/omi/OMI_collider/README.md").is_file()


def test_ignored_extensions_are_reported_where_used() -> None:
    from gltf_physics.io.codecs.registry import report_ignored
    from gltf_physics.io.diagnostics import Report as _Report
    from gltf_physics.io.document import DocumentView as _View

    report = _Report()
    view = _View.from_json({"nodes": [{}, {"extensions": {"OMI_spawn_point": {}}}],
                            "extensions": {"OMI_physics_gravity": {}}})
    report_ignored(view, report)  # gravity is read (io/codecs/omi_gravity.py), not ignored
    assert [(i.code, i.where) for i in report.issues] == [
        ("extension-ignored", "/nodes/1/extensions/OMI_spawn_point"),
    ]
