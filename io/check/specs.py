# SPDX-License-Identifier: GPL-3.0-or-later
"""What the physics extensions' JSON schemas require, in the rule language of schema.py. Pure.

Written from the specifications in our own form; the tests compare the verdicts with the
official schemas. Every bound of a table field, plain or quirk (mass, inertia, shape
sizes), is read from io/field_table.py. Where those schemas are known to be wrong (spec
digest §6.1), the rules follow the specification as the project's tests do:
- the OMI joint document requires `physicsJoints` (the schema says `constraints`);
- an OMI limit needs at least one axis kind (the schema: exactly one; the weld example has
  both, which risks.py flags);
- the OMI shape's type-named object is optional (the README gives defaults);
- a KHR `mass` or `inertiaDiagonal` item may be 0, meaning infinite (flagged too);
- KHR 2024-03: draft-4 integers, a shape carries exactly one known shape object and the one
  its `type` names, and a drive axis stops at 2;
- KHR `geometry` names one of `shape`, `node` (2025-10) or `mesh` (2026-01);
- the KHR drive's `positionTarget`/`stiffness` and `velocityTarget`/`damping` pairs hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .. import rules
from ..field_table import GRAVITY, SCHEMA_BOUNDS, Bound, Family, Field, Group, rows
from .schema import (
    Array,
    Boolean,
    Context,
    Integer,
    Json,
    NamedPart,
    NotBoth,
    Number,
    Object,
    OneOf,
    Pairs,
    Spec,
    String,
    Switch,
)

ID: Final = Integer(0)
NUMBER: Final = Number()
NON_NEGATIVE: Final = Number(minimum=0)
VECTOR3: Final = Array(NUMBER, 3, 3)
ANY_ARRAY: Final = Array()
STRINGS: Final = Array(String())


@dataclass(frozen=True, slots=True)
class TriggerForm:
    """A trigger is one shape (`key`: `shape` or `geometry`) or a compound over `nodes`,
    and only a single-shape trigger takes a filter."""

    key: str

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None:
        if self.key in obj and "nodes" in obj:
            ctx.error("trigger-both", where,
                      f"a trigger has '{self.key}' or 'nodes', not both")
        elif self.key not in obj and "nodes" not in obj:
            ctx.error("trigger-empty", where,
                      f"a trigger needs '{self.key}' or 'nodes' (an empty trigger is the "
                      "2023 implicit compound trigger)")
        elif "nodes" in obj and "collisionFilter" in obj:
            rule = rules.COMPOUND_TRIGGER_FILTER
            ctx.error(rule.code, where, rule.message())


def _fields(**fields: Spec) -> dict[str, Spec]:
    return fields


def row_spec(row: Field) -> Spec:
    """A field-table row as its schema states it: the row's bounds are the schema's."""
    if row.kind == "bool":
        return Boolean()
    if row.kind == "enum":
        return String(tuple(item[0] for item in row.items))
    if row.kind == "string":
        return String()
    number = Number(minimum=row.minimum, above=0 if row.positive else None,
                    maximum=row.maximum)
    return Array(number, row.size, row.size) if row.size else number


def bound_spec(bound: Bound) -> Number:
    """A number with a schema bound of the table's (`SCHEMA_BOUNDS`)."""
    return Number(minimum=bound.minimum, above=0 if bound.positive else None)


def schema_number(family: Family, part: str, key: str) -> Number:
    """The number `family`'s schema allows for `key` of its `part` object, from the table."""
    return bound_spec(SCHEMA_BOUNDS[family][part, key])


def table_fields(group: Group, **explicit: Spec) -> dict[str, Spec]:
    """A group's rows by JSON key, then the `explicit` keys the table does not hold."""
    return {**{row.key: row_spec(row) for row in rows(group)}, **explicit}


# -- shared by OMI and KHR -------------------------------------------------------------------

MATERIAL: Final = Object(table_fields("material"), base="child")
FILTER: Final = Object(
    _fields(collisionSystems=STRINGS, collideWithSystems=STRINGS, notCollideWithSystems=STRINGS),
    base="child",
    rules=(NotBoth("collideWithSystems", "notCollideWithSystems", "filter-both", "a filter"),))
NODE_JOINT: Final = Object(_fields(connectedNode=ID, joint=ID, enableCollision=Boolean()),
                           required=("connectedNode", "joint"))


