# SPDX-License-Identifier: GPL-3.0-or-later
"""What Blender keeps of a decoded file's numbers: float32. Pure.

Blender stores a finite number beyond float32's range as float32's largest, and one too small
to be anything but zero as 0, which can change what the file says: a plane's size 0 is
infinite, a mass 0 is computed (KHR) or none, a cylinder's radius 0 makes a cone. Before the
Blender side writes a decoded model, `Float32Storage` gives each such number the float32
nearest to it that keeps its sign and keeps it nonzero, and says so (once per field).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Hashable, MutableMapping
from dataclasses import fields, is_dataclass, replace
from typing import Any, Final

from .diagnostics import Report

_F32: Final = struct.Struct("<f")
#: float32's smallest positive number (a subnormal) and its largest finite one
SMALLEST: Final = 2.0 ** -149
LARGEST: Final = _F32.unpack(b"\xff\xff\x7f\x7f")[0]
BELOW_CODE: Final = "number-below-float32"
BEYOND_CODE: Final = "number-beyond-float32"


def storable(value: float) -> float:
    """`value`, or where float32 would make it 0 or overflow, the float32 nearest to it that
    keeps its sign and keeps it nonzero (non-finite values are the codecs' business:
    unchanged)."""
    if not math.isfinite(value) or value == 0.0:
        return value
    try:
        stored = _F32.unpack(_F32.pack(value))[0]
    except OverflowError:
        return math.copysign(LARGEST, value)
    return math.copysign(SMALLEST, value) if stored == 0.0 else value


class Float32Storage:
    """Decoded model values made storable (`storable`), each changed field said once.
    Shared model objects stay shared: each is looked at once per import."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self._done: dict[int, Any] = {}  # id(model object) → its storable form
        self._kept: list[Any] = []  # (keeps the ids above theirs)
        self._names: dict[type, tuple[str, ...]] = {}  # a model class's field names

    def fix_nodes(self, nodes: MutableMapping[Hashable, Any]) -> None:
        """Every node's model made storable, in place."""
        for ref, model in nodes.items():
            fixed = self.of(model, ref)
            if fixed is not model:
                nodes[ref] = fixed

    def of(self, model: Any, where: Hashable, path: str = "") -> Any:
        """`model` (a model dataclass) with storable numbers (the same object when nothing
        changes)."""
        found = self._done.get(id(model))
        if found is None:
            found = self._done[id(model)] = self._fixed_fields(model, where, path)
            self._kept.append(model)
        return found

    def _fixed_fields(self, model: Any, where: Hashable, path: str) -> Any:
        kind = type(model)
        names = self._names.get(kind)
        if names is None:
            names = self._names[kind] = tuple(f.name for f in fields(model))
        changes = {}
        for name in names:
            old = getattr(model, name)
            new = self._fixed(old, where, f"{path}.{name}" if path else name)
            if new is not old:
                changes[name] = new
        return replace(model, **changes) if changes else model

    def _fixed(self, value: Any, where: Hashable, path: str) -> Any:
        kind = type(value)
        if kind is float:
            size = abs(value)
            if size > LARGEST or 0.0 < size <= _ROUNDS_TO_ZERO:
                stored = storable(value)
                if stored != value:
                    self._say(value, stored, where, path)
                    return stored
            return value
        if kind is tuple:
            if not value or (type(value[0]) is float and _plain(value)):
                return value  # (the common case: a vector Blender stores as it is)
            items = tuple(self._fixed(item, where, path) for item in value)
            return value if all(a is b for a, b in zip(items, value, strict=True)) else items
        if kind in _LEAVES:
            return value
        if is_dataclass(value):
            return self.of(value, where, path)
        return value

    def _say(self, value: float, stored: float, where: Hashable, path: str) -> None:
        code, limit = (BEYOND_CODE, "beyond the largest") if abs(stored) == LARGEST \
            else (BELOW_CODE, "below the smallest")
        place = f"/nodes/{where}" if type(where) is int else str(where)
        self.report.warn(code, place, f"{path} {value:g} is {limit} number Blender stores "
                         f"(float32): stored as {stored:g}")


#: the largest magnitude float32 rounds to 0 (half its smallest positive number, a tie)
_ROUNDS_TO_ZERO: Final = 2.0 ** -150
_LEAVES: Final = frozenset({int, str, bool, type(None)})


def _plain(values: tuple) -> bool:
    """True when every item is a float Blender stores as it is (no model inside)."""
    for item in values:
        if type(item) is not float:
            return False
        size = abs(item)
        if size > LARGEST or 0.0 < size <= _ROUNDS_TO_ZERO:
            return False
    return True
