# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_vehicle_body, OMI_vehicle_wheel, OMI_vehicle_thruster, OMI_vehicle_hover_thruster and
OMI_seat, current revision (2026-02). Pure.

Spec: ../shared/specs/omi/OMI_vehicle_* and OMI_seat; digest §1.4–1.8, §4.6 and §6.2 rule 8.
Writes the current names only, always with the rates and ratios whose defaults changed. Reads
the current names and the 2025 ones; one 2025 name marks the whole document as 2025.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from .. import field_table
from ..diagnostics import Report
from ..document import DocumentView
from ..field_table import Field
from ..json_read import Json, JsonReader
from ..model import PhysicsMaterial
from ..vehicle_model import (
    HoverThruster,
    Seat,
    Thruster,
    VehicleBody,
    VehicleNode,
    VehicleScene,
    Wheel,
)
from .common import Encoded, Pool, ResolveRef, decode_pool
from .fields import decode_fields, encode_fields

BODY_EXT: Final = "OMI_vehicle_body"
WHEEL_EXT: Final = "OMI_vehicle_wheel"
THRUSTER_EXT: Final = "OMI_vehicle_thruster"
HOVER_EXT: Final = "OMI_vehicle_hover_thruster"
SEAT_EXT: Final = "OMI_seat"
VEHICLE_EXTENSIONS: Final = (BODY_EXT, WHEEL_EXT, THRUSTER_EXT, HOVER_EXT, SEAT_EXT)

MOTION_EXTENSIONS: Final = ("OMI_physics_body", "KHR_physics_rigid_bodies")
COLLINEAR_TOLERANCE: Final = 1e-9  # |cross| / (|a|·|b|) below this: the seat points are a line

MaterialIndex = Callable[[PhysicsMaterial], "int | None"]


@dataclass(frozen=True, slots=True)
class PartSpec:
    """A part pooled in a root array: where it lives and its rows of the field table."""

    attr: str  # the VehicleNode attribute
    cls: type
    ext: str
    array: str
    node_key: str
    rows: tuple[Field, ...]

    def old_keys(self) -> tuple[str, ...]:
        """The 2025 names of this part's properties."""
        return tuple(key for row in self.rows for key in row.old_keys)


WHEEL_PART: Final = PartSpec("wheel", Wheel, WHEEL_EXT, "wheels", "wheel", field_table.WHEEL)
THRUSTER_PART: Final = PartSpec(
    "thruster", Thruster, THRUSTER_EXT, "thrusters", "thruster", field_table.THRUSTER,
)
HOVER_PART: Final = PartSpec(
    "hover_thruster", HoverThruster, HOVER_EXT, "hoverThrusters", "hoverThruster",
    field_table.HOVER_THRUSTER,
)
PARTS: Final = (WHEEL_PART, THRUSTER_PART, HOVER_PART)
#: The node extensions `_decode_node_parts` reads.
NODE_PART_EXTENSIONS: Final = frozenset({part.ext for part in PARTS} | {SEAT_EXT})
#: A vehicle body writes its numbers, then its pilot seat, then its switches.
BODY_NUMBERS: Final = tuple(row for row in field_table.VEHICLE_BODY if row.kind == "float")
BODY_SWITCHES: Final = tuple(row for row in field_table.VEHICLE_BODY if row.kind != "float")
SEAT_POINTS: Final = tuple(row for row in field_table.SEAT if row.size)
SEAT_NUMBERS: Final = tuple(row for row in field_table.SEAT if not row.size)


# -- writing ---------------------------------------------------------------------------------


def encode_vehicles(
    scene: VehicleScene, resolve_node: ResolveRef, report: Report, material_index: MaterialIndex,
) -> Encoded:
    """Write vehicles: parts pooled into the root arrays, bodies and seats on their nodes."""
    pools = {part.ext: Pool() for part in PARTS}
    encoded = Encoded()
    seats = {ref: _encode_seat(node.seat, f"node {ref}", report)
             for ref, node in scene.nodes.items() if node.seat is not None}
    for ref, node in scene.nodes.items():
        where = f"node {ref}"
        _warn_shared_node(node, where, report)
        payload: dict[str, dict[str, Any]] = {}
        if node.vehicle_body is not None:
            payload[BODY_EXT] = _encode_body(node.vehicle_body, seats, resolve_node, report,
                                             where)
        for part in PARTS:
            value = getattr(node, part.attr)
            if value is not None:
                entry = _encode_part(part, value, where, report, material_index)
                payload[part.ext] = {part.node_key: pools[part.ext].add(entry)}
        seat = seats.get(ref)
        if seat is not None:
            payload[SEAT_EXT] = seat
        if payload:
            encoded.nodes[ref] = payload
    for part in PARTS:
        if pools[part.ext].entries:
            encoded.root[part.ext] = {part.array: pools[part.ext].entries}
    return encoded


def _warn_shared_node(node: VehicleNode, where: str, report: Report) -> None:
    parts = [p.attr for p in PARTS if getattr(node, p.attr) is not None]
    if len(parts) > 1 or (parts and node.vehicle_body is not None):
        report.warn("vehicle-parts-share-node", where,
                    "wheels and thrusters belong on their own nodes below the vehicle body")


