# SPDX-License-Identifier: GPL-3.0-or-later
"""What an export writes of gravity: each volume on the node carrying its object's trigger,
and the world gravity of the scene the export started in (another exported scene's that
differs is said, not written)."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import bpy

from ... import rules
from ...diagnostics import Report
from ...gravity import Gravity, GravityScene
from ...model import NodePhysics, PhysicsScene, Trigger
from ..bridge.turned_nodes import TurnedBack
from ..exporter.evaluated import Evaluated
from .bridge import gravity_of, line_object, world_gravity_of
from .properties import LINE_OBJECT_TYPES


def has_world_gravity(scenes: Iterable[bpy.types.Scene] = ()) -> bool:
    """True when the exporting scene, or one of the exported `scenes`, sets a world
    gravity."""
    return any(bool(each.gltf_physics.use_world_gravity)
               for each in (bpy.context.scene, *scenes))


def say_gravity_without_record(obj: bpy.types.Object, report: Report) -> None:
    """A volume on an object the export writes neither a body nor a shape for (its shape
    set back to None): reported as `export_gravity` reports one on a collider."""
    rule = rules.GRAVITY_NOT_ON_TRIGGER
    report.warn(rule.code, obj.name,
                f"{rule.message(what=rules.gravity_placement(False, False, False))}; not written")


def export_gravity(
    records: Iterable[Any], scene: PhysicsScene, yup: bool, report: Report,
    mesh_ref: Callable[[bpy.types.Object], Any] | None = None,
    scenes: Sequence[bpy.types.Scene] = (), written: bool = True,
    turned: Callable[[Any], TurnedBack | None] = lambda node: None,
) -> GravityScene:
    """The volumes of the exported objects and the world gravity; `mesh_ref(obj)` is the
    exported mesh of a shaped volume's convex or triangle-mesh shape; `scenes`: the
    exported scenes (a world gravity of one that differs from the written one is said);
    `written`: False when the format has no gravity (KHR: the codec says what it drops,
    and another scene's world gravity is said here).

    `records` are the export's per-node records (`obj`, `node`, `shape_node`, `shape_part`,
    `gravity`).
    A volume goes on the object's node when it carries the trigger; when the trigger shape
    sits on a child node (an offset shape), the object's node becomes a compound trigger
    over it, so the volume keeps the object's frame; on a node the exporter `turned` (a
    camera's or light's), the volume goes on that child, which has the object's frame, or
    (a compound trigger) on the node, turned back. A volume on a body, a collider, a
    compound trigger's part or an object without a trigger is reported and not written.
    """
    gravity = GravityScene(world=world_gravity_of(bpy.context.scene, yup))
    if len(scenes) > 1:
        _say_other_worlds(gravity, scenes, yup, report, written)
    volumes: dict[int, Gravity | None] = {}
    failed: set[int] = set()
    evaluated = Evaluated(scenes)
    for record in records:
        if not record.gravity:
            continue
        obj = record.obj
        body = scene.nodes.get(record.node, NodePhysics())
        problem = _misplaced(obj, body, record.shape_part)
        if problem:  # (before its volume is read: a mesh shape is not parked for nothing)
            report.warn(problem.split(":", 1)[0], obj.name, problem.split(": ", 1)[1])
            continue
        if id(obj) not in volumes:
            try:
                volumes[id(obj)] = _volume_of(obj, yup, mesh_ref, evaluated, report)
            except ValueError as exc:  # (a stored value this release does not know)
                report.warn("export-failed", obj.name, f"gravity skipped: {exc}")
                failed.add(id(obj))
        volume = volumes.get(id(obj))
        if id(obj) in failed or volume is None:
            continue
        turn = turned(record.node)
        if turn is not None and record.shape_node is not record.node \
                and record.shape_part is not None and record.shape_part.trigger is not None:
            gravity.nodes[record.shape_node] = volume  # (the child has the object's frame)
            continue
        if turn is not None:  # (a compound trigger on the node: its values turned back)
            volume = turn.gravity(volume)
            unturned = _unturned_part(volume)
            if unturned:
                report.warn("gravity-shape-turned", obj.name,
                            f"its {unturned} is written on its camera's or light's node, "
                            "which the glTF exporter turns a quarter turn: its axis turns with "
                            "it (put the volume on a child trigger)")
        if body.trigger is None:
            scene.nodes[record.node] = NodePhysics(trigger=Trigger(nodes=(record.shape_node,)))
        gravity.nodes[record.node] = volume
    return gravity


def _unturned_part(volume: Gravity) -> str:
    """What of a volume on a turned node cannot be turned back in its values: a disc's or
    torus's circle (in the node's XZ plane), a round or mesh shape's axis; "" for none."""
    if volume.kind in ("disc", "torus"):
        return f"{volume.kind} gravity's circle"
    if volume.shape is not None and volume.shape.kind not in ("box", "sphere"):
        return f"{volume.shape.kind} gravity shape"
    return ""


