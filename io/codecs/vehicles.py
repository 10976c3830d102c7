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
from dataclasses import MISSING, dataclass, fields, replace
from functools import cache
from typing import Any, Final

from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import Json, JsonReader
from ..model import ZERO3, PhysicsMaterial
from ..numbers import canon, canon_list
from ..vehicle_model import (
    MAX_ANGLE,
    ZERO2,
    HoverThruster,
    Seat,
    Thruster,
    Vec2,
    VehicleBody,
    VehicleNode,
    VehicleScene,
    Wheel,
)
from .common import Encoded, Pool, ResolveRef, decode_pool

BODY_EXT: Final = "OMI_vehicle_body"
WHEEL_EXT: Final = "OMI_vehicle_wheel"
THRUSTER_EXT: Final = "OMI_vehicle_thruster"
HOVER_EXT: Final = "OMI_vehicle_hover_thruster"
SEAT_EXT: Final = "OMI_seat"
VEHICLE_EXTENSIONS: Final = (BODY_EXT, WHEEL_EXT, THRUSTER_EXT, HOVER_EXT, SEAT_EXT)

REQUIRED_FALLBACK: Final = 0.0  # read for a missing required maxForce / maxHoverEnergy
MOTION_EXTENSIONS: Final = ("OMI_physics_body", "KHR_physics_rigid_bodies")
COLLINEAR_TOLERANCE: Final = 1e-9  # |cross| / (|a|·|b|) below this: the seat points are a line
UNDER_UNIT: Final = 0.999999  # a written gimbal ratio's length stays below 1 after rounding

MaterialIndex = Callable[[PhysicsMaterial], "int | None"]


@dataclass(frozen=True, slots=True)
class NumberSpec:
    """One number of a pooled part: JSON names, model attribute, schema range, writing rule."""

    key: str
    attr: str
    minimum: float | None = None
    maximum: float | None = None
    positive: bool = False
    old_keys: tuple[str, ...] = ()
    always: bool = False  # written even when equal to the default
    required: bool = False
    old_default: float | None = None  # the value when missing from a 2025 document
    flag_when_old: bool = False  # the default stays, but a 2025 document gets a note


WHEEL_NUMBERS: Final = (
    NumberSpec("radius", "radius", positive=True),
    NumberSpec("width", "width", positive=True),
    NumberSpec("maxPropulsionForce", "max_propulsion_force", minimum=0.0,
               old_keys=("maxForce",)),
    NumberSpec("brakingForce", "braking_force"),
    NumberSpec("maxSteeringAngle", "max_steering_angle", minimum=0.0, maximum=MAX_ANGLE),
    NumberSpec("propulsionForceChangeRate", "propulsion_force_change_rate", always=True),
    NumberSpec("steeringChangeRate", "steering_change_rate", always=True, old_default=-1.0),
    NumberSpec("suspensionStiffness", "suspension_stiffness", positive=True),
    NumberSpec("suspensionDampingCompression", "suspension_damping_compression", positive=True),
    NumberSpec("suspensionDampingRebound", "suspension_damping_rebound", positive=True),
    NumberSpec("suspensionTravel", "suspension_travel", minimum=0.0),
    NumberSpec("targetPropulsionForceRatio", "target_propulsion_force_ratio",
               old_keys=("currentForceRatio",)),
    NumberSpec("targetSteeringRatio", "target_steering_ratio", minimum=-1.0, maximum=1.0,
               old_keys=("currentSteeringRatio",)),
)
THRUSTER_NUMBERS: Final = (
    NumberSpec("maxForce", "max_force", minimum=0.0, required=True),
    NumberSpec("maxGimbal", "max_gimbal", minimum=0.0, maximum=MAX_ANGLE),
    NumberSpec("forceChangeRate", "force_change_rate", always=True),
    NumberSpec("gimbalChangeRate", "gimbal_change_rate", always=True, old_default=-1.0),
    NumberSpec("linearGimbalAdjustRatio", "linear_gimbal_adjust_ratio", minimum=0.0,
               maximum=1.0, always=True),
    NumberSpec("targetForceRatio", "target_force_ratio", minimum=0.0,
               old_keys=("currentForceRatio",)),
)
# Not a number, but renamed like one: only its keys are used.
GIMBAL_SPEC: Final = NumberSpec(
    "targetGimbalRatio", "target_gimbal_ratio", old_keys=("currentGimbalRatio",)
)
HOVER_NUMBERS: Final = (
    NumberSpec("maxHoverEnergy", "max_hover_energy", minimum=0.0, required=True),
    NumberSpec("maxGimbal", "max_gimbal", minimum=0.0, maximum=MAX_ANGLE),
    NumberSpec("hoverEnergyChangeRate", "hover_energy_change_rate", always=True),
    NumberSpec("gimbalChangeRate", "gimbal_change_rate", always=True, old_default=-1.0),
    NumberSpec("linearGimbalAdjustRatio", "linear_gimbal_adjust_ratio", minimum=0.0,
               maximum=1.0, always=True, flag_when_old=True),
    # The 2025 README says currentHoverRatio, its schema currentForceRatio: accept both.
    NumberSpec("targetHoverRatio", "target_hover_ratio", minimum=0.0,
               old_keys=("currentHoverRatio", "currentForceRatio")),
)


