# SPDX-License-Identifier: GPL-3.0-or-later
"""The field table on the Blender side: property annotations, settings ↔ model values and
the export sharing key, each derived from the rows (io/field_table.py)."""

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any

from bpy.props import (
    BoolProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    StringProperty,
)

from ... import axes
from ...field_table import Field, props_of, rows


def annotations(table: Iterable[Field]) -> dict[str, Any]:
    """One Blender property per distinct `prop` of the rows, in table order."""
    out: dict[str, Any] = {}
    for row in table:
        out.setdefault(row.prop, _property(row))
    return out


def _property(row: Field) -> Any:
    common = {"name": row.label, "description": row.tooltip}
    if row.kind == "bool":
        return BoolProperty(**common, default=row.default)
    if row.kind == "enum":
        items = [*row.items, *([row.none_item] if row.none_item else [])]
        return EnumProperty(**common, items=items, default=row.default)
    if row.kind == "string":
        return StringProperty(**common, default=row.default)
    bounds = {name: value for name, value in (
        ("min", row.stored_min), ("max", row.maximum),
        ("soft_min", row.soft_min), ("soft_max", row.soft_max),
    ) if value is not None}
    looks = {"subtype": row.subtype, "unit": row.unit}
    default = to_blender(row, row.default)
    if row.size:
        return FloatVectorProperty(**common, size=row.size, default=default, **bounds, **looks)
    return FloatProperty(**common, default=default, **bounds, **looks)


def to_blender(row: Field, value: Any) -> Any:
    """A model value (glTF axes) as the Blender property stores it."""
    if row.none_item is not None and value is None:
        return row.none_item[0]
    if row.axes == "vector":
        return axes.vector_to_blender(value)
    if row.axes == "extent":
        return axes.extent_swap(value)
    return value


def to_model(row: Field, value: Any, yup: bool = True) -> Any:
    """A stored Blender value as the model's (glTF axes when `yup`)."""
    if row.none_item is not None and value == row.none_item[0]:
        return None
    if row.size:
        value = tuple(value)
    if row.axes == "vector":
        return axes.vector_to_gltf(value, yup)
    if row.axes == "extent":
        return axes.extent_swap(value, yup)
    return value


def values_of(props: Any, group: str, yup: bool = True) -> dict[str, Any]:
    """The group's model keyword arguments read from object settings."""
    return {row.attr: to_model(row, getattr(props, row.prop), yup) for row in rows(group)}


def write_values(props: Any, group: str, value: Any, yup: bool = True) -> None:
    """Set the group's object settings from a model value."""
    for row in rows(group):
        model_value = getattr(value, row.attr)
        if row.none_item is None and model_value is None:
            continue
        if row.axes == "vector":
            setattr(props, row.prop, axes.vector_to_blender(model_value, yup))
        elif row.axes == "extent":
            setattr(props, row.prop, axes.extent_swap(model_value, yup))
        else:
            setattr(props, row.prop, to_blender(row, model_value))


def sharing_key(inputs: tuple[str, ...], group: str) -> Callable[[Any], tuple]:
    """A getter of every stored value a model part is made from: its explicit `inputs` and
    its group's table rows (hashable on a settings snapshot), for the export sharing key."""
    return attrgetter(*dict.fromkeys((*inputs, *props_of(group))))