def _volume_of(obj: bpy.types.Object, yup: bool,
               mesh_ref: Callable[[bpy.types.Object], Any] | None,
               evaluated: Evaluated, report: Report) -> Gravity | None:
    """The object's volume; a line's object is read as an exported scene evaluates it (when
    none does, its own mesh is written, without its modifiers: said)."""
    source = line_object(obj) if obj.gltf_physics.gravity_type == "LINE" else None
    if source is None or source.type not in LINE_OBJECT_TYPES:
        return gravity_of(obj, yup, mesh_ref)
    depsgraph = evaluated.reading(source)
    if depsgraph is None:
        report.warn("gravity-line-object-not-evaluated", obj.name,
                    f"its line object {source.name} is in no exported scene (or is excluded "
                    "or disabled in viewports there): its points are written from its own "
                    f"mesh, without its modifiers (link {source.name} into the scene)")
    return gravity_of(obj, yup, mesh_ref, depsgraph)


def _say_other_worlds(gravity: GravityScene, scenes: Sequence[bpy.types.Scene], yup: bool,
                      report: Report, writes: bool) -> None:
    """Said once: a file has one world gravity, the exporting scene's; the other exported
    scenes whose world gravity differs from it lose theirs (in a format without gravity,
    those that set one)."""
    written = bpy.context.scene
    worlds = {each: world_gravity_of(each, yup) for each in scenes if each != written}
    if not writes:  # (the starting scene's is named by the codec's `khr-no-gravity`)
        others = [each.name for each, world in worlds.items()
                  if world is not None and world != gravity.world]
        if others:
            report.warn("khr-no-gravity", "", f"KHR has no gravity; not written: the world "
                        f"gravity of scene {', '.join(others)}")
        return
    others = [each.name for each, world in worlds.items() if world != gravity.world]
    if others:
        kept = f"that of scene {written.name} (where the export started) is written" \
            if gravity.world is not None else f"scene {written.name}, where the export " \
            "started, sets none, so none is written"
        report.warn("world-gravity-other-scenes", "",
                    f"a file has one world gravity: {kept}; the differing world gravity of "
                    f"scene {', '.join(others)} is not (give the scenes the same world "
                    "gravity, or export each scene alone)")


def _written(trigger: Trigger | None) -> bool:
    """A trigger the file will have: a compound one whose members are all left out (not in
    the export) is not written (`trigger-empty`), and a volume must not stay without it."""
    return trigger is not None and (trigger.shape is not None or bool(trigger.nodes))


def _misplaced(obj: bpy.types.Object, body: NodePhysics, shape_part: NodePhysics | None) -> str:
    """"code: message" of why the object cannot carry a volume ("" when it can)."""
    has_trigger = _written(body.trigger) or (shape_part is not None
                                             and _written(shape_part.trigger))
    what = rules.gravity_placement(body.motion is not None, body.collider is not None,
                                   has_trigger)
    if what:
        rule = rules.GRAVITY_NOT_ON_TRIGGER
        return f"{rule.code}: {rule.message(what=what)}; not written"
    return _on_compound_part(obj)


def may_carry_volume(obj: bpy.types.Object, body: NodePhysics) -> bool:
    """False when the object's node surely cannot carry its volume (a body, a collider, a
    compound trigger's part), as the export first sees it; whether its trigger is written is
    known only once every node is (`export_gravity` says why)."""
    return not (rules.gravity_placement(body.motion is not None, body.collider is not None,
                                        True) or _on_compound_part(obj))


def _on_compound_part(obj: bpy.types.Object) -> str:
    """"code: message" when the object is a compound trigger's part ("" when not)."""
    parent = obj.parent
    props = obj.gltf_physics
    while parent is not None and props.join_compound_trigger and not props.is_compound_trigger:
        if parent.gltf_physics.is_compound_trigger:
            rule = rules.GRAVITY_ON_COMPOUND_PART
            return f"{rule.code}: {rule.message(root=parent.name)}; not written"
        parent = parent.parent
    return ""
