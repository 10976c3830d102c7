# SPDX-License-Identifier: GPL-3.0-or-later
"""What the tools made: a stored tag naming the tool and a pointer to the object it was made
for, on every object and mesh a tool creates. Only tagged things are ever replaced or
removed; a name never counts (a user's "Truck.part001" is the user's). Nothing is removed
while anything else points at it (a Shift+D copy's shape still using the original's hull
proxy, a Boolean modifier or Child Of constraint of the user's): the tool only unhooks it
from its own object and says so.

The tags are ID custom properties (`gltf_physics_made_by`: the tool, `gltf_physics_made_for`:
the owner object). The export strips them from node extras even with *Custom Properties*
on (io/blender/exporter/export_hooks.py). Shift+D of an owner with what was made for it points the
copy's tag at the copied owner (Blender remaps the pointer within the duplicated objects); a
helper copied without its owner stays made for the original owner.
"""

from collections.abc import Iterable

import bpy

from .editable import deletion_problem

#: Every tag a tool or the preview stores starts so (and no user setting does: the
#: settings group is "gltf_physics"). The export leaves them out of node extras, and the
#: import drops them from a file's extras: a file cannot claim a user's object as ours.
TAG_PREFIX = "gltf_physics_"
MADE_BY = TAG_PREFIX + "made_by"
MADE_FOR = TAG_PREFIX + "made_for"
#: The tools that make objects (the tag's values).
HULL_PROXY = "hull_proxy"  # Generate Convex Hull's collision-only proxy child
CONVEX_PART = "convex_part"  # a Convex Decomposition part
IMPORT_PROXY = "import_proxy"  # the importer's collision mesh child of a shape
IMPORT_CHILD = "import_child"  # the importer's other children (a bone's stand-in, a v1 frame)
IMPORT_TRIGGER = "import_trigger"  # the importer's trigger child of a node with a collider
IMPORT_GRAVITY_SHAPE = "import_gravity_shape"  # the importer's mesh a shaped gravity pulls to
JOINT = "joint"  # Add Joint's joint Empty
#: Physics from Blender Rigid Body's joint Empty, for a body that holds its own constraint
NATIVE_JOINT = "native_joint"
WHEEL = "wheel"  # Add Wheels' wheel Empty
#: the glTF importer's "Orphan Nodes" collection, emptied by the import (its orphans were
#: collision meshes): the export leaves it out while it stays empty
IMPORT_ORPHANS = "import_orphans"


def mark(thing: bpy.types.ID, tool: str, owner: bpy.types.Object | None = None) -> None:
    """Record that `tool` made `thing` for `owner`; its mesh, if any, is marked too."""
    thing[MADE_BY] = tool
    if owner is not None:
        thing[MADE_FOR] = owner
    data = getattr(thing, "data", None)
    if isinstance(data, bpy.types.Mesh) and data.get(MADE_BY) is None:
        data[MADE_BY] = tool


def made_by(thing: bpy.types.ID | None, tool: str,
            owner: bpy.types.Object | None = None) -> bool:
    """Whether `tool` made `thing` (for `owner`, when given)."""
    if thing is None or thing.get(MADE_BY) != tool:
        return False
    return owner is None or thing.get(MADE_FOR) == owner


def pointer_users(things: Iterable[bpy.types.Object]) -> dict[int, list[bpy.types.ID]]:
    """What else points at each of `things`, by session_uid (a name may be a linked
    object's too): another object's physics settings (a shape's mesh proxy, a joint's
    connected body or frame, a pilot seat), a modifier, constraint, driver or node of the
    user's (`bpy.data.user_map`); not the collections (or scene) holding it nor its children
    (which a removal moves to its parent)."""
    things = list(things)
    if not things:
        return {}
    found: dict[int, list[bpy.types.ID]] = {}
    for thing, users in bpy.data.user_map(subset=things).items():
        kept = sorted((user for user in users if user != thing and not _holds(user, thing)),
                      key=lambda user: (user.name, user.session_uid))
        if kept:
            found[thing.session_uid] = kept
    return found


def _holds(user: bpy.types.ID, thing: bpy.types.Object) -> bool:
    """`user` only holds `thing`: a collection, a scene's own collection, its child."""
    if isinstance(user, bpy.types.Collection):
        return True
    if isinstance(user, bpy.types.Scene):
        return thing.name in user.collection.objects \
            and user.collection.objects[thing.name] == thing and user.camera != thing
    return isinstance(user, bpy.types.Object) and user.parent == thing


def still_used(users: list[bpy.types.ID]) -> str:
    """"<user> still uses it" (or "<user> and N more object(s) still use it"): why a thing
    of ours is kept (`users`: from `pointer_users`, not empty)."""
    if len(users) == 1:
        return f"{users[0].name} still uses it"
    return f"{users[0].name} and {len(users) - 1} more object(s) still use it"


def remove_made(obj: bpy.types.Object, tool: str, owner: bpy.types.Object | None = None,
                users: dict[int, list[bpy.types.ID]] | None = None) -> bool:
    """Delete `obj` when `tool` made it (for `owner`) and nothing else points at it
    (`users`: `pointer_users`, when already known), with its mesh when the tool made that
    too and nothing else uses it; its children move to its parent, keeping their world
    transform. True when deleted."""
    if not made_by(obj, tool, owner) or deletion_problem(obj) is not None:
        return False  # (a linked or overridden copy of ours is its library's)
    if (pointer_users([obj]) if users is None else users).get(obj.session_uid):
        return False  # another shape's proxy, a joint's frame…: deleting it would break that
    for child in list(obj.children):
        world = child.matrix_world.copy()
        child.parent = obj.parent
        child.matrix_world = world
    mesh = obj.data if isinstance(obj.data, bpy.types.Mesh) else None
    bpy.data.objects.remove(obj)
    remove_mesh(mesh, tool)
    return True


def remove_mesh(mesh: bpy.types.Mesh | None, tool: str) -> None:
    """Delete `mesh` when `tool` made it and nothing uses it."""
    remove_meshes([mesh], tool)


def remove_meshes(meshes: Iterable[bpy.types.Mesh | None], tool: str) -> None:
    """Delete those of `meshes` `tool` made that nothing uses, at once (each removal on its
    own costs time in proportion to the file)."""
    unused = [mesh for mesh in meshes
              if mesh is not None and mesh.users == 0 and made_by(mesh, tool)]
    if unused:
        bpy.data.batch_remove(unused)


def link_like(new: bpy.types.Object, owner: bpy.types.Object, scene: bpy.types.Scene) -> None:
    """Put a new object in the owner's collections that can be edited (none of a linked
    collection): the scene's own collection when there are none."""
    collections = [c for c in owner.users_collection
                   if c.library is None and c.is_editable and c.override_library is None]
    if not collections:
        collections = [scene.collection]
    for collection in collections:
        collection.objects.link(new)
