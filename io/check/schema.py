# SPDX-License-Identifier: GPL-3.0-or-later
"""A small rule language for JSON payloads and its validator. Pure.

specs.py writes each physics extension's rules in it; the tests compare its verdicts with
the official JSON schemas. Every finding is an error with a JSON pointer and a stable code:
`wrong-type`, `missing-required`, `out-of-range`, `none-sentinel`, `bad-enum`, `bad-length`,
`not-unique`, or the code a combined-key rule names (`trigger-empty`, `geometry-form`, ...).
Numbers are compared as JSON Schema compares them, so NaN passes a range (the checker
reports non-finite numbers on its own).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ..diagnostics import Report
from ..json_read import json_key

Json = Any
SHORT: Final = 40  # characters of a value quoted in a message


@dataclass(frozen=True, slots=True)
class Context:
    """Where findings go, and the dialect: from JSON Schema draft 6 on, 1.0 is an integer
    (the current schemas); draft 4 (KHR 2024-03) wants an integer literal."""

    report: Report
    integral_floats: bool = True

    def error(self, code: str, where: str, message: str) -> None:
        """Record one error."""
        self.report.add("error", code, where, message)


class Spec(Protocol):
    """Anything that checks a value found at a JSON pointer."""

    def check(self, value: Json, where: str, ctx: Context) -> None: ...


class Check(Protocol):
    """A rule over an object's keys together (what a schema says with oneOf, anyOf...)."""

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None: ...


# -- values ----------------------------------------------------------------------------------


def pointer(where: str, key: str | int) -> str:
    """`where` extended by one JSON pointer token."""
    token = str(key)
    if "~" in token or "/" in token:
        token = token.replace("~", "~0").replace("/", "~1")
    return f"{where}/{token}"


