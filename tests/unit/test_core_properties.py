# SPDX-License-Identifier: GPL-3.0-or-later
"""Hypothesis properties of the codecs: schema-valid output, round trips, total decoding."""

from __future__ import annotations

import dataclasses
import json
import math
import string
import struct
from collections.abc import Hashable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.codecs.common import Encoded
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import (
    AXIS_KINDS,
    COMBINE_MODES,
    DRIVE_MODES,
    IDENTITY,
    INFINITE,
    MOTION_KINDS,
    ZERO3,
    Collider,
    CollisionFilter,
    Joint,
    JointDrive,
    JointLimit,
    JointSettings,
    Motion,
    NodePhysics,
    PhysicsMaterial,
    PhysicsScene,
    Shape,
    Trigger,
)
from gltf_physics.io.numbers import canon
from tests.conftest import SHARED
from tests.support.schemas import PhysicsSchemaValidator

SPECS = SHARED / "specs"
MESH_COUNT = 3
MAX_CHILDREN = 5
MESH_NODE_BASE = MAX_CHILDREN + 1  # KHR node form: orphan node of mesh m is MESH_NODE_BASE + m
FORMATS = ("omi", "khr-mesh", "khr-node")
REL_TOL = 1e-6
SETTINGS = settings(max_examples=60, deadline=None, database=None)


@pytest.fixture(scope="module")
def validators() -> dict[str, PhysicsSchemaValidator]:
    """Per format: OMI and the KHR node form (write profile), KHR mesh form without `node`."""
    if not SPECS.is_dir():
        pytest.skip(f"the shared specs folder {SPECS} is absent (needs ../shared)")
    default = PhysicsSchemaValidator(SPECS)
    return {"omi": default, "khr-node": default,
            "khr-mesh": PhysicsSchemaValidator(SPECS, node_geometry=False)}


# -- strategies ---------------------------------------------------------------------------


