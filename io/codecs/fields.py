# SPDX-License-Identifier: GPL-3.0-or-later
"""Writing and reading the field table's rows, for OMI and KHR alike. Pure.

Writing makes each value schema-valid and canonical (reported when it had to change) and
omits a "changed" row at its default. Reading takes a row's current or earlier JSON name,
checks type and range (reported, the default used) and gives the default when absent.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

from ..diagnostics import Report
from ..field_table import Field
from ..json_read import Json, JsonReader
from ..numbers import canon

#: What a missing required number reads as (the spec gives it no default).
REQUIRED_FALLBACK: Final = 0.0


def encode_fields(
    value: Any, rows: tuple[Field, ...], out: dict[str, Any], where: str, report: Report,
) -> dict[str, Any]:
    """Write `value`'s table fields into `out` (None values are never written)."""
    for row in rows:
        current = getattr(value, row.attr)
        if current is None:
            continue
        written = _writable(current, row, where, report)
        if written is not None and (row.written != "changed" or written != _canonical(row)):
            out[row.key] = list(written) if isinstance(written, tuple) else written
    return out


def fallback(row: Field) -> Any:
    """What an absent or unusable value means: the default, or for a required number (which
    the spec gives no default) `REQUIRED_FALLBACK`."""
    return REQUIRED_FALLBACK if row.written == "required" and not row.size else row.default


def _canonical(row: Field) -> Any:
    """The fallback as it would be written."""
    value = fallback(row)
    if row.kind != "float":
        return value
    return tuple(map(canon, value)) if row.size else canon(value)


def _writable(value: Any, row: Field, where: str, report: Report) -> Any:
    if row.encode is not None:
        return row.encode(value, row.key, where, report)
    if row.kind != "float":
        return value
    numbers = value if row.size else (value,)
    if not all(math.isfinite(v) for v in numbers):
        if row.written == "changed":
            report.warn("value-skipped", where, f"{row.key} {value} is not finite; omitted")
            return None
        report.warn("value-defaulted", where, f"{row.key} {value} is invalid; wrote "
                    f"{fallback(row)}")
        return _canonical(row)
    if row.size:
        return tuple(_writable_number(v, row, where, report) for v in numbers)
    return _writable_number(value, row, where, report)


def _writable_number(value: float, row: Field, where: str, report: Report) -> float:
    if row.positive and value <= 0:
        report.warn("value-defaulted", where, f"{row.key} {value} is invalid; wrote "
                    f"{fallback(row)}")
        return _canonical(row)
    low = -math.inf if row.minimum is None else row.minimum
    high = math.inf if row.maximum is None else row.maximum
    if not low <= canon(value) <= high:  # as written: float32 3.1415925 is the bound
        report.warn("value-clamped", where, f"{row.key} {value} clamped to [{low}, {high}]")
        value = min(max(value, low), high)
    return canon_at_most(value, high)


def canon_at_most(value: float, high: float) -> float:
    """`canon(value)`, rounded down instead when rounding would pass `high` (π's bound)."""
    rounded = canon(value)
    if rounded <= high:
        return rounded
    scale = 10.0 ** (6 - math.floor(math.log10(abs(high))))
    return canon(math.floor(high * scale) / scale)


def decode_fields(
    obj: Mapping[str, Json], rows: tuple[Field, ...], where: str, read: JsonReader,
    *, old: bool = False, defaults: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The table fields of `obj` as model keyword arguments. `old`: a 2025 document (its own
    defaults for some rates); `defaults` overrides a family's meaning of an absent field."""
    values: dict[str, Any] = {}
    for row in rows:
        default = fallback(row) if defaults is None else defaults.get(row.attr, fallback(row))
        key = present_key(obj, row, where, read)
        if key is None:
            values[row.attr] = _missing(row, default, where, read.report, old)
        elif row.decode is not None:
            values[row.attr] = row.decode(obj, key, where, read)
        else:
            values[row.attr] = _read(obj, key, row, default, where, read)
    return values


def present_key(obj: Mapping[str, Json], row: Field, where: str, read: JsonReader) -> str | None:
    """The current key if present, else the first earlier name present."""
    old = [key for key in row.old_keys if key in obj]
    if row.key in obj:
        if old:
            read.bad(where, f"both {row.key} and its 2025 name {old[0]}: {row.key} used",
                     "renamed-both")
        return row.key
    return old[0] if old else None


def _read(
    obj: Mapping[str, Json], key: str, row: Field, default: Any, where: str, read: JsonReader,
) -> Any:
    if row.kind == "bool":
        return read.boolean(obj, key, where, default)
    if row.kind == "enum":
        return read.choice(obj, key, where, [item[0] for item in row.items], default)
    if row.kind == "string":
        return read.text(obj, key, where)
    if row.size:
        return read.vector(obj, key, where, row.size, minimum=row.minimum) or default
    value = read.opt_number(obj, key, where, row.minimum, row.positive)
    if value is not None and row.maximum is not None and value > row.maximum:
        read.bad(f"{where}/{key}", f"{value} is out of range (must be <= {row.maximum})",
                 "out-of-range")
        return default
    return default if value is None else value


def _missing(row: Field, default: Any, where: str, report: Report, old: bool) -> Any:
    if row.written == "required":
        report.warn("missing-required", where, f"required {row.key} missing; read as {default}")
        return default
    if old and row.old_default is not None:
        report.info("legacy-rate", f"{where}/{row.key}",
                    f"2025 document: missing {row.key} read as {row.old_default} (instant)")
        return row.old_default
    if old and row.flag_when_old:
        report.info("legacy-default", f"{where}/{row.key}",
                    f"2025 document: missing {row.key} read as the current default {default}")
    return default
