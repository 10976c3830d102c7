# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex hull tool: a simplified, editable collision-only hull proxy per selected object."""

import bpy

from ..io.blender.hull import hull_mesh, simplify_object_hull
from ..io.hull import ENGINE_MAX_POINTS

HULL_SUFFIX = ".hull"


def make_hull_proxy(obj: bpy.types.Object, max_points: int) -> float:
    """Give `obj` a Convex Hull shape using a simplified hull proxy; returns the volume error."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    result = simplify_object_hull(obj, depsgraph, max_points)
    mesh = hull_mesh(f"{obj.name}{HULL_SUFFIX}", result.points)
    props = obj.gltf_physics
    proxy = props.mesh_object if _is_own_proxy(obj, props.mesh_object) else None
    if proxy is None:
        proxy = bpy.data.objects.new(f"{obj.name}{HULL_SUFFIX}", mesh)
        for collection in obj.users_collection:
            collection.objects.link(proxy)
        proxy.parent = obj
        proxy.display_type = "WIRE"
        proxy.hide_render = True
        proxy.gltf_physics.collision_only = True
    else:
        old = proxy.data
        proxy.data = mesh
        if old.users == 0:
            bpy.data.meshes.remove(old)
    props.shape_type = "CONVEX"
    props.mesh_source = "OBJECT"
    props.mesh_object = proxy
    return result.volume_error


def _is_own_proxy(obj: bpy.types.Object, proxy: bpy.types.Object | None) -> bool:
    return proxy is not None and proxy.parent == obj and proxy.name.startswith(obj.name)


class GLTF_PHYSICS_OT_simplify_hull(bpy.types.Operator):
    """Give each selected mesh a convex hull collider: Blender's hull of the evaluated mesh, simplified to at most the point limit, as an editable collision-only proxy"""

    bl_idname = "gltf_physics.simplify_hull"
    bl_label = "Generate Convex Hull"
    bl_options = {"REGISTER", "UNDO"}

    max_points: bpy.props.IntProperty(
        name="Max Points", description="Most hull points kept (engines accept up to 255)",
        default=ENGINE_MAX_POINTS, min=4, max=ENGINE_MAX_POINTS,
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return any(o.type == "MESH" for o in _targets(context))

    def execute(self, context: bpy.types.Context) -> set[str]:
        targets = [o for o in _targets(context) if o.type == "MESH"]
        wm = context.window_manager
        wm.progress_begin(0, len(targets))
        errors = []
        try:
            for number, obj in enumerate(targets):
                errors.append(make_hull_proxy(obj, self.max_points))
                wm.progress_update(number + 1)
        finally:
            wm.progress_end()
        self.report({"INFO"}, f"{len(targets)} hull(s); largest volume loss "
                    f"{max(errors) * 100:.2f} %")
        return {"FINISHED"}


def _targets(context: bpy.types.Context) -> list[bpy.types.Object]:
    objs = list(context.selected_objects or [])
    if context.active_object is not None and context.active_object not in objs:
        objs.append(context.active_object)
    return [o for o in objs if not o.gltf_physics.collision_only]


CLASSES = (GLTF_PHYSICS_OT_simplify_hull,)
