# SPDX-License-Identifier: GPL-3.0-or-later
"""The Gravity panel of a trigger (or compound trigger root) and the scene's World Gravity."""

import bpy

from ..io.blender.gravity.properties import GRAVITY_KIND
from ..io.field_table import GRAVITY, WORLD_GRAVITY
from ..io.gravity import KIND_PARAMS

#: Shaped gravity's shape item → its size properties (a mesh shape: its mesh object).
SHAPE_SIZE = {
    "BOX": ("gravity_shape_size",),
    "SPHERE": ("gravity_shape_radius",),
    "CAPSULE": ("gravity_shape_height", "gravity_shape_radius_top",
                "gravity_shape_radius_bottom"),
    "CYLINDER": ("gravity_shape_height", "gravity_shape_radius_top",
                 "gravity_shape_radius_bottom"),
    "CONVEX": ("gravity_shape_object",),
    "TRIMESH": ("gravity_shape_object",),
}
#: The rows drawn before the type's parameters (amount) and after them (combining).
AMOUNT = ("gravity",)
COMBINING = ("priority", "replace", "stop")


def is_gravity_carrier(obj: bpy.types.Object | None) -> bool:
    """True for a trigger object or a compound trigger root: where a volume may go."""
    if obj is None:
        return False
    props = obj.gltf_physics
    return props.is_compound_trigger or (
        props.shape_type != "NONE" and props.shape_role == "TRIGGER")


def gravity_rows(kind_item: str) -> list[str]:
    """The row properties the panel draws for a type, in order."""
    kind = GRAVITY_KIND.get(kind_item)  # (an unknown stored value reads as '')
    params = KIND_PARAMS.get(kind, ()) if kind is not None else ()
    by_attr = {row.attr: row.prop for row in GRAVITY}
    return [by_attr[a] for a in (*AMOUNT, *(r.attr for r in GRAVITY if r.attr in params),
                                 *COMBINING)]


class GLTF_PHYSICS_UL_gravity_points(bpy.types.UIList):
    """The points of a line gravity volume."""

    def draw_item(self, _context, layout, _data, item, _icon, _active_data, _active_prop, index=0):
        layout.prop(item, "co", text=f"{index + 1}")


class GLTF_PHYSICS_PT_gravity(bpy.types.Panel):
    """The gravity volume of a trigger (OMI_physics_gravity)."""

    bl_label = "Gravity"
    bl_idname = "GLTF_PHYSICS_PT_gravity"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"
    bl_parent_id = "GLTF_PHYSICS_PT_object"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return is_gravity_carrier(context.object)

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.prop(props, "gravity_type")
        if props.gravity_type == "NONE":
            return
        for name in gravity_rows(props.gravity_type):
            layout.prop(props, name)
            if name == "gravity_amount":
                _draw_figure(layout, props)
        if context.scene.gltf_physics.export_format == "KHR":
            layout.label(text="KHR has no gravity: written only in OMI", icon="INFO")


def _draw_figure(layout: bpy.types.UILayout, props: bpy.types.PropertyGroup) -> None:
    """The line's points or the shaped volume's shape."""
    if props.gravity_type == "LINE":
        layout.prop(props, "gravity_line_source", expand=True)
        if props.gravity_line_source == "OBJECT":
            row = layout.row(align=True)
            row.prop(props, "gravity_line_object")
            row.operator("gltf_physics.gravity_points_from_object", text="", icon="COPYDOWN")
            return
        row = layout.row()
        row.template_list("GLTF_PHYSICS_UL_gravity_points", "", props, "gravity_line_points",
                          props, "gravity_active_point", rows=3)
        column = row.column(align=True)
        column.operator("gltf_physics.gravity_point_add", icon="ADD", text="")
        column.operator("gltf_physics.gravity_point_remove", icon="REMOVE", text="")
        if len(props.gravity_line_points) < 2:
            layout.label(text="A line needs at least 2 points", icon="ERROR")
    elif props.gravity_type == "SHAPED":
        layout.prop(props, "gravity_shape_type")
        for name in SHAPE_SIZE.get(props.gravity_shape_type, ()):  # ('' when unknown)
            layout.prop(props, name)
        layout.prop(props, "gravity_shape_name", text="Name")


class GLTF_PHYSICS_PT_world_gravity(bpy.types.Panel):
    """The scene's world gravity (OMI_physics_gravity), written only when ticked."""

    bl_label = "World Gravity"
    bl_idname = "GLTF_PHYSICS_PT_world_gravity"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "scene"
    bl_parent_id = "GLTF_PHYSICS_PT_scene"

    def draw_header(self, context: bpy.types.Context) -> None:
        self.layout.prop(context.scene.gltf_physics, "use_world_gravity", text="")

    def draw(self, context: bpy.types.Context) -> None:
        settings = context.scene.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.active = settings.use_world_gravity
        for row in WORLD_GRAVITY:
            layout.prop(settings, row.prop)


CLASSES = (GLTF_PHYSICS_UL_gravity_points, GLTF_PHYSICS_PT_gravity,
           GLTF_PHYSICS_PT_world_gravity)