def _limit(min_axes: int, only_one: bool) -> Object:
    axes = Array(Integer(0, 2), min_axes, 3, unique=True)
    return Object(
        _fields(linearAxes=axes, angularAxes=axes, min=NUMBER, max=NUMBER,
                stiffness=NON_NEGATIVE, damping=NON_NEGATIVE),
        rules=(OneOf(("linearAxes", "angularAxes"), "limit-axes", "a limit", only_one),))


def _drive(pairs: bool) -> Object:
    checks = (Pairs((("positionTarget", "stiffness"), ("stiffness", "positionTarget"),
                     ("velocityTarget", "damping"), ("damping", "velocityTarget")),
                    "drive-pair"),) if pairs else ()
    return Object(
        _fields(type=String(), mode=String(), axis=Integer(0, 2), maxForce=NON_NEGATIVE,
                positionTarget=NUMBER, velocityTarget=NUMBER, stiffness=NON_NEGATIVE,
                damping=NON_NEGATIVE),
        required=("type", "mode", "axis"), rules=checks)


def _joints(limit: Object, drive: Object, min_items: int) -> Array:
    joint = Object(_fields(limits=Array(limit), drives=Array(drive)), base="child")
    return Array(joint, min_items)


def _round(family: Family, kind: str) -> Object:
    """A capsule's or cylinder's object, its bounds from the table."""
    return Object({key: schema_number(family, kind, key)
                   for key in ("height", "radiusBottom", "radiusTop")})


def _box(family: Family) -> Object:
    return Object(_fields(size=Array(schema_number(family, "box", "size"), 3, 3)))


def _sphere(family: Family) -> Object:
    return Object(_fields(radius=schema_number(family, "sphere", "radius")))


# -- OMI ---------------------------------------------------------------------------------------

OMI_SHAPE_PARTS: Final = {
    "box": _box("OMI"),
    "sphere": _sphere("OMI"),
    "capsule": _round("OMI", "capsule"),
    "cylinder": _round("OMI", "cylinder"),
    "convex": Object(_fields(mesh=ID)),
    "trimesh": Object(_fields(mesh=ID)),
}
OMI_SHAPE: Final = Object(
    _fields(type=String(tuple(OMI_SHAPE_PARTS))), required=("type",), base="child",
    rules=(Switch("type", {kind: Object({kind: part}, base=None)
                           for kind, part in OMI_SHAPE_PARTS.items()}),))
OMI_SHAPES_DOC: Final = Object(_fields(shapes=Array(OMI_SHAPE, 1)), required=("shapes",))

OMI_MOTION: Final = Object(_fields(
    type=String(("static", "kinematic", "dynamic")), mass=schema_number("OMI", "motion", "mass"),
    centerOfMass=VECTOR3, inertiaDiagonal=ANY_ARRAY, inertiaOrientation=ANY_ARRAY,
    linearVelocity=ANY_ARRAY, angularVelocity=ANY_ARRAY, gravityFactor=NUMBER), required=("type",))
OMI_BODY_NODE: Final = Object(_fields(
    motion=OMI_MOTION,
    collider=Object(_fields(shape=ID, physicsMaterial=ID, collisionFilter=ID)),
    trigger=Object(_fields(shape=ID, nodes=Array(ID, 1, unique=True), collisionFilter=ID),
                   rules=(TriggerForm("shape"),))))
OMI_BODY_DOC: Final = Object(_fields(physicsMaterials=Array(MATERIAL),
                                     collisionFilters=Array(FILTER)))

OMI_JOINT_DOC: Final = Object(
    _fields(physicsJoints=_joints(_limit(0, only_one=False), _drive(pairs=False), 1)),
    required=("physicsJoints",))

# The vehicle payloads' plain fields and their bounds come from the field table; the seat's
# points are plain arrays in its schema (their length is the codec's rule).
OMI_VEHICLE_BODY: Final = Object(table_fields("vehicle_body", pilotSeat=ID), base=None)
OMI_WHEEL: Final = Object(table_fields("wheel", physicsMaterial=ID), base=None)
OMI_THRUSTER: Final = Object(table_fields("thruster"), required=("maxForce",), base=None)
OMI_HOVER_THRUSTER: Final = Object(table_fields("hover_thruster"),
                                   required=("maxHoverEnergy",), base=None)
OMI_SEAT: Final = Object(table_fields("seat", back=ANY_ARRAY, foot=ANY_ARRAY, knee=ANY_ARRAY),
                         required=("back", "foot", "knee"))


def _pool(key: str, item: Object) -> Object:
    return Object({key: Array(item, 1)}, required=(key,))


