# SPDX-License-Identifier: GPL-3.0-or-later
"""Where Blender keeps an object's gltf_physics values, and what they default to.

Registered properties live in an ID property group that holds only the values ever set;
reading that group, or knowing it is empty, is much cheaper than one RNA access per
property. Blender 5.0 moved the group to `bl_system_properties_get()`; 4.2–4.5 keep it
among the ID's own properties.
"""

import math
from collections.abc import Iterator
from functools import cache
from typing import Any

import bpy
from idprop.types import IDPropertyGroup

GROUP = "gltf_physics"


_SYSTEM_PROPERTIES = bpy.app.version >= (5, 0, 0)


def stored_group(owner: bpy.types.ID) -> Any | None:
    """The ID property group behind `owner.gltf_physics`, or None when nothing is stored."""
    if _SYSTEM_PROPERTIES:
        container = owner.bl_system_properties_get()
        group = None if container is None else container.get(GROUP)
    else:
        group = owner.get(GROUP)
    return group if type(group) is IDPropertyGroup else None  # not a group: RNA reads defaults


def stored_container(owner: bpy.types.ID) -> Any:
    """The ID property group `GROUP` is kept in (made when missing)."""
    if _SYSTEM_PROPERTIES:
        return owner.bl_system_properties_get(do_create=True)
    return owner.id_properties_ensure()


def is_untouched(owner: bpy.types.ID) -> bool:
    """True when every gltf_physics property of `owner` still has its default value."""
    group = stored_group(owner)
    return group is None or len(group) == 0


@cache
def defaults_of(struct: type) -> dict[str, Any]:
    """Default value of each plain property of a PropertyGroup class (arrays as tuples);
    pointers and collections are left out."""
    return _defaults(struct.bl_rna)


def _plain_properties(rna_struct: Any) -> Iterator[Any]:
    """The properties holding plain values: no pointers, collections or enum flags."""
    for prop in rna_struct.properties:
        if prop.identifier == "rna_type" or prop.type in ("POINTER", "COLLECTION"):
            continue
        if prop.type != "ENUM" or not prop.is_enum_flag:
            yield prop


def _defaults(rna_struct: Any) -> dict[str, Any]:
    return {
        prop.identifier: tuple(prop.default_array) if getattr(prop, "is_array", False)
        else prop.default
        for prop in _plain_properties(rna_struct)
    }


_FALLBACK = object()  # a stored value RNA would not read as such: ask RNA instead


class Settings:
    """A read-only copy of an object's gltf_physics values, read in one call.

    Plain properties are attributes (the values set on the instance, the defaults on its
    class; a stored value of an unexpected type is read through RNA); pointers and
    collections are read through RNA from the owner (a shared snapshot has none). A stored
    NaN or infinity reads as the default, its property named in `not_finite`.
    """

    not_finite: tuple[str, ...] = ()

    def __getattr__(self, name: str) -> Any:  # only for names neither set nor defaulted
        owner = self.__dict__.get("_owner")
        if owner is None:
            raise AttributeError(f"{name}: a shared snapshot holds plain values only; read it "
                                 "from the object")
        return getattr(owner.gltf_physics, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"settings snapshots are read-only ({name})")


def snapshot(owner: bpy.types.ID) -> Settings:
    """The current gltf_physics values of `owner`."""
    values = _plain_values(owner)
    values["_owner"] = owner
    return _settings(_schema(type(owner))[0], values)


def _plain_values(owner: bpy.types.ID) -> dict[str, Any]:
    """`owner`'s stored plain values, as RNA reads them."""
    converters = _schema(type(owner))[1]
    values: dict[str, Any] = {}
    group = stored_group(owner)
    if group:
        for name, stored in group.to_dict().items():
            convert = converters.get(name)
            if convert is None:
                continue  # pointer, collection or a property that no longer exists
            value = convert(stored)
            if value is _FALLBACK:
                value = getattr(owner.gltf_physics, name)
            if _finite(value):
                values[name] = value
            else:  # NaN or infinity (a script's): the default is read instead, and said
                values["not_finite"] = (*values.get("not_finite", ()), name)
    return values


