# SPDX-License-Identifier: GPL-3.0-or-later
"""Artist tools: copy settings, preview the physics in Blender's rigid body world."""

import bpy

from ..io.blender.gravity import preview as gravity_preview
from ..io.blender.layer_ticks import changed_elsewhere, filter_slots
from ..io.blender.preview import native_rigid_body
from ..io.blender.tools.editable import poll_refusal, refuse
from ..io.blender.tools.property_copy import (
    BODY,
    copy_group,
    copy_role,
    keep_links,
    kept_items_problem,
    lacking_links,
    links_in_use,
    own_sources,
    pointed_roles,
)
from ..io.diagnostics import listing
from .context_checks import has_scene


class GLTF_PHYSICS_OT_copy_settings(bpy.types.Operator):
    """Copy the active object's physics to the selected objects of its role or without physics (bodies, joints, wheels, triggers…); links to other objects stay each object's own"""

    bl_idname = "gltf_physics.copy_settings"
    bl_label = "Copy Physics to Selected"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        active = context.active_object
        if active is None or not any(o != active for o in context.selected_objects):
            cls.poll_message_set("Select the objects to copy to, then the source as active")
            return False
        targets, others = _targets_by_role(active, context.selected_objects)
        if not targets:
            cls.poll_message_set(_other_roles(active, others))
            return False
        return poll_refusal(cls, targets)

    def execute(self, context: bpy.types.Context) -> set[str]:
        source = context.active_object
        targets, others = _targets_by_role(source, context.selected_objects, True)
        if not targets:
            self.report({"ERROR"}, _other_roles(source, others))
            return {"CANCELLED"}
        if refuse(self, targets):
            return {"CANCELLED"}
        kept = next(filter(None, map(kept_items_problem, targets)), None)
        if kept is not None:
            self.report({"ERROR"}, f"{kept}; nothing was changed")
            return {"CANCELLED"}
        left_out = _other_roles(source, others) if others else ""  # (roles before the copy)
        without_links: dict[str, list[str]] = {}
        kept_links: dict[str, list[str]] = {}
        slots = {target: filter_slots(target) for target in targets}
        for target in targets:
            in_use = links_in_use(target.gltf_physics)
            copy_group(source.gltf_physics, target.gltf_physics)  # links stay each object's
            for change in keep_links(target.gltf_physics, in_use):
                kept_links.setdefault(change, []).append(target.name)
            for change in _own_links_only(source, target):
                without_links.setdefault(change, []).append(target.name)
        self.report({"INFO"}, f"Copied physics of {source.name} to {len(targets)} object(s)")
        if kept_links:
            parts = "; ".join(f"{change} on {listing(names, 3)}"
                              for change, names in kept_links.items())
            self.report({"INFO"}, f"Each target keeps using its own linked object: {parts}")
        if left_out:
            self.report({"WARNING"}, left_out)
        if without_links:
            self.report({"WARNING"}, _without_links(without_links))
        elsewhere = changed_elsewhere(slots, context.scene)
        if elsewhere:
            self.report({"WARNING"}, elsewhere)
        return {"FINISHED"}


def _targets_by_role(source: bpy.types.Object, selected: list[bpy.types.Object],
                     pointed: bool = False
                     ) -> tuple[list[bpy.types.Object], list[bpy.types.Object]]:
    """The selected objects to copy to (of the source's role or of none), and the others.
    A source without physics copies onto bodies (clears them). `pointed`: an object of no
    role that another's settings point at (`pointed_roles`: a scan of every object, so not
    in `poll`) is left out too."""
    role = copy_role(source) or BODY
    targets, others = [], []
    for obj in selected:
        if obj != source:
            (targets if copy_role(obj) in (None, role) else others).append(obj)
    if pointed:
        parts = pointed_roles([obj for obj in targets if copy_role(obj) is None])
        targets = [obj for obj in targets if obj not in parts]
        others += list(parts)
    return targets, others


def _other_roles(source: bpy.types.Object, others: list[bpy.types.Object]) -> str:
    """The objects left out, by role, and why."""
    by_role: dict[str, list[str]] = {}
    parts = pointed_roles([obj for obj in others if copy_role(obj) is None])
    for obj in sorted(others, key=lambda o: o.name):
        by_role.setdefault(copy_role(obj) or parts.get(obj), []).append(obj.name)
    roles = "; ".join(f"{listing(names, 3)} ({role})" for role, names in by_role.items())
    role = copy_role(source) or "no physics: copies onto bodies"
    return f"Not copied onto what has another role than {source.name} ({role}): {roles}; " \
           "make one of them active to copy between them"


def _own_links_only(source: bpy.types.Object, target: bpy.types.Object) -> list[str]:
    """What a copied target without links of its own got instead, or lacks."""
    props = target.gltf_physics
    return own_sources(props) + [f"no {link}" for link in lacking_links(source.gltf_physics,
                                                                         props)]


