# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision layer list operators (scene level)."""

import bpy

from ..io.blender.instances import exported_objects
from ..io.blender.layer_ticks import ticking
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
    """What to tell of `objects` whose filter names slot `index` before its layer was added,
    or None. Ticks beyond a scene's layers are kept (another scene's layers, the file's an
    object came from): they stay, as they may be wanted."""
    names = ticking(objects, [index]).get(index)
    if not names:
        return None
    one = len(names) == 1
    they, their, filters = ("it", "its", "filter now names") if one else (
        "they", "their", "filters now name")
    return f"{listing(names, 5)} already tick{'s' * one} the slot of the new layer " \
        f"'{layer}' (the {_ordinal(index + 1)} in the list), set in another scene or in " \
        f"the file {they} came from: {their} collision {filters} it; untick it there if not"


def _ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th… 11th, 12th, 13th… 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


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
