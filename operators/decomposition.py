# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex decomposition operator: a modal run with progress in a window, blocking in scripts."""

import bpy

from ..io.blender.tools.decomposition import (
    DecompositionRun,
    object_by_uid,
    read_source,
    replace_problem,
    targets,
)
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.decomposition import Settings, input_error, input_warnings, missing_reason
from . import validation
from .context_checks import chosen_objects

TIMER_SECONDS = 0.1
PREPROCESS_ITEMS = (
    ("AUTO", "Auto", "Remesh open or non-manifold meshes into a watertight one first"),
    ("ON", "On", "Always remesh into a watertight mesh first"),
    ("OFF", "Off", "Use the mesh as it is: it must be watertight"),
)


class GLTF_PHYSICS_OT_convex_decompose(bpy.types.Operator):
    """Split each selected mesh into convex parts (CoACD): collision-only Convex Hull children of at most 255 points that together form its compound collider; the mesh stays visible and loses its own shape. Runs again replace the parts"""

    bl_idname = "gltf_physics.convex_decompose"
    bl_label = "Convex Decomposition"
    bl_options = {"REGISTER", "UNDO"}

    threshold: bpy.props.FloatProperty(
        name="Concavity Threshold", description="Largest concavity left in a part, relative "
        "to the object's size: lower gives more and tighter parts", default=0.05, min=0.01,
        max=1.0, step=1, precision=3,
    )
    max_parts: bpy.props.IntProperty(
        name="Max Parts", description="Most parts per object (the closest parts are merged "
        "until it fits); 0 for no limit", default=0, min=0, soft_max=64, max=1024,
    )
    resolution: bpy.props.IntProperty(
        name="Resolution", description="Surface samples used to measure concavity: higher "
        "is more precise and slower", default=2000, min=100, soft_max=10000, max=100000,
    )
    preprocess: bpy.props.EnumProperty(
        name="Preprocess", description="Remesh into a watertight mesh before decomposing",
        items=PREPROCESS_ITEMS,
    )
    preprocess_resolution: bpy.props.IntProperty(
        name="Voxel Resolution", description="Resolution of the watertight remeshing: higher "
        "keeps more detail and is slower", default=50, min=10, soft_max=150, max=500,
    )
    seed: bpy.props.IntProperty(
        name="Seed", description="Random seed: the same seed and mesh give the same parts",
        default=0, min=0,
    )
    start_modal: bpy.props.BoolProperty(options={"HIDDEN", "SKIP_SAVE"})
    #: The `target_uid` of the dialog open now (0 when none).
    dialog_target = 0
    target_uid: bpy.props.IntProperty(
        name="Object", description="Decompose the object of this session_uid instead of the "
        "selection (the Fix of Check Physics: the selection stays as it is; a uid, as a "
        "linked and a local object may share a name)", options={"HIDDEN", "SKIP_SAVE"},
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        reason = missing_reason()
        if reason:
            cls.poll_message_set(reason)
            return False
        # A Fix's dialog runs on its problem's object, not the selection: poll, called again
        # when the dialog is confirmed, cannot see the operator's `target_uid`.
        found = targets(_selection(context)) or targets(_selection(context, cls.dialog_target))
        if not found:
            cls.poll_message_set("Select a mesh object (not a collision-only proxy)")
            return False
        return poll_refusal(cls, found)

    def settings(self) -> Settings:
        """The options as the decomposition takes them."""
        return Settings(threshold=self.threshold, max_parts=self.max_parts,
                        resolution=self.resolution, preprocess=self.preprocess.lower(),
                        preprocess_resolution=self.preprocess_resolution, seed=self.seed)

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if not _interactive(context):  # no UI to show progress in: run to the end
            return self.execute(context)
        depsgraph = context.evaluated_depsgraph_get()
        self._checks = [read_source(obj, depsgraph)
                        for obj in targets(_selection(context, self.target_uid))]
        self.start_modal = True
        type(self).dialog_target = self.target_uid
        return context.window_manager.invoke_props_dialog(self, width=420)

    def draw(self, _context: bpy.types.Context) -> None:
        layout = self.layout
        layout.use_property_split = True
        for name in ("threshold", "max_parts", "resolution", "preprocess",
                     "preprocess_resolution", "seed"):
            layout.prop(self, name)
        settings = self.settings()
        for source in getattr(self, "_checks", ()):
            problem = input_error(source.check, settings)
            for note in [problem] if problem else input_warnings(source.check, settings):
                layout.label(text=f"{source.name} {note}", icon="ERROR" if problem else "INFO")

    def execute(self, context: bpy.types.Context) -> set[str]:
        type(self).dialog_target = 0
        if _interactive(context) and (self.options.is_repeat or self.options.is_repeat_last):
            # (a redo from the Adjust panel or Repeat Last would run CoACD blocking, with no
            # progress and no Esc: refused; a failed redo puts the last run's parts back)
            self.report({"WARNING"}, "Convex Decomposition is not redone or repeated (it may "
                        "take minutes): run it again (Object menu, Shape panel) to change its "
                        "settings")
            return {"CANCELLED"}
        chosen = targets(_selection(context, self.target_uid))
        if not chosen:
            self.report({"ERROR"}, "The object to decompose is gone or has no mesh: run "
                        "Check Physics again" if self.target_uid
                        else "No object to decompose: select a mesh object")
            return {"CANCELLED"}
        if refuse(self, chosen):
            return {"CANCELLED"}
        kept = next(filter(None, map(replace_problem, chosen)), None)
        if kept is not None:
            self.report({"ERROR"}, f"{kept}; nothing was changed")
            return {"CANCELLED"}
        run = DecompositionRun.prepare(chosen, self.settings(), context.evaluated_depsgraph_get())
        if self.start_modal and _interactive(context) and run.sources:
            return self._start(context, run)
        run.run()
        return self._finish(context, run)

    def _start(self, context: bpy.types.Context, run: DecompositionRun) -> set[str]:
        self._run = run
        wm = context.window_manager
        self._timer = wm.event_timer_add(TIMER_SECONDS, window=context.window)
        wm.progress_begin(0, 100)
        wm.modal_handler_add(self)
        run.step()
        return {"RUNNING_MODAL"}

    def modal(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        run = self._run
        if event.type == "ESC" and event.value == "PRESS":
            run.cancel()
            self._stop(context)
            self.report({"WARNING"}, "Convex decomposition cancelled: nothing was changed")
            return {"CANCELLED"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}  # the rest of the UI keeps working
        if not run.step():
            context.window_manager.progress_update(int(run.progress * 100))
            context.workspace.status_text_set(run.status())
            return {"RUNNING_MODAL"}
        self._stop(context)
        return self._finish(context, run)

    def cancel(self, context: bpy.types.Context) -> None:
        """Blender ends the modal run (a file is loaded, the window closes): drop the work.
        (Also called when the dialog is dismissed: nothing runs yet.)"""
        type(self).dialog_target = 0
        if getattr(self, "_run", None) is None:
            return
        self._run.cancel()
        self._stop(context)

    def _stop(self, context: bpy.types.Context) -> None:
        wm = context.window_manager
        wm.event_timer_remove(self._timer)
        wm.progress_end()
        if context.workspace is not None:
            context.workspace.status_text_set(None)

    def _finish(self, context: bpy.types.Context, run: DecompositionRun) -> set[str]:
        made = run.apply()
        failed = "ERROR" if not made else "WARNING"  # an ERROR makes a script's call raise
        for message in run.errors:
            self.report({failed}, message)
        for message in run.warnings:
            self.report({"WARNING"}, message)
        if not made:
            return {"CANCELLED"}
        parts = sum(len(p) for p in made.values())
        self.report({"INFO"}, f"{len(made)} object(s) decomposed into {parts} convex part(s)")
        if context.scene.gltf_physics.problems:
            validation.store(context.scene)  # the list showed the problem this may fix
        return {"FINISHED"}


def _interactive(context: bpy.types.Context) -> bool:
    """Whether a window's event loop will drive a modal run (not so in background mode)."""
    return context.window is not None and not bpy.app.background


def _selection(context: bpy.types.Context, uid: int = 0) -> list[bpy.types.Object]:
    """The chosen objects (`chosen_objects`), or only the object of session_uid `uid` when
    given."""
    if uid:
        obj = object_by_uid(uid)
        return [obj] if obj is not None else []
    return chosen_objects(context)


CLASSES = (GLTF_PHYSICS_OT_convex_decompose,)
