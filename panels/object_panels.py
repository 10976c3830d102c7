# SPDX-License-Identifier: GPL-3.0-or-later
"""Object properties → Physics tab: body, shape, material, collision filter and joint."""

import bpy

from ..io.blender.bridge.fitting import FITTABLE_TYPES
from ..io.blender.bridge.joint_bridge import body_of
from ..io.blender.settings.properties import MESH_SHAPE_ITEMS
from .field_rows import draw_fields

IDENTITY_WXYZ = (1.0, 0.0, 0.0, 0.0)

SIZE_FIELDS = {
    "BOX": ("box_size",),
    "SPHERE": ("radius",),
    "CAPSULE": ("height", "radius_top", "radius_bottom"),
    "CYLINDER": ("height", "radius_top", "radius_bottom"),
    "PLANE": ("plane_size", "plane_double_sided"),
}


class _PhysicsTab:
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None


class GLTF_PHYSICS_PT_object(_PhysicsTab, bpy.types.Panel):
    """glTF physics of the active object."""

    bl_label = "glTF Physics"
    bl_idname = "GLTF_PHYSICS_PT_object"

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.prop(props, "motion_type")
        layout.prop(props, "shape_type")
        layout.prop(props, "is_compound_trigger")
        if context.object.parent is not None and props.shape_role == "TRIGGER":
            layout.prop(props, "join_compound_trigger")
        layout.prop(props, "joint_type")
        layout.prop(props, "vehicle_part")
        row = layout.row(heading="Also")
        row.prop(props, "is_seat")
        if props.motion_type == "DYNAMIC":
            row.prop(props, "is_vehicle")
        row = layout.row(align=True)
        row.operator("gltf_physics.copy_settings", icon="COPYDOWN")
        row.operator("gltf_physics.simplify_hull", icon="MESH_ICOSPHERE")


class GLTF_PHYSICS_PT_body(_PhysicsTab, bpy.types.Panel):
    """Rigid body settings."""

    bl_label = "Body"
    bl_idname = "GLTF_PHYSICS_PT_body"
    bl_parent_id = "GLTF_PHYSICS_PT_object"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and context.object.gltf_physics.motion_type != "NONE"

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.prop(props, "mass_mode")
        if props.mass_mode == "VALUE":
            layout.prop(props, "mass")
        layout.prop(props, "center_of_mass_mode")
        if props.center_of_mass_mode == "CUSTOM":
            layout.prop(props, "center_of_mass")
        layout.prop(props, "inertia_mode")
        if props.inertia_mode == "CUSTOM":
            layout.prop(props, "inertia_diagonal")
        if props.inertia_mode == "CUSTOM" or tuple(props.inertia_orientation) != IDENTITY_WXYZ:
            layout.prop(props, "inertia_orientation")  # (a file may state it alone)
        layout.prop(props, "lock_rotation", toggle=True)
        draw_fields(layout, props, "motion")


class GLTF_PHYSICS_PT_shape(_PhysicsTab, bpy.types.Panel):
    """Collision shape settings."""

    bl_label = "Shape"
    bl_idname = "GLTF_PHYSICS_PT_shape"
    bl_parent_id = "GLTF_PHYSICS_PT_object"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and context.object.gltf_physics.shape_type != "NONE"

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.prop(props, "shape_role", expand=True)
        if props.shape_type in MESH_SHAPE_ITEMS:
            layout.prop(props, "mesh_source")
            if props.mesh_source == "OBJECT":
                layout.prop(props, "mesh_object")
            # concave mesh: a compound of convex parts (greyed out where CoACD is missing)
            layout.operator("gltf_physics.convex_decompose", icon="MOD_EXPLODE")
        else:
            layout.prop(props, "size_mode")
            unfitted = props.size_mode == "FIT" and context.object.type not in FITTABLE_TYPES
            if unfitted:  # (an Empty: Fit to Mesh has nothing to fit, the values are written)
                layout.label(text="No mesh to fit: the values below are written", icon="INFO")
            column = layout.column()
            column.enabled = props.size_mode == "CUSTOM" or unfitted
            for name in SIZE_FIELDS.get(props.shape_type, ()):  # ('' when unknown)
                column.prop(props, name)
            column.prop(props, "shape_offset")
            column.prop(props, "shape_rotation")
            row = layout.row(align=True)
            row.operator("gltf_physics.fit_shape", icon="SHADING_BBOX")
            row.operator("gltf_physics.fit_shape", text="Fit to Principal Axes",
                         icon="ORIENTATION_GIMBAL").oriented = True
        layout.prop(props, "collision_only")
        layout.prop(props, "shape_name", text="Name")


