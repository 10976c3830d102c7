# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint settings and node joints, shared by OMI_physics_joint and KHR. Pure.

Current layout (OMI 2024-11, KHR): document `physicsJoints[{limits, drives}]`, node
`{joint, connectedNode, enableCollision}`. Legacy OMI v1 (digest §4.5): document
`constraints[{linearAxes, angularAxes, lowerLimit, upperLimit, stiffness, damping}]`, node
`{constraints, nodeA, nodeB}` with its own defaults (limits 0, damping 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Report
from ..joints import split_limits
from ..json_read import MAX_LIST, Json, JsonReader
from ..model import AXIS_KINDS, DRIVE_MODES, Joint, JointDrive, JointLimit, JointSettings
from ..numbers import canon
from .common import with_name

LEGACY_DAMPING = 1.0
#: A drive's stiffness without a position target, or damping without a velocity target.
DRIVE_GAIN_WITHOUT_TARGET = "drive-gain-without-target"


# -- writing ---------------------------------------------------------------------------------


def encode_settings(
    settings: JointSettings, report: Report | None = None, where: str = "",
) -> dict[str, Any]:
    """`{limits, drives}` valid for OMI and KHR: one axis kind per limit, KHR drive pairs.
    A drive gain no target uses is left out (reported into `report`, at `where`)."""
    out: dict[str, Any] = {}
    limits = [_encode_limit(limit) for limit in split_limits(settings.limits)]
    if limits:
        out["limits"] = limits
    if settings.drives:
        out["drives"] = [_encode_drive(drive, report, where) for drive in settings.drives]
    return with_name(out, settings.name) if out else out


def _encode_limit(limit: JointLimit) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if limit.linear_axes:
        out["linearAxes"] = list(limit.linear_axes)
    if limit.angular_axes:
        out["angularAxes"] = list(limit.angular_axes)
    if limit.min is not None:
        out["min"] = canon(limit.min)
    if limit.max is not None:
        out["max"] = canon(limit.max)
    if limit.stiffness is not None:
        out["stiffness"] = canon(limit.stiffness)
    if limit.damping:
        out["damping"] = canon(limit.damping)
    return out


def _encode_drive(drive: JointDrive, report: Report | None, where: str) -> dict[str, Any]:
    """Each stated target with its gain (KHR's pairs). Absent targets mean "not a spring" /
    "not a motor", so a gain without its target is left out (reported), except damping
    beside a position target: the spring-damper formula reads the velocity target as 0."""
    out: dict[str, Any] = {"type": drive.kind, "mode": drive.mode, "axis": drive.axis}
    if drive.max_force is not None:
        out["maxForce"] = canon(drive.max_force)
    position, velocity = drive.position_target, drive.velocity_target
    if velocity is None and position is not None and drive.damping > 0:
        velocity = 0.0
    if position is not None:
        out["positionTarget"] = canon(position)
        out["stiffness"] = canon(drive.stiffness)
    if velocity is not None:
        out["velocityTarget"] = canon(velocity)
        out["damping"] = canon(drive.damping)
    unused = [f"{name} {gain:g}" for name, gain, target in (
        ("stiffness", drive.stiffness, position), ("damping", drive.damping, velocity))
        if gain > 0 and target is None]
    if unused and report is not None:
        report.warn(DRIVE_GAIN_WITHOUT_TARGET, where, f"{drive.kind} drive on axis "
                    f"{drive.axis}: {' and '.join(unused)} without a target has no effect; "
                    "not written")
    return out


def encode_node_joint(joint: Joint, joint_index: int, connected: int) -> dict[str, Any]:
    """The node-level joint object."""
    return {"joint": joint_index, "connectedNode": connected,
            "enableCollision": joint.enable_collision}


# -- reading ---------------------------------------------------------------------------------


def decode_settings(value: Json, where: str, read: JsonReader) -> JointSettings | None:
    """A `physicsJoints` entry; bad limits and drives are skipped one by one (reported)."""
    obj = read.obj(value, where)
    if obj is None:
        return None
    limits = [
        decode_limit(v, f"{where}/limits/{i}", read)
        for i, v in enumerate(read.array(obj, "limits", where))
    ]
    drives = [
        _decode_drive(v, f"{where}/drives/{i}", read)
        for i, v in enumerate(read.array(obj, "drives", where))
    ]
    return JointSettings(
        limits=tuple(limit for limit in limits if limit is not None),
        drives=tuple(drive for drive in drives if drive is not None),
        name=read.text(obj, "name", where),
    )


def decode_limit(
    value: Json, where: str, read: JsonReader, legacy: bool = False
) -> JointLimit | None:
    """A limit (current keys, or v1 keys and defaults when `legacy`); None without axes."""
    obj = read.obj(value, where)
    if obj is None:
        return None
    linear = _axes(obj, "linearAxes", where, read)
    angular = _axes(obj, "angularAxes", where, read)
    if not linear and not angular:
        read.bad(where, "a limit without axes limits nothing; skipped", "limit-no-axes")
        return None
    if legacy:
        low = read.number(obj, "lowerLimit", where, 0.0)
        high = read.number(obj, "upperLimit", where, 0.0)
        damping = read.number(obj, "damping", where, LEGACY_DAMPING, minimum=0.0)
    else:
        low = read.opt_number(obj, "min", where)
        high = read.opt_number(obj, "max", where)
        damping = read.number(obj, "damping", where, 0.0, minimum=0.0)
    if low is not None and high is not None and low > high:
        read.bad(where, f"min {low} > max {high}; the two were swapped", "limit-reversed")
        low, high = high, low
    return JointLimit(linear, angular, low, high, _stiffness(obj, where, read), damping)


def _stiffness(obj: Mapping[str, Json], where: str, read: JsonReader) -> float | None:
    value = obj.get("stiffness")
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        read.report.warn("negative-stiffness", f"{where}/stiffness",
                         "negative stiffness read as infinite (a hard limit)")
        return None
    return read.opt_number(obj, "stiffness", where, minimum=0.0)


def _axes(obj: Mapping[str, Json], key: str, where: str, read: JsonReader) -> tuple[int, ...]:
    value = obj.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_LIST:
        read.bad(f"{where}/{key}", f"expected a list of axis indices, got {value!r}")
        return ()
    good = tuple(
        sorted({v for v in value if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 2})
    )
    if len(good) != len(value):
        read.bad(f"{where}/{key}", f"axes must be distinct 0, 1 or 2; kept {list(good)}")
    return good


def _decode_drive(value: Json, where: str, read: JsonReader) -> JointDrive | None:
    obj = read.obj(value, where)
    if obj is None:
        return None
    kind, mode = obj.get("type"), obj.get("mode")
    if kind not in AXIS_KINDS or mode not in DRIVE_MODES:
        read.bad(where, f"drive type {kind!r} / mode {mode!r} not supported; skipped",
                 "drive-unknown")
        return None
    axis = read.index(obj, "axis", where, 3)
    if axis is None:
        read.bad(where, "drive without a valid axis skipped", "drive-axis")
        return None
    return JointDrive(
        kind=kind, mode=mode, axis=axis,
        max_force=read.opt_number(obj, "maxForce", where, minimum=0.0),
        position_target=read.opt_number(obj, "positionTarget", where),
        velocity_target=read.opt_number(obj, "velocityTarget", where),
        stiffness=read.number(obj, "stiffness", where, 0.0, minimum=0.0),
        damping=read.number(obj, "damping", where, 0.0, minimum=0.0),
    )


def decode_node_joint(
    obj: Mapping[str, Json], where: str, read: JsonReader,
    settings: list[JointSettings | None], node_count: int, node_index: int,
) -> Joint | None:
    """A current node joint `{joint, connectedNode, enableCollision}`; None when unusable."""
    index = read.index(obj, "joint", where, len(settings))
    connected = read.index(obj, "connectedNode", where, node_count)
    if index is None or connected is None or settings[index] is None:
        read.bad(where, "joint without valid settings or connected node skipped", "joint-invalid")
        return None
    if connected == node_index:
        read.bad(where, "a joint connected to its own node skipped", "joint-self")
        return None
    return Joint(
        settings=settings[index],  # type: ignore[arg-type]
        connected_node=connected,
        enable_collision=read.boolean(obj, "enableCollision", where, False),
    )


def is_legacy_node_joint(obj: Mapping[str, Json]) -> bool:
    """True for the v1 node layout (`nodeA`/`nodeB`/`constraints`)."""
    return "nodeA" in obj or "nodeB" in obj or ("constraints" in obj and "joint" not in obj)


def decode_legacy_node_joint(
    obj: Mapping[str, Json], where: str, read: JsonReader,
    constraints: list[Json], node_count: int,
) -> Joint | None:
    """A v1 node joint: constraints by index (or inline, as omi-godot writes) and two bodies."""
    node_a = read.index(obj, "nodeA", where, node_count)
    node_b = read.index(obj, "nodeB", where, node_count)
    if node_a is None or node_b is None or node_a == node_b:
        read.bad(where, "v1 joint needs two different bodies nodeA and nodeB; skipped",
                 "joint-invalid")
        return None
    limits: list[JointLimit] = []
    for i, ref in enumerate(read.array(obj, "constraints", where)):
        item_where = f"{where}/constraints/{i}"
        if isinstance(ref, Mapping):
            limit = decode_limit(ref, item_where, read, legacy=True)
        else:
            index = read.index_value(ref, item_where, len(constraints))
            limit = None if index is None else decode_limit(
                constraints[index], f"/extensions/OMI_physics_joint/constraints/{index}", read,
                legacy=True,
            )
        if limit is not None:
            limits.append(limit)
    if not limits:
        read.bad(where, "v1 joint without usable constraints skipped", "joint-invalid")
        return None
    # v1: a later constraint on the same axes overrides an earlier one.
    latest = {(limit.linear_axes, limit.angular_axes): limit for limit in limits}
    read.report.info("legacy-joint", where, "OMI_physics_joint v1 joint upgraded")
    return Joint(JointSettings(limits=tuple(latest.values())), legacy_bodies=(node_a, node_b))
