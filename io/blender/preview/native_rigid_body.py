# SPDX-License-Identifier: GPL-3.0-or-later
"""Simulate gltf_physics bodies with Blender's own rigid body world (Bullet), for previews.

Mapping (≈ marks an approximation):
- DYNAMIC → ACTIVE with the mass (≈ at least Blender's 0.001 kg; `mass_note` names the
  bodies raised); KINEMATIC → ACTIVE + Animated; STATIC, and a collider with
  motion None and no body above it → PASSIVE. Damping is 0 (glTF has none).
- BOX, SPHERE, CAPSULE, CYLINDER → the same Blender shape; CONVEX → CONVEX_HULL and TRIMESH
  → MESH of the evaluated mesh. Blender sizes a shape from the object's bounds and centres it
  on the origin, so a shape goes on the body object itself only when that gives exactly the
  gltf_physics dimensions. Otherwise (custom size, offset, proxy mesh, Empty, shapes on
  descendants) the body uses Blender's COMPOUND shape made of hidden helper meshes: mesh
  objects linked only to the rigid body collection (never to a view layer) whose bounds or
  vertices are the shape, parented to the body.
- Blender only simulates meshes: a body that is not a mesh (an Empty…) is carried by a hidden
  helper mesh; the body follows it with a Copy Transforms constraint when dynamic, the helper
  follows the body otherwise.
- ≈ Tapered capsules and cylinders are convex hulls; a plane is a 1 m thick box below it
  (1 km wide when infinite); TRIMESH on a moving body is a GImpact mesh.
- Triggers never collide: trigger shapes are left out, and a dynamic body without colliders
  falls but collides with nothing.
- Material (≈): friction ← dynamic friction, restitution ← restitution; Bullet multiplies
  the values of touching bodies, combine modes are ignored.
- Filters: Blender lets two bodies collide when they share one of 20 collision collections.
  Filter classes that may collide are grouped into cliques, one collection each: exact unless
  a class that meets others must not meet itself, or more than 20 cliques are needed (the
  extra ones share the last collection).
- ≈ A compound body uses its first collider's material and filter (Blender has one per body).
- ≈ The centre of mass is the body origin, even for offset or compound shapes; Bullet derives
  the inertia from the shapes (a compound's from its bounding box).
- Not mapped: initial velocities, gravity factor, custom centre of mass and inertia, joint
  collisions (connected bodies never collide). Objects that already carry a Blender rigid body
  or rigid body constraint of their own are left alone (the user's constraint is simulated
  instead of the joint). Joints refer to the helpers of the build they were added
  after: build, then join.
- Not simulated (Blender simulates no instanced object, said by the operator): bodies in
  collection instances, the colliders a body takes from the collection it instances, and
  joints joining a body that is not simulated (left out, not counted).
"""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import bpy

from ...joints import per_axis_limits
from ..bridge.joint_bridge import body_of, settings_of
from ..tools.editable import editable_problem
from ..tools.native_common import COLLECTION_COUNT, blender_least_mass, has_object
from ..tools.ownership import TAG_PREFIX
from .preview_shapes import (
    HELPER_TAG,
    PREVIEW_ID_TAG,
    add_shapes,
    box_mesh,
    new_helper,
    preview_id,
)

RIGID_BODY_TAG = TAG_PREFIX + "preview_rigid_body"
CONSTRAINT_TAG = TAG_PREFIX + "preview_constraint"
PROXY_TAG = TAG_PREFIX + "preview_proxy"
#: on a body carried by a proxy: the preview that made its follow constraint ("preview") and
#: that constraint's name as Blender made it unique ("constraint": "" when the proxy follows),
#: so the constraint is found when the proxy is gone (never by a name alone: the user may
#: have a constraint of that name)
FOLLOW_TAG = TAG_PREFIX + "preview_follow"
WORLD_TAG = TAG_PREFIX + "preview_world"
#: the frame and the user's world cache range before the preview (given back by Remove)
SAVED_TAG = TAG_PREFIX + "preview_saved_frames"
FOLLOW_NAME = "gltf_physics preview"
PROXY_SIZE = 0.1
NO_COLLISIONS = (False,) * COLLECTION_COUNT


@dataclass(frozen=True, slots=True)
class PreviewBody:
    """A gltf_physics body: its object, motion and collider objects (itself and parts)."""

    obj: bpy.types.Object
    motion: str
    colliders: tuple[bpy.types.Object, ...]