class GLTF_PHYSICS_PT_material(_PhysicsTab, bpy.types.Panel):
    """Friction and restitution of the shape."""

    bl_label = "Physics Material"
    bl_idname = "GLTF_PHYSICS_PT_material"
    bl_parent_id = "GLTF_PHYSICS_PT_object"
    bl_options = {"DEFAULT_CLOSED"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        return obj is not None and (
            (obj.gltf_physics.shape_type != "NONE" and obj.gltf_physics.shape_role == "COLLIDER")
            or obj.gltf_physics.vehicle_part == "WHEEL")

    def draw_header(self, context: bpy.types.Context) -> None:
        self.layout.prop(context.object.gltf_physics, "use_material", text="")

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.enabled = props.use_material
        draw_fields(layout, props, "material")


class GLTF_PHYSICS_PT_filter(_PhysicsTab, bpy.types.Panel):
    """Collision layers of the shape."""

    bl_label = "Collision Filter"
    bl_idname = "GLTF_PHYSICS_PT_filter"
    bl_parent_id = "GLTF_PHYSICS_PT_object"
    bl_options = {"DEFAULT_CLOSED"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and context.object.gltf_physics.shape_type != "NONE"

    def draw_header(self, context: bpy.types.Context) -> None:
        self.layout.prop(context.object.gltf_physics, "use_filter", text="")

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layers = context.scene.gltf_physics.layers
        layout = self.layout
        layout.enabled = props.use_filter
        if not layers:
            layout.label(text="Add collision layers in Scene properties", icon="INFO")
            return
        layout.label(text="Member of")
        self._bits(layout, props, "filter_layers", layers)
        layout.prop(props, "filter_mode")
        if props.filter_mode != "ALL":
            self._bits(layout, props, "filter_targets", layers)
        layout.prop(props, "filter_name", text="Name")

    @staticmethod
    def _bits(layout, props, name, layers) -> None:
        grid = layout.grid_flow(columns=2, even_columns=True)
        for index, layer in enumerate(layers):
            grid.prop(props, name, index=index, text=layer.name, toggle=True)


class GLTF_PHYSICS_UL_joint_limits(bpy.types.UIList):
    """The joint's custom limits."""

    def draw_item(self, _context, layout, _data, item, _icon, _active_data, _active_prop, index=0):
        axes = "".join(name for name, on in zip("XYZ", item.axes, strict=True) if on) or "-"
        layout.label(text=f"{item.kind.title()} {axes}", icon="CON_LOCLIMIT"
                     if item.kind == "LINEAR" else "CON_ROTLIMIT")


class GLTF_PHYSICS_UL_joint_drives(bpy.types.UIList):
    """The joint's drives."""

    def draw_item(self, _context, layout, _data, item, _icon, _active_data, _active_prop, index=0):
        layout.label(text=f"{item.kind.title()} {item.axis} ({item.mode})", icon="DRIVER")


def _list_editor(layout, props, list_id, collection, active, items) -> None:
    row = layout.row()
    row.template_list(list_id, "", props, collection, props, active, rows=3)
    column = row.column(align=True)
    column.operator("gltf_physics.joint_item_add", icon="ADD", text="").items = items
    column.operator("gltf_physics.joint_item_remove", icon="REMOVE", text="").items = items


class GLTF_PHYSICS_PT_joint(_PhysicsTab, bpy.types.Panel):
    """Joint settings: connected body, preset or custom limits, drives."""

    bl_label = "Joint"
    bl_idname = "GLTF_PHYSICS_PT_joint"
    bl_parent_id = "GLTF_PHYSICS_PT_object"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and context.object.gltf_physics.joint_type != "NONE"

    def draw(self, context: bpy.types.Context) -> None:
        obj = context.object
        props = obj.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        body = body_of(obj)
        layout.label(text=f"Body: {body.name if body else 'World (no body above)'}",
                     icon="OBJECT_DATA")
        layout.prop(props, "joint_connected_body")
        layout.prop(props, "joint_attachment")
        layout.prop(props, "joint_enable_collision")
        layout.prop(props, "joint_name", text="Name")
        kind = props.joint_type
        if kind in ("HINGE", "SLIDER", "CONE_TWIST"):
            layout.prop(props, "joint_axis")
        if kind == "CONE_TWIST":
            layout.prop(props, "joint_cone_angle")
        if kind in ("HINGE", "SLIDER", "CONE_TWIST"):
            layout.prop(props, "joint_use_limit", text="Twist Limit" if kind == "CONE_TWIST"
                        else "Limit")
            column = layout.column(align=True)
            column.enabled = props.joint_use_limit
            names = ("joint_distance_min", "joint_distance_max") if kind == "SLIDER" else (
                "joint_angle_min", "joint_angle_max")
            for name in names:
                column.prop(props, name)
        if kind == "SLIDER":
            layout.prop(props, "joint_slider_rotates")
        if kind == "CUSTOM":
            self._custom(layout, props)
        elif kind != "NONE":
            layout.operator("gltf_physics.joint_to_custom", icon="MODIFIER")
        layout.label(text="Drives")
        _list_editor(layout, props, "GLTF_PHYSICS_UL_joint_drives", "joint_drives",
                     "joint_active_drive", "DRIVES")
        if 0 <= props.joint_active_drive < len(props.joint_drives):
            self._drive(layout, props.joint_drives[props.joint_active_drive])

    @staticmethod
    def _custom(layout, props) -> None:
        layout.label(text="Limits")
        _list_editor(layout, props, "GLTF_PHYSICS_UL_joint_limits", "joint_limits",
                     "joint_active_limit", "LIMITS")
        if not 0 <= props.joint_active_limit < len(props.joint_limits):
            return
        item = props.joint_limits[props.joint_active_limit]
        layout.prop(item, "kind")
        layout.row().prop(item, "axes", toggle=True)
        suffix = "distance" if item.kind == "LINEAR" else "angle"
        for end in ("min", "max"):
            row = layout.row(heading=end.title())
            row.prop(item, f"use_{end}", text="")
            sub = row.row()
            sub.enabled = getattr(item, f"use_{end}")
            sub.prop(item, f"{end}_{suffix}", text="")
        layout.prop(item, "use_stiffness")
        row = layout.row()
        row.enabled = item.use_stiffness
        row.prop(item, "stiffness")
        layout.prop(item, "damping")

    @staticmethod
    def _drive(layout, item) -> None:
        layout.prop(item, "kind")
        layout.prop(item, "mode")
        layout.prop(item, "axis")
        row = layout.row(heading="Max Force")
        row.prop(item, "use_max_force", text="")
        sub = row.row()
        sub.enabled = item.use_max_force
        sub.prop(item, "max_force", text="")
        target = "position_target_distance" if item.kind == "LINEAR" else "position_target_angle"
        layout.prop(item, "use_position_target")
        column = layout.column()
        column.enabled = item.use_position_target
        column.prop(item, target)
        column.prop(item, "stiffness")
        layout.prop(item, "use_velocity_target")
        column = layout.column()
        column.enabled = item.use_velocity_target
        column.prop(item, "velocity_target")
        column.prop(item, "damping")


class GLTF_PHYSICS_PT_vehicle(_PhysicsTab, bpy.types.Panel):
    """Vehicle body settings (OMI_vehicle_body)."""

    bl_label = "Vehicle"
    bl_idname = "GLTF_PHYSICS_PT_vehicle"
    bl_parent_id = "GLTF_PHYSICS_PT_object"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        return obj is not None and obj.gltf_physics.is_vehicle

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        if props.motion_type != "DYNAMIC":
            layout.label(text="A vehicle must be a Dynamic body", icon="ERROR")
        layout.prop(props, "vehicle_pilot_seat")
        draw_fields(layout, props, "vehicle_body")
        layout.operator("gltf_physics.wheels_add", icon="MESH_CIRCLE")


class GLTF_PHYSICS_PT_vehicle_part(_PhysicsTab, bpy.types.Panel):
    """Wheel or thruster settings; a seat's points."""

    bl_label = "Vehicle Part"
    bl_idname = "GLTF_PHYSICS_PT_vehicle_part"
    bl_parent_id = "GLTF_PHYSICS_PT_object"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        return obj is not None and (
            obj.gltf_physics.vehicle_part != "NONE" or obj.gltf_physics.is_seat)

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        if props.vehicle_part != "NONE":
            draw_fields(layout, props, props.vehicle_part.lower())
        if props.vehicle_part == "WHEEL":
            layout.prop(props, "wheel_own_material")
            if props.wheel_own_material:
                own = props.wheel_material
                layout.prop(own, "use_material")
                column = layout.column()
                column.enabled = own.use_material
                draw_fields(column, own, "material")
            else:
                layout.prop(props, "use_material")
                if props.use_material:
                    layout.label(text="Wheel friction: see Physics Material", icon="INFO")
        if props.is_seat:
            draw_fields(layout, props, "seat")


CLASSES = (
    GLTF_PHYSICS_UL_joint_limits,
    GLTF_PHYSICS_UL_joint_drives,
    GLTF_PHYSICS_PT_object,
    GLTF_PHYSICS_PT_body,
    GLTF_PHYSICS_PT_shape,
    GLTF_PHYSICS_PT_material,
    GLTF_PHYSICS_PT_filter,
    GLTF_PHYSICS_PT_joint,
    GLTF_PHYSICS_PT_vehicle,
    GLTF_PHYSICS_PT_vehicle_part,
)
