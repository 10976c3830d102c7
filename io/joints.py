# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint presets, limit normalisation and joint-frame axis conversion. Pure.

Presets are stated in Blender's local joint axes (0/1/2 = X/Y/Z). `settings_to_gltf` and
`settings_to_blender` relabel axes the way the glTF exporter relabels node axes: a 1-axis
limit or a drive on Blender Y becomes glTF axis 2 with its sign reversed.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from .axes import joint_axis_to_blender, joint_axis_to_gltf
from .model import JointDrive, JointLimit, JointSettings

PresetKind = Literal["fixed", "pin", "hinge", "slider", "cone_twist"]
AXES = (0, 1, 2)
#: The widest cone the preset holds: π as Blender's cone angle property stores its maximum.
MAX_CONE = struct.unpack("<f", struct.pack("<f", math.pi))[0]


@dataclass(frozen=True, slots=True)
class JointPreset:
    """A named joint type; `axis` is the hinge, slider or twist axis (Blender local)."""

    kind: PresetKind
    axis: int = 2
    use_limit: bool = False
    lower: float = 0.0
    upper: float = 0.0
    rotates: bool = False
    cone: float = 0.0


def _fixed(linear: tuple[int, ...] = (), angular: tuple[int, ...] = ()) -> JointLimit:
    return JointLimit(linear_axes=linear, angular_axes=angular, min=0.0, max=0.0)


def preset_limits(preset: JointPreset) -> tuple[JointLimit, ...]:
    """The limits a preset stands for (hard limits, Blender axes)."""
    axis = preset.axis
    others = tuple(a for a in AXES if a != axis)
    ranged: tuple[JointLimit, ...] = ()
    if preset.kind == "fixed":
        return (_fixed(linear=AXES), _fixed(angular=AXES))
    if preset.kind == "pin":
        return (_fixed(linear=AXES),)
    if preset.kind == "slider":
        if preset.use_limit:
            ranged = (JointLimit(linear_axes=(axis,), min=preset.lower, max=preset.upper),)
        angular = _fixed(angular=others if preset.rotates else AXES)
        return (_fixed(linear=others), *ranged, angular)
    if preset.use_limit:
        ranged = (JointLimit(angular_axes=(axis,), min=preset.lower, max=preset.upper),)
    if preset.kind == "hinge":
        return (_fixed(linear=AXES), _fixed(angular=others), *ranged)
    swing = JointLimit(angular_axes=others, min=-preset.cone, max=preset.cone)
    return (_fixed(linear=AXES), swing, *ranged)


def split_limits(limits: Iterable[JointLimit]) -> tuple[JointLimit, ...]:
    """One axis kind per limit; limits without axes dropped."""
    out: list[JointLimit] = []
    for limit in limits:
        if limit.linear_axes:
            out.append(replace(limit, angular_axes=()))
        if limit.angular_axes:
            out.append(replace(limit, linear_axes=()))
    return tuple(out)


CanonicalLimit = tuple[str, tuple[int, ...], float, float, float, float]


def normalized(limits: Iterable[JointLimit]) -> tuple[CanonicalLimit, ...]:
    """An order-free form for comparing limit sets: hard fixed limits become per-axis ones
    (fixing a set of axes together equals fixing each), axes are sorted."""
    entries: list[CanonicalLimit] = []
    for limit in split_limits(limits):
        kind, axes = (
            ("linear", limit.linear_axes) if limit.linear_axes else ("angular", limit.angular_axes)
        )
        low = -math.inf if limit.min is None else limit.min
        high = math.inf if limit.max is None else limit.max
        stiffness = -1.0 if limit.stiffness is None else limit.stiffness
        hard_zero = low == high == 0.0 and limit.stiffness is None and limit.damping == 0.0
        groups = [(a,) for a in axes] if hard_zero else [tuple(sorted(axes))]
        entries.extend((kind, g, low, high, stiffness, limit.damping) for g in groups)
    return tuple(sorted(set(entries)))


@lru_cache(maxsize=4096)  # a level's joints mostly repeat a few settings
def match_preset(limits: tuple[JointLimit, ...]) -> JointPreset | None:
    """The preset whose limits equal `limits` (Blender axes), or None for a custom joint."""
    target = normalized(limits)
    for candidate in _candidates(limits):
        if _preset_normalized(candidate) == target:
            return candidate
    return None


@lru_cache(maxsize=4096)
def _preset_normalized(preset: JointPreset) -> tuple:
    return normalized(preset_limits(preset))


