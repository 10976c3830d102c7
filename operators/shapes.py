# SPDX-License-Identifier: GPL-3.0-or-later
"""Shape operators."""

import bpy

from ..io.blender.bridge.fitting import apply_fit, fit_shape, local_bounds, principal_fit
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.blender.tools.hull import evaluated_vertices
from .context_checks import has_scene

ANALYTIC = {"BOX", "SPHERE", "CAPSULE", "CYLINDER", "PLANE"}


class GLTF_PHYSICS_OT_fit_shape(bpy.types.Operator):
    """Fit the shapes of the selected objects and the active one to their evaluated mesh and keep the values as custom dimensions"""

    bl_idname = "gltf_physics.fit_shape"
    bl_label = "Fit Now"
    bl_options = {"REGISTER", "UNDO"}

    oriented: bpy.props.BoolProperty(
        name="Principal Axes", description="Orient the shape along the mesh's principal axes "
        "(the longest becomes the capsule or cylinder axis) instead of the object's axes",
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        if obj is None or obj.gltf_physics.shape_type not in ANALYTIC:
            cls.poll_message_set("The active object must have a box, sphere, capsule, "
                                 "cylinder or plane shape")
            return False
        return has_scene(cls, context) and poll_refusal(cls, [obj])

    def execute(self, context: bpy.types.Context) -> set[str]:
        targets = set(context.selected_objects) | {context.object}
        if refuse(self, [o for o in targets if o.gltf_physics.shape_type in ANALYTIC]):
            return {"CANCELLED"}
        fitted, kept, unfitted = 0, [], []
        depsgraph = context.evaluated_depsgraph_get()
        for obj in targets:
            props = obj.gltf_physics
            if props.shape_type not in ANALYTIC:
                continue  # a wheel, joint, seat, hull...: nothing to fit
            bounds = local_bounds(obj)
            if bounds is None or bounds[0] == bounds[1]:  # an Empty, a mesh without vertices
                # (or one point): its custom dimensions need no mesh
                (kept if props.size_mode == "CUSTOM" else unfitted).append(obj.name)
                continue
            oriented = self.oriented and principal_fit(
                obj, props.shape_type, evaluated_vertices(obj, depsgraph))
            if oriented:
                apply_fit(props, *oriented)
            else:
                apply_fit(props, fit_shape(props.shape_type, bounds))
            props.size_mode = "CUSTOM"
            fitted += 1
        if unfitted:
            self.report({"WARNING"}, f"No mesh to fit, set Custom dimensions: {', '.join(sorted(unfitted))}")
        if fitted:
            note = f"; custom dimensions kept (no mesh): {', '.join(sorted(kept))}" if kept else ""
            self.report({"INFO"}, f"Fitted {fitted} shape(s){note}")
        elif kept:
            self.report({"WARNING"}, f"No mesh to fit; custom dimensions kept: {', '.join(sorted(kept))}")
        return {"FINISHED"} if fitted else {"CANCELLED"}


CLASSES = (GLTF_PHYSICS_OT_fit_shape,)
