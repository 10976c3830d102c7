# SPDX-License-Identifier: GPL-3.0-or-later
"""Gravity in the physics preview (Blender's rigid body world).

The world gravity is exact: the preview sets the scene gravity to it (and Remove Preview
puts the scene's own back). Gravity volumes are not previewed: Blender's rigid bodies take
one scene-wide gravity, and its force fields push every body with the same force, not with
gravity's mass-independent acceleration, so no volume is expressed exactly; the preview
names them instead.
"""

from collections import Counter

import bpy
from mathutils import Vector

from ... import axes
from ...gravity import unit
from ..instances import instance_counts
from ..tools.ownership import TAG_PREFIX
from .bridge import world_gravity_of

#: Where the preview keeps the scene's own gravity while it shows the world gravity.
SCENE_GRAVITY_TAG = TAG_PREFIX + "preview_scene_gravity"
WHY: str = ("Blender's rigid bodies have one scene gravity and its force fields push with a "
            "force, not gravity's acceleration")


def apply_world_gravity(scene: bpy.types.Scene) -> str:
    """Show the world gravity as the scene gravity (keeping the scene's own for removal);
    what was done, or "" when the scene sets no world gravity."""
    world = world_gravity_of(scene)
    if world is None:
        return ""
    if SCENE_GRAVITY_TAG not in scene:
        scene[SCENE_GRAVITY_TAG] = [*scene.gravity, float(scene.use_gravity)]
    pull = tuple(world.gravity * c for c in unit(world.direction))
    scene.gravity = Vector(axes.vector_to_blender(pull))  # type: ignore[arg-type]
    scene.use_gravity = True
    return f"world gravity {world.gravity:g} m/s² used as the scene gravity"


def restore_scene_gravity(scene: bpy.types.Scene) -> None:
    """Put back the scene gravity the preview replaced (nothing when it replaced none)."""
    saved = scene.get(SCENE_GRAVITY_TAG)
    if saved is None:
        return
    values = list(saved)
    scene.gravity = values[:3]
    scene.use_gravity = bool(values[3])
    del scene[SCENE_GRAVITY_TAG]


def unpreviewed_volumes(scene: bpy.types.Scene) -> list[str]:
    """The names of the scene's gravity volumes, which the preview cannot show: its own
    objects' and those of the collections it instances (nested too), each volume named once,
    "×n" when it is there n times."""
    counts = Counter(scene.objects) + instance_counts(scene.objects)
    return sorted(obj.name_full + (f" ×{n}" if n > 1 else "") for obj, n in counts.items()
                  if obj.gltf_physics.gravity_type != "NONE")


def preview_note(scene: bpy.types.Scene) -> str:
    """One sentence on the volumes not previewed ("" when there are none)."""
    names = unpreviewed_volumes(scene)
    if not names:
        return ""
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return f"gravity volumes not previewed ({WHY}): {shown}"
