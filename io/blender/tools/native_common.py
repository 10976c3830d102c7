# SPDX-License-Identifier: GPL-3.0-or-later
"""What both directions of the native rigid body conversion share
(io/blender/tools/native_convert.py): constants, Blender's shape sizing and small helpers."""

import math
import re
from collections.abc import Iterable
from dataclasses import replace

import bpy

from ...diagnostics import listing
from ..bridge.fitting import Fit, fit_shape
from ..settings.properties import MAX_LAYERS
from .editable import editable_problem
from .ownership import TAG_PREFIX

FROM_NATIVE = "FROM_NATIVE"
TO_NATIVE = "TO_NATIVE"
COLLECTION_COUNT = 20
DEFAULT_COLLECTIONS = (True,) + (False,) * (COLLECTION_COUNT - 1)
NO_LAYERS = (False,) * MAX_LAYERS
LAYER_NAME = re.compile(r"Collection (\d+)")
PREVIEW_PREFIX = TAG_PREFIX + "preview"
TOLERANCE = 1e-5
HALF_PI = math.pi / 2
SHAPE_FROM_NATIVE = {"BOX": "BOX", "SPHERE": "SPHERE", "CAPSULE": "CAPSULE",
                     "CYLINDER": "CYLINDER", "CONE": "CYLINDER", "CONVEX_HULL": "CONVEX",
                     "MESH": "TRIMESH"}
#: gltf_physics mesh shape item → Blender's collision shape.
NATIVE_MESH_SHAPE = {"CONVEX": "CONVEX_HULL", "TRIMESH": "MESH"}
KINDS = (("linear", "lin"), ("angular", "ang"))
LETTERS = "xyz"

#: (object, what was converted: "body", "joint"; LEFT: an object the conversion pulled in
#: but could not change, said once; PREVIEW_SKIPPED: said once for all, by `convert`;
#: JOINT_SKIPPED: a joint that made no constraint, said once)
Done = set[tuple[bpy.types.Object, str]]
LEFT = "left"
PREVIEW_SKIPPED = "preview"  # (in `Done`: an object skipped as part of the preview)
JOINT_SKIPPED = "joint skipped"
#: (in `Done`: an object the user ran the conversion on; set for each before any step)
CHOSEN = "chosen"
#: what `Done` holds of objects the conversion did not change (never counted as changed)
UNCHANGED = frozenset({LEFT, PREVIEW_SKIPPED, JOINT_SKIPPED, CHOSEN})


def native_fit(shape: str, bounds: tuple[tuple[float, ...], tuple[float, ...]]) -> Fit:
    """The dimensions Blender gives a BOX, SPHERE, CAPSULE, CYLINDER or CONE: from the bounds,
    centred on the origin (a cone's tip at +Z)."""
    fit = replace(fit_shape("CYLINDER" if shape == "CONE" else shape, bounds),
                  offset=(0.0, 0.0, 0.0))
    return replace(fit, radius_top=0.0) if shape == "CONE" else fit


def left_as_it_was(obj: bpy.types.Object, done: Done, report: list[str], *, rigid_body: bool,
                   part_of: bpy.types.Object | None = None) -> bool:
    """True when the conversion must leave `obj` as it is (said once, in `report`). A
    conversion also changes objects the user did not select (a joint's bodies, a compound's
    parent or parts): Blender keeps no edit of linked data (and no rigid body on an
    override), a rigid body only simulates in the world of its own scene, and an object of
    another scene is that scene's (changed only by a tool run there)."""
    if (obj, LEFT) in done:
        return True
    problem = editable_problem(obj, rigid_body=rigid_body)
    scene = bpy.context.scene
    if problem is None and scene not in obj.users_scene:
        problem = f"{obj.name} is not in the scene {scene.name}" + (
            ", whose rigid body world this is" if rigid_body else "")
    if problem is None:
        return False
    done.add((obj, LEFT))
    where = "as it was" if part_of is None else f"out of {part_of.name}"
    report.append(f"{problem}; it is left {where}")
    return True


#: What a conversion says of the objects it skips as part of the preview: (one, several).
_PREVIEW_SKIPPED = {
    TO_NATIVE: ("{}: the preview is active: remove it first; skipped",
                "The preview is active: remove it first; {} objects skipped: {}"),
    FROM_NATIVE: ("{}: part of the preview, skipped (remove the preview first)",
                  "{} objects are part of the preview, skipped (remove the preview first): {}"),
}


def preview_skipped_note(names: list[str], direction: str) -> str | None:
    """One note for the objects a run skipped as part of the preview (None when none),
    naming the first `LIST_LIMIT` and counting the rest."""
    if not names:
        return None
    one, several = _PREVIEW_SKIPPED[direction]
    if len(names) == 1:
        return one.format(names[0])
    return several.format(len(names), listing(names))


def is_preview(id_block: bpy.types.ID) -> bool:
    return any(key.startswith(PREVIEW_PREFIX) for key, _ in id_block.items())


def has_object(objects: bpy.types.bpy_prop_collection, obj: bpy.types.Object) -> bool:
    """True when `obj` itself is among `objects`: by identity, since a linked object may
    have a local one's name (looked up by name first, scanned only for such a namesake)."""
    found = objects.get(obj.name)
    if found is None:
        return False
    return found == obj or any(member == obj for member in objects)


def scene_of(obj: bpy.types.Object) -> bpy.types.Scene:
    scene = bpy.context.scene
    if has_object(scene.objects, obj) or not obj.users_scene:
        return scene
    return obj.users_scene[0]


def same(a: Iterable[float], b: Iterable[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


def axes_of(kind: str, axis: int) -> dict[str, tuple[int, ...]]:
    return {"linear_axes": (axis,)} if kind == "linear" else {"angular_axes": (axis,)}


def spring_suffix(short: str, letter: str) -> str:
    return letter if short == "lin" else f"ang_{letter}"


def step_time(scene: bpy.types.Scene) -> float:
    """Bullet's substep time in seconds."""
    world = scene.rigidbody_world
    fps = scene.render.fps / scene.render.fps_base
    substeps = world.substeps_per_frame if world else 10
    scale = world.time_scale if world else 1.0
    return scale / (fps * substeps)


def blender_least_mass() -> float:
    """The least mass Blender's rigid body takes (its hard minimum; a script's assignment
    below it is not clamped, so callers clamp)."""
    return bpy.types.RigidBodyObject.bl_rna.properties["mass"].hard_min