def type_name(value: Json) -> str:
    """The JSON type of a parsed value, with its article."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    names = {str: "a string", list: "an array", type(None): "null"}
    return "an object" if isinstance(value, Mapping) else names.get(type(value), "a value")


def shown(value: Json) -> str:
    """A value as it appears in a message, shortened."""
    try:
        text = repr(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    except RecursionError:
        return f"{type_name(value)} nested too deeply to show"
    return text if len(text) <= SHORT else text[: SHORT - 3] + "..."


def is_number(value: Json) -> bool:
    """A JSON number (booleans are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_integer(value: Json, integral_floats: bool = True) -> bool:
    """A JSON integer; `integral_floats`: 2.0 counts too (JSON Schema draft 6 and later)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (integral_floats and isinstance(value, float)
                                      and value.is_integer())


@dataclass(frozen=True, slots=True)
class Number:
    """A number within optional bounds (`above`: exclusive lower bound)."""

    minimum: float | None = None
    above: float | None = None
    maximum: float | None = None

    def check(self, value: Json, where: str, ctx: Context) -> None:
        if not is_number(value):
            ctx.error("wrong-type", where, f"expected a number, got {type_name(value)}")
            return
        _bounds(value, self.minimum, self.above, self.maximum, where, ctx)


@dataclass(frozen=True, slots=True)
class Integer:
    """An integer within optional bounds; an index is `Integer(0)`."""

    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Json, where: str, ctx: Context) -> None:
        if not is_integer(value, ctx.integral_floats):
            ctx.error("wrong-type", where, f"expected an integer, got {type_name(value)} "
                      f"({shown(value)})")
        elif value == -1 and self.minimum == 0:
            ctx.error("none-sentinel", where,
                      "-1 is not an index: leave the property out to say 'none'")
        else:
            _bounds(value, self.minimum, None, self.maximum, where, ctx)


def _bounds(value: float, minimum: float | None, above: float | None, maximum: float | None,
            where: str, ctx: Context) -> None:
    if minimum is not None and value < minimum:
        ctx.error("out-of-range", where, f"{shown(value)} is below the minimum {minimum:g}")
    elif above is not None and value <= above:
        ctx.error("out-of-range", where, f"{shown(value)} must be greater than {above:g}")
    elif maximum is not None and value > maximum:
        ctx.error("out-of-range", where, f"{shown(value)} is above the maximum {maximum:g}")


@dataclass(frozen=True, slots=True)
class Boolean:
    """true or false."""

    def check(self, value: Json, where: str, ctx: Context) -> None:
        if not isinstance(value, bool):
            ctx.error("wrong-type", where, f"expected true or false, got {type_name(value)}")


@dataclass(frozen=True, slots=True)
class String:
    """Any string, or one of `choices`."""

    choices: tuple[str, ...] = ()

    def check(self, value: Json, where: str, ctx: Context) -> None:
        if not isinstance(value, str):
            ctx.error("wrong-type", where, f"expected a string, got {type_name(value)}")
        elif self.choices and value not in self.choices:
            ctx.error("bad-enum", where,
                      f"{shown(value)} is not one of {', '.join(self.choices)}")


@dataclass(frozen=True, slots=True)
class Anything:
    """Any value (extras, or a key whose schema says nothing)."""

    def check(self, value: Json, where: str, ctx: Context) -> None:
        return


@dataclass(frozen=True, slots=True)
class Array:
    """An array of `items` (any when None), `min_items` to `max_items` long."""

    items: Spec | None = None
    min_items: int = 0
    max_items: int | None = None
    unique: bool = False

    def check(self, value: Json, where: str, ctx: Context) -> None:
        if not isinstance(value, list):
            ctx.error("wrong-type", where, f"expected an array, got {type_name(value)}")
            return
        if len(value) < self.min_items or (self.max_items is not None
                                           and len(value) > self.max_items):
            ctx.error("bad-length", where, f"expected {self._length()} items, got {len(value)}")
            if self.max_items is not None and len(value) > self.max_items:
                return  # a runaway array: its length is the finding
        if self.unique:
            _unique(value, where, ctx)
        if self.items is not None:
            for index, item in enumerate(value):
                self.items.check(item, pointer(where, index), ctx)

    def _length(self) -> str:
        if self.max_items is None:
            return f"at least {self.min_items}"
        if self.max_items == self.min_items:
            return str(self.min_items)
        return f"{self.min_items} to {self.max_items}"


def _unique(values: list[Json], where: str, ctx: Context) -> None:
    seen: set[Any] = set()
    for value in values:
        key = ("bool", value) if isinstance(value, bool) else (
            value if is_number(value) or isinstance(value, str) else _json_key(value))
        if key in seen:
            ctx.error("not-unique", where, f"{shown(value)} appears more than once")
            return
        seen.add(key)


def _json_key(value: Json) -> tuple[str, Any]:
    try:
        return ("json", json_key(value))
    except ValueError:  # nested too deeply to key: counted as unique
        return ("id", id(value))


# -- objects ---------------------------------------------------------------------------------

#: glTF's base objects: "property" carries `extensions` (an object of objects) and `extras`;
#: "child" (a child of the root) also a string `name`; None: no base (OMI vehicle schemas).
Base = str | None


@dataclass(frozen=True, slots=True)
class Object:
    """A JSON object: typed `fields`, `required` keys, glTF `base` and combined-key `rules`.
    Keys not listed are allowed."""

    fields: Mapping[str, Spec] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    base: Base = "property"
    rules: tuple[Check, ...] = ()

    def check(self, value: Json, where: str, ctx: Context) -> None:
        if not isinstance(value, Mapping):
            ctx.error("wrong-type", where, f"expected an object, got {type_name(value)}")
            return
        for key in self.required:
            if key not in value:
                choices = getattr(self.fields.get(key), "choices", ())
                hint = f" (one of {', '.join(choices)})" if choices else ""
                ctx.error("missing-required", where, f"'{key}' is required{hint}")
        for key, spec in self.fields.items():
            if key in value:
                spec.check(value[key], pointer(where, key), ctx)
        if self.base is not None:
            _base(value, self.base, where, ctx)
        for rule in self.rules:
            rule.check(value, where, ctx)


def _base(obj: Mapping[str, Json], base: str, where: str, ctx: Context) -> None:
    if "extensions" in obj:
        extensions, at = obj["extensions"], pointer(where, "extensions")
        if not isinstance(extensions, Mapping):
            ctx.error("wrong-type", at, f"expected an object, got {type_name(extensions)}")
        else:
            for name, payload in extensions.items():
                if not isinstance(payload, Mapping):
                    ctx.error("wrong-type", pointer(at, name),
                              f"an extension must be an object, got {type_name(payload)}")
    if base == "child" and "name" in obj and not isinstance(obj["name"], str):
        ctx.error("wrong-type", pointer(where, "name"),
                  f"expected a string, got {type_name(obj['name'])}")


# -- combined-key rules ------------------------------------------------------------------------


def _names(keys: Sequence[str]) -> str:
    quoted = [f"'{key}'" for key in keys]
    return ", ".join(quoted[:-1]) + f" or {quoted[-1]}" if len(quoted) > 1 else quoted[0]


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of `keys` must be present; with `only`, no more than one."""

    keys: tuple[str, ...]
    code: str
    what: str
    only: bool = True

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None:
        present = [key for key in self.keys if key in obj]
        if not present:
            ctx.error(self.code, where, f"{self.what} needs {_names(self.keys)}")
        elif self.only and len(present) > 1:
            ctx.error(self.code, where,
                      f"{self.what} has {' and '.join(present)}: only one is allowed")


@dataclass(frozen=True, slots=True)
class NotBoth:
    """`first` and `second` exclude each other."""

    first: str
    second: str
    code: str
    what: str

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None:
        if self.first in obj and self.second in obj:
            ctx.error(self.code, where,
                      f"{self.what} cannot have both '{self.first}' and '{self.second}'")


@dataclass(frozen=True, slots=True)
class Pairs:
    """Each key present needs its partner (JSON Schema `dependentRequired`)."""

    pairs: tuple[tuple[str, str], ...]
    code: str

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None:
        for key, partner in self.pairs:
            if key in obj and partner not in obj:
                ctx.error(self.code, where, f"'{key}' needs '{partner}' beside it")


@dataclass(frozen=True, slots=True)
class Switch:
    """The object also obeys the spec its `key`'s value selects (none for other values)."""

    key: str
    cases: Mapping[str, Object]

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None:
        selected = obj.get(self.key)
        if isinstance(selected, str) and selected in self.cases:
            self.cases[selected].check(obj, where, ctx)


@dataclass(frozen=True, slots=True)
class NamedPart:
    """A shape whose `type` is one of `kinds` carries the object named after it."""

    kinds: tuple[str, ...]
    code: str

    def check(self, obj: Mapping[str, Json], where: str, ctx: Context) -> None:
        kind = obj.get("type")
        if isinstance(kind, str) and kind in self.kinds and kind not in obj:
            ctx.error(self.code, where, f"a {kind} shape needs its '{kind}' object")
