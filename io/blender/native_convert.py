# SPDX-License-Identifier: GPL-3.0-or-later
"""Convert, persistently, between gltf_physics settings and Blender's native Rigid Body and
Rigid Body Constraint settings (the preview in native_rigid_body is a separate, temporary
build). The source settings are kept; notes for approximations go to `report`.

Bodies (≈ marks an approximation, always reported):
- ACTIVE → DYNAMIC, Animated (on either type) → KINEMATIC, PASSIVE → STATIC; ≈ an ACTIVE body
  with Dynamic off is KINEMATIC. Back: STATIC, and a collider with no body above it, → PASSIVE;
  KINEMATIC → ACTIVE + Animated; damping 0 (glTF has none). The mass is copied.
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

import math
import re
from collections.abc import Iterable
from dataclasses import replace

import bpy

from ..joints import (
    ANGULAR_SPAN,
    LINEAR_SPAN,
    JointPreset,
    match_preset,
    per_axis_limits,
    preset_limits,
    split_limits,
)
from ..model import JointDrive, JointLimit, JointSettings
from .fitting import Fit, apply_fit, fit_shape, fit_signature, local_bounds
from .joint_bridge import body_of, preset_of, reparent_keep_world, settings_of, write_settings
from .properties import MAX_LAYERS
from .to_model import dimensions_of

FROM_NATIVE = "FROM_NATIVE"
TO_NATIVE = "TO_NATIVE"
COLLECTION_COUNT = 20
DEFAULT_COLLECTIONS = (True,) + (False,) * (COLLECTION_COUNT - 1)
NO_LAYERS = (False,) * MAX_LAYERS
LAYER_NAME = re.compile(r"Collection (\d+)")
PREVIEW_PREFIX = "gltf_physics_preview"
TOLERANCE = 1e-5
HALF_PI = math.pi / 2
SHAPE_FROM_NATIVE = {"BOX": "BOX", "SPHERE": "SPHERE", "CAPSULE": "CAPSULE",
                     "CYLINDER": "CYLINDER", "CONE": "CYLINDER", "CONVEX_HULL": "CONVEX",
                     "MESH": "TRIMESH"}
MESH_SHAPES = {"CONVEX": "CONVEX_HULL", "TRIMESH": "MESH"}
KINDS = (("linear", "lin"), ("angular", "ang"))
LETTERS = "xyz"

Done = set[tuple[bpy.types.Object, str]]


# -- public API ----------------------------------------------------------------------------


def from_native(obj: bpy.types.Object, report: list[str]) -> bool:
    """Blender rigid body / constraint → gltf_physics; False when there was nothing to convert."""
    done: Done = set()
    _from_native(obj, report, done)
    return bool(done)


def to_native(obj: bpy.types.Object, report: list[str]) -> bool:
    """gltf_physics → Blender rigid body / constraint; False when there was nothing to convert."""
    done: Done = set()
    _to_native(obj, report, done)
    return bool(done)


def convert(
    objs: Iterable[bpy.types.Object], direction: str
) -> tuple[list[bpy.types.Object], list[str]]:
    """Convert many objects (FROM_NATIVE or TO_NATIVE): the objects changed (with the bodies
    and compound parts they pulled in) and the notes."""
    step = _from_native if direction == FROM_NATIVE else _to_native
    notes: list[str] = []
    done: Done = set()
    for obj in objs:
        step(obj, notes, done)
    return list(dict.fromkeys(obj for obj, _ in done)), notes


def convert_objects(objs: Iterable[bpy.types.Object], direction: str) -> list[str]:
    """Convert many objects (FROM_NATIVE or TO_NATIVE); returns the notes."""
    return convert(objs, direction)[1]


def native_fit(shape: str, bounds: tuple[tuple[float, ...], tuple[float, ...]]) -> Fit:
    """The dimensions Blender gives a BOX, SPHERE, CAPSULE, CYLINDER or CONE: from the bounds,
    centred on the origin (a cone's tip at +Z)."""
    fit = replace(fit_shape("CYLINDER" if shape == "CONE" else shape, bounds),
                  offset=(0.0, 0.0, 0.0))
    return replace(fit, radius_top=0.0) if shape == "CONE" else fit


# -- shared helpers ------------------------------------------------------------------------


def _is_preview(id_block: bpy.types.ID) -> bool:
    return any(key.startswith(PREVIEW_PREFIX) for key, _ in id_block.items())


def _scene_of(obj: bpy.types.Object) -> bpy.types.Scene:
    scene = bpy.context.scene
    if scene.objects.get(obj.name) == obj or not obj.users_scene:
        return scene
    return obj.users_scene[0]


def _same(a: Iterable[float], b: Iterable[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


def _axes(kind: str, axis: int) -> dict[str, tuple[int, ...]]:
    return {"linear_axes": (axis,)} if kind == "linear" else {"angular_axes": (axis,)}


def _spring_suffix(short: str, letter: str) -> str:
    return letter if short == "lin" else f"ang_{letter}"


def _step_time(scene: bpy.types.Scene) -> float:
    """Bullet's substep time in seconds."""
    world = scene.rigidbody_world
    fps = scene.render.fps / scene.render.fps_base
    substeps = world.substeps_per_frame if world else 10
    scale = world.time_scale if world else 1.0
    return scale / (fps * substeps)


# -- Blender → gltf_physics ----------------------------------------------------------------


def _from_native(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    if _is_preview(obj):
        report.append(f"{obj.name}: part of the preview, skipped (remove the preview first)")
        return
    if obj.rigid_body is not None:
        _body_from_native(obj, report, done)
    if obj.rigid_body_constraint is not None:
        _joint_from_native(obj, report, done)


def _compound_parent(obj: bpy.types.Object) -> bpy.types.Object | None:
    parent = obj.parent
    if parent is None or parent.rigid_body is None or _is_preview(parent):
        return None
    return parent if parent.rigid_body.collision_shape == "COMPOUND" else None


def _body_from_native(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    parent = _compound_parent(obj)
    if parent is not None:
        _body_from_native(parent, report, done)  # converts its children, this one among them
        return
    if (obj, "body") in done:
        return
    done.add((obj, "body"))
    rb = obj.rigid_body
    props = obj.gltf_physics
    props.motion_type = _motion_from_native(obj, report)
    props.mass = rb.mass
    if rb.collision_shape != "COMPOUND":
        _shape_from_native(obj, rb.collision_shape, report)
        _surface_from_native(obj, rb, report)
        return
    props.shape_type = "NONE"
    children = [c for c in obj.children if c.rigid_body is not None and not _is_preview(c)]
    if not children:
        report.append(f"{obj.name}: compound shape without rigid-body children: no shape")
    for child in children:
        done.add((child, "body"))
        child.gltf_physics.motion_type = "NONE"
        _shape_from_native(child, child.rigid_body.collision_shape, report)
        _surface_from_native(child, rb, report)


def _motion_from_native(obj: bpy.types.Object, report: list[str]) -> str:
    rb = obj.rigid_body
    if rb.kinematic:
        return "KINEMATIC"
    if rb.type == "PASSIVE":
        return "STATIC"
    if not rb.enabled:
        report.append(f"{obj.name}: Dynamic is off (animated until enabled): made kinematic")
        return "KINEMATIC"
    return "DYNAMIC"


def _shape_from_native(obj: bpy.types.Object, shape: str, report: list[str]) -> None:
    props = obj.gltf_physics
    props.shape_role = "COLLIDER"
    kind = SHAPE_FROM_NATIVE.get(shape)
    bounds = local_bounds(obj)
    if kind is None or bounds is None:
        props.shape_type = "NONE"
        report.append(f"{obj.name}: nested compound shape not converted")
        return
    props.shape_type = kind
    if kind in MESH_SHAPES:
        props.mesh_source = "SELF"
        if obj.modifiers and obj.rigid_body.mesh_source != "FINAL":
            report.append(f"{obj.name}: Blender used the mesh before modifiers; glTF uses the "
                          "final mesh")
        return
    centred = _same(fit_shape(kind, bounds).offset, (0.0, 0.0, 0.0))
    if shape != "CONE" and centred:
        props.size_mode = "FIT"
        return
    props.size_mode = "CUSTOM"
    apply_fit(props, native_fit(shape, bounds))


def _surface_from_native(
    obj: bpy.types.Object, rb: bpy.types.RigidBodyObject, report: list[str]
) -> None:
    """Material and filter of `obj`'s shape from the rigid body `rb` (its own or its body's)."""
    props = obj.gltf_physics
    props.use_material = True
    props.static_friction = props.dynamic_friction = rb.friction
    props.restitution = rb.restitution
    collections = tuple(rb.collision_collections)
    if collections == DEFAULT_COLLECTIONS:
        props.use_filter, props.filter_mode = False, "ALL"
        props.filter_layers = props.filter_targets = NO_LAYERS
        return
    scene = _scene_of(obj)
    bits = [False] * MAX_LAYERS
    for index, on in enumerate(collections):
        layer = _layer_for(scene, index, report) if on else None
        if layer is not None:
            bits[layer] = True
    props.use_filter, props.filter_mode = True, "ONLY"
    props.filter_layers = props.filter_targets = bits
    if collections[0]:
        report.append(f"{obj.name}: ≈ shares Collection 1 with bodies without a filter, which "
                      "are in no layer: it no longer collides with them")


def _layer_for(scene: bpy.types.Scene, collection: int, report: list[str]) -> int | None:
    """Index of the scene layer named after Blender collision collection `collection`."""
    layers = scene.gltf_physics.layers
    name = f"Collection {collection + 1}"
    index = layers.find(name)
    if index >= 0:
        return index
    if len(layers) >= MAX_LAYERS:
        report.append(f"No room for a layer {name}: all {MAX_LAYERS} layers are in use")
        return None
    layers.add().name = name
    return len(layers) - 1


def _joint_from_native(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    rbc = obj.rigid_body_constraint
    first, second = rbc.object1, rbc.object2
    if first is None or second is None:
        report.append(f"{obj.name}: the constraint lacks an object (Blender ignores it): skipped")
        return
    done.add((obj, "joint"))
    for body in (first, second):
        if body.rigid_body is not None and body.gltf_physics.motion_type == "NONE":
            _body_from_native(body, report, done)
    if first.gltf_physics.motion_type == "NONE":
        report.append(f"{obj.name}: {first.name} is not a body: the joint has no body A")
    holder = _joint_holder(obj, first, report)
    props = holder.gltf_physics
    write_settings(props, _settings_from_native(obj, report))
    props.joint_connected_body = second
    props.joint_attachment = None
    props.joint_enable_collision = not rbc.disable_collisions
    if not rbc.enabled:
        report.append(f"{obj.name}: the constraint is disabled in Blender; the joint is active")
    if rbc.use_breaking:
        report.append(f"{obj.name}: breakable constraints have no glTF equivalent")


def _joint_holder(
    obj: bpy.types.Object, first: bpy.types.Object, report: list[str]
) -> bpy.types.Object:
    """The object carrying the joint: obj, moved under body A (first) when needed."""
    if body_of(obj) == first:
        return obj
    if obj.gltf_physics.motion_type == "NONE":
        bpy.context.view_layer.update()
        reparent_keep_world(obj, first)
        report.append(f"{obj.name}: parented to {first.name} (in place): it is body A")
        return obj
    holder = bpy.data.objects.new(f"{obj.name}.joint", None)
    for collection in obj.users_collection:
        collection.objects.link(holder)
    bpy.context.view_layer.update()
    reparent_keep_world(holder, first, obj.matrix_world)
    report.append(f"{obj.name} is a body itself: its joint is on the new Empty {holder.name} "
                  f"under {first.name}")
    return holder


def _settings_from_native(obj: bpy.types.Object, report: list[str]) -> JointSettings:
    rbc = obj.rigid_body_constraint
    kind = rbc.type
    if kind in ("FIXED", "POINT"):
        return JointSettings(preset_limits(JointPreset("fixed" if kind == "FIXED" else "pin")))
    if kind == "HINGE":
        return JointSettings(preset_limits(JointPreset(
            "hinge", 2, rbc.use_limit_ang_z, rbc.limit_ang_z_lower, rbc.limit_ang_z_upper)))
    if kind in ("SLIDER", "PISTON"):
        limits = preset_limits(JointPreset(
            "slider", 0, rbc.use_limit_lin_x, rbc.limit_lin_x_lower, rbc.limit_lin_x_upper,
            rotates=kind == "PISTON"))
        if kind == "PISTON" and rbc.use_limit_ang_x:
            limits += (JointLimit(angular_axes=(0,), min=rbc.limit_ang_x_lower,
                                  max=rbc.limit_ang_x_upper),)
        return JointSettings(limits)
    if kind == "MOTOR":
        return JointSettings(drives=_motor_drives(obj, report))
    return JointSettings(_generic_limits(obj, kind == "GENERIC_SPRING", report))


def _generic_limits(
    obj: bpy.types.Object, springs: bool, report: list[str]
) -> tuple[JointLimit, ...]:
    """A 1-axis limit per limited axis; a sprung axis is a soft limit."""
    rbc = obj.rigid_body_constraint
    limits = []
    for kind, short in KINDS:
        for axis, letter in enumerate(LETTERS):
            limited = getattr(rbc, f"use_limit_{short}_{letter}")
            low = getattr(rbc, f"limit_{short}_{letter}_lower")
            high = getattr(rbc, f"limit_{short}_{letter}_upper")
            suffix = _spring_suffix(short, letter)
            sprung = springs and getattr(rbc, f"use_spring_{suffix}")
            if sprung and not (limited and low == high):
                if limited:
                    report.append(f"{obj.name}: ≈ spring with a range on {short} {letter}: a "
                                  "soft limit (Blender also pulls within the range)")
                limits.append(JointLimit(
                    **_axes(kind, axis), min=low if limited else 0.0,
                    max=high if limited else 0.0,
                    stiffness=getattr(rbc, f"spring_stiffness_{suffix}"),
                    damping=getattr(rbc, f"spring_damping_{suffix}")))
            elif limited:
                limits.append(JointLimit(**_axes(kind, axis), min=low, max=high))
    return tuple(limits)


def _motor_drives(obj: bpy.types.Object, report: list[str]) -> tuple[JointDrive, ...]:
    rbc = obj.rigid_body_constraint
    step = _step_time(_scene_of(obj))
    drives = []
    for kind, short in KINDS:
        if getattr(rbc, f"use_motor_{short}"):
            force = getattr(rbc, f"motor_{short}_max_impulse") / step
            drives.append(JointDrive(
                kind=kind, mode="force", axis=0, max_force=force,  # type: ignore[arg-type]
                velocity_target=getattr(rbc, f"motor_{short}_target_velocity"), damping=force))
    report.append(f"{obj.name}: ≈ motor → velocity drives on X, max force = impulse ÷ substep "
                  "time, damping = max force")
    return tuple(drives)


# -- gltf_physics → Blender ----------------------------------------------------------------


def _to_native(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    scene = _scene_of(obj)
    if _is_preview(scene) or _is_preview(obj):
        report.append(f"{obj.name}: the preview is active: remove it first; skipped")
        return
    props = obj.gltf_physics
    body = obj if props.motion_type != "NONE" else None
    if body is None and props.shape_type != "NONE":
        body = body_of(obj.parent) or obj  # a part converts with its body
    if body is not None:
        _body_to_native(body, report, done)
    if props.joint_type != "NONE":
        _joint_to_native(obj, report, done)


def _ensure_world(scene: bpy.types.Scene) -> bpy.types.RigidBodyWorld:
    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    if world.collection is None:
        world.collection = bpy.data.collections.new("RigidBodyWorld")
    return world


def _ensure_rigid_body(
    world: bpy.types.RigidBodyWorld, obj: bpy.types.Object
) -> bpy.types.RigidBodyObject:
    if obj.rigid_body is None and obj.name not in world.collection.objects:
        world.collection.objects.link(obj)  # Blender adds obj.rigid_body
    return obj.rigid_body


def _shape_objects(body: bpy.types.Object) -> list[bpy.types.Object]:
    """The body's own shape and those of descendants up to the next body."""
    found = [body] if body.gltf_physics.shape_type != "NONE" else []
    pending = list(body.children)
    for obj in pending:  # grows while walking
        if obj.gltf_physics.motion_type == "NONE":
            found += [obj] if obj.gltf_physics.shape_type != "NONE" else []
            pending.extend(obj.children)
    return found


def _body_to_native(body: bpy.types.Object, report: list[str], done: Done) -> None:
    if (body, "body") in done:
        return
    done.add((body, "body"))
    if body.type != "MESH":
        report.append(f"{body.name}: Blender rigid bodies must be meshes: skipped")
        return
    rb = _ensure_rigid_body(_ensure_world(_scene_of(body)), body)
    props = body.gltf_physics
    motion = "STATIC" if props.motion_type == "NONE" else props.motion_type
    rb.type = "PASSIVE" if motion == "STATIC" else "ACTIVE"
    rb.kinematic = motion == "KINEMATIC"
    rb.enabled = True
    rb.mass = props.mass
    rb.linear_damping = rb.angular_damping = 0.0
    shapes = _shape_objects(body) if props.motion_type != "NONE" else [body]
    parts = [obj for obj in shapes if obj != body]
    if parts:
        _compound_to_native(body, parts, report, done)
    elif shapes:
        _shape_to_native(body, rb, report)
    else:
        report.append(f"{body.name}: no collision shape; Blender's shape is left as it was")
    _surface_to_native(body, rb, shapes, report)


def _compound_to_native(
    body: bpy.types.Object, parts: list[bpy.types.Object], report: list[str], done: Done
) -> None:
    rb = body.rigid_body
    rb.collision_shape = "COMPOUND"
    if body.gltf_physics.shape_type != "NONE":
        report.append(f"{body.name}: its own shape is dropped: a Blender compound is made of "
                      "its children only")
    world = _scene_of(body).rigidbody_world
    for part in parts:
        if part.parent != body or part.type != "MESH":
            report.append(f"{part.name}: a Blender compound only takes mesh children of the "
                          f"body: left out of {body.name}")
            continue
        done.add((part, "body"))
        part_rb = _ensure_rigid_body(world, part)
        part_rb.type, part_rb.kinematic = rb.type, rb.kinematic
        _shape_to_native(part, part_rb, report)
        _surface_to_native(part, part_rb, [part], report)


def _shape_to_native(
    obj: bpy.types.Object, rb: bpy.types.RigidBodyObject, report: list[str]
) -> None:
    props = obj.gltf_physics
    kind = props.shape_type
    if kind in MESH_SHAPES:
        rb.collision_shape, rb.mesh_source = MESH_SHAPES[kind], "FINAL"
        if props.mesh_source == "OBJECT":
            report.append(f"{obj.name}: ≈ Blender uses the object's own mesh, not the proxy")
        return
    if kind == "PLANE":
        rb.collision_shape = "BOX"
        report.append(f"{obj.name}: ≈ the plane is the box of the mesh bounds")
        return
    shape = _analytic_shape(props)
    rb.collision_shape = shape
    if not _fits_bounds(obj, kind, shape):
        report.append(f"{obj.name}: ≈ Blender sizes the {kind.lower()} from the mesh bounds, "
                      "centred on the origin: its size, offset or rotation differ")


def _analytic_shape(props: bpy.types.PropertyGroup) -> str:
    cone = (props.shape_type == "CYLINDER" and props.size_mode == "CUSTOM"
            and props.radius_top < TOLERANCE < props.radius_bottom)
    return "CONE" if cone else props.shape_type


def _fits_bounds(obj: bpy.types.Object, kind: str, shape: str) -> bool:
    """True when Blender's bounds-based shape is the gltf_physics one."""
    props = obj.gltf_physics
    bounds = local_bounds(obj)
    if bounds is None:
        return False
    turned = props.size_mode == "CUSTOM" and not _same(props.shape_rotation, (1, 0, 0, 0))
    wanted = fit_signature(kind, dimensions_of(obj, kind))
    return not turned and _same(wanted, fit_signature(kind, native_fit(shape, bounds)))


def _surface_to_native(
    obj: bpy.types.Object, rb: bpy.types.RigidBodyObject, shapes: list[bpy.types.Object],
    report: list[str],
) -> None:
    """Friction, restitution and collections from the first shape with each setting."""
    material = next((s.gltf_physics for s in shapes if s.gltf_physics.use_material), None)
    if material is not None:
        rb.friction, rb.restitution = material.dynamic_friction, material.restitution
        if abs(material.static_friction - material.dynamic_friction) > TOLERANCE:
            report.append(f"{obj.name}: ≈ Blender has one friction: the dynamic one is used")
    source = shapes[0] if shapes else obj
    if source.gltf_physics.shape_role == "TRIGGER":
        rb.collision_collections = (False,) * COLLECTION_COUNT
        report.append(f"{obj.name}: ≈ Blender has no triggers: it collides with nothing")
        return
    rb.collision_collections = _collections_of(source, report)


def _collections_of(obj: bpy.types.Object, report: list[str]) -> tuple[bool, ...]:
    props = obj.gltf_physics
    if not props.use_filter:
        return DEFAULT_COLLECTIONS
    scene = _scene_of(obj)
    out = [False] * COLLECTION_COUNT
    for layer, on in enumerate(props.filter_layers):
        index = _collection_of_layer(scene, layer) if on else None
        if index is not None:
            out[index] = True
        elif on:
            report.append(f"{obj.name}: layer {layer + 1} has no Blender collection: dropped")
    exact = props.filter_mode == "ONLY" and tuple(props.filter_targets) == tuple(
        props.filter_layers)
    if not exact:
        report.append(f"{obj.name}: ≈ Blender collides bodies sharing a collection: only the "
                      "layers it is in are kept")
    return tuple(out)


def _collection_of_layer(scene: bpy.types.Scene, layer: int) -> int | None:
    layers = scene.gltf_physics.layers
    match = LAYER_NAME.fullmatch(layers[layer].name) if layer < len(layers) else None
    if match and 1 <= int(match.group(1)) <= COLLECTION_COUNT:
        return int(match.group(1)) - 1
    return layer if layer < COLLECTION_COUNT else None


def _joint_to_native(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    if (obj, "joint") in done:
        return
    done.add((obj, "joint"))
    props = obj.gltf_physics
    attachment = props.joint_attachment
    first = body_of(obj)
    second = body_of(attachment) if attachment is not None else props.joint_connected_body
    if first is None or second is None:
        report.append(f"{obj.name}: a Blender constraint needs two bodies: skipped")
        return
    if attachment is not None:
        report.append(f"{obj.name}: ≈ Blender uses this object's frame on both sides")
    for body in (first, second):
        _body_to_native(body, report, done)
    if first.rigid_body is None or second.rigid_body is None:
        report.append(f"{obj.name}: a body has no Blender rigid body: no constraint")
        return
    world = _scene_of(obj).rigidbody_world
    if world.constraints is None:
        world.constraints = bpy.data.collections.new("RigidBodyConstraints")
    if obj.rigid_body_constraint is None and obj.name not in world.constraints.objects:
        world.constraints.objects.link(obj)  # Blender adds obj.rigid_body_constraint
    rbc = obj.rigid_body_constraint
    rbc.object1, rbc.object2 = first, second
    rbc.disable_collisions = not props.joint_enable_collision
    rbc.enabled = True
    _constraint_to_native(obj, report)


def _constraint_to_native(obj: bpy.types.Object, report: list[str]) -> None:
    rbc = obj.rigid_body_constraint
    settings = settings_of(obj.gltf_physics)
    preset = preset_of(obj.gltf_physics) or match_preset(settings.limits)
    if preset is not None and preset.kind in ("fixed", "pin"):
        rbc.type = "FIXED" if preset.kind == "fixed" else "POINT"
    elif preset is not None and (preset.kind, preset.axis) == ("hinge", 2):
        rbc.type = "HINGE"
        _set_range(rbc, "ang_z", (preset.lower, preset.upper) if preset.use_limit else None)
    elif preset is not None and (preset.kind, preset.axis) == ("slider", 0):
        rbc.type = "PISTON" if preset.rotates else "SLIDER"
        _set_range(rbc, "lin_x", (preset.lower, preset.upper) if preset.use_limit else None)
        _set_range(rbc, "ang_x", None)
    elif not settings.limits and _is_motor(settings.drives):
        _motor_to_native(obj, settings.drives)
        return
    else:
        _generic_to_native(obj, settings, report)
    if settings.drives:
        report.append(f"{obj.name}: drives are dropped: Blender only has motors on Motor "
                      "constraints")


def _set_range(rbc: bpy.types.RigidBodyConstraint, key: str, limits) -> None:
    setattr(rbc, f"use_limit_{key}", limits is not None)
    if limits is not None:
        setattr(rbc, f"limit_{key}_lower", limits[0])
        setattr(rbc, f"limit_{key}_upper", limits[1])


def _is_motor(drives: tuple[JointDrive, ...]) -> bool:
    kinds = [drive.kind for drive in drives]
    return bool(drives) and len(set(kinds)) == len(kinds) and all(
        drive.axis == 0 and drive.velocity_target is not None
        and drive.position_target is None for drive in drives)


def _motor_to_native(obj: bpy.types.Object, drives: tuple[JointDrive, ...]) -> None:
    rbc = obj.rigid_body_constraint
    rbc.type = "MOTOR"
    step = _step_time(_scene_of(obj))
    by_kind = {drive.kind: drive for drive in drives}
    for kind, short in KINDS:
        drive = by_kind.get(kind)
        setattr(rbc, f"use_motor_{short}", drive is not None)
        if drive is not None:
            setattr(rbc, f"motor_{short}_target_velocity", drive.velocity_target)
            force = drive.max_force if drive.max_force is not None else drive.damping
            setattr(rbc, f"motor_{short}_max_impulse", force * step)


def _generic_to_native(obj: bpy.types.Object, settings: JointSettings, report: list[str]) -> None:
    rbc = obj.rigid_body_constraint
    limits = split_limits(settings.limits)
    hard = tuple(limit for limit in limits if limit.stiffness is None)
    ranges = per_axis_limits(JointSettings(hard))
    springs = _springs(obj, limits, ranges, report)
    if any(len(lim.linear_axes or lim.angular_axes) > 1 and not lim.min == lim.max == 0.0
           for lim in hard):
        report.append(f"{obj.name}: ≈ a cone or distance limit becomes a range per axis")
    if ranges.get(("angular", 1), (0.0, 0.0))[1] > HALF_PI:
        report.append(f"{obj.name}: ≈ Bullet keeps the Y angle within ±90°")
    rbc.type = "GENERIC_SPRING" if springs else "GENERIC"
    for kind, short in KINDS:
        for axis, letter in enumerate(LETTERS):
            _set_range(rbc, f"{short}_{letter}", ranges.get((kind, axis)))
            suffix = _spring_suffix(short, letter)
            spring = springs.get((kind, axis))
            setattr(rbc, f"use_spring_{suffix}", spring is not None)
            if spring is not None:
                setattr(rbc, f"spring_stiffness_{suffix}", spring[0])
                setattr(rbc, f"spring_damping_{suffix}", spring[1])


def _springs(
    obj: bpy.types.Object, limits: tuple[JointLimit, ...],
    ranges: dict[tuple[str, int], tuple[float, float]], report: list[str],
) -> dict[tuple[str, int], tuple[float, float]]:
    """(stiffness, damping) per axis of the soft limits; a soft range also limits the axis."""
    springs = {}
    for limit in limits:
        if limit.stiffness is None:
            continue
        kind = "linear" if limit.linear_axes else "angular"
        axes = limit.linear_axes or limit.angular_axes
        ranged = (limit.min, limit.max) != (0.0, 0.0)
        if ranged or len(axes) > 1:
            report.append(f"{obj.name}: ≈ a soft limit becomes a spring towards the rest pose")
        for axis in axes:
            springs[(kind, axis)] = (limit.stiffness, limit.damping)
            if ranged:
                ranges[(kind, axis)] = _soft_range(limit, kind)
    return springs


def _soft_range(limit: JointLimit, kind: str) -> tuple[float, float]:
    span = LINEAR_SPAN if kind == "linear" else ANGULAR_SPAN
    return (-span if limit.min is None else limit.min, span if limit.max is None else limit.max)
