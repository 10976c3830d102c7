# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_gravity: world gravity on the document, gravity volumes on trigger nodes. Pure.

Spec: ../shared/specs/omi/OMI_physics_gravity. The plain values are the GRAVITY and
WORLD_GRAVITY rows of io/field_table.py; the type, a line's points and a shaped volume's shape
(pooled into OMI_physics_shape) are explicit here. Writes every type's sub-object with all
its fields, defaults included, so it is never empty (the official schema's `oneOf` requires
it); reads it absent as all defaults (digest §6.1 defect 4).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from .. import rules
from ..diagnostics import LIST_LIMIT, Report
from ..document import DocumentView
from ..field_table import GRAVITY, WORLD_GRAVITY
from ..gravity import GRAVITY_KINDS, KIND_PARAMS, SHAPED_KINDS, Gravity, GravityScene, WorldGravity
from ..json_read import Json, JsonReader, is_finite_number
from ..model import MESH_SHAPES, Shape
from ..numbers import canon
from .common import Encoded, Pool, ResolveRef, encode_analytic, with_name
from .fields import decode_fields, encode_fields

GRAVITY_EXT: Final = "OMI_physics_gravity"
SHAPE_EXT: Final = "OMI_physics_shape"
PARAM_ATTRS: Final = frozenset(attr for params in KIND_PARAMS.values() for attr in params)
#: The rows on the gravity object itself (amount, priority, replace, stop).
TOP_ROWS: Final = tuple(row for row in GRAVITY if row.attr not in PARAM_ATTRS)
#: Type → the rows of its sub-object, always written: a sub-object left empty (`{}`) is
#: dropped by Blender's glTF exporter, and the official schema's `oneOf` requires it.
PARAM_ROWS: Final = {
    kind: tuple(replace(row, written="always") for row in GRAVITY if row.attr in params)
    for kind, params in KIND_PARAMS.items()
}
MAX_POINTS: Final = 100_000


# -- writing ---------------------------------------------------------------------------------


def encode_gravity(
    scene: GravityScene, resolve_node: ResolveRef, resolve_mesh: ResolveRef, report: Report,
    shapes: Pool,
) -> Encoded:
    """Write the world gravity (when set) and each volume; shaped volumes' shapes join
    `shapes` (the OMI_physics_shape pool). `resolve_node` tells which volumes are exported,
    `resolve_mesh` the mesh index of a convex or triangle-mesh shape."""
    encoded = Encoded()
    if scene.world is not None:
        encoded.root[GRAVITY_EXT] = encode_fields(scene.world, WORLD_GRAVITY, {},
                                                  "world gravity", report)
    for ref, volume in scene.nodes.items():
        if resolve_node(ref) is None:
            continue
        payload = encode_volume(volume, f"node {ref}", report, shapes, resolve_mesh)
        if payload is not None:
            encoded.nodes[ref] = {GRAVITY_EXT: payload}
    return encoded


def encode_volume(
    volume: Gravity, where: str, report: Report, shapes: Pool, resolve_mesh: ResolveRef,
) -> dict[str, Any] | None:
    """One node's OMI_physics_gravity object, or None (reported) when it cannot be written."""
    sub = encode_fields(volume, PARAM_ROWS[volume.kind], {}, where, report)
    if volume.kind == "line":
        points = [c for point in volume.points for c in point]
        if len(volume.points) < 2 or not all(math.isfinite(c) for c in points):
            report.warn(rules.GRAVITY_LINE_POINTS.code, where,
                        "line gravity needs at least 2 finite points; volume not written")
            return None
        sub["points"] = [canon(c) for c in points]
    if volume.kind == "shaped":
        entry = _shape_entry(volume.shape, resolve_mesh)
        if entry is None:
            report.warn(rules.GRAVITY_SHAPE_MISSING.code, where,
                        "shaped gravity has no shape (or its mesh is not exported); volume "
                        "not written")
            return None
        sub["shape"] = shapes.add(entry)
    out: dict[str, Any] = {"type": volume.kind}
    encode_fields(volume, TOP_ROWS, out, where, report)
    out[volume.kind] = sub
    return out


def _shape_entry(shape: Shape | None, resolve_mesh: ResolveRef) -> dict[str, Any] | None:
    if shape is None or shape.kind not in SHAPED_KINDS:
        return None
    if shape.kind in MESH_SHAPES:
        mesh = None if shape.mesh is None else resolve_mesh(shape.mesh)
        return None if mesh is None else with_name({"type": shape.kind,
                                                    shape.kind: {"mesh": mesh}}, shape.name)
    return with_name({"type": shape.kind, shape.kind: encode_analytic(shape)}, shape.name)


def add_gravity(
    encoded: Encoded, gravity: GravityScene, resolve_node: ResolveRef, resolve_mesh: ResolveRef,
    report: Report,
) -> None:
    """Add the gravity to an OMI document being written (shapes join its shape pool)."""
    shapes = Pool()
    for entry in encoded.root.get(SHAPE_EXT, {}).get("shapes", []):
        shapes.add(entry)
    written = encode_gravity(gravity, resolve_node, resolve_mesh, report, shapes)
    if shapes.entries:
        encoded.root[SHAPE_EXT] = {**encoded.root.get(SHAPE_EXT, {}), "shapes": shapes.entries}
    encoded.root.update(written.root)
    for ref, payload in written.nodes.items():
        encoded.nodes.setdefault(ref, {}).update(payload)


