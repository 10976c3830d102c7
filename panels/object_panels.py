# SPDX-License-Identifier: GPL-3.0-or-later
"""Object properties → Physics tab: body, shape, material and collision filter."""

import bpy

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
        layout.prop(props, "mass")
        layout.prop(props, "center_of_mass_mode")
        if props.center_of_mass_mode == "CUSTOM":
            layout.prop(props, "center_of_mass")
        layout.prop(props, "inertia_mode")
        if props.inertia_mode == "CUSTOM":
            layout.prop(props, "inertia_diagonal")
            layout.prop(props, "inertia_orientation")
        layout.prop(props, "linear_velocity")
        layout.prop(props, "angular_velocity")
        layout.prop(props, "gravity_factor")


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
        if props.shape_type in ("CONVEX", "TRIMESH"):
            layout.prop(props, "mesh_source")
            if props.mesh_source == "OBJECT":
                layout.prop(props, "mesh_object")
        else:
            layout.prop(props, "size_mode")
            column = layout.column()
            column.enabled = props.size_mode == "CUSTOM"
            for name in SIZE_FIELDS[props.shape_type]:
                column.prop(props, name)
            column.prop(props, "shape_offset")
            layout.operator("gltf_physics.fit_shape", icon="SHADING_BBOX")
        layout.prop(props, "collision_only")


class GLTF_PHYSICS_PT_material(_PhysicsTab, bpy.types.Panel):
    """Friction and restitution of the shape."""

    bl_label = "Physics Material"
    bl_idname = "GLTF_PHYSICS_PT_material"
    bl_parent_id = "GLTF_PHYSICS_PT_object"
    bl_options = {"DEFAULT_CLOSED"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        return obj is not None and obj.gltf_physics.shape_type != "NONE" \
            and obj.gltf_physics.shape_role == "COLLIDER"

    def draw_header(self, context: bpy.types.Context) -> None:
        self.layout.prop(context.object.gltf_physics, "use_material", text="")

    def draw(self, context: bpy.types.Context) -> None:
        props = context.object.gltf_physics
        layout = self.layout
        layout.use_property_split = True
        layout.enabled = props.use_material
        for name in ("static_friction", "dynamic_friction", "restitution", "friction_combine",
                     "restitution_combine"):
            layout.prop(props, name)


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

    @staticmethod
    def _bits(layout, props, name, layers) -> None:
        grid = layout.grid_flow(columns=2, even_columns=True)
        for index, layer in enumerate(layers):
            grid.prop(props, name, index=index, text=layer.name, toggle=True)


CLASSES = (
    GLTF_PHYSICS_PT_object,
    GLTF_PHYSICS_PT_body,
    GLTF_PHYSICS_PT_shape,
    GLTF_PHYSICS_PT_material,
    GLTF_PHYSICS_PT_filter,
)