@dataclass(frozen=True, slots=True)
class PartSpec:
    """A part pooled in a root array: where it lives and which numbers it has."""

    attr: str  # the VehicleNode attribute
    cls: type
    ext: str
    array: str
    node_key: str
    numbers: tuple[NumberSpec, ...]
    has_gimbal: bool

    def old_keys(self) -> tuple[str, ...]:
        """The 2025 names of this part's properties."""
        gimbal = GIMBAL_SPEC.old_keys if self.has_gimbal else ()
        return tuple(key for spec in self.numbers for key in spec.old_keys) + gimbal


WHEEL_PART: Final = PartSpec(
    "wheel", Wheel, WHEEL_EXT, "wheels", "wheel", WHEEL_NUMBERS, has_gimbal=False
)
THRUSTER_PART: Final = PartSpec(
    "thruster", Thruster, THRUSTER_EXT, "thrusters", "thruster", THRUSTER_NUMBERS,
    has_gimbal=True,
)
HOVER_PART: Final = PartSpec(
    "hover_thruster", HoverThruster, HOVER_EXT, "hoverThrusters", "hoverThruster",
    HOVER_NUMBERS, has_gimbal=True,
)
PARTS: Final = (WHEEL_PART, THRUSTER_PART, HOVER_PART)
#: The node extensions `_decode_node_parts` reads.
NODE_PART_EXTENSIONS: Final = frozenset({part.ext for part in PARTS} | {SEAT_EXT})
BODY_VECTORS: Final = (
    ("angularActivation", "angular_activation"),
    ("linearActivation", "linear_activation"),
    ("gyroTorque", "gyro_torque"),
)


@cache
def _defaults(cls: type) -> dict[str, Any]:
    """The model defaults of a part class (required numbers fall back to 0)."""
    return {
        f.name: REQUIRED_FALLBACK if f.default is MISSING else f.default for f in fields(cls)
    }


# -- writing ---------------------------------------------------------------------------------


def encode_vehicles(
    scene: VehicleScene, resolve_node: ResolveRef, report: Report, material_index: MaterialIndex,
) -> Encoded:
    """Write vehicles: parts pooled into the root arrays, bodies and seats on their nodes."""
    pools = {part.ext: Pool() for part in PARTS}
    encoded = Encoded()
    for ref, node in scene.nodes.items():
        where = f"node {ref}"
        _warn_shared_node(node, where, report)
        payload: dict[str, dict[str, Any]] = {}
        if node.vehicle_body is not None:
            payload[BODY_EXT] = _encode_body(node.vehicle_body, scene, resolve_node, report, where)
        for part in PARTS:
            value = getattr(node, part.attr)
            if value is not None:
                entry = _encode_part(part, value, where, report, material_index)
                payload[part.ext] = {part.node_key: pools[part.ext].add(entry)}
        seat = None if node.seat is None else _encode_seat(node.seat, where, report)
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
    body: VehicleBody, scene: VehicleScene, resolve_node: ResolveRef, report: Report, where: str,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, attr in BODY_VECTORS:
        vector = getattr(body, attr)
        if not all(math.isfinite(v) for v in vector):
            report.warn("value-skipped", where, f"{key} {vector} is not finite; omitted")
        elif vector != ZERO3:
            out[key] = canon_list(vector)
    if not math.isfinite(body.max_speed):
        report.warn("value-skipped", where, f"maxSpeed {body.max_speed} is not finite; omitted")
    elif body.max_speed != -1.0:
        out["maxSpeed"] = canon(body.max_speed)
    seat = _pilot_seat_index(body.pilot_seat, scene, resolve_node, report, where)
    if seat is not None:
        out["pilotSeat"] = seat
    out["angularDampeners"] = body.angular_dampeners
    out["linearDampeners"] = body.linear_dampeners
    if body.use_throttle:
        out["useThrottle"] = True
    return out