def _encode_body(
    body: VehicleBody, seats: Mapping[Hashable, Any], resolve_node: ResolveRef, report: Report,
    where: str,
) -> dict[str, Any]:
    out = encode_fields(body, BODY_NUMBERS, {}, where, report)
    seat = _pilot_seat_index(body.pilot_seat, seats, resolve_node, report, where)
    if seat is not None:
        out["pilotSeat"] = seat
    return encode_fields(body, BODY_SWITCHES, out, where, report)


def _pilot_seat_index(
    ref: Hashable | None, seats: Mapping[Hashable, Any], resolve_node: ResolveRef,
    report: Report, where: str,
) -> int | None:
    """The pilot seat's node index, when that node is written with its seat (`seats`: the
    written seats by node)."""
    if ref is None:
        return None
    index = resolve_node(ref)
    if index is None:
        report.warn("pilot-seat-unresolved", where, "its pilot seat is not exported; omitted")
        return None
    if seats.get(ref) is None:
        report.warn("pilot-seat-not-a-seat", where,
                    f"its pilot seat, node {index}, has no seat written; omitted")
        return None
    return index


def _encode_part(
    part: PartSpec, value: Any, where: str, report: Report, material_index: MaterialIndex,
) -> dict[str, Any]:
    out = encode_fields(value, part.rows, {}, where, report)
    if part is WHEEL_PART and value.physics_material is not None:
        index = material_index(value.physics_material)
        if index is None:
            report.warn("wheel-material-unresolved", where,
                        "the wheel's physics material is not exported; omitted")
        else:
            out["physicsMaterial"] = index
    return out


def _encode_seat(seat: Seat, where: str, report: Report) -> dict[str, Any] | None:
    points = (seat.back, seat.foot, seat.knee)
    if not all(math.isfinite(v) for point in points for v in point):
        report.warn("seat-invalid", where, "seat points are not finite; seat omitted")
        return None
    if _collinear(seat):
        report.warn("seat-collinear", where, "back, foot and knee are on one line")
    return encode_fields(seat, field_table.SEAT, {}, where, report)


def _collinear(seat: Seat) -> bool:
    a = [k - b for k, b in zip(seat.knee, seat.back, strict=True)]
    b = [f - k for f, k in zip(seat.foot, seat.knee, strict=True)]
    cross = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    scale = math.hypot(*a) * math.hypot(*b)
    return scale == 0 or math.hypot(*cross) <= COLLINEAR_TOLERANCE * scale


# -- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Context:
    read: JsonReader
    old: bool
    materials: list[PhysicsMaterial | None]


def decode_vehicles(
    view: DocumentView, report: Report, materials: list[PhysicsMaterial | None],
    *, linear_dampeners_default: bool = True,
) -> VehicleScene:
    """Read vehicles and seats; `materials` is the physicsMaterials pool wheels index.

    `linear_dampeners_default` is used when a body omits `linearDampeners` (true since
    2025-12, false before; a file cannot tell).
    """
    read = JsonReader(report)
    context = _Context(read, _detect_old_names(view, read), materials)
    pools = {part.ext: _decode_part_pool(view, part, context) for part in PARTS}
    scene = VehicleScene(old_names=context.old)
    for index in sorted({i for name in NODE_PART_EXTENSIONS for i in view.users(name)}):
        found = _decode_node_parts(view.nodes[index].extensions, f"/nodes/{index}/extensions",
                                   pools, read)
        if not found.is_empty():
            scene.nodes[index] = found
    seats = {index for index, found in scene.nodes.items() if found.seat is not None}
    for index in view.users(BODY_EXT):
        body = _decode_body(view, index, seats, context, linear_dampeners_default)
        if body is not None:
            scene.nodes[index] = replace(scene.nodes.get(index, VehicleNode()),
                                         vehicle_body=body)
    scene.nodes = dict(sorted(scene.nodes.items()))  # type: ignore[arg-type]
    _warn_orphan_parts(view, scene, read)
    return scene


def _detect_old_names(view: DocumentView, read: JsonReader) -> bool:
    """True (with a note) when any part uses a 2025 property name."""
    for part in PARTS:
        root = view.extension(part.ext)
        entries = root.get(part.array) if isinstance(root, Mapping) else None
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            old = [key for key in part.old_keys() if isinstance(entry, Mapping) and key in entry]
            if old:
                read.report.info(
                    "vehicle-old-names", f"/extensions/{part.ext}/{part.array}/{i}/{old[0]}",
                    "2025 vehicle names: the document is read as 2025 (missing steering and "
                    "gimbal rates are instant)",
                )
                return True
    return False


def _decode_part_pool(view: DocumentView, part: PartSpec, context: _Context) -> list[Any]:
    where = f"/extensions/{part.ext}"
    root = context.read.obj(view.extension(part.ext), where)

    def decode(value: Json, item_where: str, read: JsonReader) -> Any:
        return _decode_part(part, value, item_where, context)

    return decode_pool(root, part.array, where, context.read, decode)


