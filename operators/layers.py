# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision layer list operators (scene level)."""

import bpy

from ..io.blender.settings.properties import MAX_LAYERS
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.diagnostics import listing
from ..io.layer_names import new_layer_name, unique_name
from .context_checks import has_scene


class GLTF_PHYSICS_OT_layer_add(bpy.types.Operator):
    """Add a collision layer to the scene (its name differs from every other layer's)"""

    bl_idname = "gltf_physics.layer_add"
    bl_label = "Add Collision Layer"
    bl_options = {"REGISTER", "UNDO"}

    name: bpy.props.StringProperty(name="Name", description="Name of the new layer", default="")

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_scene(cls, context) and poll_refusal(cls, [context.scene])

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = context.scene.gltf_physics
        if len(settings.layers) >= MAX_LAYERS:
            self.report({"ERROR"}, f"A scene has at most {MAX_LAYERS} collision layers")
            return {"CANCELLED"}
        taken = [layer.name for layer in settings.layers]
        layer = settings.layers.add()
        layer.name = unique_name(self.name, taken) if self.name else new_layer_name(taken)
        settings.active_layer = len(settings.layers) - 1
        warning = _ticked_already(exported_objects(context.scene), settings.active_layer,
                                  layer.name)
        if warning:
            self.report({"WARNING"}, warning)
        return {"FINISHED"}


def _ticked_already(objects: list[bpy.types.Object], index: int, layer: str) -> str | None:
    """What to tell of `objects` ticking slot `index` before its layer was added, or None.
    Ticks beyond a scene's layers are kept (another scene's layers, the file's an object came
    from): they stay, as they may be wanted."""
    members = [o for o in objects if o.gltf_physics.filter_layers[index]]
    targets = [o for o in objects if o.gltf_physics.filter_targets[index]]
    ticking = sorted(set(members + targets), key=lambda o: o.name)
    if not ticking:
        return None
    one = len(ticking) == 1
    they, them, are, their = (
        ("it", "it", "is", "its") if one else ("they", "them", "are", "their"))
    where = f"the new layer '{layer}'"
    if members and targets:
        meaning = f"{they} {are} in {where} or {their} Collides rule names it"
    elif members:
        meaning = f"{they} {are} in {where}"
    else:
        meaning = f"{their} Collides rule names {where}"
    return f"{listing([o.name for o in ticking], 5)} already tick{'s' * one} layer " \
        f"{index + 1} (set in another scene or in the file {they} came from): now " \
        f"{meaning}; untick {them} if not"


class GLTF_PHYSICS_OT_layer_remove(bpy.types.Operator):
    """Remove the active collision layer; objects' layer ticks move up with the list"""

    bl_idname = "gltf_physics.layer_remove"
    bl_label = "Remove Collision Layer"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not has_scene(cls, context):
            return False
        settings = context.scene.gltf_physics
        if not 0 <= settings.active_layer < len(settings.layers):
            cls.poll_message_set("Select a collision layer to remove")
            return False
        return poll_refusal(cls, [context.scene])

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = context.scene.gltf_physics
        index = settings.active_layer
        # every object ticking this layer or a later one has its ticks moved (those only
        # in an instanced collection too): a linked one would lose the move on reload and
        # tick the wrong layers
        moved = [obj for obj in exported_objects(context.scene)
                 if any(obj.gltf_physics.filter_layers[index:])
                 or any(obj.gltf_physics.filter_targets[index:])]
        if refuse(self, moved):
            return {"CANCELLED"}
        shared = _in_another_scene(moved, context.scene)
        if shared:
            self.report({"ERROR"}, shared)
            return {"CANCELLED"}
        for obj in moved:
            props = obj.gltf_physics
            for name in ("filter_layers", "filter_targets"):
                bits = list(getattr(props, name))
                setattr(props, name, bits[:index] + bits[index + 1:] + [False])
        settings.layers.remove(index)
        settings.active_layer = max(0, index - 1)
        return {"FINISHED"}


def exported_objects(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The objects a scene's export writes with its layers: its own and those of the
    collections its instancers instance (nested ones too)."""
    found = dict.fromkeys(scene.objects)
    pending = list(found)
    seen: set[bpy.types.Collection] = set()
    while pending:
        obj = pending.pop()
        collection = obj.instance_collection if obj.instance_type == "COLLECTION" else None
        if collection is None or collection in seen:
            continue
        seen.add(collection)
        for member in collection.all_objects:
            if member not in found:
                found[member] = None
                pending.append(member)
    return list(found)


def _in_another_scene(objects: list[bpy.types.Object], scene: bpy.types.Scene) -> str | None:
    """Why the ticks of `objects` may not move: one is also in another scene (or instanced
    there), where its ticks are that scene's layers of the same index (they would change
    there too)."""
    others = [(other, set(exported_objects(other))) for other in bpy.data.scenes
              if other != scene]
    for obj in objects:
        other = next((s for s, members in others if obj in members), None)
        if other is not None:
            return (f"{obj.name} is also in scene {other.name}, where its layer ticks would "
                    f"move too: untick its layers from this one on, or unlink it from "
                    f"{other.name}; nothing was changed")
    return None


CLASSES = (GLTF_PHYSICS_OT_layer_add, GLTF_PHYSICS_OT_layer_remove)