def f32(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite float32 values in [low, high] (bounds must be float32-exact)."""
    return st.floats(low, high, width=32, allow_subnormal=False)


def to_f32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


POSITIVE = f32(2.0**-10, 2.0**10)
MASS = f32(2.0**-10, 2.0**20)
SIGNED = f32(-(2.0**10), 2.0**10)
FRICTION = f32(0.0, 2.0)
RESTITUTION = f32(0.0, 1.0)
GRAVITY = f32(-16.0, 16.0)
RADIUS = st.just(0.0) | POSITIVE
NAMES = st.lists(st.text(string.ascii_letters + "_-", min_size=1, max_size=6),
                 min_size=1, max_size=3, unique=True)


def vec3(component: st.SearchStrategy[float]) -> st.SearchStrategy[tuple[float, float, float]]:
    return st.tuples(component, component, component)


@st.composite
def quaternions(draw: st.DrawFn) -> tuple[float, float, float, float]:
    raw = draw(st.tuples(*[f32(-1.0, 1.0)] * 4).filter(lambda q: sum(c * c for c in q) > 0.01))
    norm = math.sqrt(sum(c * c for c in raw))
    x, y, z, w = (to_f32(c / norm) for c in raw)
    return (x, y, z, w)


def shapes(planes: bool) -> st.SearchStrategy[Shape]:
    options = [
        st.builds(lambda size: Shape("box", size=size), vec3(POSITIVE)),
        st.builds(lambda r: Shape("sphere", radius=r), POSITIVE),
        st.builds(
            lambda kind, height, top, bottom: Shape(
                kind, height=height, radius_top=top, radius_bottom=bottom
            ),
            st.sampled_from(("capsule", "cylinder")), POSITIVE, RADIUS, RADIUS,
        ).filter(lambda s: s.radius_top > 0 or s.radius_bottom > 0),  # not degenerate
        st.builds(lambda kind, mesh: Shape(kind, mesh=mesh),
                  st.sampled_from(("convex", "trimesh")), st.integers(0, MESH_COUNT - 1)),
    ]
    if planes:
        options.append(st.builds(
            lambda sx, sz, two: Shape("plane", size_x=sx, size_z=sz, double_sided=two),
            st.none() | POSITIVE, st.none() | POSITIVE, st.booleans(),
        ))
    return st.one_of(options)


COMBINES = st.none() | st.sampled_from(COMBINE_MODES)  # None: left to the engine
MATERIALS = st.builds(PhysicsMaterial, FRICTION, FRICTION, RESTITUTION, COMBINES, COMBINES)


@st.composite
def filters(draw: st.DrawFn) -> CollisionFilter:
    systems = tuple(draw(st.just([]) | NAMES))
    mode = draw(st.sampled_from(("all", "with", "without")))
    listed = tuple(draw(NAMES)) if mode != "all" else ()
    if mode == "with":
        return CollisionFilter(systems, collide_with_systems=listed)
    return CollisionFilter(systems, not_collide_with_systems=listed)


@st.composite
def motions(draw: st.DrawFn) -> Motion:
    diagonal = draw(st.none() | vec3(POSITIVE | st.just(INFINITE)))
    return Motion(
        kind=draw(st.sampled_from(MOTION_KINDS)),
        mass=draw(MASS | st.none() | st.just(INFINITE)),
        center_of_mass=draw(st.none() | vec3(SIGNED)),
        inertia_diagonal=diagonal,
        inertia_orientation=draw(st.just(IDENTITY) | quaternions()),  # stated alone too
        linear_velocity=draw(st.just(ZERO3) | vec3(SIGNED)),
        angular_velocity=draw(st.just(ZERO3) | vec3(SIGNED)),
        gravity_factor=draw(st.just(1.0) | GRAVITY),
    )


def triggers(planes: bool) -> st.SearchStrategy[Trigger]:
    return st.builds(Trigger, shapes(planes), st.just(()), st.none() | filters())


def node_physics(planes: bool) -> st.SearchStrategy[NodePhysics]:
    collider = st.builds(Collider, shapes(planes), st.none() | MATERIALS, st.none() | filters())
    return st.builds(
        NodePhysics, st.none() | motions(), st.none() | collider, st.none() | triggers(planes)
    )


AXIS_SETS = st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True).map(
    lambda axes: tuple(sorted(axes))
)


@st.composite
def joint_limits(draw: st.DrawFn) -> JointLimit:
    """A limit in written form: one axis kind, sorted axes, min <= max."""
    axes = draw(AXIS_SETS)
    linear = draw(st.booleans())
    low, high = draw(st.none() | SIGNED), draw(st.none() | SIGNED)
    if low is not None and high is not None and low > high:
        low, high = high, low
    return JointLimit(
        linear_axes=axes if linear else (), angular_axes=() if linear else axes,
        min=low, max=high, stiffness=draw(st.none() | POSITIVE),
        damping=draw(st.just(0.0) | POSITIVE),
    )


@st.composite
def joint_drives(draw: st.DrawFn) -> JointDrive:
    """A drive in written form: a target exactly when its gain is written."""
    position = draw(st.none() | SIGNED)
    velocity = draw(st.none() | SIGNED)
    return JointDrive(
        kind=draw(st.sampled_from(AXIS_KINDS)), mode=draw(st.sampled_from(DRIVE_MODES)),
        axis=draw(st.integers(0, 2)), max_force=draw(st.none() | POSITIVE),
        position_target=position,
        velocity_target=velocity,
        stiffness=0.0 if position is None else draw(st.just(0.0) | POSITIVE),
        damping=0.0 if velocity is None else draw(st.just(0.0) | POSITIVE),
    )


JOINT_SETTINGS = st.builds(
    JointSettings,
    st.lists(joint_limits(), max_size=4).map(tuple),
    st.lists(joint_drives(), max_size=2).map(tuple),
).filter(lambda s: bool(s.limits or s.drives))


@st.composite
def scenes(draw: st.DrawFn, planes: bool = True) -> PhysicsScene:
    """Node 0 is the parent of every other node; it may be a compound trigger over them.
    Otherwise some children may be joint nodes connected to another node."""
    children = draw(st.lists(node_physics(planes), min_size=1, max_size=MAX_CHILDREN))
    root = draw(node_physics(planes))
    if draw(st.booleans()):  # every child a shape trigger, some of them compound members
        children = [
            p if p.trigger is not None else dataclasses.replace(p, trigger=draw(triggers(planes)))
            for p in children
        ]
        members = st.sampled_from(range(1, len(children) + 1))
        chosen = draw(st.lists(members, min_size=1, unique=True))  # in any order
        root = dataclasses.replace(root, trigger=Trigger(nodes=tuple(chosen)))
    else:
        count = len(children) + 1
        for i in range(1, count):
            if draw(st.integers(0, 3)) == 0:
                others = [n for n in range(count) if n != i]
                children[i - 1] = NodePhysics(joint=Joint(
                    draw(JOINT_SETTINGS), draw(st.sampled_from(others)), draw(st.booleans())
                ))
    return PhysicsScene({0: root, **dict(enumerate(children, 1))})


# -- codec plumbing -------------------------------------------------------------------------


def ident(ref: Hashable) -> Any:
    return ref


def mesh_node(ref: Hashable) -> Any:
    return MESH_NODE_BASE + ref  # type: ignore[operator]


def encode(fmt: str, scene: PhysicsScene, report: Report) -> Encoded:
    if fmt == "omi":
        return omi.encode_omi(scene, ident, ident, report)
    if fmt == "khr-mesh":
        return khr.encode_khr(scene, ident, ident, report)
    return khr.encode_khr(scene, ident, ident, report, form="node", resolve_mesh_node=mesh_node)


def assemble(encoded: Encoded, node_count: int) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = [
        {"extensions": encoded.nodes.get(i, {})} for i in range(node_count)
    ]
    nodes[0]["children"] = list(range(1, node_count))
    nodes += [{} for _ in range(node_count, MESH_NODE_BASE)]
    nodes += [{"mesh": m} for m in range(MESH_COUNT)]  # orphans for the KHR node form
    return {
        "asset": {"version": "2.0"},
        "nodes": nodes,
        "meshes": [{"primitives": []} for _ in range(MESH_COUNT)],
        "extensions": encoded.root,
        "extensionsUsed": encoded.used(),
    }


def decode(gltf: dict[str, Any], report: Report) -> PhysicsScene:
    return registry.decode_document(DocumentView.from_json(gltf), report)


def omi_shape(shape: Shape | None) -> Shape | None:
    """What OMI keeps of a shape: a plane becomes a thin (or 1000 m) box."""
    if shape is None or shape.kind != "plane":
        return shape
    size_x = omi.INFINITE_PLANE if shape.size_x is None else shape.size_x
    size_z = omi.INFINITE_PLANE if shape.size_z is None else shape.size_z
    return Shape("box", size=(size_x, omi.PLANE_THICKNESS, size_z))


def omi_closest(motion: Motion | None) -> Motion | None:
    """What OMI can say of a motion: 1 kg for a computed mass, a kinematic body for an
    infinite one, the origin for a computed centre, 1000× the largest moment for a lock."""
    if motion is None:
        return None
    kind = "kinematic" if motion.mass == INFINITE and motion.kind == "dynamic" else motion.kind
    mass = motion.mass if motion.mass is not None and motion.mass < INFINITE else 1.0
    diagonal = motion.inertia_diagonal
    if diagonal is not None:
        finite = [d for d in diagonal if d < INFINITE]
        diagonal = tuple(d if d < INFINITE else 1000.0 * max(finite) for d in diagonal) \
            if finite else None
    return dataclasses.replace(
        motion, kind=kind, mass=mass, center_of_mass=motion.center_of_mass or ZERO3,
        inertia_diagonal=diagonal)


def omi_material(collider: Collider) -> Collider:
    """Combine modes left to the engine mean average in OMI."""
    material = collider.material
    if material is None:
        return collider
    return dataclasses.replace(collider, material=dataclasses.replace(
        material, friction_combine=material.friction_combine or "average",
        restitution_combine=material.restitution_combine or "average"))


def expected_scene(fmt: str, scene: PhysicsScene) -> PhysicsScene:
    """The scene a decoder must return for `scene` written in `fmt`."""
    out = PhysicsScene()
    for ref, physics in scene.nodes.items():
        if fmt == "omi":
            physics = dataclasses.replace(physics, motion=omi_closest(physics.motion))
            if physics.collider is not None:
                physics = dataclasses.replace(physics, collider=omi_material(physics.collider))
            if physics.collider is not None:
                physics = dataclasses.replace(physics, collider=dataclasses.replace(
                    physics.collider, shape=omi_shape(physics.collider.shape)))
            if physics.trigger is not None:
                physics = dataclasses.replace(physics, trigger=dataclasses.replace(
                    physics.trigger, shape=omi_shape(physics.trigger.shape)))
        elif physics.motion is not None and physics.motion.kind == "static":
            physics = dataclasses.replace(physics, motion=None)  # KHR: no motion is static
        if not physics.is_empty():
            out.nodes[ref] = physics
    return out


def assert_close(actual: Any, expected: Any, path: str = "scene") -> None:
    """Structural equality; floats within REL_TOL (relative), everything else exact."""
    if dataclasses.is_dataclass(expected) and not isinstance(expected, type):
        assert type(actual) is type(expected), f"{path}: {actual!r} != {expected!r}"
        for f in dataclasses.fields(expected):
            assert_close(getattr(actual, f.name), getattr(expected, f.name), f"{path}.{f.name}")
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: {actual!r} is not a dict"
        assert sorted(actual) == sorted(expected), f"{path}: keys {sorted(actual)}"
        for key, value in expected.items():
            assert_close(actual[key], value, f"{path}[{key!r}]")
    elif isinstance(expected, tuple | list):
        assert type(actual) is type(expected), f"{path}: {actual!r} != {expected!r}"
        assert len(actual) == len(expected), f"{path}: {actual!r} != {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_close(a, e, f"{path}[{i}]")
    elif isinstance(expected, float):
        assert isinstance(actual, float), f"{path}: {actual!r} is not a float"
        assert math.isclose(actual, expected, rel_tol=REL_TOL), f"{path}: {actual} != {expected}"
    else:
        assert type(actual) is type(expected), f"{path}: {actual!r} != {expected!r}"
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def test_assert_close_is_strict_enough() -> None:
    base = NodePhysics(motion=Motion(mass=1.0), collider=Collider(Shape("convex", mesh=1)))
    assert_close(base, NodePhysics(motion=Motion(mass=1.0 + 5e-7),
                                   collider=Collider(Shape("convex", mesh=1))))
    different = [
        NodePhysics(motion=Motion(mass=1.00001), collider=base.collider),
        NodePhysics(motion=Motion("kinematic"), collider=base.collider),
        NodePhysics(motion=base.motion, collider=Collider(Shape("convex", mesh=2))),
        NodePhysics(motion=base.motion, collider=Collider(Shape("trimesh", mesh=1))),
        NodePhysics(motion=base.motion),
        NodePhysics(motion=Motion(center_of_mass=(0.0, 0.0, 0.0)), collider=base.collider),
    ]
    for other in different:
        with pytest.raises(AssertionError):
            assert_close(other, base)
    with pytest.raises(AssertionError):
        assert_close({0: base, 1: base}, {0: base})
    with pytest.raises(AssertionError):
        assert_close(1, 1.0)


# -- properties: valid output and round trips --------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(scene=scenes())
def test_encoding_validates_and_round_trips(
    fmt: str, scene: PhysicsScene, validators: dict[str, PhysicsSchemaValidator],
) -> None:
    report = Report()
    encoded = encode(fmt, scene, report)
    closest_forms = {"plane-as-box", "omi-computed-mass", "omi-infinite-mass",
                     "omi-computed-center", "omi-locked-rotation", "omi-engine-combine",
                     "omi-zero-inertia", "omi-lock-unwritten"}
    assert set(report.codes()) <= (closest_forms if fmt == "omi" else set()), report.issues
    gltf = assemble(encoded, len(scene.nodes))
    json.dumps(gltf, allow_nan=False)  # strict JSON: no NaN or infinity written
    assert validators[fmt].errors(gltf) == []

    read_report = Report()
    decoded = decode(gltf, read_report)
    assert read_report.issues == []
    assert_close(decoded, expected_scene(fmt, scene))

    again = encode(fmt, decoded, Report())
    settled = encode(fmt, expected_scene(fmt, scene), Report())  # closest forms, explicit
    assert again.root == settled.root
    assert again.nodes == settled.nodes


@SETTINGS
@given(scene=scenes(planes=False))
def test_omi_and_khr_agree(scene: PhysicsScene) -> None:
    """Without planes, static bodies and what OMI cannot say, an OMI and a KHR encoding
    decode to the same scene."""
    scene = expected_scene("omi", expected_scene("khr-mesh", scene))
    decoded = [decode(assemble(encode(fmt, scene, Report()), 1 + MAX_CHILDREN), Report())
               for fmt in FORMATS]
    for other in decoded[1:]:
        assert_close(other, decoded[0])
    assert_close(decoded[0], scene)


@SETTINGS
@given(value=st.floats(allow_nan=False, allow_infinity=False))
@example(value=1.401298464324817e-45)  # float32's smallest subnormal: too few digits there
@example(value=1.0000404325712594e-38)  # a subnormal 7 digits would take to another float32
@example(value=1.0000404e-38)  # (not a float32 itself: close, and the same float32)
def test_canon_is_idempotent_and_close(value: float) -> None:
    """Idempotent; a float32 subnormal (as Blender stores it) is written as a decimal of the
    same float32, however short; any other value stays close to itself."""
    import struct

    once = canon(value)
    assert canon(once) == once
    single = struct.Struct("<f")
    try:
        as_float32 = single.unpack(single.pack(value))[0]
    except OverflowError:
        as_float32 = None
    if as_float32 == value and 0.0 < abs(value) < 1.1754943508222875e-38:
        assert single.pack(once) == single.pack(value)
    else:
        assert math.isclose(once, value, rel_tol=REL_TOL, abs_tol=1e-300)
    if as_float32 is not None and abs(value) <= 3.4028234663852886e38 and value != 0.0 \
            and abs(as_float32) > 0.0:
        assert single.pack(once) == single.pack(value)  # (never another float32)
    assert math.copysign(1.0, once) == 1.0 or once != 0.0


# -- property: decoding is total -----------------------------------------------------------------

EXTENSIONS = (omi.SHAPE_EXT, omi.BODY_EXT, omi.JOINT_EXT, khr.SHAPES_EXT, khr.BODIES_EXT)
SHAPE_WORDS = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh", "plane")
WORDS = (*SHAPE_WORDS, "static", "kinematic", "dynamic", "average", "minimum", "maximum",
         "multiply", "torus")
MOTION_KEYS = ("type", "isKinematic", "mass", "centerOfMass", "inertiaDiagonal",
               "inertiaOrientation", "linearVelocity", "angularVelocity", "gravityFactor")
SHAPE_KEYS = ("size", "radius", "height", "radiusTop", "radiusBottom", "sizeX", "sizeZ",
              "doubleSided", "mesh")
MATERIAL_KEYS = ("staticFriction", "dynamicFriction", "restitution", "frictionCombine",
                 "restitutionCombine")
FILTER_KEYS = ("collisionSystems", "collideWithSystems", "notCollideWithSystems")
JOINT_KEYS = ("joint", "connectedNode", "enableCollision", "nodeA", "nodeB", "constraints")
LIMIT_KEYS = ("linearAxes", "angularAxes", "min", "max", "lowerLimit", "upperLimit",
              "stiffness", "damping")
DRIVE_KEYS = ("type", "mode", "axis", "maxForce", "positionTarget", "velocityTarget",
              "stiffness", "damping")
PHYSICS_KEYS = (
    *EXTENSIONS, *SHAPE_WORDS, *MOTION_KEYS, *SHAPE_KEYS, *MATERIAL_KEYS, *FILTER_KEYS,
    "shape", "shapes", "motion", "collider", "trigger", "nodes", "geometry", "node",
    "convexHull", "physicsMaterial", "collisionFilter", "physicsMaterials", "collisionFilters",
    "children", *JOINT_KEYS, *LIMIT_KEYS, *DRIVE_KEYS, "physicsJoints", "limits", "drives",
    "linear", "angular", "force", "acceleration",
)
NUMBERS = (
    st.integers(-2, 4) | st.integers() | st.just(10**400) | st.floats()
    | st.floats(-4.0, 4.0) | st.booleans()
)
KEYS = st.sampled_from(PHYSICS_KEYS) | st.text(max_size=4)
SCALARS = st.none() | NUMBERS | st.text(max_size=4) | st.sampled_from(WORDS)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=25,
)
VALUES = NUMBERS | st.lists(NUMBERS, min_size=2, max_size=5) | st.sampled_from(WORDS) | JSON
VECTORS = st.lists(NUMBERS, min_size=3, max_size=4)


def mostly(draw: st.DrawFn, structured: st.SearchStrategy[Any]) -> Any:
    """Usually a value of `structured`; one time in eight arbitrary JSON instead."""
    return draw(JSON) if draw(st.integers(0, 7)) == 0 else draw(structured)


@st.composite
def some_of(
    draw: st.DrawFn, keys: tuple[str, ...], value: st.SearchStrategy[Any] = VALUES
) -> Any:
    """Mostly objects with any subset of the real keys, each holding anything."""
    return mostly(draw, st.fixed_dictionaries({}, optional=dict.fromkeys(keys, value)))


@st.composite
def node_payloads(draw: st.DrawFn) -> Any:
    geometry = some_of(("shape", "mesh", "node", "convexHull"))
    index = st.integers(-1, 3) | VALUES
    collider = some_of(("shape", "geometry", "physicsMaterial", "collisionFilter"),
                       index | geometry | st.just({}))
    trigger = st.just({}) | some_of(("shape", "geometry", "nodes", "collisionFilter"),
                                    index | geometry | st.lists(index, max_size=4))
    motion = some_of(MOTION_KEYS, VECTORS | VALUES)
    joint = some_of(JOINT_KEYS, index | st.lists(index | some_of(LIMIT_KEYS), max_size=3))
    return mostly(draw, st.fixed_dictionaries(
        {}, optional={"motion": motion, "collider": collider, "trigger": trigger,
                      "joint": joint, **dict.fromkeys(JOINT_KEYS[1:], index)}
    ))


@st.composite
def shape_entries(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(WORDS) | JSON)
    sub = some_of(SHAPE_KEYS, VECTORS | VALUES)
    return mostly(draw, st.fixed_dictionaries(
        {"type": st.just(kind)}, optional=dict.fromkeys((*SHAPE_WORDS, "torus"), sub)
    ))


@st.composite
def root_payloads(draw: st.DrawFn) -> Any:
    strings = st.lists(st.text(max_size=2) | JSON, max_size=3) | JSON
    return mostly(draw, st.fixed_dictionaries({}, optional={
        "shapes": st.lists(shape_entries(), max_size=4) | JSON,
        "physicsMaterials": st.lists(some_of(MATERIAL_KEYS), max_size=3) | JSON,
        "collisionFilters": st.lists(some_of(FILTER_KEYS, strings), max_size=3) | JSON,
        "physicsJoints": st.lists(joint_entries(), max_size=3) | JSON,
        "constraints": st.lists(some_of(LIMIT_KEYS, AXES | VALUES), max_size=3) | JSON,
    }))


AXES = st.lists(st.integers(-1, 3) | VALUES, max_size=4)


@st.composite
def joint_entries(draw: st.DrawFn) -> Any:
    limit = some_of(LIMIT_KEYS, AXES | VALUES)
    drive = some_of(DRIVE_KEYS, st.sampled_from(("linear", "angular", "force", "acceleration"))
                    | st.integers(-1, 3) | VALUES)
    return draw(some_of(("limits", "drives"), st.lists(limit | drive, max_size=3)))


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly glTF-shaped documents whose physics payloads hold arbitrary JSON."""
    count = draw(st.integers(0, 5))
    names = st.sampled_from(EXTENSIONS)
    nodes: list[Any] = []
    for _ in range(count):
        node: dict[str, Any] = {
            "extensions": mostly(draw, st.dictionaries(names, node_payloads(), max_size=2)),
            "children": mostly(draw, st.lists(st.integers(-1, count), max_size=4)),
        }
        if draw(st.booleans()):
            node["mesh"] = mostly(draw, st.integers(-1, 3))
        nodes.append(mostly(draw, st.just(node)))
    return {
        "nodes": nodes,
        "meshes": mostly(draw, st.lists(st.just({}), max_size=3)),
        "extensions": mostly(draw, st.dictionaries(names, root_payloads(), max_size=4)),
    }


#: Motion fields where the model's math.inf means something (an infinite mass, a locked axis)
INFINITE_ALLOWED = frozenset({"mass", "inertia_diagonal"})


def finite_and_in_range(value: Any, view: DocumentView, path: str = "scene",
                        infinite: bool = False) -> None:
    """Every number the decoder hands on is finite (or +inf where the model gives it a
    meaning); every index it keeps is in range."""
    if isinstance(value, Shape) and value.mesh is not None:
        assert 0 <= value.mesh < view.mesh_count, path
    if isinstance(value, Trigger):
        assert all(0 <= n < len(view.nodes) for n in value.nodes), path
    if isinstance(value, Joint):
        refs = value.legacy_bodies or (value.connected_node,)
        assert all(isinstance(n, int) and 0 <= n < len(view.nodes) for n in refs), path
    if isinstance(value, JointLimit):
        assert value.linear_axes or value.angular_axes, path
        assert set(value.linear_axes + value.angular_axes) <= {0, 1, 2}, path
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            finite_and_in_range(getattr(value, f.name), view, f"{path}.{f.name}",
                                isinstance(value, Motion) and f.name in INFINITE_ALLOWED)
    elif isinstance(value, dict | tuple | list):
        items = value.values() if isinstance(value, dict) else value
        for i, item in enumerate(items):
            finite_and_in_range(item, view, f"{path}[{i}]", infinite)
    elif isinstance(value, float):
        assert math.isfinite(value) or (infinite and value == INFINITE), path


@SETTINGS
@given(gltf=documents())
@example(gltf={"nodes": [{"extensions": {"KHR_physics_rigid_bodies": {
    "motion": {"mass": 0, "inertiaDiagonal": [0, 2, 0]}}}}]})  # KHR's 0: infinite, locked
def test_decoding_arbitrary_json_never_raises(gltf: dict[str, Any]) -> None:
    report = Report()
    view = DocumentView.from_json(gltf)
    scene = registry.decode_document(view, report)
    assert all(0 <= i < len(view.nodes) for i in scene.nodes)
    finite_and_in_range(scene, view)
    assert all(issue.where.startswith("/") and issue.message for issue in report.issues)
    for fmt in FORMATS:  # whatever was read can be written again
        encode(fmt, scene, Report())


@st.composite
def child_graphs(draw: st.DrawFn) -> tuple[list[list[int]], list[bool]]:
    """Arbitrary `children` lists (cycles, self loops, repeats, bad indices) over a few nodes."""
    count = draw(st.integers(1, 8))
    children = [draw(st.lists(st.integers(-2, count + 1), max_size=4)) for _ in range(count)]
    triggers = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return children, triggers


def reachable(children: list[list[int]], start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for child in children[todo.pop()]:
            if 0 <= child < len(children) and child not in seen:
                seen.add(child)
                todo.append(child)
    return seen - {start}


@SETTINGS
@given(graph=child_graphs())
def test_implicit_compound_trigger_is_every_descendant_shape_trigger(
    graph: tuple[list[list[int]], list[bool]],
) -> None:
    children, shape_trigger = graph
    nodes = []
    for i, kids in enumerate(children):
        if i == 0:
            payload: dict[str, Any] = {"trigger": {}}
        else:
            payload = {"trigger": {"shape": 0}} if shape_trigger[i] else {"collider": {"shape": 0}}
        nodes.append({"children": kids, "extensions": {omi.BODY_EXT: payload}})
    gltf = {"nodes": nodes, "extensions": {omi.SHAPE_EXT: {"shapes": [{"type": "box"}]}}}
    report = Report()
    scene = decode(gltf, report)
    expected = {i for i in reachable(children, 0) if shape_trigger[i]}
    if expected:
        members = scene.nodes[0].trigger.nodes
        assert sorted(members) == sorted(expected)
        assert "implicit-compound-trigger" in report.codes()
    else:
        assert 0 not in scene.nodes
        assert "trigger-empty" in report.codes()


@pytest.mark.parametrize("stored, written", [
    (16777215.0, 16777215.0), (1.0000001192092896, 1.0000001),
    (0.12345679104328156, 0.12345679), (0.10000000149011612, 0.1), (3.1415925, 3.1415925)])
def test_canon_writes_every_float32_exactly(stored: float, written: float) -> None:
    """Blender's values are float32: the shortest decimal of the same float32 is written (7
    digits told some apart wrongly: 16777215 became 16777220, 1.0000001 became 1.0)."""
    import struct

    assert canon(stored) == written
    same = struct.Struct("<f")
    assert same.pack(canon(stored)) == same.pack(stored)
