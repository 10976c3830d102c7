# SPDX-License-Identifier: GPL-3.0-or-later
"""Scene properties → glTF Physics: export format and collision layers."""

from typing import Any

import bpy


class GLTF_PHYSICS_UL_layers(bpy.types.UIList):
    """The scene's collision layers."""

    def draw_item(self, _context, layout, _data, item, _icon, _active_data, _active_prop, index=0):
        layout.prop(item, "name", text=f"{index + 1}", emboss=False)


class GLTF_PHYSICS_PT_scene(bpy.types.Panel):
    """glTF physics settings of the scene."""

    bl_label = "glTF Physics"
    bl_idname = "GLTF_PHYSICS_PT_scene"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "scene"

    def draw(self, context: bpy.types.Context) -> None:
        settings = context.scene.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.prop(settings, "export_format")
        row = layout.row()
        row.enabled = settings.export_format == "KHR"
        row.prop(settings, "khr_geometry")
        row = layout.row()
        row.enabled = settings.export_format == "OMI"
        row.prop(settings, "omi_round_layout")
        layout.label(text="Collision Layers")
        row = layout.row()
        row.template_list(
            "GLTF_PHYSICS_UL_layers", "", settings, "layers", settings, "active_layer"
        )
        column = row.column(align=True)
        column.operator("gltf_physics.layer_add", icon="ADD", text="")
        column.operator("gltf_physics.layer_remove", icon="REMOVE", text="")
        row = layout.row(align=True)
        row.operator("gltf_physics.preview", icon="PLAY")
        row.operator("gltf_physics.preview_remove", icon="X")
        row = layout.row(align=True)
        row.operator("gltf_physics.from_native", icon="IMPORT")
        row.operator("gltf_physics.to_native", icon="EXPORT")


class GLTF_PHYSICS_UL_problems(bpy.types.UIList):
    """Validation findings, each with select and fix buttons."""

    def draw_item(self, _context, layout, _data, item, _icon, _active_data, _active_prop, index=0):
        row = layout.row(align=True)
        _for_item(row.operator("gltf_physics.problem_select", text="",
                               icon="RESTRICT_SELECT_OFF"), item, index)
        row.label(text=f"{item.obj}: {item.message}", icon="ERROR")
        if item.fix:
            _for_item(row.operator("gltf_physics.problem_fix", text="Fix"), item, index)


def _for_item(op: Any, item: Any, index: int) -> None:
    """A list button's operator names its problem by row and by identity (object, code)."""
    op.index, op.problem_uid, op.problem_code = index, item.target_uid, item.code


class GLTF_PHYSICS_PT_validation(bpy.types.Panel):
    """Problems in the scene's physics."""

    bl_label = "Validation"
    bl_idname = "GLTF_PHYSICS_PT_validation"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "scene"
    bl_parent_id = "GLTF_PHYSICS_PT_scene"

    def draw(self, context: bpy.types.Context) -> None:
        settings = context.scene.gltf_physics
        layout = self.layout
        layout.operator("gltf_physics.validate", icon="CHECKMARK")
        if settings.problems:
            layout.template_list("GLTF_PHYSICS_UL_problems", "", settings, "problems",
                                 settings, "active_problem", rows=4)


CLASSES = (
    GLTF_PHYSICS_UL_layers, GLTF_PHYSICS_UL_problems, GLTF_PHYSICS_PT_scene,
    GLTF_PHYSICS_PT_validation,
)