def _finite(value: Any) -> bool:
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is tuple and value and type(value[0]) is float:
        return all(math.isfinite(v) for v in value)
    return True


class SharedSnapshots:
    """Snapshots of many owners for one export: owners whose stored plain values are equal
    share one (the same object, kept alive by this cache: its `id` names the settings),
    whatever their pointers and collections hold. A shared snapshot holds plain values only
    (it has no owner): read pointers and collections from the owner itself. Values compare
    as Python compares them (0.0 equals -0.0, which the written JSON does not tell apart
    either: `numbers.canon`)."""

    def __init__(self) -> None:
        self._shared: dict[tuple, Settings] = {}

    def of(self, owner: bpy.types.ID) -> Settings:
        """The snapshot of `owner`'s plain values, shared with owners storing equal values."""
        group = stored_group(owner)
        key: tuple = ()
        if group is not None:  # the names, then the values (arrays as tuples)
            stored = group.to_dict()
            plain = _schema(type(owner))[2]
            if not plain.issuperset(stored):  # (a joint's bodies, a shape's mesh object…)
                stored = {name: value for name, value in stored.items() if name in plain}
            key = (tuple(stored), tuple([
                tuple(value) if type(value) is list else value for value in stored.values()]))
        try:
            found = self._shared.get(key)
        except TypeError:  # a collection's items, or a value of an unexpected type
            key = (owner.as_pointer(),)
            found = self._shared.get(key)
        if found is None:  # (RNA reads a stored value from that value alone)
            found = self._shared[key] = _settings(_schema(type(owner))[0], _plain_values(owner))
        return found


def _settings(kind: type[Settings], values: dict[str, Any]) -> Settings:
    settings = kind.__new__(kind)
    object.__setattr__(settings, "__dict__", values)
    return settings


@cache
def _schema(owner_type: type) -> tuple[type[Settings], dict[str, Any], frozenset[str]]:
    """A Settings class holding the defaults of an ID type's gltf_physics properties,
    converters of their stored values, and the names of those plain properties."""
    struct = owner_type.bl_rna.properties[GROUP].fixed_type
    converters: dict[str, Any] = {}
    for prop in _plain_properties(struct):
        if prop.type == "ENUM":
            converters[prop.identifier] = _enum_reader(
                {item.value: item.identifier for item in prop.enum_items})
        elif prop.type == "STRING":
            converters[prop.identifier] = _typed_reader(str)
        else:  # BOOLEAN, INT, FLOAT
            length = prop.array_length if getattr(prop, "is_array", False) else 0
            converters[prop.identifier] = _number_reader(prop.type, length)
    return type(f"{struct.identifier}Settings", (Settings,), _defaults(struct)), converters, \
        frozenset(converters)


def _enum_reader(identifiers: dict[int, str]) -> Any:
    def read(stored: Any) -> Any:
        return identifiers.get(stored, _FALLBACK) if type(stored) is int else _FALLBACK
    return read


def _typed_reader(kind: type) -> Any:
    def read(stored: Any) -> Any:
        return stored if type(stored) is kind else _FALLBACK
    return read


def _number_reader(rna_type: str, length: int) -> Any:
    stored_kinds = (float,) if rna_type == "FLOAT" else (int, bool)
    make = bool if rna_type == "BOOLEAN" else stored_kinds[0]

    def read(stored: Any) -> Any:
        if not length:
            return make(stored) if type(stored) in stored_kinds else _FALLBACK
        # an ID property array has one item type: the first item tells it
        if type(stored) is not list or len(stored) != length \
                or type(stored[0]) not in stored_kinds:
            return _FALLBACK
        return tuple(map(make, stored))
    return read