def _pilot_seat_index(
    ref: Hashable | None, scene: VehicleScene, resolve_node: ResolveRef, report: Report,
    where: str,
) -> int | None:
    if ref is None:
        return None
    target = scene.nodes.get(ref)
    if target is None or target.seat is None:
        report.warn("pilot-seat-not-a-seat", where, f"pilot seat {ref} has no seat; omitted")
        return None
    index = resolve_node(ref)
    if index is None:
        report.warn("pilot-seat-unresolved", where, f"pilot seat {ref} is not exported; omitted")
    return index


def _encode_part(
    part: PartSpec, value: Any, where: str, report: Report, material_index: MaterialIndex,
) -> dict[str, Any]:
    out = _encode_numbers(value, part.numbers, where, report)
    if part.has_gimbal:
        ratio = _writable_gimbal(value.target_gimbal_ratio, where, report)
        if ratio != ZERO2:
            out["targetGimbalRatio"] = canon_list(ratio)
    if part is WHEEL_PART and value.physics_material is not None:
        index = material_index(value.physics_material)
        if index is None:
            report.warn("wheel-material-unresolved", where,
                        "the wheel's physics material is not exported; omitted")
        else:
            out["physicsMaterial"] = index
    return out


def _encode_numbers(
    value: Any, specs: tuple[NumberSpec, ...], where: str, report: Report
) -> dict[str, Any]:
    defaults = _defaults(type(value))
    out: dict[str, Any] = {}
    for spec in specs:
        default = defaults[spec.attr]
        number = _writable(getattr(value, spec.attr), spec, default, where, report)
        if spec.always or spec.required or number != default:
            out[spec.key] = number
    return out


def _writable(value: float, spec: NumberSpec, default: float, where: str, report: Report) -> float:
    """`value` made schema-valid and canonical (reported when it had to change)."""
    if not math.isfinite(value) or (spec.positive and value <= 0):
        report.warn("value-defaulted", where, f"{spec.key} {value} is invalid; wrote {default}")
        return canon(default)
    low = -math.inf if spec.minimum is None else spec.minimum
    high = math.inf if spec.maximum is None else spec.maximum
    if not low <= value <= high:
        report.warn("value-clamped", where, f"{spec.key} {value} clamped to [{low}, {high}]")
        value = min(max(value, low), high)
    return _canon_at_most(value, high)


def _canon_at_most(value: float, high: float) -> float:
    """`canon(value)`, rounded down instead when rounding would pass `high` (π's bound)."""
    rounded = canon(value)
    if rounded <= high:
        return rounded
    scale = 10.0 ** (6 - math.floor(math.log10(abs(high))))
    return canon(math.floor(high * scale) / scale)


def _writable_gimbal(ratio: Vec2, where: str, report: Report) -> Vec2:
    if not all(math.isfinite(v) for v in ratio):
        report.warn("value-defaulted", where, f"targetGimbalRatio {ratio} is not finite; omitted")
        return ZERO2
    length = math.hypot(*ratio)
    if length > 1.0:
        report.warn("gimbal-ratio-length", where,
                    f"targetGimbalRatio {ratio} is longer than 1; shortened")
        return (ratio[0] * UNDER_UNIT / length, ratio[1] * UNDER_UNIT / length)
    return ratio


