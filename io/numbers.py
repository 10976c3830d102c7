# SPDX-License-Identifier: GPL-3.0-or-later
"""Canonical number formatting for written JSON, so equal settings deduplicate. Pure."""

from __future__ import annotations

import struct
from collections.abc import Iterable

_F32 = struct.Struct("<f")
_F32_SMALLEST_NORMAL = 1.1754943508222875e-38


def canon(value: float) -> float:
    """The shortest decimal (of 6 to 9 digits) that is the same float32 as `value`, as
    Blender stores float32: 0.1f is written 0.1, 16777215 stays 16777215, 1.0000001 stays
    itself; -0.0 becomes 0.0. Non-finite values come back as they are; a value outside
    float32's normal range (too large, or below its smallest normal) to 7 significant
    digits."""
    try:
        single = _F32.pack(value)
    except OverflowError:
        return _seven_digits(value)
    nearest = _F32.unpack(single)[0]  # (every value of one float32 gets one decimal)
    if abs(nearest) < _F32_SMALLEST_NORMAL and value != 0.0:
        return _seven_digits(value)  # below float32's normal range its digits are too few
    for digits in (6, 7, 8, 9):  # 9 digits tell every float32 apart; from 6, so that a
        # value just under a power of ten gets its short form (0.000986, not 0.0009859999)
        rounded = float(f"{nearest:.{digits}g}")
        try:
            if _F32.pack(rounded) == single:
                return rounded + 0.0
        except OverflowError:
            continue
    return value + 0.0


def canon_list(values: Iterable[float]) -> list[float]:
    """`canon` applied to each value."""
    return [canon(v) for v in values]


def _seven_digits(value: float) -> float:
    try:
        return float(f"{value:.7g}") + 0.0
    except (OverflowError, ValueError):
        return value