def _without_links(changes: dict[str, list[str]]) -> str:
    """The targets that have no link of their own where the copied settings read one."""
    parts = "; ".join(f"{change} on {listing(names, 3)}" for change, names in changes.items())
    return f"Links to other objects are not copied, and some targets have none of their " \
           f"own: {parts} (pick theirs in the physics panel)"


class GLTF_PHYSICS_OT_preview(bpy.types.Operator):
    """Build a Blender rigid body world from the glTF physics settings so you can press play (approximate: see the README)"""

    bl_idname = "gltf_physics.preview"
    bl_label = "Preview in Blender"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_scene(cls, context)

    def execute(self, context: bpy.types.Context) -> set[str]:
        scene = context.scene
        instanced = native_rigid_body.instanced_bodies(scene)
        if not native_rigid_body.has_physics(scene):
            self.report({"WARNING"}, "No glTF physics bodies or joints to preview"
                        f"{'; ' + _instanced_note(instanced) if instanced else ''}; nothing "
                        "was changed")
            return {"CANCELLED"}
        # A library override keeps no rigid body of its own: refused (not lost on reopen).
        if refuse(self, native_rigid_body.changed_objects(scene), rigid_body=True):
            return {"CANCELLED"}
        shared = native_rigid_body.in_another_preview(scene) \
            or native_rigid_body.locked_world(scene)
        if shared is not None:
            self.report({"ERROR"}, f"{shared}; nothing was changed")
            return {"CANCELLED"}
        for note in native_rigid_body.remove_preview(scene):
            self.report({"WARNING"}, note)
        gravity_preview.restore_scene_gravity(scene)
        _say_kept_by_library(self, scene)
        bodies = native_rigid_body.build_preview(scene)
        left_out: list[bpy.types.Object] = []
        joints = native_rigid_body.add_joints(scene, left_out)
        world = gravity_preview.apply_world_gravity(scene)  # OMI_physics_gravity
        scene.frame_set(scene.rigidbody_world.point_cache.frame_start)
        summary = f"Preview: {len(bodies)} bodies, {len(joints)} joints"
        still = native_rigid_body.standstill(scene)
        if still:
            self.report({"WARNING"}, f"{summary}{'; ' + world if world else ''}, but nothing "
                        f"will move: {still}")
        else:
            self.report({"INFO"}, f"{summary}{'; ' + world if world else ''}; press play")
        note = gravity_preview.preview_note(scene)
        if note:
            self.report({"WARNING"}, note[0].upper() + note[1:])
        mass = native_rigid_body.mass_note(bodies)
        if mass:
            self.report({"WARNING"}, mass)
        _say_left_out(self, instanced, native_rigid_body.kit_collider_bodies(scene), left_out)
        return {"FINISHED"}


class GLTF_PHYSICS_OT_preview_remove(bpy.types.Operator):
    """Remove the rigid body world and everything the preview added"""

    bl_idname = "gltf_physics.preview_remove"
    bl_label = "Remove Preview"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_scene(cls, context)

    def execute(self, context: bpy.types.Context) -> set[str]:
        for note in native_rigid_body.remove_preview(context.scene):
            self.report({"WARNING"}, note)
        gravity_preview.restore_scene_gravity(context.scene)
        _say_kept_by_library(self, context.scene)
        return {"FINISHED"}


def _instanced_note(count: int) -> str:
    return f"{count} bod{'y' if count == 1 else 'ies'} in collection instances not " \
        "previewed (Blender simulates no instanced object)"


def _names(objects: list[bpy.types.Object]) -> str:
    return listing([obj.name for obj in objects], 5)


def _say_left_out(op: bpy.types.Operator, instanced: int, kit_bodies: list[bpy.types.Object],
                  joints: list[bpy.types.Object]) -> None:
    """One warning for each kind of physics the preview does not simulate."""
    if instanced:
        op.report({"WARNING"}, _instanced_note(instanced)[0].upper()
                  + _instanced_note(instanced)[1:])
    if kit_bodies:
        op.report({"WARNING"}, "The colliders a body takes from the collection it instances "
                  "are not previewed (Blender simulates no instanced object), so these "
                  f"bodies lack them: {_names(kit_bodies)} (with no collider of its own, a "
                  "dynamic one falls through everything, another is not previewed)")
    if joints:
        op.report({"WARNING"}, f"{len(joints)} joint(s) not previewed: a body they join is "
                  "not simulated (it is only in a collection instance, outside the view "
                  f"layer, or has no collider): {_names(joints)}")


def _say_kept_by_library(op: bpy.types.Operator, scene: bpy.types.Scene) -> None:
    """One warning for the preview parts a library saved (they cannot be removed here)."""
    kept = native_rigid_body.kept_by_library(scene)
    if kept:
        op.report({"WARNING"}, f"{len(kept)} linked object(s) ({kept[0].name}…) keep the "
                  "preview their library was saved with: remove it in the library")


CLASSES = (GLTF_PHYSICS_OT_copy_settings, GLTF_PHYSICS_OT_preview, GLTF_PHYSICS_OT_preview_remove)
