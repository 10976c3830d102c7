# SPDX-License-Identifier: GPL-3.0-or-later
"""The exceptions of the field table, as plain functions. Pure.

A target gimbal ratio is a 2-vector whose length may not pass 1: written shortened (just
under 1, so rounding keeps it valid) and read shortened, each reported.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from ..diagnostics import Report
from ..json_read import Json, JsonReader
from ..numbers import canon
from ..vehicle_model import ZERO2, Vec2

UNDER_UNIT: Final = 0.999999  # a written gimbal ratio's length stays below 1 after rounding


def writable_gimbal(ratio: Vec2, key: str, where: str, report: Report) -> Vec2:
    """`ratio` made writable: not finite → zero (omitted), longer than 1 → shortened."""
    if not all(math.isfinite(v) for v in ratio):
        report.warn("value-defaulted", where, f"{key} {ratio} is not finite; omitted")
        return ZERO2
    written = (canon(ratio[0]), canon(ratio[1]))  # the length of what is written counts:
    length = math.hypot(*written)  # (0.6, 0.8) is 1 as written, though not as float32
    if length > 1.0:
        report.warn("gimbal-ratio-length", where, f"{key} {ratio} is longer than 1; shortened")
        written = (canon(ratio[0] * UNDER_UNIT / length), canon(ratio[1] * UNDER_UNIT / length))
    return written


def read_gimbal(obj: Mapping[str, Json], key: str, where: str, read: JsonReader) -> Vec2:
    """A gimbal ratio as read: out of range → zero, longer than 1 → shortened (reported)."""
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
