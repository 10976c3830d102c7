# SPDX-License-Identifier: GPL-3.0-or-later
"""What Blender keeps of a decoded file's numbers: float32. Pure.

Blender stores a finite number beyond float32's range as float32's largest, and one too small
to be anything but zero as 0, which can change what the file says: a plane's size 0 is
infinite, a mass 0 is computed (KHR) or none, a cylinder's radius 0 makes a cone. Before the
Blender side writes a decoded model, `Float32Storage` gives each such number the float32
nearest to it that keeps its sign and keeps it nonzero, and says so: once per field and value,
however many nodes state it.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Hashable, MutableMapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, Final

from .diagnostics import Report, listing
from .numbers import canon

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
    """Decoded model values made storable (`storable`). Each change is said once per field and
    value, with how many nodes state it and the first of them. Shared model objects stay
    shared: each is looked at once per import (and counted for every node it serves)."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self._done: dict[int, tuple[Any, Changes]] = {}  # id(model) → storable form, changes
        self._kept: list[Any] = []  # (keeps the ids above theirs)
        self._names: dict[type, tuple[str, ...]] = {}  # a model class's field names
        self._stated: dict[tuple[str, float], _Stated] = {}  # (field, value) → its nodes

    def fix_nodes(self, nodes: MutableMapping[Hashable, Any]) -> None:
        """Every node's model made storable, in place; the changes said."""
        done = self._done
        for ref, model in nodes.items():
            found = done.get(id(model))  # (most nodes share a model met before, unchanged)
            fixed = found[0] if found is not None and not found[1] else self._noted(model, ref)
            if fixed is not model:
                nodes[ref] = fixed
        self._say()

    def of(self, model: Any, where: Hashable) -> Any:
        """`model` (a model dataclass) with storable numbers (the same object when nothing
        changes); the changes said."""
        fixed = self._noted(model, where)
        self._say()
        return fixed

    def _noted(self, model: Any, where: Hashable) -> Any:
        fixed, changes = self._model(model)
        for path, value, stored in changes:
            found = self._stated.setdefault((path, value), _Stated(stored))
            place = _place(where)
            if not found.places or found.places[-1] != place:  # (a vector states it twice)
                found.places.append(place)
        return fixed

    def _say(self) -> None:
        """One issue per value and its nodes noted since the last time (the fields a file's
        one number fills, a capsule's two radii from its `radius`, named together)."""
        fields_of: dict[tuple[float, float, tuple[str, ...]], list[str]] = {}
        for (path, value), found in self._stated.items():
            fields_of.setdefault((value, found.stored, tuple(found.places)), []).append(path)
        for (value, stored, places), paths in fields_of.items():
            code, limit = (BEYOND_CODE, "beyond the largest") if abs(stored) == LARGEST \
                else (BELOW_CODE, "below the smallest")
            nodes = f" ({len(places)} nodes: {listing(list(places), _PLACES)})" \
                if len(places) > 1 else ""
            self.report.warn(code, places[0], f"{' and '.join(paths)} {value!r} is {limit} "
                             f"number Blender stores (float32): stored as "
                             f"{canon(stored)!r}{nodes}")
        self._stated.clear()

    def _model(self, model: Any) -> tuple[Any, Changes]:
        """`model` made storable and its changes (paths within it), worked out once."""
        found = self._done.get(id(model))
        if found is None:
            found = self._done[id(model)] = self._fixed_fields(model)
            self._kept.append(model)
        return found

    def _fixed_fields(self, model: Any) -> tuple[Any, Changes]:
        kind = type(model)
        names = self._names.get(kind)
        if names is None:
            names = self._names[kind] = tuple(f.name for f in fields(model))
        changes: dict[str, Any] = {}
        said: list[Change] = []
        for name in names:
            old = getattr(model, name)
            new = self._fixed(old, name, said)
            if new is not old:
                changes[name] = new
        return (replace(model, **changes) if changes else model), tuple(said)

    def _fixed(self, value: Any, path: str, said: list[Change]) -> Any:
        kind = type(value)
        if kind is float:
            size = abs(value)
            if size > LARGEST or 0.0 < size <= _ROUNDS_TO_ZERO:
                stored = storable(value)
                if stored != value:
                    said.append((path, value, stored))
                    return stored
            return value
        if kind is tuple:
            if not value or (type(value[0]) is float and _plain(value)):
                return value  # (the common case: a vector Blender stores as it is)
            items = tuple(self._fixed(item, path, said) for item in value)
            return value if all(a is b for a, b in zip(items, value, strict=True)) else items
        if kind in _LEAVES:
            return value
        if is_dataclass(value):
            fixed, inner = self._model(value)
            said.extend((f"{path}.{sub}", old, new) for sub, old, new in inner)
            return fixed
        return value


@dataclass(slots=True)
class _Stated:
    """A changed value: what is stored, and the places (nodes) that state it."""

    stored: float
    places: list[str] = field(default_factory=list)


#: a change: the field's path in its model, the file's value and the value stored
Change = tuple[str, float, float]
Changes = tuple[Change, ...]
#: the places listed with a value many nodes state (the rest counted)
_PLACES: Final = 3


def _place(where: Hashable) -> str:
    """A node index as its JSON pointer; anything else (e.g. "world gravity") as it is."""
    return f"/nodes/{where}" if type(where) is int else str(where)


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