def _reference(key: str) -> Object:
    return Object({key: ID}, required=(key,))


# OMI_collider (archived, 2022-12 → 2023-06): flat shapes whose parameters the type requires.
_FLAT_ROUND: Final = Object(_fields(radius=NUMBER, height=NUMBER), ("radius", "height"), None)
OMI_COLLIDER: Final = Object(
    _fields(type=String(("box", "sphere", "capsule", "cylinder", "hull", "trimesh")),
            isTrigger=Boolean()),
    required=("type",), base="child",
    rules=(Switch("type", {
        "box": Object(_fields(size=ANY_ARRAY), ("size",), base=None),
        "sphere": Object(_fields(radius=NUMBER), ("radius",), base=None),
        "capsule": _FLAT_ROUND, "cylinder": _FLAT_ROUND,
        "hull": Object(_fields(mesh=ID), ("mesh",), base=None),
        "trimesh": Object(_fields(mesh=ID), ("mesh",), base=None)}),))

# -- KHR, current (2025-10 and the 2026-01 geometry.mesh) ----------------------------------------

KHR_SHAPE: Final = Object(_fields(
    type=String(), plane=Object(_fields(doubleSided=Boolean(),
                                        sizeX=schema_number("KHR", "plane", "sizeX"),
                                        sizeZ=schema_number("KHR", "plane", "sizeZ"))),
    sphere=_sphere("KHR"), box=_box("KHR"),
    capsule=_round("KHR", "capsule"), cylinder=_round("KHR", "cylinder")),
    required=("type",), base="child")
GEOMETRY: Final = Object(_fields(convexHull=Boolean(), shape=ID, node=ID, mesh=ID),
                         rules=(OneOf(("shape", "node", "mesh"), "geometry-form", "a geometry"),))


KHR_MOTION: Final = Object(_fields(
    isKinematic=Boolean(), mass=schema_number("KHR", "motion", "mass"), centerOfMass=VECTOR3,
    inertiaDiagonal=Array(schema_number("KHR", "motion", "inertiaDiagonal"), 3, 3),
    inertiaOrientation=Array(NUMBER, 4, 4), linearVelocity=VECTOR3, angularVelocity=VECTOR3,
    gravityFactor=NUMBER))


def _khr_node(geometry_key: str, geometry: Spec) -> Object:
    return Object(_fields(
        motion=KHR_MOTION,
        collider=Object({geometry_key: geometry, "physicsMaterial": ID, "collisionFilter": ID},
                        required=(geometry_key,)),
        trigger=Object({geometry_key: geometry, "nodes": Array(ID, 1, unique=True),
                        "collisionFilter": ID}, rules=(TriggerForm(geometry_key),)),
        joint=NODE_JOINT))


def _khr_doc(joints: Array) -> Object:
    return Object(_fields(physicsMaterials=Array(MATERIAL, 1), collisionFilters=Array(FILTER, 1),
                          physicsJoints=joints))


KHR_BODY_NODE: Final = _khr_node("geometry", GEOMETRY)
KHR_BODY_DOC: Final = _khr_doc(_joints(_limit(1, only_one=True), _drive(pairs=True), 1))

# -- KHR 2024-03 (KHR_collision_shapes; draft-4 integers) ------------------------------------

LEGACY_SHAPE_PARTS: Final = {
    "sphere": _sphere("KHR_2024"),
    "box": _box("KHR_2024"),
    "capsule": _round("KHR_2024", "capsule"),
    "cylinder": _round("KHR_2024", "cylinder"),
    "convex": Object(_fields(mesh=ID), ("mesh",)),
    "trimesh": Object(_fields(mesh=ID), ("mesh",)),
}
LEGACY_SHAPE: Final = Object(
    {"type": String(), **LEGACY_SHAPE_PARTS}, required=("type",), base="child",
    rules=(OneOf(tuple(LEGACY_SHAPE_PARTS), "shape-form", "a shape"),
           NamedPart(tuple(LEGACY_SHAPE_PARTS), "shape-form")))
LEGACY_BODY_NODE: Final = _khr_node("shape", ID)
LEGACY_BODY_DOC: Final = _khr_doc(_joints(_limit(1, only_one=True), _drive(pairs=False), 1))


# -- OMI_physics_gravity: the type-named object is optional (the README gives defaults) ----

