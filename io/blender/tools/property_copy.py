# SPDX-License-Identifier: GPL-3.0-or-later
"""Copy a PropertyGroup's values (nested collections included) onto another.

Links to other data (a writable pointer: the pilot seat, a joint's connected body and frame,
a mesh proxy) are never copied: they name one object's own partners, and a copy would make
two vehicles share a seat or two joints share a body. Each target keeps its own links and
goes on reading those it read (`keep_links`); a choice that reads a link the target lacks
falls back to the one that needs none (`own_sources`), and a link the copied settings need
but nothing replaces is named (`lacking_links`).

Copy Physics copies only onto objects of the source's role or of none (`copy_role`): a
joint's settings onto joints and new objects, never a body's onto a joint, a wheel, a
trigger, a gravity volume or a collision-only proxy, nor a wheel's onto a body.
"""

from collections.abc import Iterator

import bpy

from ..gravity.bridge import has_gravity
from ..gravity.properties import GRAVITY_MESH_SHAPES
from ..settings.properties import MESH_SHAPE_ITEMS
from .ownership import (
    CONVEX_PART,
    HULL_PROXY,
    IMPORT_PROXY,
    IMPORT_TRIGGER,
    JOINT,
    MADE_BY,
    NATIVE_JOINT,
    WHEEL,
)

SKIPPED = frozenset({"rna_type", "name"})
COLLISION_ONLY = "collision-only proxy"
BODY = "body"
TRIGGER = "trigger"
#: A trigger with gravity: a role of its own, as a copy between it and a plain trigger
#: would add a pull to one or silently drop another's.
GRAVITY_VOLUME = "gravity volume"
#: The role of what the tools make, when its settings no longer say it.
TOOL_ROLES = {HULL_PROXY: COLLISION_ONLY, CONVEX_PART: COLLISION_ONLY,
              IMPORT_PROXY: COLLISION_ONLY, JOINT: "joint", NATIVE_JOINT: "joint",
              WHEEL: "wheel"}
#: A choice reading another object, and the choice needing none: (the choice, its value that
#: reads the object, the object's link, the self-contained value, whether the choice is used).
OBJECT_SOURCES = (
    ("mesh_source", "OBJECT", "mesh_object", "SELF",
     lambda group: group.shape_type in MESH_SHAPE_ITEMS),
    ("gravity_line_source", "OBJECT", "gravity_line_object", "POINTS",
     lambda group: group.gravity_type == "LINE"),
)
#: Links the settings may need and no other choice replaces: (the link, whether it is needed).
NEEDED_LINKS = (
    ("joint_connected_body",
     lambda group: group.joint_type != "NONE" and group.joint_attachment is None),
    ("gravity_shape_object",
     lambda group: group.gravity_type == "SHAPED"
     and group.gravity_shape_type in GRAVITY_MESH_SHAPES),
)
#: Links naming another object's part, and that part's role (`pointed_roles`).
POINTED_ROLES = {"joint_attachment": "joint's connected frame", "mesh_object": "shape mesh",
                 "gravity_line_object": "gravity line", "gravity_shape_object": "gravity shape"}


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


def copy_role(obj: bpy.types.Object) -> str | None:
    """What `obj` is, by its settings, else by the tool that made it: "collision-only
    proxy", "joint", its vehicle part ("wheel"), "seat", "gravity volume" (gravity without
    motion or collider), "trigger" (a trigger shape or compound trigger without motion),
    else "body" (motion or a shape); None for no physics."""
    props = obj.gltf_physics
    made = obj.get(MADE_BY)
    made = made if isinstance(made, str) else None  # (a script may store anything there)
    if props.collision_only:
        return COLLISION_ONLY
    if props.joint_type != "NONE":
        return "joint"
    if props.vehicle_part != "NONE":
        return props.bl_rna.properties["vehicle_part"].enum_items[props.vehicle_part].name.lower()
    if props.is_seat:
        return "seat"
    if made in TOOL_ROLES:
        return TOOL_ROLES[made]
    shaped = props.shape_type != "NONE"
    if props.motion_type == "NONE" and not (shaped and props.shape_role == "COLLIDER"):
        if has_gravity(props):
            return GRAVITY_VOLUME
        if shaped or props.is_compound_trigger:
            return TRIGGER
    if props.motion_type != "NONE" or shaped or props.is_compound_trigger:
        return BODY
    # The importer's trigger child of a node with a collider (files of an earlier version
    # tag it as one of the importer's other children, IMPORT_CHILD: those are no role, as
    # bone stand-ins and v1 joint frames are), when its settings say nothing.
    return TRIGGER if made == IMPORT_TRIGGER else None


