# SPDX-License-Identifier: GPL-3.0-or-later
"""What the operators check of their context: a scene to work in, what the view layer
holds (by identity), and selecting only what it holds."""

import contextlib
from collections.abc import Iterable

import bpy

from ..io.blender.tools.native_common import has_object


def has_scene(cls: type, context: bpy.types.Context) -> bool:
    """For `poll`: False, with the reason as tooltip, when the context has no scene."""
    if context.scene is None:
        cls.poll_message_set("There is no scene to work in")
        return False
    return True


def in_view_layer(context: bpy.types.Context, obj: bpy.types.Object) -> bool:
    """Whether the view layer holds `obj` itself (it may hold another of that name: a
    linked object may have a local one's)."""
    return has_object(context.view_layer.objects, obj)


def select_only(context: bpy.types.Context, objects: Iterable[bpy.types.Object],
                active: bpy.types.Object | None = None) -> None:
    """Select `objects` (and make `active` active) instead of the selection: of these, only
    what the view layer holds (Blender selects nothing else)."""
    for other in context.selected_objects:  # (the view layer's, unless a script overrode
        with contextlib.suppress(RuntimeError):  # the context: then it is not selected)
            other.select_set(False)
    for obj in objects:
        if in_view_layer(context, obj):
            obj.select_set(True)
    if active is not None and in_view_layer(context, active):
        context.view_layer.objects.active = active


def selection_problem(context: bpy.types.Context, obj: bpy.types.Object) -> str | None:
    """Why Blender would not select `obj` in the view layer (hidden, or not selectable there),
    or None when it would."""
    view_layer = context.view_layer
    if not obj.visible_get(view_layer=view_layer):
        return f"{obj.name} is hidden in the viewport: unhide it (or its collection) to " \
            "select it"
    if obj.hide_select or not _selectable_in(view_layer.layer_collection, obj, False):
        return f"{obj.name} cannot be selected (it or its collection is not selectable): " \
            "turn selectability on in the Outliner to select it"
    return None


def _selectable_in(layer: bpy.types.LayerCollection, obj: bpy.types.Object,
                   locked: bool) -> bool:
    """Whether a path down the view layer's collections that is not excluded, not disabled
    in viewports and not made unselectable holds `obj` (Blender selects an object that one
    such path holds)."""
    if layer.exclude:
        return False
    locked = locked or layer.collection.hide_select or layer.collection.hide_viewport
    if not locked and has_object(layer.collection.objects, obj):
        return True
    return any(_selectable_in(child, obj, locked) for child in layer.children)


def chosen_objects(context: bpy.types.Context) -> list[bpy.types.Object]:
    """What a tool works on: the selected objects; with none selected, the active object
    when it is visible (the one the panel shows). A hidden or unselected active object
    beside a selection is never changed unseen."""
    selected = list(context.selected_objects or [])
    if selected:
        return selected
    active = context.active_object
    if active is None:
        return []
    try:
        return [active] if active.visible_get(view_layer=context.view_layer) else []
    except RuntimeError:  # (not in the view layer: a script's context)
        return []