def report_unwritten(gravity: GravityScene, label: Any, report: Report) -> None:
    """One warning naming the world gravity and the volumes a KHR file cannot carry;
    `label` names a volume's node reference. A volume exported more than once (collection
    instances) is named once with its count; the first `LIST_LIMIT` are named, the rest
    counted (the reports' listing rule)."""
    volumes = Counter(f"{volume.kind} volume on {label(ref)}"
                      for ref, volume in gravity.nodes.items())
    named = [f"{text} ×{n}" if n > 1 else text for text, n in volumes.items()]
    more = len(named) - LIST_LIMIT
    parts = (["the world gravity"] if gravity.world is not None else []) + named[:LIST_LIMIT] \
        + ([f"{more} more volume{'s' if more > 1 else ''} not listed"] if more > 0 else [])
    if parts:
        report.warn("khr-no-gravity", "", "KHR has no gravity; not written: " + ", ".join(parts))


# -- reading ---------------------------------------------------------------------------------


def decode_gravity(
    view: DocumentView, report: Report, shapes: Sequence[Shape | None],
) -> GravityScene:
    """Read the world gravity and the volumes; `shapes` is the OMI_physics_shape pool."""
    read = JsonReader(report)
    scene = GravityScene()
    where = f"/extensions/{GRAVITY_EXT}"
    root = read.obj(view.extension(GRAVITY_EXT), where)
    if root is not None and not is_finite_number(root.get("gravity")):
        read.bad(f"{where}/gravity", "the world gravity's amount is missing or not a number: "
                 "no world gravity read (it would stop or fling everything)",
                 "world-gravity-skipped")
    elif root is not None:
        scene.world = WorldGravity(**decode_fields(root, WORLD_GRAVITY, where, read))
    for index in view.users(GRAVITY_EXT):
        node_where = f"/nodes/{index}/extensions/{GRAVITY_EXT}"
        volume = decode_volume(view.nodes[index].extensions[GRAVITY_EXT], node_where, read,
                               shapes)
        if volume is not None:
            scene.nodes[index] = volume
    return scene


def decode_volume(
    value: Json, where: str, read: JsonReader, shapes: Sequence[Shape | None],
) -> Gravity | None:
    """One node's volume; an unknown type is skipped (reported), bad values read as defaults."""
    obj = read.obj(value, where)
    if obj is None:
        return None
    kind = obj.get("type")
    if kind not in GRAVITY_KINDS:
        read.bad(f"{where}/type", f"unknown gravity type {kind!r}; volume skipped",
                 "gravity-type-unknown")
        return None
    sub = read.obj(obj.get(kind, {}), f"{where}/{kind}") or {}
    values = decode_fields(obj, TOP_ROWS, where, read)
    values.update(decode_fields(sub, PARAM_ROWS[kind], f"{where}/{kind}", read))
    if kind == "line":
        values["points"] = _decode_points(sub, f"{where}/{kind}", read)
    if kind == "shaped":
        values["shape"] = _decode_shape_ref(sub, f"{where}/{kind}", read, shapes)
    return Gravity(kind=kind, **values)


def _decode_points(
    sub: Mapping[str, Json], where: str, read: JsonReader,
) -> tuple[tuple[float, float, float], ...]:
    value = sub.get("points", [])
    numbers = value if isinstance(value, list) and len(value) <= MAX_POINTS else None
    if numbers is None or not all(is_finite_number(v) for v in numbers):
        read.bad(f"{where}/points", "expected an array of finite numbers; no points read",
                 rules.GRAVITY_LINE_POINTS.code)
        return ()
    if len(numbers) % 3 or len(numbers) < 6:
        read.bad(f"{where}/points", f"{len(numbers)} numbers: line points need a multiple of 3 "
                 "and at least 6" + ("; the last incomplete point dropped" if len(numbers) % 3
                                     else ""), rules.GRAVITY_LINE_POINTS.code)
    whole = len(numbers) - len(numbers) % 3
    return tuple(
        (float(numbers[i]), float(numbers[i + 1]), float(numbers[i + 2]))
        for i in range(0, whole, 3)
    )


def _decode_shape_ref(
    sub: Mapping[str, Json], where: str, read: JsonReader, shapes: Sequence[Shape | None],
) -> Shape | None:
    value = sub.get("shape", -1)
    if value == -1 and not isinstance(value, bool):
        read.bad(where, "shaped gravity without a shape has no effect",
                 rules.GRAVITY_SHAPE_MISSING.code)
        return None
    index = read.index_value(value, f"{where}/shape", len(shapes))
    shape = None if index is None else shapes[index]
    if index is not None and (shape is None or shape.kind not in SHAPED_KINDS):
        kind = "an unusable" if shape is None else f"a {shape.kind}"
        read.bad(f"{where}/shape", f"shape {index} is {kind} shape: shaped gravity towards it "
                 "has no effect", rules.GRAVITY_SHAPE_MISSING.code)
        return None
    return shape