def pointed_roles(candidates: list[bpy.types.Object]) -> dict[bpy.types.Object, str]:
    """The role of each of `candidates` that another object's settings use (a joint's
    connected frame, a shape's mesh object, a gravity line or shape; a link left set but
    unused, or from an object in no collection, does not count): another's part, which a
    copy would make a body of its own."""
    wanted = set(candidates)
    found: dict[bpy.types.Object, str] = {}
    for obj in bpy.data.objects if wanted else ():
        props = obj.gltf_physics
        for link in _used_links(props) if obj.users_collection else ():
            target = getattr(props, link)
            if target is not None and target is not obj and target in wanted:
                found.setdefault(target, POINTED_ROLES[link])
    return found


def _used_links(group: bpy.types.PropertyGroup) -> Iterator[str]:
    """The links of `POINTED_ROLES` the group's settings read: a choice reading its object
    (`OBJECT_SOURCES`), a needed link (`NEEDED_LINKS`), a joint's connected frame."""
    for choice, reading, link, _own, used in OBJECT_SOURCES:
        if used(group) and getattr(group, choice) == reading:
            yield link
    for link, needed in NEEDED_LINKS:
        if link in POINTED_ROLES and needed(group):
            yield link
    if group.joint_type != "NONE":
        yield "joint_attachment"


def links_in_use(group: bpy.types.PropertyGroup) -> list[str]:
    """The used choices of `group` that read an object it has a link to (its own hull proxy,
    its own line object): a copy keeps them (`keep_links`)."""
    return [choice for choice, reading, link, _own, used in OBJECT_SOURCES
            if used(group) and getattr(group, choice) == reading
            and getattr(group, link) is not None]


def keep_links(group: bpy.types.PropertyGroup, choices: list[str]) -> list[str]:
    """Set `choices` (`links_in_use` before a copy) back to reading the group's own link
    where the copied settings still use them; each as the panel shows it."""
    kept = []
    for choice, reading, _link, _own, used in OBJECT_SOURCES:
        if choice in choices and used(group) and getattr(group, choice) != reading:
            setattr(group, choice, reading)
            kept.append(_shown_choice(group, choice))
    return kept


def own_sources(group: bpy.types.PropertyGroup) -> list[str]:
    """Set each used choice of `group` that reads an object it has no link to (a copy brings
    no link) to the one needing none; each as the panel shows it ("Mesh Source is 'This
    Object'")."""
    changed = []
    for choice, reading, link, own, used in OBJECT_SOURCES:
        if used(group) and getattr(group, choice) == reading and getattr(group, link) is None:
            setattr(group, choice, own)
            changed.append(_shown_choice(group, choice))
    return changed


def lacking_links(source: bpy.types.PropertyGroup, target: bpy.types.PropertyGroup
                  ) -> list[str]:
    """The names of the links `target`'s copied settings need that it lacks and `source`
    does not (a joint's Connected Body, a shaped gravity's Shape Mesh)."""
    def lacks(group: bpy.types.PropertyGroup, link: str, needed) -> bool:
        return needed(group) and getattr(group, link) is None

    return [target.bl_rna.properties[link].name for link, needed in NEEDED_LINKS
            if lacks(target, link, needed) and not lacks(source, link, needed)]


def _shown_choice(group: bpy.types.PropertyGroup, choice: str) -> str:
    prop = group.bl_rna.properties[choice]
    return f"{prop.name} is '{prop.enum_items[getattr(group, choice)].name}'"


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
