# SPDX-License-Identifier: GPL-3.0-or-later
"""What collection instances place: the objects of the collections some objects instance
(and their children), and so the objects a scene's export writes; each object's children in
one scan."""

from collections import Counter
from collections.abc import Container, Iterable

import bpy

#: Instances within instances followed at most (Blender draws 8 levels; a collection that
#: a script made instance itself must not loop).
MAX_INSTANCE_DEPTH = 8


def instance_counts(objects: Iterable[bpy.types.Object]) -> Counter[bpy.types.Object]:
    """How many times each object is placed by the collection instances among `objects`,
    nested instances too (each collection is walked once; a cycle is not followed)."""
    return _placed(objects, {}, set())


def exported_objects(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The objects a scene's export writes with its layers: its own and those its collection
    instances place (nested ones too)."""
    return list(dict.fromkeys([*scene.objects, *instance_counts(scene.objects)]))


def _placed(objects: Iterable[bpy.types.Object],
            memo: dict[bpy.types.Collection, Counter[bpy.types.Object]],
            walking: set[bpy.types.Collection]) -> Counter[bpy.types.Object]:
    counts: Counter[bpy.types.Object] = Counter()
    for obj in objects:
        kit = obj.instance_collection if obj.instance_type == "COLLECTION" else None
        if kit is None or kit in walking:
            continue
        if kit not in memo:
            walking.add(kit)
            members = _with_children(kit.all_objects)
            memo[kit] = Counter(members) + _placed(members, memo, walking)
            walking.discard(kit)
        counts.update(memo[kit])
    return counts


def _with_children(members: Iterable[bpy.types.Object]) -> list[bpy.types.Object]:
    """A collection's objects and their children, which the exporter writes with each
    instance even when they are in no collection it instances (each once)."""
    found = list(dict.fromkeys(members))
    if not any(obj.children for obj in found):  # (most kits: no object scan)
        return found
    children = children_map()
    seen = set(found)
    for obj in found:  # (grows while walked)
        for child in children.get(obj, ()):
            if child not in seen:
                seen.add(child)
                found.append(child)
    return found


def children_map(kept: Container[bpy.types.Object] | None = None
                 ) -> dict[bpy.types.Object, list[bpy.types.Object]]:
    """Each object's children, in one scan (`Object.children` scans every object each time);
    with `kept`, only the children among it."""
    children: dict[bpy.types.Object, list[bpy.types.Object]] = {}
    for obj in bpy.data.objects:
        if obj.parent is not None and (kept is None or obj in kept):
            children.setdefault(obj.parent, []).append(obj)
    return children
