# SPDX-License-Identifier: GPL-3.0-or-later
"""Line gravity point list operators (on the active object)."""

from typing import Any

import bpy

from ..io.blender.gravity.bridge import evaluates, object_line_points
from ..io.blender.gravity.properties import LINE_OBJECT_TYPES
from ..io.blender.instances import exported_objects
from ..io.blender.tools.editable import first_own_item, poll_refusal, refuse, removal_problem
from .context_checks import has_scene


class _OnLineGravity:
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        if obj is None or obj.gltf_physics.gravity_type != "LINE":
            cls.poll_message_set("The active object must have Line gravity")
            return False
        return poll_refusal(cls, [obj])


class GLTF_PHYSICS_OT_gravity_point_add(_OnLineGravity, bpy.types.Operator):
    """Add a point to the line after the selected one (one unit further along Z)"""

    bl_idname = "gltf_physics.gravity_point_add"
    bl_label = "Add Line Point"

    def execute(self, context: bpy.types.Context) -> set[str]:
        if refuse(self, [context.object]):
            return {"CANCELLED"}
        props = context.object.gltf_physics
        points = props.gravity_line_points
        index = min(props.gravity_active_point, len(points) - 1)
        base = tuple(points[index].co) if points else (0.0, 0.0, -1.0)
        point = points.add()
        point.co = (base[0], base[1], base[2] + 1.0)
        # an override keeps its own points after the library's: never among them
        place = max(index + 1, first_own_item(context.object, _line_points))
        points.move(len(points) - 1, place)
        props.gravity_active_point = place
        return {"FINISHED"}


def _line_points(obj: bpy.types.Object) -> Any:
    return obj.gltf_physics.gravity_line_points


def _point_removal_problem(obj: bpy.types.Object, index: int) -> str | None:
    """Why point `index` cannot be removed: one from the library, on a library override."""
    return removal_problem(obj, _line_points, index, f"Line point {index + 1}")


class GLTF_PHYSICS_OT_gravity_point_remove(_OnLineGravity, bpy.types.Operator):
    """Remove the selected point of the line"""

    bl_idname = "gltf_physics.gravity_point_remove"
    bl_label = "Remove Line Point"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not super().poll(context):
            return False
        obj = context.object
        problem = _point_removal_problem(obj, obj.gltf_physics.gravity_active_point)
        if problem:
            cls.poll_message_set(problem)
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        if refuse(self, [context.object]):
            return {"CANCELLED"}
        props = context.object.gltf_physics
        index = props.gravity_active_point
        if not 0 <= index < len(props.gravity_line_points):
            self.report({"ERROR"}, "No line point is selected; nothing was changed")
            return {"CANCELLED"}
        problem = _point_removal_problem(context.object, index)
        if problem:
            self.report({"ERROR"}, problem + "; nothing was changed")
            return {"CANCELLED"}
        props.gravity_line_points.remove(index)
        props.gravity_active_point = max(0, index - 1)
        return {"FINISHED"}


class GLTF_PHYSICS_OT_gravity_points_from_object(_OnLineGravity, bpy.types.Operator):
    """Copy the line object's vertices (in vertex order, in this object's space) into the editable point list and use the list"""

    bl_idname = "gltf_physics.gravity_points_from_object"
    bl_label = "Copy Points"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return super().poll(context) and has_scene(cls, context)  # reads the evaluated mesh

    def execute(self, context: bpy.types.Context) -> set[str]:
        if refuse(self, [context.object]):
            return {"CANCELLED"}
        obj = context.object
        props = obj.gltf_physics
        source = props.gravity_line_object
        if source is None or source.type not in LINE_OBJECT_TYPES:
            what = "first" if source is None else f"({source.name} is a {source.type.lower()} now)"
            self.report({"ERROR"}, f"Pick a curve or mesh object {what}; nothing was changed")
            return {"CANCELLED"}
        depsgraph = context.evaluated_depsgraph_get()
        if not evaluates(depsgraph, source):
            self.report({"ERROR"}, _not_evaluated(context.scene, source))
            return {"CANCELLED"}
        if props.gravity_line_points and (problem := _point_removal_problem(obj, 0)):
            self.report({"ERROR"}, f"{problem}, so its points cannot be replaced; nothing "
                        "was changed")
            return {"CANCELLED"}
        points = object_line_points(obj, source, depsgraph)
        if len(points) < 2:
            what = "only 1 vertex" if points else "no vertices"
            self.report({"ERROR"}, f"{source.name} has {what} (a line needs 2); nothing was "
                        "changed")
            return {"CANCELLED"}
        props.gravity_line_points.clear()
        for co in points:
            props.gravity_line_points.add().co = co
        props.gravity_line_source = "POINTS"
        self.report({"INFO"}, f"{len(points)} points copied from {source.name}")
        return {"FINISHED"}


def _not_evaluated(scene: bpy.types.Scene, source: bpy.types.Object) -> str:
    """Why Copy Points refuses a line object the view layer does not evaluate (Blender would
    read its own mesh, without its modifiers)."""
    if source in exported_objects(scene):
        return f"{source.name} is not evaluated in this view layer (it or its collection is " \
            "excluded or disabled in viewports): enable it so its modifiers count; nothing " \
            "was changed"
    return f"{source.name} is not in this scene: link it here so its modifiers count; " \
        "nothing was changed"


CLASSES = (GLTF_PHYSICS_OT_gravity_point_add, GLTF_PHYSICS_OT_gravity_point_remove,
           GLTF_PHYSICS_OT_gravity_points_from_object)
