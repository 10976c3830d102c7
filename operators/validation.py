# SPDX-License-Identifier: GPL-3.0-or-later
"""Scene validation: run the checks, select a problem's object, apply its fix."""

import uuid

import bpy

from ..io.blender.instances import exported_objects
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.blender.tools.native_common import has_object
from ..io.blender.tools.validation import DECOMPOSE_FIX, apply_fix, problems_of, validate_scene
from .context_checks import has_scene, in_view_layer, select_only, selection_problem


def _session() -> str:
    """A token for this session and file (a problem's `target_uid` is an object's
    `session_uid`, renewed when a file is opened). Kept in Blender's driver namespace, which
    every copy of this module shares, survives a scripts reload and a file load resets."""
    return bpy.app.driver_namespace.setdefault("gltf_physics_problems_session",
                                               uuid.uuid4().hex)


def store(scene: bpy.types.Scene) -> int:
    """Run the checks and keep the results on the scene for the panel; returns the count."""
    results = scene.gltf_physics.problems
    results.clear()
    scene.gltf_physics.problems_session = _session()
    for problem in validate_scene(scene):
        item = results.add()
        item.obj, item.code, item.message, item.fix = (
            problem.obj, problem.code, problem.message, problem.fix)
        item.target_uid = problem.target.session_uid if problem.target is not None else 0
    return len(results)


class GLTF_PHYSICS_OT_validate(bpy.types.Operator):
    """Check the scene's physics for problems engines or the export would stumble on"""

    bl_idname = "gltf_physics.validate"
    bl_label = "Check Physics"
    bl_options = {"REGISTER", "UNDO"}  # the problem list is stored on the scene

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_scene(cls, context) and poll_refusal(cls, [context.scene])

    def execute(self, context: bpy.types.Context) -> set[str]:
        count = store(context.scene)
        self.report({"WARNING"} if count else {"INFO"},
                    f"{count} physics problem(s)" if count else "No physics problems")
        return {"FINISHED"}


#: A problem whose object cannot be found (deleted), or a list found before the file was
#: opened (saved with it).
STALE = "The object of this problem is gone, or the list is older than this session: run " \
    "Check Physics again"


class _ProblemOperator:
    index: bpy.props.IntProperty(name="Problem", description="Index of the problem", min=0,
                                 options={"HIDDEN", "SKIP_SAVE"})
    problem_uid: bpy.props.IntProperty(
        name="Object", description="The session_uid of the problem's object (0: the row at "
        "Index, whatever it is)", options={"HIDDEN", "SKIP_SAVE"})
    problem_code: bpy.props.StringProperty(
        name="Code", description="The problem's code", options={"HIDDEN", "SKIP_SAVE"})

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_scene(cls, context)

    def _problem(self, context):
        """The problem at `index`; with `problem_uid` and `problem_code` (the list's buttons
        set them), that problem wherever the list holds it now, else None (a Repeat Last
        after the list changed acted on whatever problem took its row)."""
        problems = context.scene.gltf_physics.problems
        found = problems[self.index] if self.index < len(problems) else None
        if not self.problem_uid or (found is not None and (
                found.target_uid, found.code) == (self.problem_uid, self.problem_code)):
            return found
        return next((p for p in problems if (p.target_uid, p.code)
                     == (self.problem_uid, self.problem_code)), None)

    def _missing(self, context) -> str:
        """Why there is no problem at `index`: the list is empty, or shorter, or no longer
        holds the problem the button was for."""
        count = len(context.scene.gltf_physics.problems)
        if not count:
            return "The problem list is empty: run Check Physics"
        if self.problem_uid:
            return "That problem is no longer listed: run Check Physics again"
        return f"The problem list holds {count} problem(s), not {self.index + 1}: run " \
            "Check Physics again"

    def _object(self, context) -> bpy.types.Object | None:
        """The problem's object itself (held, never looked up by a name a linked object
        may share), or None when it is gone from the scene, or the list was found in
        another session (saved with the file: its uids now name other objects)."""
        problem = self._problem(context)
        uid = problem.target_uid if problem else 0
        if not uid or context.scene.gltf_physics.problems_session != _session():
            return None
        return next((o for o in exported_objects(context.scene) if o.session_uid == uid),
                    None)  # (a kit's object only an instance places is checked too)


