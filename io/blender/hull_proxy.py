# SPDX-License-Identifier: GPL-3.0-or-later
"""A simplified convex hull as an editable, collision-only proxy child of an object."""

import bpy

from ..hull import ENGINE_MAX_POINTS
from .hull import hull_mesh, simplify_object_hull

HULL_SUFFIX = ".hull"


def make_hull_proxy(obj: bpy.types.Object, max_points: int = ENGINE_MAX_POINTS) -> float:
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
