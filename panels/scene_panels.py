# SPDX-License-Identifier: GPL-3.0-or-later
"""Scene properties → glTF Physics: export format and collision layers."""

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


CLASSES = (GLTF_PHYSICS_UL_layers, GLTF_PHYSICS_PT_scene)