@dataclass(frozen=True, slots=True)
class FilterRule:
    """The collision layers a shape is in and which layers it accepts."""

    layers: frozenset[int] = frozenset()
    mode: str = "ALL"
    targets: frozenset[int] = frozenset()

    def allows(self, other: "FilterRule") -> bool:
        """True when this rule accepts a shape with the other rule's layers."""
        if self.mode == "ONLY":
            return bool(self.targets & other.layers)
        if self.mode == "EXCEPT":
            return not self.targets & other.layers
        return True

# -- public API ----------------------------------------------------------------------------


def build_preview(
    scene: bpy.types.Scene, objects: Iterable[bpy.types.Object] | None = None
) -> list[bpy.types.Object]:
    """Create (or reuse) scene.rigidbody_world and give every gltf_physics body among `objects`
    (default: all scene objects) a Blender rigid body; returns the objects changed."""
    world = _ensure_world(scene)
    bodies = [
        body for body in find_bodies(previewed(scene) if objects is None else objects)
        if body.obj.rigid_body is None or body.obj.get(RIGID_BODY_TAG)
    ]
    rules = {body.obj: filter_rule(body.colliders[0].gltf_physics) for body in bodies
             if body.colliders}
    collections = collision_collections(rules.values())
    for body in bodies:
        _clear_body(world, body.obj)
        carrier = _carrier(world, body)
        _configure(carrier.rigid_body, body)
        has_shape = add_shapes(world, body, carrier)
        rule = rules.get(body.obj)
        carrier.rigid_body.collision_collections = (
            collections[rule] if has_shape and rule is not None else NO_COLLISIONS
        )
    _cover_scene_frames(scene)
    return [body.obj for body in bodies]


def add_joint_constraint(
    scene: bpy.types.Scene,
    joint_obj: bpy.types.Object,
    body_a: bpy.types.Object | None,
    body_b: bpy.types.Object | None,
    axis_limits: dict[tuple[str, int], tuple[float, float] | None],
    collide: bool = False,
) -> None:
    """Give `joint_obj` (its world transform is the joint frame) a GENERIC rigid body constraint
    between body_a and body_b (None: a fixed anchor). Keys are ('linear'|'angular', axis 0/1/2
    of the joint's local X/Y/Z); a (lower, upper) value limits that axis (0, 0 locks it), None
    or missing leaves it free. Angles in radians; Bullet keeps the Y range within ±90°.
    `collide` lets the two bodies collide with each other."""
    world = _ensure_world(scene)
    constraints = _ensure_constraints(world)
    if joint_obj.rigid_body_constraint is None:
        if not has_object(constraints.objects, joint_obj):
            constraints.objects.link(joint_obj)
        joint_obj[CONSTRAINT_TAG] = preview_id(scene)
    constraint = joint_obj.rigid_body_constraint
    constraint.type = "GENERIC"
    constraint.disable_collisions = not collide
    constraint.object1 = _simulated(world, body_a, joint_obj)
    constraint.object2 = _simulated(world, body_b, joint_obj)
    for kind, short in (("linear", "lin"), ("angular", "ang")):
        for axis, letter in enumerate("xyz"):
            limits = axis_limits.get((kind, axis))
            setattr(constraint, f"use_limit_{short}_{letter}", limits is not None)
            if limits is not None:
                setattr(constraint, f"limit_{short}_{letter}_lower", limits[0])
                setattr(constraint, f"limit_{short}_{letter}_upper", limits[1])


def add_joints(scene: bpy.types.Scene,
               left_out: list[bpy.types.Object] | None = None) -> list[bpy.types.Object]:
    """A constraint for every gltf_physics joint in `scene` whose bodies were built; returns
    the joint objects. Both frames are the joint object's world frame at the start (≈ an
    explicit connected frame elsewhere is not honoured); multi-axis ranges are per-axis (≈).
    A joint joining a body the preview does not simulate (one only in a collection instance,
    or outside the view layer) is left out: added to `left_out`, when given."""
    added = []
    world = scene.rigidbody_world
    for obj in previewed(scene):
        props = obj.gltf_physics
        if props.joint_type == "NONE" or _users_constraint(obj):
            continue
        body_a = body_of(obj)
        attachment = props.joint_attachment
        body_b = body_of(attachment) if attachment is not None else props.joint_connected_body
        if body_a is None and body_b is None:
            continue
        if not (_is_simulated(world, body_a) and _is_simulated(world, body_b)):
            if left_out is not None:
                left_out.append(obj)
            continue
        limits = per_axis_limits(settings_of(props))
        add_joint_constraint(scene, obj, body_a, body_b, dict(limits),
                             props.joint_enable_collision)
        added.append(obj)
    return added


