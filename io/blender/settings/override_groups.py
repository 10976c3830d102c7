# SPDX-License-Identifier: GPL-3.0-or-later
"""Library overrides keep physics set on a linked object that had none of it.

Blender stores only the settings ever set, in ID property groups. When a linked object has
no group of ours (no physics, or no wheel material, in its library) and its override has
one, the override's diff sees a missing struct on one side and records a replacement of the
whole pointer, which fails when the file loads ("expected ID type") and drops every edit
(Blender 5.2; 4.2 records the values either way). Before each save, each override's
reference (the linked object, in memory only: linked data is never written) gets an empty
group wherever its override has one, so the diff goes into the groups and records the
edited values one by one, as for any other override edit.
"""

from typing import Any

import bpy
from bpy.app.handlers import persistent
from idprop.types import IDPropertyGroup

from .stored_settings import GROUP, stored_container, stored_group


def _match_groups(local: IDPropertyGroup, reference: Any) -> None:
    """Give `reference` an empty group for each group `local` holds (nested ones too)."""
    for key, value in local.items():
        if type(value) is IDPropertyGroup:
            if type(reference.get(key)) is not IDPropertyGroup:
                reference[key] = {}
            _match_groups(value, reference[key])


def match_reference_groups() -> int:
    """Give every override's linked reference the groups its override holds; how many
    references needed one."""
    count = 0
    for obj in bpy.data.objects:
        override = obj.override_library
        reference = override.reference if override is not None else None
        local = stored_group(obj) if reference is not None else None
        if local is None or reference.library is None:
            continue
        before = stored_group(reference)
        if before is not None and not _missing_groups(local, before):
            continue
        container = stored_container(reference)
        if type(container.get(GROUP)) is not IDPropertyGroup:
            container[GROUP] = {}
        _match_groups(local, container[GROUP])
        count += 1
    return count


def _missing_groups(local: IDPropertyGroup, reference: IDPropertyGroup) -> bool:
    return any(type(value) is IDPropertyGroup and (
        type(reference.get(key)) is not IDPropertyGroup
        or _missing_groups(value, reference[key])) for key, value in local.items())


@persistent
def before_save(_file: str = "") -> None:
    """`match_reference_groups` before the file is written (its overrides are diffed then)."""
    match_reference_groups()


def register() -> None:
    bpy.app.handlers.save_pre.append(before_save)


def unregister() -> None:
    if before_save in bpy.app.handlers.save_pre:
        bpy.app.handlers.save_pre.remove(before_save)
