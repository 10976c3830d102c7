# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex hull tool: a simplified, editable collision-only hull proxy per selected object."""

import bpy

from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.blender.tools.hull_proxy import apply_hull, own_proxy, read_hull, settle_mesh_names
from ..io.blender.tools.ownership import HULL_PROXY, pointer_users, remove_meshes
from ..io.hull import ENGINE_MAX_POINTS
from .context_checks import chosen_objects, has_scene


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
        targets = [o for o in _targets(context) if o.type == "MESH"]
        if not targets:
            cls.poll_message_set("Select a mesh object (not a collision-only proxy)")
            return False
        return has_scene(cls, context) and poll_refusal(cls, targets)

    def execute(self, context: bpy.types.Context) -> set[str]:
        targets = [o for o in _targets(context) if o.type == "MESH"]
        if refuse(self, targets):
            return {"CANCELLED"}
        wm = context.window_manager
        wm.progress_begin(0, 2 * len(targets))
        errors, flat, notes, plans = [], [], [], []
        try:
            # every hull read first, from one evaluation (each new proxy would make the next
            # read evaluate the whole scene again)
            depsgraph = context.evaluated_depsgraph_get()
            users = pointer_users(filter(None, map(own_proxy, targets)))
            for number, obj in enumerate(targets):
                try:
                    plans.append((obj, read_hull(obj, self.max_points, None, depsgraph,
                                                 users)))
                except ValueError as exc:  # no volume, a proxy in Edit Mode: nothing made
                    flat.append(str(exc))
                wm.progress_update(number + 1)
            old_meshes: list[bpy.types.Mesh] = []
            for number, (obj, plan) in enumerate(plans):
                errors.append(apply_hull(obj, plan, notes, old_meshes))
                wm.progress_update(len(targets) + number + 1)
            remove_meshes(old_meshes, HULL_PROXY)
            settle_mesh_names([obj for obj, _plan in plans])
        finally:
            wm.progress_end()
        if flat:
            more = f" ({len(flat) - 1} more likewise)" if len(flat) > 1 else ""
            self.report({"WARNING"} if errors else {"ERROR"}, flat[0] + more)
        if not errors:
            return {"CANCELLED"}
        if notes:  # a proxy another object still uses was left to it
            more = f" ({len(notes) - 1} more likewise)" if len(notes) > 1 else ""
            self.report({"WARNING"}, notes[0] + more)
        self.report({"INFO"}, f"{len(errors)} hull(s); largest volume loss "
                    f"{max(errors) * 100:.2f} %")
        return {"FINISHED"}


def _targets(context: bpy.types.Context) -> list[bpy.types.Object]:
    return [o for o in chosen_objects(context) if not o.gltf_physics.collision_only]


CLASSES = (GLTF_PHYSICS_OT_simplify_hull,)