def _is_simulated(world: bpy.types.RigidBodyWorld | None,
                  body: bpy.types.Object | None) -> bool:
    """Whether `body` (None: a fixed anchor, made for the joint) moves in `world`: it, or
    the proxy carrying it, has a rigid body in the world's collection."""
    if body is None:
        return True
    carrier = body.get(PROXY_TAG) or body
    return world is not None and world.collection is not None \
        and isinstance(carrier, bpy.types.Object) and carrier.rigid_body is not None \
        and has_object(world.collection.objects, carrier)


def instanced_bodies(scene: bpy.types.Scene) -> int:
    """How many bodies the collection instances among the previewed objects place (nested
    instances too): Blender simulates no instanced object, so none is previewed. A kit's
    colliders with no body above them belong to a body that instances it (not counted)."""
    return _instanced_count(previewed(scene), {}, set())


def _instanced_count(objects: Iterable[bpy.types.Object],
                     memo: dict[bpy.types.Collection, tuple[int, int]],
                     walking: set[bpy.types.Collection]) -> int:
    """Bodies placed by the instances among `objects`; each collection is walked once
    (`memo`: its bodies, and those of them that are loose colliders), a cycle not at all."""
    count = 0
    for obj in objects:
        kit = obj.instance_collection if obj.instance_type == "COLLECTION" else None
        if kit is None or kit in walking:
            continue
        if kit not in memo:
            walking.add(kit)
            members = list(kit.all_objects)
            bodies = find_bodies(members)
            loose = sum(1 for body in bodies if body.obj.gltf_physics.motion_type == "NONE")
            memo[kit] = (len(bodies) + _instanced_count(members, memo, walking), loose)
            walking.discard(kit)
        total, loose = memo[kit]
        count += total - (loose if obj.gltf_physics.motion_type != "NONE" else 0)
    return count


