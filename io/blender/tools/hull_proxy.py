# SPDX-License-Identifier: GPL-3.0-or-later
"""A simplified convex hull as an editable, collision-only proxy child of an object."""

from dataclasses import dataclass

import bpy

from ...hull import ENGINE_MAX_POINTS
from .decomposition import parts_of, undo_parts
from .editable import deletion_problem, edit_mode_problem, editable_problem
from .hull import HullResult, hull_mesh, simplify_object_hull
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


@dataclass
class HullPlan:
    """What Generate Convex Hull reads for one object before anything changes: the hull
    (in the space of the object that will hold it), our proxy to reuse, and who else uses
    it."""

    result: HullResult
    proxy: bpy.types.Object | None
    shared: list[bpy.types.ID]
    parts: list[bpy.types.Object]  # an earlier decomposition's, which the hull replaces


def make_hull_proxy(obj: bpy.types.Object, max_points: int = ENGINE_MAX_POINTS,
                    source: bpy.types.Object | None = None, notes: list[str] | None = None
                    ) -> float:
    """Give `obj` a Convex Hull shape using a simplified hull proxy of `source`'s mesh (the
    object's own by default), placed where that mesh is; returns the volume error. Raises
    ValueError (nothing made) as `read_hull` does."""
    plan = read_hull(obj, max_points, source, bpy.context.evaluated_depsgraph_get())
    return apply_hull(obj, plan, notes)


def own_proxy(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The proxy this tool made for `obj` that it may refill (a linked or overridden one is
    its library's)."""
    proxy = obj.gltf_physics.mesh_object
    return proxy if made_by(proxy, HULL_PROXY, obj) and editable_problem(proxy) is None \
        else None


def read_hull(obj: bpy.types.Object, max_points: int, source: bpy.types.Object | None,
              depsgraph: bpy.types.Depsgraph,
              users: dict[int, list[bpy.types.ID]] | None = None) -> HullPlan:
    """`obj`'s hull plan, read from `depsgraph` (one for many objects: nothing changes
    while plans are read; `users`: `pointer_users` of their proxies, read once). Raises
    ValueError when the mesh has no volume, or when its proxy (or a part of an earlier
    decomposition, which the hull replaces) cannot be replaced now (in Edit Mode…).

    The proxy this tool made for `obj` earlier gets the new hull; any other object the shape
    used (a user's low-poly child…), and our proxy while anything else points at it (a
    Shift+D copy's shape, said), is left as it is and a new proxy is made."""
    source = obj if source is None else source
    proxy = own_proxy(obj)
    # (a proxy's new mesh is not kept in Edit Mode; parts are deleted: `undo_parts`)
    parts = parts_of(obj)
    problem = (proxy and edit_mode_problem(proxy)) \
        or next(filter(None, map(deletion_problem, parts)), None)
    if problem:
        raise ValueError(f"{obj.name} was left as it was: {problem}")
    if proxy is not None and users is None:
        users = pointer_users([proxy])
    shared = [] if proxy is None else [
        user for user in users.get(proxy.session_uid, ()) if user != obj]
    # The hull's points in the space of the object holding them: our proxy when it is kept
    # (where the user may have moved it), else `obj` (a new proxy sits at its origin).
    holder = proxy if proxy is not None and not shared else obj
    to_holder = None if source == holder else \
        holder.matrix_world.inverted_safe() @ source.matrix_world
    result = simplify_object_hull(source, depsgraph, max_points, to_holder)
    if result.degenerate or result.volume_before <= 0.0:
        raise ValueError(f"{source.name}'s mesh has no volume (its points lie on a plane, a "
                         "line or a point): a convex hull needs some; nothing was made")
    return HullPlan(result, proxy, shared, parts)


def settle_mesh_names(objects: list[bpy.types.Object]) -> None:
    """Give each object's refilled hull mesh its proxy's name once the old mesh is gone (it
    took `.001` beside the old one: run after run, the names alternated)."""
    for obj in objects:
        proxy = obj.gltf_physics.mesh_object
        mesh = proxy.data if proxy is not None else None
        name = f"{obj.name}{HULL_SUFFIX}"
        if isinstance(mesh, bpy.types.Mesh) and made_by(mesh, HULL_PROXY) \
                and mesh.name != name and bpy.data.meshes.get(name) is None:
            mesh.name = name


def apply_hull(obj: bpy.types.Object, plan: HullPlan, notes: list[str] | None = None,
               old_meshes: list[bpy.types.Mesh] | None = None) -> float:
    """Make (or refill) `obj`'s proxy from its plan and give `obj` the Convex Hull shape;
    the volume error. What another object still uses is said in `notes`. A refilled
    proxy's old mesh goes to `old_meshes` (for one `remove_meshes`), else is deleted."""
    props = obj.gltf_physics
    proxy, shared = plan.proxy, plan.shared
    undo_parts(obj, notes, plan.parts)  # the hull replaces an earlier decomposition's parts
    mesh = hull_mesh(f"{obj.name}{HULL_SUFFIX}", plan.result.points)
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
        if old_meshes is None:
            remove_mesh(old, HULL_PROXY)
        else:
            old_meshes.append(old)
    props.shape_type = "CONVEX"
    props.mesh_source = "OBJECT"
    props.mesh_object = proxy
    return plan.result.volume_error
