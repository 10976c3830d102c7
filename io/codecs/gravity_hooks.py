# SPDX-License-Identifier: GPL-3.0-or-later
"""The exceptions of the gravity rows of the field table, as plain functions. Pure.

A priority is an integer (the schema says number, the spec "must be an integer"): written as
one, read rounded (reported). A direction should be normalised: written normalised (reported
when it was not; a zero or non-finite direction writes the default).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from ..diagnostics import Report
from ..gravity import DOWN, is_normalised, unit
from ..json_read import Json, JsonReader
from ..model import Vec3
from ..numbers import canon

#: A priority beyond this is clamped (a float holds every integer up to it exactly).
PRIORITY_LIMIT: Final = 2**53


def writable_priority(value: float, key: str, where: str, report: Report) -> int:
    """`value` as an integer priority."""
    if not math.isfinite(value):
        report.warn("value-defaulted", where, f"{key} {value} is not finite; wrote 0")
        return 0
    return int(max(-PRIORITY_LIMIT, min(PRIORITY_LIMIT, round(value))))


def read_priority(obj: Mapping[str, Json], key: str, where: str, read: JsonReader) -> int:
    """An integer priority; a fractional one is rounded (reported), a bad one reads 0."""
    value = read.opt_number(obj, key, where)
    if value is None:
        return 0
    if value != int(value):
        read.bad(f"{where}/{key}", f"priority {value} is not an integer: rounded",
                 "gravity-priority-fraction")
    return writable_priority(value, key, where, read.report)


def writable_direction(value: Vec3, key: str, where: str, report: Report) -> tuple[float, ...]:
    """`value` normalised; a zero or non-finite direction writes the default (reported)."""
    direction = unit(value) if all(math.isfinite(v) for v in value) else (0.0, 0.0, 0.0)
    if not any(direction):
        report.warn("gravity-direction-zero", where, f"{key} {list(value)} has no direction; "
                    f"wrote {list(DOWN)}")
        direction = DOWN
    elif not is_normalised(value):
        report.warn("gravity-direction-normalised", where,
                    f"{key} {list(value)} was not normalised; written normalised")
    return tuple(canon(v) for v in direction)
