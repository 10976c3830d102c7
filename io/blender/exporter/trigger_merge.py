# SPDX-License-Identifier: GPL-3.0-or-later
"""The importer's trigger child written back onto its parent's node.

Blender holds one shape per object, so the import puts the trigger of a node that also has
a collider on a child Empty it tags (`ownership.IMPORT_TRIGGER`). The export writes that
trigger back on the parent's node, beside its collider, as the file had it, while the
child is still exactly what the import made of it: the tag names this parent, it sits at
the parent's origin with the import's name (`<parent>.trigger`, or `.001`… after it when
Blender made it unique), carries nothing else (no children, mesh,
animation, extras, other physics) and nothing refers to it. Anything else is the artist's
arrangement and is written as it is."""

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Protocol

from ..tools.ownership import IMPORT_CHILD, IMPORT_TRIGGER, made_by

_IDENTITY = {"translation": (0.0, 0.0, 0.0), "rotation": (0.0, 0.0, 0.0, 1.0),
             "scale": (1.0, 1.0, 1.0)}


class Record(Protocol):
    """What the merge reads and changes of an export record (`export_hooks._Record`)."""

    obj: Any
    node: Any
    shape_node: Any
    body: Any
    shape_part: Any
    trigger_members: tuple[Any, ...]
    gravity: bool


def merge_trigger_children(candidates: Iterable[Record], records: list[Record],
                           referenced: set[Any]) -> set[int]:
    """Put each candidate's trigger (a trigger-only record of an object with a parent) on its
    parent's node when the child is still the import's (module docstring), and take the
    child's node out of the tree. `referenced`: objects other physics names (joint sides,
    compound trigger members). The ids of the records merged away."""
    merged: set[int] = set()
    by_object: dict[Any, list[Record]] | None = None
    for child in candidates:
        if not _import_made(child) or child.obj in referenced:
            continue
        if by_object is None:  # (only a file the importer split needs the lookup)
            by_object = {}
            for record in records:
                by_object.setdefault(record.obj, []).append(record)
        parent = next((record for record in by_object.get(child.obj.parent, ())
                       if any(node is child.node for node in record.node.children or ())),
                      None)
        if parent is None or not _takes_a_trigger(parent):
            continue
        parent.body = replace(parent.body, trigger=child.body.trigger)
        kept = [node for node in parent.node.children if node is not child.node]
        parent.node.children = kept or None
        merged.add(id(child))
    return merged


#: The importer's tags of a trigger child: its own since 2026-11-26; before, the one of the
#: importer's other children (a file imported then still has it; the name must match too).
IMPORTS = (IMPORT_TRIGGER, IMPORT_CHILD)


def _import_made(child: Record) -> bool:
    """The trigger child as the import made it, holding only its trigger."""
    obj, node, body = child.obj, child.node, child.body
    parent = obj.parent
    if body.motion is not None or body.collider is not None or body.joint is not None \
            or body.trigger is None or body.trigger.shape is None:
        return False
    if child.shape_part is not None or child.trigger_members or child.gravity:
        return False
    if obj.parent_type != "OBJECT" or not any(made_by(obj, tool, parent) for tool in IMPORTS) \
            or not re.fullmatch(rf"{re.escape(parent.name)}\.trigger(\.\d{{3,}})?", obj.name):
        return False
    if obj.children or obj.animation_data is not None or obj.type != "EMPTY":
        return False
    if node.children or node.mesh is not None or node.camera is not None \
            or node.skin is not None or node.extensions or node.extras or node.matrix:
        return False
    return all(getattr(node, key) is None or tuple(getattr(node, key)) == value
               for key, value in _IDENTITY.items())


def _takes_a_trigger(parent: Record) -> bool:
    """The parent's own node carries its collider and no trigger."""
    body = parent.body
    return parent.shape_node is parent.node and parent.shape_part is None \
        and body.collider is not None and body.collider.shape is not None \
        and body.trigger is None and not parent.trigger_members and not parent.gravity
