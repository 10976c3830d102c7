# SPDX-License-Identifier: GPL-3.0-or-later
"""Copy a PropertyGroup's values (nested collections included) onto another.

Links to other data (a writable pointer: the pilot seat, a joint's connected body and frame,
a mesh proxy) are never copied: they name one object's own partners, and a copy would make
two vehicles share a seat or two joints share a body. Each target keeps its own links."""

import bpy

SKIPPED = frozenset({"rna_type", "name"})


def copy_group(source: bpy.types.PropertyGroup, target: bpy.types.PropertyGroup,
               skip: frozenset[str] = frozenset()) -> None:
    """Set every writable property of `target` to `source`'s value, links excepted."""
    for prop in source.bl_rna.properties:
        key = prop.identifier
        if key in SKIPPED or key in skip:
            continue
        if prop.type == "COLLECTION":
            items = getattr(target, key)
            items.clear()
            for item in getattr(source, key):
                copy_group(item, items.add())
        elif prop.type == "POINTER" and not prop.is_readonly:
            continue  # a link to another object or datablock
        elif prop.type == "POINTER":
            copy_group(getattr(source, key), getattr(target, key))
        elif not prop.is_readonly:
            value = getattr(source, key)
            setattr(target, key, value[:] if getattr(prop, "is_array", False) else value)


def kept_items_problem(target: bpy.types.ID, group: str = "gltf_physics") -> str | None:
    """Why `target`'s lists cannot take a copy: a library override cannot remove the items
    its library gave a list (the copy would be merged with them), or None."""
    override = target.override_library
    if override is None or override.reference is None:
        return None
    kept = next(_filled_lists(getattr(override.reference, group)), None)
    if kept is None:
        return None
    return f"{target.name}'s {kept} come from the library, and a library override cannot " \
           f"remove them: make {target.name} local"


def _filled_lists(group: bpy.types.PropertyGroup):
    """The names of `group`'s non-empty lists (nested groups included)."""
    for prop in group.bl_rna.properties:
        if prop.type == "COLLECTION" and len(getattr(group, prop.identifier)):
            yield prop.name
        elif prop.type == "POINTER" and prop.is_readonly and prop.identifier != "rna_type":
            yield from _filled_lists(getattr(group, prop.identifier))