class GLTF_PHYSICS_OT_problem_select(_ProblemOperator, bpy.types.Operator):
    """Select the object this problem is about"""

    bl_idname = "gltf_physics.problem_select"
    bl_label = "Select"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context: bpy.types.Context) -> set[str]:
        if self._problem(context) is None:
            self.report({"ERROR"}, self._missing(context))
            return {"CANCELLED"}
        obj = self._object(context)
        if obj is None:
            self.report({"ERROR"}, STALE)
            return {"CANCELLED"}
        if not in_view_layer(context, obj):
            placed = "" if has_object(context.scene.objects, obj) \
                else " (only a collection instance places it: select the instance)"
            self.report({"WARNING"}, f"{obj.name} is not in this view layer{placed}")
            return {"CANCELLED"}
        problem = selection_problem(context, obj)
        if problem:  # (Blender would not select it: the user's selection stays)
            self.report({"WARNING"}, problem)
            return {"CANCELLED"}
        select_only(context, [obj], active=obj)
        return {"FINISHED"}


class GLTF_PHYSICS_OT_problem_fix(_ProblemOperator, bpy.types.Operator):
    """Apply the suggested fix for this problem, then check again"""

    bl_idname = "gltf_physics.problem_fix"
    bl_label = "Fix"
    bl_options = {"REGISTER", "UNDO"}

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        problem, obj = self._problem(context), self._object(context)
        if obj is None or problem.fix != DECOMPOSE_FIX or context.window is None \
                or bpy.app.background or not in_view_layer(context, obj) \
                or not _holds(context, problem, obj):
            return self.execute(context)
        # Long work: the decomposition's own dialog and modal run (progress, Esc), on the
        # problem's object, the selection left as it is; it refreshes the list and makes
        # its own undo step.
        with context.temp_override(selected_objects=[obj], active_object=obj, object=obj):
            if not bpy.ops.gltf_physics.convex_decompose.poll():
                return self.execute(context)
            bpy.ops.gltf_physics.convex_decompose("INVOKE_DEFAULT", target_uid=obj.session_uid)
        return {"CANCELLED"}  # nothing changed here: no undo step of its own

    def execute(self, context: bpy.types.Context) -> set[str]:
        problem, obj = self._problem(context), self._object(context)
        if problem is None:
            self.report({"ERROR"}, self._missing(context))
            return {"CANCELLED"}
        if not problem.fix:
            self.report({"WARNING"}, "This problem has no suggested fix; nothing was changed")
            return {"CANCELLED"}
        if obj is None:
            self.report({"ERROR"}, STALE)
            return {"CANCELLED"}
        if refuse(self, [obj], mesh=problem.fix == "apply-scale"):
            return {"CANCELLED"}
        changed = self._changed(context, problem, obj)
        if changed:  # (edited by hand since the check: the Fix would change it needlessly)
            self.report({"ERROR"}, f"{obj.name}: {changed}")
            return {"FINISHED"}  # (the list entry was updated: one undo step)
        try:
            done = apply_fix(obj, problem.fix)
        except (ValueError, RuntimeError) as exc:
            self.report({"ERROR"}, _named(obj, str(exc)))
            return {"CANCELLED"}
        self.report({"INFO"}, f"{obj.name}: {done}")
        store(context.scene)
        return {"FINISHED"}

    def _changed(self, context: bpy.types.Context, problem, obj: bpy.types.Object) -> str:
        """Why the listed problem no longer stands as listed ("" when it does): it is gone
        (its entry is taken off the list), or its Fix is another now (the entry says so)."""
        now = _now(context, problem, obj)
        if any(p.fix == problem.fix for p in now):  # (as `_holds`)
            return ""
        if not now:
            problems = context.scene.gltf_physics.problems
            problems.remove(next(i for i, p in enumerate(problems) if p == problem))
            return "no longer a problem: run Check Physics again"
        problem.message, problem.fix = now[0].message, now[0].fix
        return "this problem changed since the check: run Check Physics again"


def _now(context: bpy.types.Context, problem, obj: bpy.types.Object) -> list:
    """The object's problems of the listed problem's code, checked now."""
    return [p for p in problems_of(obj, context.scene) if p.code == problem.code]


def _holds(context: bpy.types.Context, problem, obj: bpy.types.Object) -> bool:
    """Whether the listed problem still stands as listed (same code, same Fix)."""
    return any(p.fix == problem.fix for p in _now(context, problem, obj))


def _named(obj: bpy.types.Object, message: str) -> str:
    """`message` about `obj`, starting with its name (once: it may name it already)."""
    if message.startswith((f"{obj.name} ", f"{obj.name}'s ", f"{obj.name}:")):
        return message
    return f"{obj.name}: {message}"


CLASSES = (GLTF_PHYSICS_OT_validate, GLTF_PHYSICS_OT_problem_select, GLTF_PHYSICS_OT_problem_fix)