def _decode_part(part: PartSpec, value: Json, where: str, context: _Context) -> Any:
    read = context.read
    obj = read.obj(value, where)
    if obj is None:
        return None
    values = decode_fields(obj, part.rows, where, read, old=context.old)
    if part is WHEEL_PART:
        values["physics_material"] = _decode_material(obj, where, context)
    return part.cls(**values)


def _decode_material(
    obj: Mapping[str, Json], where: str, context: _Context
) -> PhysicsMaterial | None:
    index = _optional_index(obj, "physicsMaterial", where, len(context.materials), context.read)
    return None if index is None else context.materials[index]


def _optional_index(
    obj: Mapping[str, Json], key: str, where: str, count: int, read: JsonReader
) -> int | None:
    """An index that may be absent; the README's −1 ("none") is accepted with a note."""
    value = obj.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and value == -1:
        read.report.info("none-sentinel", f"{where}/{key}", "-1 read as none; omit it instead")
        return None
    return read.index(obj, key, where, count)


def _decode_node_parts(
    extensions: Mapping[str, Json], base: str, pools: dict[str, list[Any]], read: JsonReader,
) -> VehicleNode:
    parts = {
        part.attr: _node_part(extensions, part, pools[part.ext], base, read)
        for part in PARTS if part.ext in extensions
    }
    if SEAT_EXT in extensions:
        parts["seat"] = _decode_seat(extensions[SEAT_EXT], f"{base}/{SEAT_EXT}", read)
    return VehicleNode(**parts)


def _node_part(
    extensions: Mapping[str, Json], part: PartSpec, entries: list[Any], base: str,
    read: JsonReader,
) -> Any:
    where = f"{base}/{part.ext}"
    obj = read.obj(extensions[part.ext], where)
    if obj is None:
        return None
    if part.node_key not in obj:
        read.bad(where, f"required {part.node_key} missing; skipped", "missing-required")
        return None
    index = read.index(obj, part.node_key, where, len(entries))
    if index is not None and entries[index] is None:
        read.bad(where, f"{part.array} entry {index} is unusable; skipped", "vehicle-part-invalid")
    return None if index is None else entries[index]


def _decode_seat(value: Json, where: str, read: JsonReader) -> Seat | None:
    obj = read.obj(value, where)
    if obj is None:
        return None
    points = {row.attr: read.vector(obj, row.key, where, 3) for row in SEAT_POINTS}
    if any(point is None for point in points.values()):
        read.bad(where, "a seat needs back, foot and knee as 3 numbers each; skipped",
                 "missing-required")
        return None
    seat = Seat(**points, **decode_fields(obj, SEAT_NUMBERS, where, read))
    if _collinear(seat):
        read.bad(where, "back, foot and knee are on one line", "seat-collinear")
    return seat


def _decode_body(
    view: DocumentView, index: int, seats: set[int], context: _Context, linear_default: bool,
) -> VehicleBody | None:
    read = context.read
    extensions = view.nodes[index].extensions
    where = f"/nodes/{index}/extensions/{BODY_EXT}"
    obj = read.obj(extensions[BODY_EXT], where)
    if obj is None:
        return None
    if not _has_motion(extensions):
        read.bad(where, "a vehicle body belongs on a node with a motion", "vehicle-without-motion")
    if context.old and "linearDampeners" not in obj:
        read.report.info("linear-dampeners-undated", where,
                         f"2025 document without linearDampeners: read as {linear_default}")
    values = decode_fields(obj, field_table.VEHICLE_BODY, where, read,
                           defaults={"linear_dampeners": linear_default})
    return VehicleBody(
        **values, pilot_seat=_decode_pilot_seat(obj, where, len(view.nodes), seats, read),
    )


def _decode_pilot_seat(
    obj: Mapping[str, Json], where: str, node_count: int, seats: set[int], read: JsonReader,
) -> int | None:
    seat = _optional_index(obj, "pilotSeat", where, node_count, read)
    if seat is not None and seat not in seats:
        read.bad(f"{where}/pilotSeat", f"node {seat} has no usable OMI_seat; pilot seat dropped",
                 "pilot-seat-not-a-seat")
        return None
    return seat


def _has_motion(extensions: Mapping[str, Json]) -> bool:
    return any(
        isinstance(extensions.get(name), Mapping) and "motion" in extensions[name]
        for name in MOTION_EXTENSIONS
    )


def _warn_orphan_parts(view: DocumentView, scene: VehicleScene, read: JsonReader) -> None:
    """Wheels and thrusters must sit below a vehicle body."""
    under: set[int] = set()
    for index, found in scene.nodes.items():
        if found.vehicle_body is not None:
            under.update(view.descendants(index))  # type: ignore[arg-type]
    for index, found in scene.nodes.items():
        for part in PARTS:
            if getattr(found, part.attr) is not None and index not in under:
                read.bad(f"/nodes/{index}/extensions/{part.ext}",
                         f"{part.attr} is not below a vehicle body", "vehicle-part-orphan")
