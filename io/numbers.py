# SPDX-License-Identifier: GPL-3.0-or-later
"""Canonical number formatting for written JSON, so equal settings deduplicate. Pure."""

from __future__ import annotations

import math
import struct
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager

_F32 = struct.Struct("<f")
_F32_SMALLEST_NORMAL = 1.1754943508222875e-38
_seen = [0]  # non-finite values `canon` met (`non_finite_seen`)
_exact: list[Collection[float | str]] = []  # the stated numbers of each open `exact_numbers`
#: in a stated set, that -0.0 itself is stated (a set holds one of 0.0 and -0.0)
NEGATIVE_ZERO = "-0.0"
_known: dict[float, float] = {}  # value → its canonical form
_KNOWN_MOST = 1 << 16


@contextmanager
def exact_numbers(stated: Collection[float | str]) -> Iterator[None]:
    """Within it, `canon` keeps a number the file states (`stated`) as it is: a file's own
    numbers, written again by the converter, are not Blender's float32 (a mass of
    123456.789012345 stays so); one computed from them is still written as float32's
    shortest decimal (a centre of mass, not its last double digits)."""
    _exact.append(stated)
    try:
        yield
    finally:
        _exact.pop()


def canon(value: float) -> float:
    """`_canon`, remembered: a level writes the same few values many times (a stated value
    as it is within `exact_numbers`)."""
    if _exact and value in _exact[-1]:
        if value == 0.0 and math.copysign(1.0, value) < 0 and NEGATIVE_ZERO not in _exact[-1]:
            return 0.0  # (a computed -0.0: 0 is stated, not -0)
        return value
    found = _known.get(value)
    if found is None:
        found = _canon(value)
        if found - found == 0.0:  # (only finite ones: a NaN or infinity is counted each time)
            if len(_known) >= _KNOWN_MOST:
                _known.clear()
            _known[value] = found
    return found


def _canon(value: float) -> float:
    """The shortest decimal that is the same float32 as `value`, as Blender stores float32
    (6 to 9 digits; fewer for a subnormal): 0.1f is written 0.1, 16777215 stays 16777215,
    1.0000001 stays itself, 1e-40 stays 1e-40; -0.0 becomes 0.0. Non-finite values come back
    as they are; a value too large for float32, or below its smallest normal and not a
    float32 itself, to 7 significant digits (more where 7 would name another float32)."""
    try:
        single = _F32.pack(value)
    except OverflowError:
        return _seven_digits(value)
    nearest = _F32.unpack(single)[0]  # (in the normal range every value of one float32
    # gets one decimal; below it a value that is not a float32 keeps its own digits)
    if nearest - nearest != 0.0:  # NaN or infinity: kept, and counted for the writer
        _seen[0] += 1
        return value
    tiers = _DIGITS
    if abs(nearest) < _F32_SMALLEST_NORMAL and value != 0.0:
        if value != nearest:  # (not a float32: kept close to what it is, as its float32)
            return _close_digits(value, single)
        tiers = _SUBNORMAL_DIGITS  # a float32 subnormal: fewer digits tell it apart
    for digits in tiers:
        rounded = float(f"{nearest:.{digits}g}")
        try:
            if _F32.pack(rounded) == single:
                return rounded + 0.0
        except OverflowError:
            continue
    return value + 0.0


#: 9 digits tell every float32 apart; from 6, so that a value just under a power of ten gets
#: its short form (0.000986, not 0.0009859999); a subnormal has fewer significant digits
_DIGITS = (6, 7, 8, 9)
_SUBNORMAL_DIGITS = tuple(range(1, 10))


def canon_list(values: Iterable[float]) -> list[float]:
    """`canon` applied to each value."""
    return [canon(v) for v in values]


def _close_digits(value: float, single: bytes) -> float:
    """`value` to 7 significant digits, or more where 7 would name another float32."""
    for digits in (7, 8, 9):
        rounded = float(f"{value:.{digits}g}")
        if _F32.pack(rounded) == single:
            return rounded + 0.0
    return _seven_digits(value)


def _seven_digits(value: float) -> float:
    try:
        return float(f"{value:.7g}") + 0.0
    except (OverflowError, ValueError):
        return value


def non_finite_seen() -> int:
    """How many NaN or infinite values `canon` has met (so far, in this process): a writer
    compares the count before and after it encodes to know whether to look for them."""
    return _seen[0]