_GRAVITY_ROWS: Final = {row.attr: row_spec(row) for row in GRAVITY}
_DIRECTION: Final = Array(None, 3, 3)  # the schema leaves its items untyped
_DISTANCE: Final = _fields(unitDistance=_GRAVITY_ROWS["unit_distance"])
_CIRCLE: Final = Object({"radius": _GRAVITY_ROWS["radius"], **_DISTANCE})
OMI_GRAVITY_PARTS: Final = {
    "directional": Object(_fields(direction=_DIRECTION)),
    "disc": _CIRCLE,
    "line": Object(_fields(points=Array(NUMBER, 6), **_DISTANCE), required=("points",)),
    "point": Object(_DISTANCE),
    "shaped": Object(_fields(shape=ID, **_DISTANCE), required=("shape",)),
    "torus": _CIRCLE,
}
OMI_GRAVITY_DOC: Final = Object(_fields(gravity=NUMBER, direction=_DIRECTION),
                                required=("gravity",))
OMI_GRAVITY_NODE: Final = Object(
    _fields(type=String(tuple(OMI_GRAVITY_PARTS)), gravity=_GRAVITY_ROWS["gravity"],
            priority=_GRAVITY_ROWS["priority"], replace=_GRAVITY_ROWS["replace"],
            stop=_GRAVITY_ROWS["stop"]),
    required=("type", "gravity"),
    rules=(Switch("type", {kind: Object({kind: part}, base=None)
                           for kind, part in OMI_GRAVITY_PARTS.items()}),))


@dataclass(frozen=True, slots=True)
class Payload:
    """Where an extension's object sits ("doc": the root, "node": each node) and its rules;
    `integral_floats` False for the draft-4 revision."""

    extension: str
    level: str
    spec: Spec
    integral_floats: bool = True


OMI_PAYLOADS: Final = (
    Payload("OMI_physics_shape", "doc", OMI_SHAPES_DOC),
    Payload("OMI_physics_body", "doc", OMI_BODY_DOC),
    Payload("OMI_physics_body", "node", OMI_BODY_NODE),
    Payload("OMI_physics_joint", "doc", OMI_JOINT_DOC),
    Payload("OMI_physics_joint", "node", NODE_JOINT),
    Payload("OMI_vehicle_body", "node", OMI_VEHICLE_BODY),
    Payload("OMI_vehicle_wheel", "doc", _pool("wheels", OMI_WHEEL)),
    Payload("OMI_vehicle_wheel", "node", _reference("wheel")),
    Payload("OMI_vehicle_thruster", "doc", _pool("thrusters", OMI_THRUSTER)),
    Payload("OMI_vehicle_thruster", "node", _reference("thruster")),
    Payload("OMI_vehicle_hover_thruster", "doc", _pool("hoverThrusters", OMI_HOVER_THRUSTER)),
    Payload("OMI_vehicle_hover_thruster", "node", _reference("hoverThruster")),
    Payload("OMI_seat", "node", OMI_SEAT),
    Payload("OMI_collider", "doc", _pool("colliders", OMI_COLLIDER)),
    Payload("OMI_collider", "node", _reference("collider")),
    Payload("OMI_physics_gravity", "doc", OMI_GRAVITY_DOC),
    Payload("OMI_physics_gravity", "node", OMI_GRAVITY_NODE),
)
KHR_PAYLOADS: Final = (
    Payload("KHR_implicit_shapes", "doc", _pool("shapes", KHR_SHAPE)),
    Payload("KHR_physics_rigid_bodies", "doc", KHR_BODY_DOC),
    Payload("KHR_physics_rigid_bodies", "node", KHR_BODY_NODE),
)
LEGACY_KHR_PAYLOADS: Final = (
    Payload("KHR_collision_shapes", "doc", _pool("shapes", LEGACY_SHAPE), False),
    Payload("KHR_physics_rigid_bodies", "doc", LEGACY_BODY_DOC, False),
    Payload("KHR_physics_rigid_bodies", "node", LEGACY_BODY_NODE, False),
)
#: Every extension these rules cover.
CHECKED: Final = frozenset(p.extension for p in OMI_PAYLOADS + KHR_PAYLOADS + LEGACY_KHR_PAYLOADS)
#: The codes of findings these rules make: exactly what a JSON schema validator would reject.
SCHEMA_CODES: Final = frozenset({
    "wrong-type", "missing-required", "out-of-range", "none-sentinel", "bad-enum", "bad-length",
    "not-unique", "trigger-empty", "trigger-both", rules.COMPOUND_TRIGGER_FILTER.code,
    "geometry-form", "limit-axes", "filter-both", "drive-pair", "shape-form"})
