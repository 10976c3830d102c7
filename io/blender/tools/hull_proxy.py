# SPDX-License-Identifier: GPL-3.0-or-later
"""A simplified convex hull as an editable, collision-only proxy child of an object."""

import bpy

from ...hull import ENGINE_MAX_POINTS
from .decomposition import undo_parts
from .editable import edit_mode_problem, editable_problem
from .hull import hull_mesh, simplify_object_hull
from .ownership import (
    HULL_PROXY,
    link_like,
    made_by,
    mark,
    pointer_users,
    remove_mesh,
    still_used,
)

HULL_SUFFIX = ".hull"


def make_hull_proxy(obj: bpy.types.Object, max_points: int = ENGINE_MAX_POINTS,
                    source: bpy.types.Object | None = None, notes: list[str] | None = None
                    ) -> float:
    """Give `obj` a Convex Hull shape using a simplified hull proxy of `source`'s mesh (the
    object's own by default), placed where that mesh is; returns the volume error. Raises
    ValueError (nothing made) when the mesh has no volume, or when its proxy (or a part
    of an earlier decomposition, which the hull replaces) is in Edit Mode.

    The proxy this tool made for `obj` earlier gets the new hull; any other object the shape
    used (a user's low-poly child…), and our proxy while another object's settings still
    point at it (a Shift+D copy's shape, said in `notes`), is left as it is and a new proxy
    is made."""
    source = obj if source is None else source
    props = obj.gltf_physics
    proxy = props.mesh_object if made_by(props.mesh_object, HULL_PROXY, obj) \
        and editable_problem(props.mesh_object) is None else None  # (else its library's)
    editing = None if proxy is None else edit_mode_problem(proxy)
    if editing is not None:  # (its new mesh would not be kept: nothing is made)
        raise ValueError(f"{obj.name} was left as it was: its proxy {editing}")
    shared = proxy is not None and [
        user for user in pointer_users([proxy]).get(proxy.session_uid, ()) if user != obj]
    # The hull's points in the space of the object holding them: our proxy when it is kept
    # (where the user may have moved it), else `obj` (a new proxy sits at its origin).
    holder = proxy if proxy is not None and not shared else obj
    to_holder = None if source == holder else \
        holder.matrix_world.inverted_safe() @ source.matrix_world
    result = simplify_object_hull(source, bpy.context.evaluated_depsgraph_get(), max_points,
                                  to_holder)
    if result.degenerate or result.volume_before <= 0.0:
        raise ValueError(f"{source.name}'s mesh has no volume (its points lie on a plane, a "
                         "line or a point): a convex hull needs some; nothing was made")
    undo_parts(obj, notes)  # the hull replaces an earlier decomposition's parts
    mesh = hull_mesh(f"{obj.name}{HULL_SUFFIX}", result.points)
    if proxy is None or shared:
        kept = proxy
        proxy = bpy.data.objects.new(f"{obj.name}{HULL_SUFFIX}", mesh)
        link_like(proxy, obj, bpy.context.scene)
        proxy.parent = obj
        proxy.display_type = "WIRE"
        proxy.hide_render = True
        proxy.gltf_physics.collision_only = True
        mark(proxy, HULL_PROXY, obj)
        if kept is not None and notes is not None:
            notes.append(f"{kept.name} was kept as it is: {still_used(shared)}; {obj.name} "
                         f"has a new proxy, {proxy.name}")
    else:
        old = proxy.data
        proxy.data = mesh
        mark(mesh, HULL_PROXY)
        remove_mesh(old, HULL_PROXY)
    props.shape_type = "CONVEX"
    props.mesh_source = "OBJECT"
    props.mesh_object = proxy
    return result.volume_error
