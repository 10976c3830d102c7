# SPDX-License-Identifier: GPL-3.0-or-later
"""Which collision layer slots an object's filter names: what a new layer's slot already
means to the objects that tick it."""

from collections.abc import Iterable

import bpy

from .settings.properties import MAX_LAYERS


def filter_slots(obj: bpy.types.Object) -> list[bool]:
    """The slots `obj`'s filter names: its layers, and those of its Collides rule (none when
    the filter is off; a With All rule names none)."""
    props = obj.gltf_physics
    if not props.use_filter:
        return [False] * MAX_LAYERS
    members = props.filter_layers[:]
    if props.filter_mode == "ALL":
        return members
    return [a or b for a, b in zip(members, props.filter_targets[:], strict=True)]


def ticking(objects: Iterable[bpy.types.Object], indices: list[int]) -> dict[int, list[str]]:
    """The names of `objects` whose filter names each of slots `indices` (only the slots some
    object names; a linked object's name with its file: "name [file]")."""
    found: dict[int, list[str]] = {index: [] for index in indices}
    for obj in objects:
        slots = filter_slots(obj)
        for index in indices:
            if slots[index]:
                found[index].append(obj.name_full)
    return {index: sorted(names) for index, names in found.items() if names}
