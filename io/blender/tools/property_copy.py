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