def kit_collider_bodies(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The previewed bodies that instance a collection holding colliders with no body above
    them: in the export those are the body's colliders; the preview gives the body none of
    them (a static or kinematic one left with no collider is not previewed at all)."""
    found = []
    for obj in previewed(scene):
        kit = obj.instance_collection if obj.instance_type == "COLLECTION" else None
        if obj.gltf_physics.motion_type != "NONE" and kit is not None and any(
                _is_collider(member) and _owner(member) is None for member in kit.all_objects):
            found.append(obj)
    return found


def standstill(scene: bpy.types.Scene) -> str:
    """Why playing the preview moves nothing (the user's world disabled, or its cache
    baked), or "" when it plays."""
    world = scene.rigidbody_world
    if world is None:
        return ""
    if not world.enabled:
        return "the rigid body world is disabled (Scene properties → Rigid Body World): " \
               "enable it, then press play"
    if world.point_cache is not None and world.point_cache.is_baked:
        return "the rigid body world's cache is baked, so play shows the baked frames: " \
               "delete the bake (Scene properties → Rigid Body World → Cache), then press play"
    return ""


def changed_objects(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The objects a preview of `scene` changes (bodies get a rigid body or a follow
    constraint, joints a rigid body constraint): they must be editable."""
    objects = previewed(scene)
    bodies = [body.obj for body in find_bodies(objects)
              if body.obj.rigid_body is None or body.obj.get(RIGID_BODY_TAG)]
    joints = [obj for obj in objects
              if obj.gltf_physics.joint_type != "NONE" and not _users_constraint(obj)]
    return bodies + joints


def has_physics(scene: bpy.types.Scene) -> bool:
    """Whether a preview of `scene` has a glTF physics body or joint to simulate (some may
    already have the user's own rigid body or constraint, which the preview uses)."""
    objects = previewed(scene)
    return bool(find_bodies(objects)) \
        or any(obj.gltf_physics.joint_type != "NONE" for obj in objects)


def previewed(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The objects a preview of `scene` simulates: those of its view layer (an excluded
    collection's are neither drawn nor simulated)."""
    view_layer = bpy.context.view_layer if bpy.context.scene == scene else scene.view_layers[0]
    return list(view_layer.objects)


def in_another_preview(scene: bpy.types.Scene) -> str | None:
    """Why `scene` cannot be previewed now, or None: one of its objects is also in another
    scene whose preview is on (a rigid body is the object's, not one scene's)."""
    for obj in previewed(scene):
        owner = _preview_scene(obj)
        if owner is not None and owner != scene:
            return f"{obj.name} is in the preview of scene {owner.name}: remove that " \
                   "preview first"
    return None


def locked_world(scene: bpy.types.Scene) -> str | None:
    """Why the preview cannot use `scene`'s own rigid body world, or None: a collection it
    puts bodies or constraints in is linked from a library (Blender cannot add to it)."""
    world = scene.rigidbody_world
    for role, collection in (("bodies", world and world.collection),
                             ("constraints", world and world.constraints)):
        if collection is not None and collection.library is not None:
            return f"The rigid body world's {role} collection {collection.name} is linked " \
                f"from {collection.library.name}: Blender cannot add to it (make it local, " \
                "or give the world a collection of this file)"
    return None


def _preview_scene(obj: bpy.types.Object) -> bpy.types.Scene | None:
    """The scene whose preview tagged `obj` (None: untagged, tagged before tags named
    their scene, or that scene is gone)."""
    for value in (obj.get(RIGID_BODY_TAG), obj.get(CONSTRAINT_TAG), _proxy_preview(obj)):
        if isinstance(value, str):
            return next((s for s in bpy.data.scenes if s.get(PREVIEW_ID_TAG) == value), None)
    return None


def _of_preview(value: object, scene: bpy.types.Scene) -> bool:
    """A tag's value says `scene`'s preview made it (a tag saved before tags named their
    scene, True, counts for any)."""
    if isinstance(value, str):
        return value == scene.get(PREVIEW_ID_TAG)
    return value is not None


def _users_constraint(obj: bpy.types.Object) -> bool:
    """A rigid body constraint of the user's own: the preview leaves it (and its joint) be."""
    return obj.rigid_body_constraint is not None and obj.get(CONSTRAINT_TAG) is None


def remove_preview(scene: bpy.types.Scene) -> list[str]:
    """Remove every rigid body, constraint and helper build_preview/add_joint_constraint
    created, and the world if it created it (gone already when removed by hand; kept, and
    then the user's, when it holds rigid bodies or constraints the preview did not make).
    Returns what to say once (empty when nothing)."""
    world = scene.rigidbody_world
    collections = [c for c in (world.collection, world.constraints) if c] if world else []
    # Blender clears every constraint's link to an object whose rigid body is removed: the
    # user's own constraints get theirs back.
    users = [(obj, obj.rigid_body_constraint.object1, obj.rigid_body_constraint.object2)
             for obj in _tagged(scene, None) if _users_constraint(obj)]
    for obj in _tagged(scene, CONSTRAINT_TAG):
        _remove_constraint(scene, obj)
    for obj in _tagged(scene, PROXY_TAG):
        _remove_follow(obj)
    for obj in _tagged(scene, HELPER_TAG):
        _delete_helper(obj)
    for obj in _tagged(scene, RIGID_BODY_TAG):
        _remove_rigid_body(scene, obj)
    for obj, first, second in users:
        constraint = obj.rigid_body_constraint
        constraint.object1, constraint.object2 = first, second
    notes = _remove_world(scene, collections) if scene.get(WORLD_TAG) else []
    if WORLD_TAG in scene:
        del scene[WORLD_TAG]
    for collection in dict.fromkeys(collections + _unused_collections()):
        if collection.get(HELPER_TAG) and not collection.all_objects:
            bpy.data.collections.remove(collection)
    _give_back_frames(scene)
    if PREVIEW_ID_TAG in scene and (_token_copied(scene) or not _tagged_anywhere(scene)):
        del scene[PREVIEW_ID_TAG]  # (a copied token: this scene's next preview gets its own)
    return notes


def _remove_world(scene: bpy.types.Scene, collections: list[bpy.types.Collection]) -> list[str]:
    """Remove the world the preview made, unless it is gone (removed by hand; a world the
    user added since has no collection of the preview's) or holds rigid bodies or
    constraints of the user's: then it and its collections stay, the user's now (said)."""
    world = scene.rigidbody_world
    if world is None or world.collection is None or not world.collection.get(HELPER_TAG):
        return []
    others = _users_members(world)
    if not others:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_remove()
        return []
    for collection in collections:
        if collection.all_objects and collection.get(HELPER_TAG):
            del collection[HELPER_TAG]
    names = ", ".join(obj.name for obj in others[:5]) + ("…" if others[5:] else "")
    return [f"The rigid body world stays: the preview made it, but {len(others)} rigid body "
            f"object(s) or constraint(s) of your own are in it ({names}); only the "
            "preview's were removed"]


def _users_members(world: bpy.types.RigidBodyWorld) -> list[bpy.types.Object]:
    """The rigid bodies and constraints in `world` that no preview made (the user's)."""
    tags = (RIGID_BODY_TAG, CONSTRAINT_TAG, HELPER_TAG)
    members = [obj for obj in world.collection.all_objects if obj.rigid_body is not None] \
        if world.collection else []
    if world.constraints:
        members += [obj for obj in world.constraints.all_objects
                    if obj.rigid_body_constraint is not None and obj not in members]
    return sorted((obj for obj in members if all(obj.get(tag) is None for tag in tags)),
                  key=lambda obj: obj.name)


def _unused_collections() -> list[bpy.types.Collection]:
    """The preview's collections no scene's rigid body world uses (those of a world removed
    by hand), without the members that are in another collection too and have lost their
    rigid body or constraint (Blender keeps them there when there is no world)."""
    used = {c for s in bpy.data.scenes if s.rigidbody_world
            for c in (s.rigidbody_world.collection, s.rigidbody_world.constraints) if c}
    unused = [c for c in bpy.data.collections
              if c.get(HELPER_TAG) and c not in used and c.library is None]
    for collection in unused:
        for obj in [o for o in collection.objects if len(o.users_collection) > 1
                    and o.rigid_body is None and o.rigid_body_constraint is None]:
            collection.objects.unlink(obj)
    return unused


def _tagged_anywhere(scene: bpy.types.Scene) -> bool:
    """Whether an object still carries a tag of `scene`'s preview (one kept by a library)."""
    token = scene.get(PREVIEW_ID_TAG)
    tags = (RIGID_BODY_TAG, CONSTRAINT_TAG, HELPER_TAG)
    return any(obj.get(tag) == token for obj in bpy.data.objects for tag in tags)


def step(scene: bpy.types.Scene, frames: int) -> None:
    """Simulate `frames` frames after the current one (at least the cache start).

    Bullet only advances on consecutive frames, so each frame is set in turn; the point cache
    end is raised to cover them. Works headless: no window or baking needed.
    """
    cache = scene.rigidbody_world.point_cache
    start = max(scene.frame_current, cache.frame_start)
    if cache.frame_end < start + frames:
        cache.frame_end = start + frames
    scene.frame_set(start)
    for frame in range(start + 1, start + frames + 1):
        scene.frame_set(frame)


# -- bodies and filters ---------------------------------------------------------------------


def find_bodies(objects: Iterable[bpy.types.Object]) -> list[PreviewBody]:
    """The bodies among `objects` worth simulating: those with colliders, or dynamic."""
    bodies = []
    for obj in objects:
        motion = obj.gltf_physics.motion_type
        if motion != "NONE":
            bodies.append(PreviewBody(obj, motion, _colliders(obj)))
        elif _is_collider(obj) and _owner(obj) is None:
            bodies.append(PreviewBody(obj, "STATIC", (obj,)))
    return [body for body in bodies if body.colliders or body.motion == "DYNAMIC"]


def _is_collider(obj: bpy.types.Object) -> bool:
    props = obj.gltf_physics
    return props.shape_type != "NONE" and props.shape_role == "COLLIDER"


def _owner(obj: bpy.types.Object) -> bpy.types.Object | None:
    parent = obj.parent
    while parent is not None and parent.gltf_physics.motion_type == "NONE":
        parent = parent.parent
    return parent


def _colliders(body: bpy.types.Object) -> tuple[bpy.types.Object, ...]:
    found = [body] if _is_collider(body) else []
    pending = list(body.children)
    for obj in pending:  # grows while walking: descendants up to the next body
        if obj.gltf_physics.motion_type == "NONE":
            found += [obj] if _is_collider(obj) else []
            pending.extend(obj.children)
    return tuple(found)


def filter_rule(props: bpy.types.PropertyGroup) -> FilterRule:
    """The shape's filter as layer index sets (no filter: in no layer, accepts all)."""
    if not props.use_filter:
        return FilterRule()

    def indices(bits: Iterable[bool]) -> frozenset[int]:
        return frozenset(i for i, on in enumerate(bits) if on)

    return FilterRule(indices(props.filter_layers), props.filter_mode,
                      indices(props.filter_targets))


def collision_collections(rules: Iterable[FilterRule]) -> dict[FilterRule, tuple[bool, ...]]:
    """Blender collision collections per rule: one per clique of rules that may collide."""
    classes = list(dict.fromkeys(rules))
    bits: dict[FilterRule, set[int]] = {rule: set() for rule in classes}
    for index, first in enumerate(classes):
        for second in classes[index:]:
            if _meet(first, second) and not bits[first] & bits[second]:
                bit = min(len(set().union(*bits.values())), COLLECTION_COUNT - 1)
                for rule in _clique(first, second, classes):
                    bits[rule].add(bit)
    return {rule: tuple(i in on for i in range(COLLECTION_COUNT)) for rule, on in bits.items()}


def _meet(a: FilterRule, b: FilterRule) -> bool:
    return a.allows(b) and b.allows(a)


def _clique(first: FilterRule, second: FilterRule, classes: list[FilterRule]) -> list[FilterRule]:
    group = list(dict.fromkeys((first, second)))
    for rule in classes:
        if rule not in group and _meet(rule, rule) and all(_meet(rule, m) for m in group):
            group.append(rule)
    return group


# -- world, carriers and settings -------------------------------------------------------


def _ensure_world(scene: bpy.types.Scene) -> bpy.types.RigidBodyWorld:
    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()
        scene[WORLD_TAG] = True
    world = scene.rigidbody_world
    if world.collection is None:
        world.collection = _new_collection("RigidBodyWorld")
    return world


def _ensure_constraints(world: bpy.types.RigidBodyWorld) -> bpy.types.Collection:
    if world.constraints is None:
        world.constraints = _new_collection("RigidBodyConstraints")
    return world.constraints


def _new_collection(name: str) -> bpy.types.Collection:
    collection = bpy.data.collections.new(name)
    collection[HELPER_TAG] = True
    return collection


def _cover_scene_frames(scene: bpy.types.Scene) -> None:
    """Cover the scene's frames with the world's cache (its range kept for Remove)."""
    cache = scene.rigidbody_world.point_cache
    if SAVED_TAG not in scene:
        scene[SAVED_TAG] = [scene.frame_current, cache.frame_start, cache.frame_end]
    cache.frame_start = min(cache.frame_start, scene.frame_start)
    cache.frame_end = max(cache.frame_end, scene.frame_end)


def _give_back_frames(scene: bpy.types.Scene) -> None:
    """The frame and (on the user's own world) the cache range from before the preview."""
    saved = scene.get(SAVED_TAG)
    if saved is None:
        return
    frame, start, end = (int(v) for v in saved)
    world = scene.rigidbody_world
    if world is not None and world.point_cache is not None:
        world.point_cache.frame_start, world.point_cache.frame_end = start, end
    scene.frame_set(frame)
    del scene[SAVED_TAG]


def _carrier(world: bpy.types.RigidBodyWorld, body: PreviewBody) -> bpy.types.Object:
    """The mesh object Blender simulates for the body: itself, or a hidden proxy."""
    obj = body.obj
    if obj.type == "MESH":
        if not has_object(world.collection.objects, obj):
            world.collection.objects.link(obj)  # Blender adds obj.rigid_body
        obj[RIGID_BODY_TAG] = preview_id(world.id_data)
        return obj
    proxy = new_helper(world, f"{obj.name}.preview", box_mesh((PROXY_SIZE,) * 3), None,
                        obj.matrix_world)
    obj[PROXY_TAG] = proxy
    follower, leader = (obj, proxy) if body.motion == "DYNAMIC" else (proxy, obj)
    follow = follower.constraints.new("COPY_TRANSFORMS")
    follow.name = FOLLOW_NAME
    follow.target = leader
    obj[FOLLOW_TAG] = {"preview": preview_id(world.id_data),
                       "constraint": follow.name if follower == obj else ""}
    return proxy


def _simulated(
    world: bpy.types.RigidBodyWorld, body: bpy.types.Object | None, joint: bpy.types.Object
) -> bpy.types.Object:
    """The object Blender simulates for `body`; None gets a fixed, non-colliding anchor."""
    if body is not None:
        return body.get(PROXY_TAG) or body
    anchor = new_helper(world, f"{joint.name}.anchor", box_mesh((PROXY_SIZE,) * 3), None,
                         joint.matrix_world)
    anchor.rigid_body.type = "PASSIVE"
    anchor.rigid_body.collision_collections = NO_COLLISIONS
    return anchor


def mass_note(bodies: Iterable[bpy.types.Object]) -> str:
    """One line naming the bodies whose mass (OMI allows 0 and below) the preview raised to
    Blender's least rigid body mass; empty when none."""
    least = blender_least_mass()
    raised = [obj.name for obj in bodies
              if obj.gltf_physics.mass_mode == "VALUE" and obj.gltf_physics.mass < least]
    if not raised:
        return ""
    return (f"Mass below Blender's least ({least:g} kg) previewed as {least:g} kg: "
            f"{', '.join(raised)}")


def _configure(settings: bpy.types.RigidBodyObject, body: PreviewBody) -> None:
    props = body.obj.gltf_physics
    settings.type = "PASSIVE" if body.motion == "STATIC" else "ACTIVE"
    # Blender has no infinite mass: such a body is held still, as a kinematic one.
    settings.kinematic = body.motion == "KINEMATIC" or props.mass_mode == "INFINITE"
    settings.mass = max(props.mass, blender_least_mass())  # Bullet needs a positive mass
    settings.linear_damping = 0.0
    settings.angular_damping = 0.0
    material = next((c.gltf_physics for c in body.colliders if c.gltf_physics.use_material), None)
    if material is not None:
        settings.friction = material.dynamic_friction
        settings.restitution = material.restitution


def _clear_body(world: bpy.types.RigidBodyWorld, obj: bpy.types.Object) -> None:
    """Undo an earlier build of this body (its proxy, helpers and follow constraint)."""
    proxy = obj.get(PROXY_TAG)
    carriers = {obj, proxy} if proxy else {obj}
    _remove_follow(obj)
    stale = [o for o in world.collection.objects
             if o.get(HELPER_TAG) and (o in carriers or o.parent in carriers)]
    for helper in stale:
        _delete_helper(helper)


# -- helpers and removal ----------------------------------------------------------------


def _tagged(scene: bpy.types.Scene, tag: str | None) -> list[bpy.types.Object]:
    """Scene and rigid body world objects carrying `tag` of this scene's preview (all of
    them for None) that can be changed: a linked object keeps what its library saved
    (`kept_by_library`), and an object shared with another scene keeps that scene's. Objects
    elsewhere count when their tag names this scene's preview (a helper left in the
    collection of a world removed by hand)."""
    def value(obj: bpy.types.Object) -> object:
        return _proxy_preview(obj) if tag == PROXY_TAG else obj.get(tag)

    if tag is None:
        return [obj for obj in _scene_objects(scene) if editable_problem(obj) is None]
    token = scene.get(PREVIEW_ID_TAG)
    others = _other_scenes_objects(scene)
    copied = _token_copied(scene)  # (then another scene's parts carry it too: left alone)
    found = {obj for obj in _scene_objects(scene) if _of_preview(value(obj), scene)
             and not (copied and obj in others)}
    if isinstance(token, str):
        found.update(obj for obj in bpy.data.objects if value(obj) == token
                     and obj not in others)
    return sorted((obj for obj in found if editable_problem(obj) is None),
                  key=lambda obj: obj.name_full)


def _token_copied(scene: bpy.types.Scene) -> bool:
    """True when another scene holds `scene`'s preview token: copying a scene copies it, so
    tags alone cannot tell the two scenes' preview parts apart."""
    token = scene.get(PREVIEW_ID_TAG)
    return isinstance(token, str) and any(
        other != scene and other.get(PREVIEW_ID_TAG) == token for other in bpy.data.scenes)


def _other_scenes_objects(scene: bpy.types.Scene) -> set[bpy.types.Object]:
    """The objects of every other scene and of its rigid body world."""
    found: set[bpy.types.Object] = set()
    for other in bpy.data.scenes:
        if other != scene:
            found |= _scene_objects(other)
    return found


def _proxy_preview(obj: bpy.types.Object) -> object:
    """The tag of the preview that gave `obj` a proxy: the proxy's; the proxy deleted by
    hand, the follow mark's, or (a mark saved before follow marks) True: any preview's."""
    if PROXY_TAG not in obj:
        return None
    proxy = obj.get(PROXY_TAG)
    if isinstance(proxy, bpy.types.Object):
        return proxy.get(HELPER_TAG)
    return _follow_mark(obj).get("preview", True)


def _scene_objects(scene: bpy.types.Scene) -> set[bpy.types.Object]:
    objects = set(scene.objects)
    world = scene.rigidbody_world
    for collection in (world.collection, world.constraints) if world else ():
        objects.update(collection.objects if collection else ())
    return objects


def kept_by_library(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """Objects carrying a preview's tags that cannot be changed (a library saved while its
    preview was on): removing the preview leaves them as they are."""
    tags = (RIGID_BODY_TAG, CONSTRAINT_TAG, PROXY_TAG, FOLLOW_TAG, HELPER_TAG)
    return sorted((obj for obj in _scene_objects(scene)
                   if any(obj.get(tag) is not None for tag in tags)
                   and editable_problem(obj) is not None), key=lambda obj: obj.name)


def _delete_helper(helper: bpy.types.Object) -> None:
    mesh = helper.data
    bpy.data.objects.remove(helper)
    if mesh is not None and mesh.users == 0:
        bpy.data.meshes.remove(mesh)


def _remove_follow(obj: bpy.types.Object) -> None:
    """Remove the constraint that makes `obj` follow its proxy: the one copying the proxy's
    transforms, or, the proxy deleted by hand, the one the preview recorded making (its
    target then gone). Never found by name alone: the user may have a constraint of it."""
    proxy = obj.get(PROXY_TAG)
    made = _follow_mark(obj).get("constraint")
    for follow in [c for c in obj.constraints if c.type == "COPY_TRANSFORMS" and (
            (isinstance(proxy, bpy.types.Object) and c.target == proxy)
            or (made and c.name == made and c.target is None))]:
        obj.constraints.remove(follow)
    for tag in (PROXY_TAG, FOLLOW_TAG):
        if tag in obj:
            del obj[tag]


def _follow_mark(obj: bpy.types.Object) -> dict[str, str]:
    """The preview's record of the follow constraint it gave `obj` (empty when none)."""
    mark = obj.get(FOLLOW_TAG)
    if not hasattr(mark, "to_dict"):
        return {}
    return {key: value for key, value in mark.to_dict().items() if isinstance(value, str)}


def _remove_rigid_body(scene: bpy.types.Scene, obj: bpy.types.Object) -> None:
    if obj.rigid_body is not None:
        with _operable(scene, obj):
            bpy.ops.rigidbody.object_remove()
    del obj[RIGID_BODY_TAG]


def _remove_constraint(scene: bpy.types.Scene, obj: bpy.types.Object) -> None:
    """Remove obj's rigid body constraint (`_operable`)."""
    if obj.rigid_body_constraint is not None:
        with _operable(scene, obj):
            bpy.ops.rigidbody.constraint_remove()
    constraints = scene.rigidbody_world and scene.rigidbody_world.constraints
    if constraints is not None and has_object(constraints.objects, obj):
        constraints.objects.unlink(obj)
    if obj.rigid_body_constraint is None:  # (else kept ours: a later Remove can end it)
        del obj[CONSTRAINT_TAG]


@contextmanager
def _operable(scene: bpy.types.Scene, obj: bpy.types.Object) -> Iterator[None]:
    """`obj` as Blender's rigid body operators need it, for the call only: in the scene's
    view layer (linked to the scene's own collection when the artist excluded or unlinked
    its collections during the preview), not disabled in viewports, and active (Blender
    5.0's constraint operator reads the view layer's active object). All as it was after."""
    view_layer = bpy.context.view_layer if bpy.context.scene == scene else scene.view_layers[0]
    added = not has_object(view_layer.objects, obj)
    if added:
        scene.collection.objects.link(obj)
    disabled, obj.hide_viewport = obj.hide_viewport, False
    previous = view_layer.objects.active
    view_layer.objects.active = obj
    try:
        with bpy.context.temp_override(scene=scene, view_layer=view_layer, object=obj,
                                       active_object=obj):
            yield
    finally:
        view_layer.objects.active = previous
        obj.hide_viewport = disabled
        if added:
            scene.collection.objects.unlink(obj)