def _candidates(limits: tuple[JointLimit, ...]) -> Iterable[JointPreset]:
    yield JointPreset("fixed")
    yield JointPreset("pin")
    for axis in AXES:
        others = tuple(a for a in AXES if a != axis)
        linear_range = _single_range(limits, "linear", axis)
        angular_range = _single_range(limits, "angular", axis)
        yield JointPreset("hinge", axis)
        if angular_range is not None:
            yield JointPreset("hinge", axis, True, *angular_range)
        for rotates in (False, True):
            yield JointPreset("slider", axis, rotates=rotates)
            if linear_range is not None:
                yield JointPreset("slider", axis, True, *linear_range, rotates=rotates)
        cone = _cone(limits, others)
        if cone is not None:
            yield JointPreset("cone_twist", axis, cone=cone)
            if angular_range is not None:
                yield JointPreset("cone_twist", axis, True, *angular_range, cone=cone)


def _single_range(
    limits: tuple[JointLimit, ...], kind: str, axis: int
) -> tuple[float, float] | None:
    for limit in split_limits(limits):
        axes = limit.linear_axes if kind == "linear" else limit.angular_axes
        if axes == (axis,) and limit.min is not None and limit.max is not None:
            return (limit.min, limit.max)
    return None


def _cone(limits: tuple[JointLimit, ...], others: tuple[int, ...]) -> float | None:
    """The swing limit's cone angle, when the cone preset can hold it (0 to π, the cone angle
    property's range as Blender stores it, in float32): a wider cone stays custom."""
    for limit in split_limits(limits):
        if tuple(sorted(limit.angular_axes)) == others and limit.max is not None:
            return limit.max if 0.0 <= limit.max <= MAX_CONE else None
    return None


# -- frame conversion ----------------------------------------------------------------------

AxisMap = Callable[[int], tuple[int, float]]


def _convert_limit(limit: JointLimit, axis_map: AxisMap) -> JointLimit:
    axes = limit.linear_axes or limit.angular_axes
    mapped = [axis_map(a) for a in axes]
    new_axes = tuple(sorted(index for index, _ in mapped))
    low, high = limit.min, limit.max
    if len(mapped) == 1 and mapped[0][1] < 0:  # a signed 1-axis metric changes direction
        low, high = (None if high is None else -high), (None if low is None else -low)
    if limit.linear_axes:
        return replace(limit, linear_axes=new_axes, min=low, max=high)
    return replace(limit, angular_axes=new_axes, min=low, max=high)


def _convert_drive(drive: JointDrive, axis_map: AxisMap) -> JointDrive:
    axis, sign = axis_map(drive.axis)
    if sign > 0:
        return replace(drive, axis=axis)
    return replace(
        drive, axis=axis,
        position_target=None if drive.position_target is None else -drive.position_target,
        velocity_target=None if drive.velocity_target is None else -drive.velocity_target,
    )


def _convert(settings: JointSettings, axis_map: AxisMap) -> JointSettings:
    return JointSettings(
        limits=tuple(_convert_limit(limit, axis_map) for limit in split_limits(settings.limits)),
        drives=tuple(_convert_drive(drive, axis_map) for drive in settings.drives),
        name=settings.name,
    )


@lru_cache(maxsize=1024)  # a level's joints repeat a few settings
def settings_to_gltf(settings: JointSettings, yup: bool = True) -> JointSettings:
    """Blender joint axes → glTF joint axes (limits split to one axis kind each)."""
    return _convert(settings, lambda a: joint_axis_to_gltf(a, yup))


@lru_cache(maxsize=1024)
def settings_to_blender(settings: JointSettings, yup: bool = True) -> JointSettings:
    """glTF joint axes → Blender joint axes (limits split to one axis kind each)."""
    return _convert(settings, lambda a: joint_axis_to_blender(a, yup))


# -- per-axis view (for engines with one range per axis) -----------------------------------

LINEAR_SPAN = 1.0e4
ANGULAR_SPAN = math.pi


def per_axis_limits(settings: JointSettings) -> dict[tuple[str, int], tuple[float, float]]:
    """One (lower, upper) range per limited axis, as Bullet-style engines take them.

    Exact for 1-axis limits and for fixed axes; a 2- or 3-axis range (a cone, a distance) is
    approximated by the same range on each axis. Open ends become ±1e4 m or ±π. Several limits
    on one axis intersect.
    """
    out: dict[tuple[str, int], tuple[float, float]] = {}
    for limit in split_limits(settings.limits):
        linear = bool(limit.linear_axes)
        kind = "linear" if linear else "angular"
        axes = limit.linear_axes or limit.angular_axes
        span = LINEAR_SPAN if linear else ANGULAR_SPAN
        low = -span if limit.min is None else limit.min
        high = span if limit.max is None else limit.max
        if len(axes) > 1 and low >= 0 and high > 0:  # an unsigned metric: distance or cone
            low = -high
        for axis in axes:
            old_low, old_high = out.get((kind, axis), (-math.inf, math.inf))
            out[(kind, axis)] = (max(old_low, low), min(old_high, high))
    return out
