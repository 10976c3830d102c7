# SPDX-License-Identifier: GPL-3.0-or-later
"""Table-driven tests of the OMI and KHR codecs: what is written, what is read (no bpy)."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import pytest

from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.codecs.common import Encoded
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import (
    INFINITE,
    ZERO3,
    Collider,
    CollisionFilter,
    Motion,
    NodePhysics,
    PhysicsMaterial,
    PhysicsScene,
    Shape,
    Trigger,
)
from tests.support.refs import ident
from tests.support.schemas import PhysicsSchemaValidator

ABSENT = object()  # a key the payload must not have

OMI_SHAPE, OMI_BODY = omi.SHAPE_EXT, omi.BODY_EXT
KHR_SHAPES, KHR_BODIES = khr.SHAPES_EXT, khr.BODIES_EXT
MESH_COUNT = 3
MESH_NODE_BASE = 50  # KHR `geometry.node` form: orphan node of mesh m is MESH_NODE_BASE + m
FORMATS = ("omi", "khr-mesh", "khr-node")
ANALYTIC = ("box", "sphere", "capsule", "cylinder")


# -- helpers ------------------------------------------------------------------------------


def mesh_node(ref: Hashable) -> Any:
    return MESH_NODE_BASE + ref if isinstance(ref, int) else None


def encode(fmt: str, scene: PhysicsScene, report: Report | None = None) -> Encoded:
    report = Report() if report is None else report
    if fmt == "omi":
        return omi.encode_omi(scene, ident, ident, report)
    if fmt == "khr-mesh":
        return khr.encode_khr(scene, ident, ident, report)
    return khr.encode_khr(scene, ident, ident, report, form="node", resolve_mesh_node=mesh_node)


def scene_of(*nodes: NodePhysics) -> PhysicsScene:
    return PhysicsScene(dict(enumerate(nodes)))


def assemble(
    encoded: Encoded, node_count: int, children: dict[int, list[int]] | None = None,
    mesh_nodes: bool = False,
) -> dict[str, Any]:
    """A minimal glTF document around an encoding (one node per int ref)."""
    children = children or {}
    nodes: list[dict[str, Any]] = []
    for i in range(node_count):
        node: dict[str, Any] = {"extensions": encoded.nodes.get(i, {})}
        if i in children:
            node["children"] = children[i]
        nodes.append(node)
    if mesh_nodes:
        nodes += [{} for _ in range(len(nodes), MESH_NODE_BASE)]
        nodes += [{"mesh": m} for m in range(MESH_COUNT)]
    return {
        "asset": {"version": "2.0"},
        "nodes": nodes,
        "meshes": [{"primitives": []} for _ in range(MESH_COUNT)],
        "extensions": encoded.root,
        "extensionsUsed": encoded.used(),
    }


def decode(gltf: dict[str, Any], report: Report | None = None) -> PhysicsScene:
    report = Report() if report is None else report
    return registry.decode_document(DocumentView.from_json(gltf), report)


def body(fmt: str, encoded: Encoded, ref: int) -> dict[str, Any]:
    return encoded.nodes[ref][OMI_BODY if fmt == "omi" else KHR_BODIES]


def shapes_of(fmt: str, encoded: Encoded) -> list[dict[str, Any]]:
    return encoded.root[OMI_SHAPE if fmt == "omi" else KHR_SHAPES]["shapes"]


def body_root(fmt: str, encoded: Encoded) -> dict[str, Any]:
    return encoded.root[OMI_BODY if fmt == "omi" else KHR_BODIES]


def shape_index(fmt: str, part: dict[str, Any]) -> int:
    return part["shape"] if fmt == "omi" else part["geometry"]["shape"]


def issues(report: Report, code: str) -> list[str]:
    return [issue.where for issue in report.issues if issue.code == code]


def omi_doc(shapes: list[Any], nodes: list[dict[str, Any]], **root: Any) -> dict[str, Any]:
    extensions: dict[str, Any] = {OMI_SHAPE: {"shapes": shapes}}
    if root:
        extensions[OMI_BODY] = root
    return {"asset": {"version": "2.0"}, "nodes": nodes, "meshes": [{}, {}],
            "extensions": extensions}


def khr_doc(shapes: list[Any], nodes: list[dict[str, Any]], meshes: int = 2) -> dict[str, Any]:
    return {"asset": {"version": "2.0"}, "nodes": nodes, "meshes": [{}] * meshes,
            "extensions": {KHR_SHAPES: {"shapes": shapes}} if shapes else {}}


def omi_node(payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"extensions": {OMI_BODY: payload}, **extra}


def khr_node(payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"extensions": {KHR_BODIES: payload}, **extra}


# -- encoding: analytic shapes with every parameter explicit --------------------------------

SHAPE_CASES = [
    pytest.param(Shape("box", size=(1.0, 2.0, 3.5)), {"size": [1.0, 2.0, 3.5]}, id="box"),
    pytest.param(Shape("box"), {"size": [1.0, 1.0, 1.0]}, id="box-default"),
    pytest.param(Shape("sphere", radius=0.25), {"radius": 0.25}, id="sphere"),
    pytest.param(Shape("sphere"), {"radius": 0.5}, id="sphere-default"),
    pytest.param(
        Shape("capsule", height=1.5, radius_top=0.25, radius_bottom=0.75),
        {"height": 1.5, "radiusTop": 0.25, "radiusBottom": 0.75}, id="capsule-tapered",
    ),
    pytest.param(
        Shape("capsule"), {"height": 1.0, "radiusTop": 0.5, "radiusBottom": 0.5},
        id="capsule-default",
    ),
    pytest.param(
        Shape("cylinder", height=2.0, radius_top=0.0, radius_bottom=0.5),
        {"height": 2.0, "radiusTop": 0.0, "radiusBottom": 0.5}, id="cone",
    ),
    pytest.param(
        Shape("cylinder", height=0.1, radius_top=3.0, radius_bottom=3.0),
        {"height": 0.1, "radiusTop": 3.0, "radiusBottom": 3.0}, id="cylinder",
    ),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("shape", "expected"), SHAPE_CASES)
def test_analytic_shape_written_with_every_parameter(
    fmt: str, shape: Shape, expected: dict[str, Any], validator: PhysicsSchemaValidator,
) -> None:
    report = Report()
    encoded = encode(fmt, scene_of(NodePhysics(collider=Collider(shape))), report)
    written = shapes_of(fmt, encoded)
    assert written == [{"type": shape.kind, shape.kind: expected}]
    if shape.kind in ("capsule", "cylinder"):
        assert "radius" not in written[0][shape.kind]  # readers detect the old layout by it
    collider = body(fmt, encoded, 0)["collider"]
    assert shape_index(fmt, collider) == 0
    assert report.issues == []
    assert validator.errors(assemble(encoded, 1)) == []


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("shape", "expected"), SHAPE_CASES)
def test_analytic_shape_reads_back(fmt: str, shape: Shape, expected: dict[str, Any]) -> None:
    scene = scene_of(NodePhysics(collider=Collider(shape)))
    report = Report()
    decoded = decode(assemble(encode(fmt, scene), 1), report)
    assert decoded.nodes == scene.nodes
    assert report.issues == []


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        (Shape("plane", size_x=2.0, size_z=3.0, double_sided=True),
         {"doubleSided": True, "sizeX": 2.0, "sizeZ": 3.0}),
        (Shape("plane", size_x=2.0), {"doubleSided": False, "sizeX": 2.0}),
        (Shape("plane"), {"doubleSided": False}),
    ],
)
def test_khr_plane(
    shape: Shape, expected: dict[str, Any], validator: PhysicsSchemaValidator,
) -> None:
    encoded = encode("khr-mesh", scene_of(NodePhysics(collider=Collider(shape))))
    assert shapes_of("khr-mesh", encoded) == [{"type": "plane", "plane": expected}]
    assert validator.errors(assemble(encoded, 1)) == []
    assert decode(assemble(encoded, 1)).nodes[0].collider == Collider(shape)


@pytest.mark.parametrize(
    ("plane", "size"),
    [
        (Shape("plane", size_x=2.0, size_z=4.0), [2.0, 0.01, 4.0]),
        (Shape("plane", size_z=4.0), [1000.0, 0.01, 4.0]),
        (Shape("plane", double_sided=True), [1000.0, 0.01, 1000.0]),
    ],
)
def test_omi_plane_becomes_thin_box(
    plane: Shape, size: list[float], validator: PhysicsSchemaValidator
) -> None:
    report = Report()
    encoded = encode("omi", scene_of(NodePhysics(trigger=Trigger(plane))), report)
    assert shapes_of("omi", encoded) == [{"type": "box", "box": {"size": size}}]
    assert issues(report, "plane-as-box") == ["node 0"]
    assert report.of("warning") == report.issues
    assert validator.errors(assemble(encoded, 1)) == []


# -- encoding: mesh shapes and KHR geometry forms ---------------------------------------------


@pytest.mark.parametrize("kind", ["convex", "trimesh"])
def test_omi_mesh_shape(kind: str, validator: PhysicsSchemaValidator) -> None:
    encoded = encode("omi", scene_of(NodePhysics(collider=Collider(Shape(kind, mesh=2)))))
    assert shapes_of("omi", encoded) == [{"type": kind, kind: {"mesh": 2}}]
    assert body("omi", encoded, 0) == {"collider": {"shape": 0}}
    assert validator.errors(assemble(encoded, 1)) == []


@pytest.mark.parametrize(("fmt", "key", "target"), [("khr-mesh", "mesh", 2),
                                                    ("khr-node", "node", MESH_NODE_BASE + 2)])
@pytest.mark.parametrize(("kind", "hull"), [("convex", True), ("trimesh", False)])
def test_khr_geometry_forms(
    fmt: str, key: str, target: int, kind: str, hull: bool, validator: PhysicsSchemaValidator,
) -> None:
    shape = Shape(kind, mesh=2)  # type: ignore[arg-type]
    encoded = encode(fmt, scene_of(NodePhysics(collider=Collider(shape), trigger=Trigger(shape))))
    geometry = {key: target, "convexHull": hull}
    assert body(fmt, encoded, 0) == {"collider": {"geometry": geometry},
                                     "trigger": {"geometry": geometry}}
    assert KHR_SHAPES not in encoded.root  # mesh geometry needs no implicit shape
    gltf = assemble(encoded, 1, mesh_nodes=fmt == "khr-node")
    assert validator.errors(gltf) == []
    decoded = decode(gltf).nodes[0]
    assert decoded.collider == Collider(shape)
    assert decoded.trigger == Trigger(shape)


def test_khr_node_form_needs_the_node_resolver() -> None:
    shape = Shape("convex", mesh=1)
    encoded = khr.encode_khr(
        scene_of(NodePhysics(collider=Collider(shape))), ident, ident, Report(), form="node",
    )
    assert body("khr-mesh", encoded, 0)["collider"]["geometry"] == {"mesh": 1, "convexHull": True}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("part", ["collider", "trigger"])
def test_unresolvable_mesh_warns_and_writes_no_index(
    fmt: str, part: str, validator: PhysicsSchemaValidator,
) -> None:
    shape = Shape("trimesh", mesh="gone")
    material, flt = PhysicsMaterial(restitution=0.5), CollisionFilter(("a",))
    physics = (
        NodePhysics(collider=Collider(shape, material, flt)) if part == "collider"
        else NodePhysics(trigger=Trigger(shape, filter=flt))
    )
    report = Report()
    encoded = encode(fmt, PhysicsScene({0: physics, 1: NodePhysics(motion=Motion())}), report)
    assert issues(report, "shape-mesh-missing") == ["node 0"]
    assert 0 not in encoded.nodes
    assert encoded.root == {}  # no shape, material or filter left dangling
    assert validator.errors(assemble(encoded, 2)) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_mesh_shape_without_mesh_is_skipped(fmt: str) -> None:
    report = Report()
    encoded = encode(fmt, scene_of(NodePhysics(collider=Collider(Shape("convex")))), report)
    assert issues(report, "shape-mesh-missing") == ["node 0"]
    assert encoded.nodes == {}


# -- encoding: pools deduplicate --------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_equal_shapes_materials_filters_share_one_index(
    fmt: str, validator: PhysicsSchemaValidator,
) -> None:
    sphere, box = Shape("sphere", radius=0.3), Shape("box", size=(1.0, 2.0, 3.0))
    ice, rubber = PhysicsMaterial(0.05, 0.03), PhysicsMaterial(1.0, 0.9, 0.8, "maximum")
    walls, floor = CollisionFilter(("walls",), ("player",)), CollisionFilter(("floor",))
    scene = scene_of(
        NodePhysics(collider=Collider(sphere, ice, walls)),
        NodePhysics(collider=Collider(Shape("sphere", radius=0.3), PhysicsMaterial(0.05, 0.03),
                                      CollisionFilter(("walls",), ("player",)))),
        NodePhysics(collider=Collider(box, rubber, floor), trigger=Trigger(sphere, filter=walls)),
        NodePhysics(collider=Collider(box, ice, floor)),
    )
    encoded = encode(fmt, scene)
    assert len(shapes_of(fmt, encoded)) == 2
    assert len(body_root(fmt, encoded)["physicsMaterials"]) == 2
    assert len(body_root(fmt, encoded)["collisionFilters"]) == 2
    colliders = [body(fmt, encoded, i)["collider"] for i in range(4)]
    assert [shape_index(fmt, c) for c in colliders] == [0, 0, 1, 1]
    assert [c["physicsMaterial"] for c in colliders] == [0, 0, 1, 0]
    assert [c["collisionFilter"] for c in colliders] == [0, 0, 1, 1]
    trigger = body(fmt, encoded, 2)["trigger"]
    assert shape_index(fmt, trigger) == 0
    assert trigger["collisionFilter"] == 0
    assert validator.errors(assemble(encoded, 4)) == []
    assert body_root(fmt, encoded)["physicsMaterials"][1] == {
        "staticFriction": 1.0, "dynamicFriction": 0.9, "restitution": 0.8,
        "frictionCombine": "maximum", "restitutionCombine": "average",
    }
    assert body_root(fmt, encoded)["collisionFilters"] == [
        {"collisionSystems": ["walls"], "collideWithSystems": ["player"]},
        {"collisionSystems": ["floor"]},
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_values_equal_after_rounding_deduplicate(fmt: str) -> None:
    scene = scene_of(
        NodePhysics(collider=Collider(Shape("sphere", radius=0.1),
                                      PhysicsMaterial(restitution=0.0))),
        NodePhysics(collider=Collider(Shape("sphere", radius=0.1 + 1e-12),
                                      PhysicsMaterial(restitution=-0.0))),
    )
    encoded = encode(fmt, scene)
    assert shapes_of(fmt, encoded) == [{"type": "sphere", "sphere": {"radius": 0.1}}]
    materials = body_root(fmt, encoded)["physicsMaterials"]
    assert len(materials) == 1
    assert math.copysign(1.0, materials[0]["restitution"]) == 1.0  # no -0.0 written


# -- encoding: motion -----------------------------------------------------------------------

MOTION_KINDS = [
    ("omi", "static", {"type": "static"}),
    ("omi", "kinematic", {"type": "kinematic"}),
    ("omi", "dynamic", {"type": "dynamic"}),
    ("khr-mesh", "kinematic", {"isKinematic": True}),
    ("khr-mesh", "dynamic", {}),
]


@pytest.mark.parametrize(("fmt", "kind", "marker"), MOTION_KINDS)
def test_motion_kind(
    fmt: str, kind: str, marker: dict[str, Any], validator: PhysicsSchemaValidator,
) -> None:
    encoded = encode(fmt, scene_of(NodePhysics(motion=Motion(kind, mass=2.0))))  # type: ignore[arg-type]
    assert body(fmt, encoded, 0) == {"motion": {**marker, "mass": 2.0}}
    assert validator.errors(assemble(encoded, 1)) == []


def test_khr_static_motion_writes_no_motion(validator: PhysicsSchemaValidator) -> None:
    scene = scene_of(
        NodePhysics(motion=Motion("static")),
        NodePhysics(motion=Motion("static"), collider=Collider(Shape("sphere"))),
    )
    encoded = encode("khr-mesh", scene)
    assert 0 not in encoded.nodes
    assert body("khr-mesh", encoded, 1) == {"collider": {"geometry": {"shape": 0}}}
    assert validator.errors(assemble(encoded, 2)) == []


@pytest.mark.parametrize(("mass", "omi", "omi_kind", "khr", "warning"), [
    (2.5, 2.5, "dynamic", 2.5, None),
    (1e-3, 1e-3, "dynamic", 1e-3, None),
    (None, 1.0, "dynamic", ABSENT, "omi-computed-mass"),
    (INFINITE, 1.0, "kinematic", 0.0, "omi-infinite-mass"),
])
def test_mass_in_each_family(
    mass: float | None, omi: Any, omi_kind: str, khr: Any, warning: str | None,
) -> None:
    scene = scene_of(NodePhysics(motion=Motion("dynamic", mass=mass)))
    report = Report()
    omi_motion = body("omi", encode("omi", scene, report), 0)["motion"]
    assert (omi_motion.get("mass", ABSENT), omi_motion["type"]) == (omi, omi_kind)
    assert issues(report, warning) == (["node 0"] if warning else [])
    report = Report()
    assert body("khr-mesh", encode("khr-mesh", scene, report), 0)["motion"].get(
        "mass", ABSENT) == khr
    assert report.issues == []


ORIENTATION = (0.0, 0.7071068, 0.0, 0.7071068)


@pytest.mark.parametrize(("diagonal", "omi", "khr"), [
    ((1.0, 2.0, 3.0), [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
    (None, ABSENT, ABSENT),
    ((1.0, INFINITE, 2.0), [1.0, 2000.0, 2.0], [1.0, 0.0, 2.0]),
    ((INFINITE,) * 3, ABSENT, [0.0, 0.0, 0.0]),
])
def test_inertia_in_each_family(
    diagonal: tuple[float, float, float] | None, omi: Any, khr: Any,
    validator: PhysicsSchemaValidator,
) -> None:
    motion = Motion(inertia_diagonal=diagonal, inertia_orientation=ORIENTATION)
    for fmt, expected in (("omi", omi), ("khr-mesh", khr)):
        report = Report()
        encoded = encode(fmt, scene_of(NodePhysics(motion=motion)), report)
        out = body(fmt, encoded, 0)["motion"]
        assert out.get("inertiaDiagonal", ABSENT) == expected
        assert out["inertiaOrientation"] == list(ORIENTATION)  # with or without a diagonal
        locked = diagonal is not None and INFINITE in diagonal
        every = diagonal is not None and all(d == INFINITE for d in diagonal)
        assert issues(report, "omi-locked-rotation") == (
            ["node 0"] if locked and not every and fmt == "omi" else [])
        assert issues(report, "omi-lock-unwritten") == (  # no free moment to scale
            ["node 0"] if every and fmt == "omi" else [])
        if fmt == "omi":
            assert validator.errors(assemble(encoded, 1)) == []


@pytest.mark.parametrize("fmt", ["omi", "khr-mesh"])
def test_motion_optional_fields(fmt: str) -> None:
    motion = Motion(center_of_mass=(0.0, -0.5, 0.25), linear_velocity=(1.0, 2.0, 3.0),
                    angular_velocity=(0.0, 0.0, -1.5), gravity_factor=-0.5)
    out = body(fmt, encode(fmt, scene_of(NodePhysics(motion=motion))), 0)["motion"]
    assert out["centerOfMass"] == [0.0, -0.5, 0.25]
    assert out["linearVelocity"] == [1.0, 2.0, 3.0]
    assert out["angularVelocity"] == [0.0, 0.0, -1.5]
    assert out["gravityFactor"] == -0.5
    plain = body(fmt, encode(fmt, scene_of(NodePhysics(motion=Motion()))), 0)["motion"]
    assert not {"centerOfMass", "linearVelocity", "angularVelocity", "gravityFactor"} & set(plain)


# -- encoding: triggers -----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_compound_trigger_nodes(fmt: str, validator: PhysicsSchemaValidator) -> None:
    member = NodePhysics(trigger=Trigger(Shape("box"), filter=CollisionFilter(("zone",))))
    scene = scene_of(NodePhysics(trigger=Trigger(nodes=(1, 2))), member, member)
    encoded = encode(fmt, scene)
    assert body(fmt, encoded, 0) == {"trigger": {"nodes": [1, 2]}}
    gltf = assemble(encoded, 3, children={0: [1, 2]})
    assert validator.errors(gltf) == []
    assert decode(gltf).nodes == scene.nodes


@pytest.mark.parametrize("fmt", FORMATS)
def test_unresolvable_trigger_member_warns(fmt: str) -> None:
    report = Report()
    member = NodePhysics(trigger=Trigger(Shape("sphere")))
    scene = PhysicsScene({0: NodePhysics(trigger=Trigger(nodes=("ghost", 1))), 1: member})
    resolve = {0: 0, 1: 1}.get
    if fmt == "omi":
        encoded = omi.encode_omi(scene, resolve, ident, report)
    else:
        encoded = khr.encode_khr(scene, resolve, ident, report)
    assert body(fmt, encoded, 0) == {"trigger": {"nodes": [1]}}
    assert issues(report, "trigger-member-missing") == ["node 0"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_trigger_without_any_resolvable_member_is_skipped(fmt: str) -> None:
    report = Report()
    scene = PhysicsScene({0: NodePhysics(motion=Motion(), trigger=Trigger(nodes=("a", "b")))})
    if fmt == "omi":
        encoded = omi.encode_omi(scene, {0: 0}.get, ident, report)
    else:
        encoded = khr.encode_khr(scene, {0: 0}.get, ident, report)
    assert "trigger" not in body(fmt, encoded, 0)
    assert "trigger-empty" in report.codes()


@pytest.mark.parametrize("fmt", FORMATS)
def test_compound_collider_parent_writes_no_collider(fmt: str) -> None:
    encoded = encode(fmt, scene_of(NodePhysics(motion=Motion(), collider=Collider())))
    assert "collider" not in body(fmt, encoded, 0)


def test_extensions_used_lists_every_written_extension() -> None:
    scene = scene_of(NodePhysics(collider=Collider(Shape("sphere"), PhysicsMaterial())))
    assert sorted(encode("omi", scene).used()) == [OMI_BODY, OMI_SHAPE]
    assert sorted(encode("khr-mesh", scene).used()) == [KHR_SHAPES, KHR_BODIES]
    assert encode("omi", PhysicsScene()).used() == []


# -- decoding: OMI ------------------------------------------------------------------------------


def test_omi_legacy_capsule_is_upgraded_to_mid_height() -> None:
    report = Report()
    doc = omi_doc([{"type": "capsule", "capsule": {"radius": 0.5, "height": 2}}],
                  [omi_node({"collider": {"shape": 0}})])
    assert decode(doc, report).nodes[0].collider == Collider(
        Shape("capsule", height=1.0, radius_top=0.5, radius_bottom=0.5)
    )
    assert issues(report, "legacy-radius") == ["/extensions/OMI_physics_shape/shapes/0/capsule"]
    assert report.of("warning") == []


@pytest.mark.parametrize("height", [1.0, 0.6, 0.0])
def test_omi_legacy_short_capsule_becomes_sphere(height: float) -> None:
    report = Report()
    doc = omi_doc([{"type": "capsule", "capsule": {"radius": 0.5, "height": height}}],
                  [omi_node({"collider": {"shape": 0}})])
    assert decode(doc, report).nodes[0].collider == Collider(Shape("sphere", radius=0.5))
    assert issues(report, "capsule-to-sphere") == ["/extensions/OMI_physics_shape/shapes/0/capsule"]


def test_omi_legacy_cylinder_copies_the_radius() -> None:
    report = Report()
    doc = omi_doc([{"type": "cylinder", "cylinder": {"radius": 0.3, "height": 2}}],
                  [omi_node({"trigger": {"shape": 0}})])
    assert decode(doc, report).nodes[0].trigger == Trigger(
        Shape("cylinder", height=2.0, radius_top=0.3, radius_bottom=0.3)
    )
    assert "legacy-radius" in report.codes()


def test_current_layout_ignores_a_stray_radius() -> None:
    sub = {"radius": 9.0, "height": 1.0, "radiusTop": 0.2, "radiusBottom": 0.3}
    doc = omi_doc([{"type": "capsule", "capsule": sub}], [omi_node({"collider": {"shape": 0}})])
    assert decode(doc).nodes[0].collider == Collider(
        Shape("capsule", height=1.0, radius_top=0.2, radius_bottom=0.3)
    )


DEFAULT_SHAPES = [
    ("omi", {"type": "box"}, Shape("box", size=(1.0, 1.0, 1.0))),
    ("omi", {"type": "sphere", "sphere": {}}, Shape("sphere", radius=0.5)),
    ("omi", {"type": "capsule"}, Shape("capsule", height=1.0, radius_top=0.5, radius_bottom=0.5)),
    ("omi", {"type": "cylinder"},
     Shape("cylinder", height=2.0, radius_top=0.5, radius_bottom=0.5)),
    ("khr", {"type": "box"}, Shape("box", size=(1.0, 1.0, 1.0))),
    ("khr", {"type": "sphere"}, Shape("sphere", radius=0.5)),
    ("khr", {"type": "capsule", "capsule": {}},
     Shape("capsule", height=0.5, radius_top=0.25, radius_bottom=0.25)),
    ("khr", {"type": "cylinder"},
     Shape("cylinder", height=0.5, radius_top=0.25, radius_bottom=0.25)),
    ("khr", {"type": "plane"}, Shape("plane")),
]


@pytest.mark.parametrize(("fmt", "raw", "shape"), DEFAULT_SHAPES)
def test_missing_parameters_take_the_format_defaults(
    fmt: str, raw: dict[str, Any], shape: Shape,
) -> None:
    report = Report()
    if fmt == "omi":
        doc = omi_doc([raw], [omi_node({"collider": {"shape": 0}})])
    else:
        doc = khr_doc([raw], [khr_node({"collider": {"geometry": {"shape": 0}}})])
    assert decode(doc, report).nodes[0].collider == Collider(shape)
    assert report.issues == []


def test_omi_implicit_compound_trigger_collects_descendant_shape_triggers() -> None:
    report = Report()
    nodes = [
        omi_node({"motion": {"type": "static"}, "trigger": {}}, children=[1, 2]),
        omi_node({"trigger": {"shape": 0}}, children=[3]),
        omi_node({"collider": {"shape": 0}}),  # a collider is not a member
        omi_node({"trigger": {"shape": 0}}),  # indirect descendant
        omi_node({"trigger": {"shape": 0}}),  # not a descendant
    ]
    scene = decode(omi_doc([{"type": "box", "box": {"size": [1, 1, 1]}}], nodes), report)
    assert scene.nodes[0].trigger == Trigger(nodes=(1, 3))
    assert scene.nodes[0].motion == Motion("static", center_of_mass=ZERO3)
    assert issues(report, "implicit-compound-trigger") == [
        "/nodes/0/extensions/OMI_physics_body/trigger"
    ]
    assert report.of("info")[0].code == "implicit-compound-trigger"


def test_omi_empty_trigger_without_members_is_dropped() -> None:
    report = Report()
    nodes = [omi_node({"trigger": {}}, children=[1]), omi_node({"collider": {"shape": 0}})]
    scene = decode(omi_doc([{"type": "sphere", "sphere": {"radius": 1}}], nodes), report)
    assert 0 not in scene.nodes
    assert issues(report, "trigger-empty") == ["/nodes/0/extensions/OMI_physics_body/trigger"]
    assert [i.severity for i in report.issues if i.code == "trigger-empty"] == ["warning"]


@pytest.mark.parametrize(("motion", "kind"), [
    ({"mass": 3}, "dynamic"),
    ({"isKinematic": True}, "kinematic"),
    ({"isKinematic": False}, "dynamic"),
])
def test_omi_motion_without_type(motion: dict[str, Any], kind: str) -> None:
    report = Report()
    scene = decode(omi_doc([{"type": "box"}], [omi_node({"motion": motion})]), report)
    assert scene.nodes[0].motion == Motion(kind, mass=float(motion.get("mass", 1.0)),  # type: ignore[arg-type]
                                           center_of_mass=ZERO3)
    assert issues(report, "motion-without-type") == ["/nodes/0/extensions/OMI_physics_body/motion"]


def test_omi_motion_defaults_one_kilogram_at_the_origin() -> None:
    scene = decode(omi_doc([{"type": "box"}], [omi_node({"motion": {"type": "dynamic"}})]))
    assert scene.nodes[0].motion == Motion("dynamic", mass=1.0, center_of_mass=ZERO3)


def test_omi_godot_four_element_inertia_diagonal_is_an_orientation() -> None:
    report = Report()
    motion = {"type": "dynamic", "mass": 2, "inertiaDiagonal": [0, 0.7071068, 0, 0.7071068]}
    scene = decode(omi_doc([{"type": "box"}], [omi_node({"motion": motion})]), report)
    assert scene.nodes[0].motion == Motion(
        "dynamic", mass=2.0, center_of_mass=ZERO3, inertia_diagonal=None,
        inertia_orientation=ORIENTATION,
    )
    assert issues(report, "godot-inertia") == ["/nodes/0/extensions/OMI_physics_body/motion"]


def test_omi_inertia_all_zero_means_computed() -> None:
    motion = {"type": "dynamic", "inertiaDiagonal": [0, 0, 0]}
    scene = decode(omi_doc([{"type": "box"}], [omi_node({"motion": motion})]))
    assert scene.nodes[0].motion == Motion("dynamic", center_of_mass=ZERO3, inertia_diagonal=None)


def test_omi_full_body_reads_back() -> None:
    shapes = [{"type": "sphere", "sphere": {"radius": 0.5}}]
    root = {
        "physicsMaterials": [{"staticFriction": 0.1, "dynamicFriction": 0.2, "restitution": 0.3,
                              "frictionCombine": "minimum", "restitutionCombine": "multiply"}],
        "collisionFilters": [{"collisionSystems": ["a"], "notCollideWithSystems": ["b"]}],
    }
    motion = {"type": "kinematic", "mass": 4, "centerOfMass": [1, 2, 3],
              "inertiaDiagonal": [1, 2, 3], "inertiaOrientation": list(ORIENTATION),
              "linearVelocity": [1, 0, 0], "angularVelocity": [0, 2, 0], "gravityFactor": 0.5}
    payload = {"motion": motion,
               "collider": {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0}}
    report = Report()
    scene = decode(omi_doc(shapes, [omi_node(payload)], **root), report)
    assert scene.nodes[0] == NodePhysics(
        motion=Motion("kinematic", 4.0, (1.0, 2.0, 3.0), (1.0, 2.0, 3.0), ORIENTATION,
                      (1.0, 0.0, 0.0), (0.0, 2.0, 0.0), 0.5),
        collider=Collider(Shape("sphere", radius=0.5),
                          PhysicsMaterial(0.1, 0.2, 0.3, "minimum", "multiply"),
                          CollisionFilter(("a",), (), ("b",))),
    )
    assert report.issues == []


def test_omi_collider_without_shape_is_a_compound_parent() -> None:
    report = Report()
    scene = decode(omi_doc([{"type": "box"}], [omi_node({"collider": {}})]), report)
    assert scene.nodes[0].collider == Collider()
    assert report.issues == []


def test_omi_collider_with_empty_shape_object_reads_as_compound_parent() -> None:
    scene = decode(omi_doc([{"type": "box"}], [omi_node({"collider": {"shape": {}}})]))
    assert scene.nodes.get(0) == NodePhysics(collider=Collider())


# -- decoding: KHR ------------------------------------------------------------------------------


def test_khr_zeros_are_infinite_mass_and_locked_rotation() -> None:
    report = Report()
    motion = {"mass": 0, "inertiaDiagonal": [0, 2, 0]}
    scene = decode(khr_doc([], [khr_node({"motion": motion})]), report)
    assert scene.nodes[0].motion == Motion(
        "dynamic", mass=INFINITE, inertia_diagonal=(INFINITE, 2.0, INFINITE))
    assert report.issues == []


@pytest.mark.parametrize(("motion", "expected"), [
    ({}, Motion("dynamic", mass=None)),
    ({"isKinematic": True, "mass": 2}, Motion("kinematic", mass=2.0)),
    ({"isKinematic": False, "mass": 2}, Motion("dynamic", mass=2.0)),
])
def test_khr_motion_kind_and_computed_mass(motion: dict[str, Any], expected: Motion) -> None:
    report = Report()
    assert decode(khr_doc([], [khr_node({"motion": motion})]), report).nodes[0].motion == expected
    assert report.issues == []


@pytest.mark.parametrize(
    ("hull", "kind"), [(True, "convex"), (False, "trimesh"), (None, "trimesh")]
)
def test_khr_geometry_node_resolves_to_the_node_mesh(hull: bool | None, kind: str) -> None:
    geometry: dict[str, Any] = {"node": 1}
    if hull is not None:
        geometry["convexHull"] = hull
    report = Report()
    doc = khr_doc([], [khr_node({"collider": {"geometry": geometry}}), {"mesh": 1}])
    assert decode(doc, report).nodes[0].collider == Collider(Shape(kind, mesh=1))  # type: ignore[arg-type]
    assert report.issues == []


def test_khr_geometry_node_without_mesh_is_reported() -> None:
    report = Report()
    doc = khr_doc([], [khr_node({"collider": {"geometry": {"node": 1}}}), {}])
    assert 0 not in decode(doc, report).nodes
    assert issues(report, "geometry-node-no-mesh") == [
        "/nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry"
    ]


def test_khr_geometry_mesh_preferred_over_node() -> None:
    report = Report()
    geometry = {"mesh": 0, "node": 1, "convexHull": True}
    doc = khr_doc([], [khr_node({"trigger": {"geometry": geometry}}), {"mesh": 1}])
    assert decode(doc, report).nodes[0].trigger == Trigger(Shape("convex", mesh=0))
    assert "geometry-both" in report.codes()


def test_khr_takes_precedence_over_omi_on_one_node() -> None:
    report = Report()
    node = {"extensions": {
        OMI_BODY: {"motion": {"type": "static"}},
        KHR_BODIES: {"motion": {"isKinematic": True, "mass": 3}},
    }}
    doc = {"nodes": [node], "extensions": {}}
    assert decode(doc, report).nodes[0].motion == Motion("kinematic", mass=3.0)
    assert issues(report, "two-families") == ["/nodes/0"]


def test_decode_document_orders_nodes_by_index() -> None:
    nodes = [khr_node({"motion": {}}), omi_node({"motion": {"type": "static"}}),
             khr_node({"motion": {}})]
    assert list(decode({"nodes": nodes}).nodes) == [0, 1, 2]


def test_handled_extensions() -> None:
    assert set(registry.HANDLED_EXTENSIONS) == {
        OMI_SHAPE, OMI_BODY, omi.JOINT_EXT, KHR_SHAPES, KHR_BODIES, "KHR_collision_shapes",
        "OMI_collider", "OMI_vehicle_body", "OMI_vehicle_wheel", "OMI_vehicle_thruster",
        "OMI_vehicle_hover_thruster", "OMI_seat", "OMI_physics_gravity",
    }