def _encode_seat(seat: Seat, where: str, report: Report) -> dict[str, Any] | None:
    points = (seat.back, seat.foot, seat.knee)
    if not all(math.isfinite(v) for point in points for v in point):
        report.warn("seat-invalid", where, "seat points are not finite; seat omitted")
        return None
    if _collinear(seat):
        report.warn("seat-collinear", where, "back, foot and knee are on one line")
    out: dict[str, Any] = {
        "back": canon_list(seat.back), "foot": canon_list(seat.foot),
        "knee": canon_list(seat.knee),
    }
    if not math.isfinite(seat.angle):
        report.warn("value-skipped", where, f"seat angle {seat.angle} is not finite; omitted")
    elif canon(seat.angle) != canon(math.pi / 2):
        out["angle"] = canon(seat.angle)
    return out


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
    numbers = _decode_numbers(obj, part.numbers, _defaults(part.cls), where, context)
    if part.has_gimbal:
        numbers["target_gimbal_ratio"] = _decode_gimbal(obj, where, read)
    if part is WHEEL_PART:
        numbers["physics_material"] = _decode_material(obj, where, context)
    return part.cls(**numbers)


def _decode_numbers(
    obj: Mapping[str, Json], specs: tuple[NumberSpec, ...], defaults: dict[str, Any],
    where: str, context: _Context,
) -> dict[str, float]:
    return {
        spec.attr: _decode_number(obj, spec, defaults[spec.attr], where, context)
        for spec in specs
    }


def _decode_number(
    obj: Mapping[str, Json], spec: NumberSpec, default: float, where: str, context: _Context,
) -> float:
    read = context.read
    key = _present_key(obj, spec, where, read)
    if key is None:
        return _missing_number(spec, default, where, context)
    value = read.opt_number(obj, key, where, spec.minimum, spec.positive)
    if value is not None and spec.maximum is not None and value > spec.maximum:
        read.bad(f"{where}/{key}", f"{value} is out of range (must be <= {spec.maximum})",
                 "out-of-range")
        return default
    return default if value is None else value


def _present_key(
    obj: Mapping[str, Json], spec: NumberSpec, where: str, read: JsonReader
) -> str | None:
    """The current key if present, else the first 2025 key present."""
    old = [key for key in spec.old_keys if key in obj]
    if spec.key in obj:
        if old:
            read.bad(where, f"both {spec.key} and its 2025 name {old[0]}: {spec.key} used",
                     "renamed-both")
        return spec.key
    return old[0] if old else None


def _missing_number(spec: NumberSpec, default: float, where: str, context: _Context) -> float:
    report = context.read.report
    if spec.required:
        report.warn("missing-required", where, f"required {spec.key} missing; read as {default}")
    elif context.old and spec.old_default is not None:
        report.info("legacy-rate", f"{where}/{spec.key}",
                    f"2025 document: missing {spec.key} read as {spec.old_default} (instant)")
        return spec.old_default
    elif context.old and spec.flag_when_old:
        report.info("legacy-default", f"{where}/{spec.key}",
                    f"2025 document: missing {spec.key} read as the current default {default}")
    return default


def _decode_gimbal(obj: Mapping[str, Json], where: str, read: JsonReader) -> Vec2:
    key = _present_key(obj, GIMBAL_SPEC, where, read)
    if key is None:
        return ZERO2
    ratio = read.vector(obj, key, where, 2, minimum=-1.0)
    if ratio is None:
        return ZERO2
    if max(ratio) > 1.0:
        read.bad(f"{where}/{key}", f"{list(ratio)} has a value above 1", "out-of-range")
        return ZERO2
    length = math.hypot(*ratio)
    if length > 1.0:
        read.bad(f"{where}/{key}", f"{list(ratio)} is longer than 1; shortened to 1",
                 "gimbal-ratio-length")
        return (ratio[0] / length, ratio[1] / length)
    return (ratio[0], ratio[1])


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
    points = [read.vector(obj, key, where, 3) for key in ("back", "foot", "knee")]
    if any(point is None for point in points):
        read.bad(where, "a seat needs back, foot and knee as 3 numbers each; skipped",
                 "missing-required")
        return None
    back, foot, knee = points
    seat = Seat(back, foot, knee, read.number(obj, "angle", where, math.pi / 2))  # type: ignore[arg-type]
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
    vectors = {attr: read.vector(obj, key, where, 3) or ZERO3 for key, attr in BODY_VECTORS}
    return VehicleBody(
        **vectors,
        max_speed=read.number(obj, "maxSpeed", where, -1.0),
        pilot_seat=_decode_pilot_seat(obj, where, len(view.nodes), seats, read),
        angular_dampeners=read.boolean(obj, "angularDampeners", where, True),
        linear_dampeners=read.boolean(obj, "linearDampeners", where, linear_default),
        use_throttle=read.boolean(obj, "useThrottle", where, False),
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
