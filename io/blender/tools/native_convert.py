# SPDX-License-Identifier: GPL-3.0-or-later
"""Convert, persistently, between gltf_physics settings and Blender's native Rigid Body and
Rigid Body Constraint settings (the preview in native_rigid_body is a separate, temporary
build). The source settings are kept; notes for approximations go to `report`.

Bodies (≈ marks an approximation, always reported):
- ACTIVE → DYNAMIC, Animated (on either type) → KINEMATIC, PASSIVE → STATIC; ≈ an ACTIVE body
  with Dynamic off is KINEMATIC. Back: STATIC, and a collider with no body above it, → PASSIVE;
  KINEMATIC → ACTIVE + Animated; ≈ a DYNAMIC body with Infinite mass → ACTIVE + Animated
  (held still, as in the preview), Auto mass → the Mass value. A new rigid body gets damping
  0 (glTF has none); an existing one keeps its damping. The mass is copied. Initial
  velocities, gravity factor, custom centre of mass and inertia and Lock Rotation are not
  kept (said once per body). Back: damping other than Blender's default or 0, and a
  collision margin Blender uses, are not kept (said). Objects skipped as part of the
  preview are said in one note per run.
- BOX, SPHERE, CAPSULE, CYLINDER ↔ the same shape. Blender sizes them from the mesh bounds,
  centred on the origin: Fit to Mesh when the bounds are centred, else custom dimensions with
  no offset. CONE → a custom CYLINDER with top radius 0 (and back). CONVEX_HULL ↔ CONVEX,
  MESH ↔ TRIMESH of the object's own (evaluated) mesh. COMPOUND ↔ a body without a shape of
  its own whose rigid-body children (motion None) are its shapes, with the parent's
  material and collections. ≈ Back, shapes whose size, offset or rotation differ from
  Blender's, proxies, planes (a box), Empties and indirect children are reported.
- Friction → a physics material with both frictions; restitution is copied. Back: dynamic
  friction (≈ static friction and combine modes are dropped).
- Collision collections: membership of collection i is membership of the scene layer named
  "Collection i+1" (created as needed), colliding Only With those same layers; only
  collection 1 (Blender's default) is no filter. ≈ Blender lets bodies that share any
  collection collide; shapes without a filter are in no layer, so a filtered shape no longer
  meets them even through collection 1. Back: layer "Collection N" → collection N, another
  layer i → collection i (i < 20); ≈ only the membership is kept, not the collide rule.

Constraints: FIXED ↔ FIXED, POINT ↔ PIN, HINGE ↔ HINGE about Z (limit on Z), SLIDER ↔ SLIDER
along X (limit on X), PISTON ↔ SLIDER along X that rotates. GENERIC / GENERIC_SPRING → the
matching preset, else CUSTOM with a 1-axis limit per limited axis; a spring is a soft limit
(its range, or 0..0: a spring towards the rest pose; ≈ with a range Blender also pulls
within it). Back, any other joint → GENERIC(_SPRING) with `per_axis_limits` (≈ cones and
distances per axis). MOTOR ↔ a joint with no limits and velocity drives on X, with max force
= max impulse ÷ substep time and damping = max force (≈ Bullet's motor is a velocity
constraint capped by the impulse). object1 is body A: the constraint object goes under it
(kept in place), or the joint moves to a new Empty there when the object is another body;
object2 is the connected body. Disable Collisions ↔ not Collide Connected.
"""

from collections.abc import Iterable

import bpy

from .native_common import (
    CHOSEN,
    FROM_NATIVE,
    PREVIEW_SKIPPED,
    TO_NATIVE,
    UNCHANGED,
    Done,
    preview_skipped_note,
)
from .native_from import from_native_step
from .native_to import to_native_step

__all__ = ("FROM_NATIVE", "TO_NATIVE", "convert", "convert_objects", "from_native", "to_native")


def from_native(obj: bpy.types.Object, report: list[str]) -> bool:
    """Blender rigid body / constraint → gltf_physics; False when there was nothing to convert."""
    return bool(_run([obj], FROM_NATIVE, report)[0])


def to_native(obj: bpy.types.Object, report: list[str]) -> bool:
    """gltf_physics → Blender rigid body / constraint; False when there was nothing to convert."""
    return bool(_run([obj], TO_NATIVE, report)[0])


def convert(
    objs: Iterable[bpy.types.Object], direction: str
) -> tuple[list[bpy.types.Object], list[str]]:
    """Convert many objects (FROM_NATIVE or TO_NATIVE): the objects changed (with the bodies
    and compound parts they pulled in) and the notes."""
    notes: list[str] = []
    changed, _done = _run(objs, direction, notes)
    return changed, notes


def _run(objs: Iterable[bpy.types.Object], direction: str, notes: list[str]
         ) -> tuple[list[bpy.types.Object], Done]:
    """Each object's conversion step; the objects changed, and what was done. The objects
    skipped as part of the preview are said in one note at the end."""
    step = from_native_step if direction == FROM_NATIVE else to_native_step
    objs = list(objs)
    done: Done = {(obj, CHOSEN) for obj in objs}
    skipped: list[bpy.types.Object] = []
    for obj in objs:
        step(obj, notes, done)
        if (obj, PREVIEW_SKIPPED) in done and obj not in skipped:
            skipped.append(obj)
    note = preview_skipped_note([obj.name for obj in skipped], direction)
    if note is not None:
        notes.append(note)
    changed = {obj for obj, kind in done if kind not in UNCHANGED}
    return sorted(changed, key=lambda obj: obj.name_full), done


def convert_objects(objs: Iterable[bpy.types.Object], direction: str) -> list[str]:
    """Convert many objects (FROM_NATIVE or TO_NATIVE); returns the notes."""
    return convert(objs, direction)[1]
