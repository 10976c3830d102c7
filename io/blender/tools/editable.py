# SPDX-License-Identifier: GPL-3.0-or-later
"""Whether an operator may change a target: Blender keeps no edit of linked data, and of a
library override only its overridable properties (glTF physics is; a rigid body is not).

Every operator asks here before changing anything: greyed out (`poll_refusal`) when none of
its targets can be changed, one refusal naming the first that cannot (`refusal`) otherwise.
"""

from collections.abc import Callable, Iterable, Sized

import bpy

MAKE_LOCAL = "make it local or use a library override"


def editable_problem(
    thing: bpy.types.ID, *, rigid_body: bool = False, mesh: bool = False,
) -> str | None:
    """Why `thing` (an object, scene…) cannot be changed, or None when it can.

    `rigid_body`: the change adds or edits Blender rigid body settings (not kept on an
    override). `mesh`: the change edits the object's mesh data."""
    name = thing.name
    if thing.library is not None:
        return f"{name} is linked from {thing.library.name}: {MAKE_LOCAL}"
    override = thing.override_library
    if not thing.is_editable or (override is not None and override.is_system_override):
        return f"{name} is a library override that is not editable: make it editable " \
               "(Object → Library Override → Make) or make it local"
    if rigid_body and override is not None:
        return f"{name} is a library override, which keeps no Blender rigid body of its " \
               "own: make it local"
    data = getattr(thing, "data", None) if mesh else None
    if data is not None and (data.library is not None or not data.is_editable
                             or data.override_library is not None):
        return f"{name}'s mesh {data.name} is linked (from a library or an override): " \
               "make the mesh local"
    return None


def edit_mode_problem(thing: bpy.types.ID) -> str | None:
    """Why a tool cannot replace `thing`'s mesh or delete it now: the user is editing it
    (Blender keeps an object's mesh while it is in Edit Mode, and deleting it loses the
    edit)."""
    if getattr(thing, "mode", None) == "EDIT":
        return f"{thing.name} is in Edit Mode: leave Edit Mode first (Tab)"
    return None


def deletion_problem(thing: bpy.types.ID) -> str | None:
    """Why `thing` cannot be deleted for good, or None: a linked one is its library's,
    Blender brings a library override back from its library when the file is opened, and
    one the user is editing keeps its edit (`edit_mode_problem`)."""
    problem = editable_problem(thing) or edit_mode_problem(thing)
    if problem is None and thing.override_library is not None:
        problem = f"{thing.name} is a library override: Blender brings it back from its " \
                  "library when the file is opened, so it cannot be replaced: make it local"
    return problem


def first_own_item(thing: bpy.types.ID, items_of: Callable[[bpy.types.ID], Sized]) -> int:
    """Where the items of a list of `thing` that it may remove begin: on a library override,
    after the library's (an override keeps only its additions, after those); else 0."""
    override = thing.override_library
    if override is None or override.reference is None:
        return 0
    return len(items_of(override.reference))


def removal_problem(thing: bpy.types.ID, items_of: Callable[[bpy.types.ID], Sized],
                    index: int, what: str) -> str | None:
    """Why item `index` of a list of `thing` cannot be removed: a library override can only
    remove the items it added (those after the library's)."""
    if index < first_own_item(thing, items_of):
        return f"{what} of {thing.name} comes from the library, and a library override " \
               f"cannot remove it: make {thing.name} local"
    return None


def refusal(things: Iterable[bpy.types.ID | None], **kinds: bool) -> str | None:
    """One message for the first target that cannot be changed (and how many more)."""
    problems = [p for p in (editable_problem(t, **kinds) for t in things if t is not None) if p]
    if not problems:
        return None
    more = len(problems) - 1
    return problems[0] + (f" ({more} more object(s) likewise)" if more else "") + \
        "; nothing was changed"


def poll_refusal(cls: type, things: Iterable[bpy.types.ID | None], **kinds: bool) -> bool:
    """For `poll`: False, with the reason as tooltip, when no target can be changed."""
    things = [t for t in things if t is not None]
    problems = [editable_problem(t, **kinds) for t in things]
    if things and all(problems):
        cls.poll_message_set(problems[0])
        return False
    return True


def refuse(op: bpy.types.Operator, things: Iterable[bpy.types.ID | None], **kinds: bool
           ) -> bool:
    """Report the refusal once (an error: a script's call raises) and return True, or
    return False when every target can be changed."""
    message = refusal(things, **kinds)
    if message is None:
        return False
    op.report({"ERROR"}, message)
    return True
