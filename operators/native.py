# SPDX-License-Identifier: GPL-3.0-or-later
"""Convert the selected objects between glTF physics and Blender's Rigid Body settings."""

import bpy

from ..io.blender.bridge.joint_bridge import body_of
from ..io.blender.tools import native_convert
from ..io.blender.tools.editable import poll_refusal, refuse
from .context_checks import has_scene


def _run(op: bpy.types.Operator, context: bpy.types.Context, direction: str) -> set[str]:
    selected = context.selected_objects
    bodies = [body_of(o.parent) for o in selected if o.parent is not None]  # converted along
    if refuse(op, [*selected, *bodies], rigid_body=direction == native_convert.TO_NATIVE):
        return {"CANCELLED"}
    changed, notes = native_convert.convert(context.selected_objects, direction)
    for note in notes:
        op.report({"WARNING"}, note)
    if not changed:
        op.report({"WARNING"} if notes else {"INFO"}, "Nothing to convert")
        return {"CANCELLED"}
    summary = f"Converted {len(changed)} object(s)"
    if notes:
        op.report({"WARNING"}, f"{summary}, with {len(notes)} note(s): see the Info editor")
    else:
        op.report({"INFO"}, summary)
    return {"FINISHED"}


def _poll(cls: type, context: bpy.types.Context, rigid_body: bool) -> bool:
    if not has_scene(cls, context):
        return False
    if not context.selected_objects:
        cls.poll_message_set("Select the objects to convert")
        return False
    return poll_refusal(cls, context.selected_objects, rigid_body=rigid_body)


class GLTF_PHYSICS_OT_from_native(bpy.types.Operator):
    """Set the selected objects' glTF physics from their Blender Rigid Body and Rigid Body Constraint settings"""

    bl_idname = "gltf_physics.from_native"
    bl_label = "Physics from Blender Rigid Body"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _poll(cls, context, rigid_body=False)

    def execute(self, context: bpy.types.Context) -> set[str]:
        return _run(self, context, native_convert.FROM_NATIVE)


class GLTF_PHYSICS_OT_to_native(bpy.types.Operator):
    """Give the selected objects Blender Rigid Bodies and Rigid Body Constraints matching their glTF physics"""

    bl_idname = "gltf_physics.to_native"
    bl_label = "Physics to Blender Rigid Body"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _poll(cls, context, rigid_body=True)

    def execute(self, context: bpy.types.Context) -> set[str]:
        return _run(self, context, native_convert.TO_NATIVE)


CLASSES = (GLTF_PHYSICS_OT_from_native, GLTF_PHYSICS_OT_to_native)
