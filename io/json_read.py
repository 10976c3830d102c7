# SPDX-License-Identifier: GPL-3.0-or-later
"""Total readers for untrusted JSON: they never raise, they report and fall back. Pure."""

from __future__ import annotations

import marshal
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .diagnostics import Report

Json = Any
MAX_LIST = 1_000_000  # a bound on any list read from a file, checked before copying
#: The longest `name` kept (characters): Blender copies a name into every object using it.
MAX_NAME = 1024


def is_index(value: Json) -> bool:
    """True for a non-negative integer (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def as_dict(value: Json) -> Mapping[str, Json]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def as_list(value: Json) -> list[Json]:
    """`value` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def json_key(value: Json) -> bytes:
    """A key equal for equal parsed JSON values (objects with their keys in the same order)
    that tells apart what decodes differently (`true` vs `1`, `1` vs `1.0`, an object vs an
    array of pairs): their `marshal` bytes in format 2, which has no back-references, so
    object identity never changes them. Raises ValueError for a value nested too deeply."""
    return marshal.dumps(value, 2)


def is_finite_number(value: Json) -> bool:
    """A JSON number (not a boolean) that is finite, as a float too (a 400-digit integer is
    not: no float holds it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False



def _is_keepable(value: Json) -> bool:
    """A string of at most `MAX_NAME` characters, without NUL, that UTF-8 can hold (JSON's
    `\\ud800` escape gives a lone surrogate, which Blender's strings cannot)."""
    if not isinstance(value, str) or len(value) > MAX_NAME or "\0" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class JsonReader:
    """Reads typed values out of dicts, recording every problem in a `Report`."""

    def __init__(self, report: Report) -> None:
        self.report = report

    def bad(self, where: str, message: str, code: str = "bad-value") -> None:
        """Record a malformed value that is skipped or replaced."""
        self.report.warn(code, where, message)

    def obj(self, value: Json, where: str) -> Mapping[str, Json] | None:
        """The value if it is a JSON object, else None (reported unless absent)."""
        if isinstance(value, Mapping):
            return value
        if value is not None:
            self.bad(where, f"expected an object, got {type(value).__name__}", "not-an-object")
        return None

    def number(
        self, obj: Mapping[str, Json], key: str, where: str, default: float,
        minimum: float | None = None, positive: bool = False,
    ) -> float:
        """A finite number within range, or the default (reported when present but bad)."""
        value = self.opt_number(obj, key, where, minimum, positive)
        return default if value is None else value

    def opt_number(
        self, obj: Mapping[str, Json], key: str, where: str,
        minimum: float | None = None, positive: bool = False,
    ) -> float | None:
        """A finite number within range, or None when absent or bad."""
        if key not in obj:
            return None
        value = obj[key]
        if not is_finite_number(value):
            self.bad(f"{where}/{key}", f"expected a finite number, got {value!r}", "not-a-number")
            return None
        if (positive and value <= 0) or (minimum is not None and value < minimum):
            bound = "> 0" if positive else f">= {minimum}"
            self.bad(f"{where}/{key}", f"{value} is out of range (must be {bound})", "out-of-range")
            return None
        return float(value)

    def boolean(self, obj: Mapping[str, Json], key: str, where: str, default: bool) -> bool:
        """A boolean, or the default."""
        value = obj.get(key, default)
        if isinstance(value, bool):
            return value
        self.bad(f"{where}/{key}", f"expected true or false, got {value!r}", "not-a-boolean")
        return default

    def vector(
        self, obj: Mapping[str, Json], key: str, where: str, length: int,
        minimum: float | None = None,
    ) -> tuple[float, ...] | None:
        """A list of `length` finite numbers, or None when absent or bad."""
        if key not in obj:
            return None
        value = obj[key]
        if (
            not isinstance(value, Sequence) or isinstance(value, str) or len(value) != length
            or not all(is_finite_number(v) for v in value)
        ):
            self.bad(f"{where}/{key}", f"expected {length} finite numbers, got {value!r}")
            return None
        if minimum is not None and any(v < minimum for v in value):
            self.bad(f"{where}/{key}", f"{value} has a value below {minimum}", "out-of-range")
            return None
        return tuple(float(v) for v in value)

    def index(self, obj: Mapping[str, Json], key: str, where: str, count: int) -> int | None:
        """An index into an array of `count` items, or None when absent or dangling."""
        if key not in obj:
            return None
        return self.index_value(obj[key], f"{where}/{key}", count)

    def index_value(self, value: Json, where: str, count: int) -> int | None:
        """`value` if it is an index into an array of `count` items, else None (reported)."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
            self.bad(where, f"index {value!r} is not in 0..{count - 1}", "bad-index")
            return None
        return value

    def choice(
        self, obj: Mapping[str, Json], key: str, where: str, allowed: Sequence[str], default: str
    ) -> str:
        """One of the allowed strings, or the default."""
        value = obj.get(key, default)
        if isinstance(value, str) and value in allowed:
            return value
        self.bad(f"{where}/{key}", f"{value!r} is not one of {', '.join(allowed)}", "bad-enum")
        return default

    def strings(self, obj: Mapping[str, Json], key: str, where: str) -> tuple[str, ...]:
        """A list of strings (non-strings are dropped and reported)."""
        value = obj.get(key, [])
        if not isinstance(value, list) or len(value) > MAX_LIST:
            self.bad(f"{where}/{key}", "expected a list of strings")
            return ()
        good = tuple(dict.fromkeys(v for v in value if isinstance(v, str)))
        if len(good) != len(value):
            self.bad(f"{where}/{key}", "non-string or repeated entries dropped")
        return good

    def text(self, obj: Mapping[str, Json], key: str, where: str) -> str:
        """An optional name-like string: "" when absent; a non-string, one longer than
        `MAX_NAME`, one holding a NUL (Blender's strings end there) or a lone surrogate is
        not kept."""
        value = obj.get(key, "")
        if _is_keepable(value):
            return value
        problem = ("is not a string" if not isinstance(value, str)
                   else f"is longer than {MAX_NAME} characters" if len(value) > MAX_NAME
                   else "holds a NUL character" if "\0" in value
                   else "is not valid Unicode (a lone surrogate)")
        self.bad(f"{where}/{key}", f"{key} {problem}; not kept", "name-not-kept")
        return ""

    def array(self, obj: Mapping[str, Json], key: str, where: str) -> list[Json]:
        """A JSON array (bounded in length), or an empty list."""
        value = obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(f"{where}/{key}", f"expected an array, got {type(value).__name__}")
            return []
        if len(value) > MAX_LIST:
            self.bad(f"{where}/{key}", f"array of {len(value)} items exceeds {MAX_LIST}")
            return []
        return value
