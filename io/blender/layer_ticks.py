# SPDX-License-Identifier: GPL-3.0-or-later
"""Which collision layer slots an object's filter names: what a new layer's slot already
means to the objects that tick it."""

from collections.abc import Iterable

import bpy

from .instances import exported_objects
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


def changed_elsewhere(before: dict[bpy.types.Object, list[bool]], home: bpy.types.Scene
                      ) -> str | None:
    """What changing these objects' filters (their slots `before`, `filter_slots`) did in the
    other scenes that export them, where layers of those numbers are other layers or missing
    (a filter ticks layers by number, so each scene reads it with its own layers); None when
    nothing."""
    here = [layer.name for layer in home.gltf_physics.layers]
    parts: list[str] = []
    for other in bpy.data.scenes:
        if other == home:
            continue
        there = [layer.name for layer in other.gltf_physics.layers]
        placed: set[bpy.types.Object] | None = None
        differ: dict[int, list[str]] = {}
        for obj, slots in before.items():
            changed = [i for i, (old, new) in enumerate(zip(slots, filter_slots(obj),
                                                            strict=True))
                       if old != new and name_at(there, i) != name_at(here, i)]
            if not changed:
                continue
            placed = placed if placed is not None else set(exported_objects(other))
            if obj in placed:
                for index in changed:
                    differ.setdefault(index, []).append(obj.name)
        parts += [f"layer {i + 1} is {name_at(there, i) or 'missing'} in scene {other.name} "
                  f"({name_at(here, i) or 'missing'} here) for {', '.join(sorted(names))}"
                  for i, names in sorted(differ.items())]
    if not parts:
        return None
    return f"Collision filters tick layers by number, and other scenes export these objects: " \
        f"{'; '.join(parts)}; give the scenes the same layers in the same order, or keep the " \
        "objects out of them"


def name_at(names: list[str], index: int) -> str | None:
    """The name of layer slot `index` in a scene's list `names` (None: it has no such
    layer)."""
    return names[index] if index < len(names) else None
