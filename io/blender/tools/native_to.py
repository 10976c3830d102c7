# SPDX-License-Identifier: GPL-3.0-or-later
"""gltf_physics → Blender's rigid body and constraint settings (see native_convert.py)."""


import bpy

from ...joints import (
    ANGULAR_SPAN,
    LINEAR_SPAN,
    match_preset,
    per_axis_limits,
    split_limits,
)
from ...model import JointDrive, JointLimit, JointSettings
from ..bridge.fitting import fit_signature, local_bounds
from ..bridge.joint_bridge import body_of, preset_of, settings_of
from ..bridge.to_model import dimensions_of
from .native_common import (
    CHOSEN,
    COLLECTION_COUNT,
    DEFAULT_COLLECTIONS,
    HALF_PI,
    JOINT_SKIPPED,
    KINDS,
    LAYER_NAME,
    LEFT,
    LETTERS,
    NATIVE_MESH_SHAPE,
    PREVIEW_SKIPPED,
    TOLERANCE,
    Done,
    blender_least_mass,
    has_object,
    is_preview,
    left_as_it_was,
    native_fit,
    same,
    scene_of,
    spring_suffix,
    step_time,
)


def to_native_step(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    scene = scene_of(obj)
    if is_preview(scene) or is_preview(obj):
        done.add((obj, PREVIEW_SKIPPED))
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
    if obj.rigid_body is None and not has_object(world.collection.objects, obj):
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
    if (body, "body") in done or left_as_it_was(body, done, report, rigid_body=True):
        return
    if body.rigid_body is not None and (body, CHOSEN) not in done:
        # (a joint's body or a part's body, pulled in: its own rigid body is the user's)
        done.add((body, LEFT))
        report.append(f"{body.name}: not selected, and has a Blender rigid body of its own: "
                      "it is left as it was")
        return
    if body.type != "MESH":
        done.add((body, LEFT))  # (not converted: never counted as changed)
        report.append(f"{body.name}: Blender rigid bodies must be meshes: skipped")
        return
    done.add((body, "body"))
    new = body.rigid_body is None
    rb = _ensure_rigid_body(_ensure_world(scene_of(body)), body)
    props = body.gltf_physics
    motion = "STATIC" if props.motion_type == "NONE" else props.motion_type
    rb.type = "PASSIVE" if motion == "STATIC" else "ACTIVE"
    # Blender has no infinite mass: such a body is held still, as a kinematic one (as the preview)
    rb.kinematic = motion == "KINEMATIC" or (motion == "DYNAMIC" and props.mass_mode == "INFINITE")
    rb.enabled = True
    least = blender_least_mass()
    rb.mass = max(props.mass, least)
    if props.mass_mode == "VALUE" and props.mass < least:
        report.append(f"{body.name}: ≈ Blender's rigid body mass is at least {least:g} kg: "
                      f"{props.mass:g} kg becomes {least:g} kg")
    if new:  # glTF has no damping; a rigid body the user had keeps theirs
        rb.linear_damping = rb.angular_damping = 0.0
    _motion_notes(body, report)
    shapes = _shape_objects(body) if props.motion_type != "NONE" \
        else [body] if props.shape_type != "NONE" else []  # (a partner with no physics)
    parts = [obj for obj in shapes if obj != body]
    if parts:
        _compound_to_native(body, parts, report, done)
    elif shapes:
        _shape_to_native(body, rb, report)
    else:
        report.append(f"{body.name}: no collision shape; Blender's shape is left as it was")
    _surface_to_native(body, rb, shapes, report)


def _motion_notes(body: bpy.types.Object, report: list[str]) -> None:
    """Say what of a moving body's motion Blender's rigid body cannot hold."""
    props = body.gltf_physics
    if props.motion_type not in ("DYNAMIC", "KINEMATIC"):
        return
    if props.motion_type == "DYNAMIC" and props.mass_mode == "INFINITE":
        report.append(f"{body.name}: ≈ Blender has no infinite mass: the body is Animated "
                      "(held still, like a kinematic one)")
    elif props.motion_type == "DYNAMIC" and props.mass_mode == "AUTO":
        report.append(f"{body.name}: ≈ Blender computes no mass: the Mass value "
                      f"{body.rigid_body.mass:g} kg is used")
    dropped = [what for what, on in (
        ("initial linear velocity", any(props.linear_velocity)),
        ("initial angular velocity", any(props.angular_velocity)),
        (f"gravity factor {props.gravity_factor:g}", abs(props.gravity_factor - 1) > TOLERANCE),
        ("custom centre of mass", props.center_of_mass_mode == "CUSTOM"),
        ("custom inertia", props.inertia_mode == "CUSTOM"),
        ("Lock Rotation", any(props.lock_rotation)),
    ) if on]
    if dropped:
        report.append(f"{body.name}: not kept (Blender's rigid body has none): "
                      + ", ".join(dropped))


def _compound_to_native(
    body: bpy.types.Object, parts: list[bpy.types.Object], report: list[str], done: Done
) -> None:
    rb = body.rigid_body
    rb.collision_shape = "COMPOUND"
    if body.gltf_physics.shape_type != "NONE":
        report.append(f"{body.name}: its own shape is dropped: a Blender compound is made of "
                      "its children only")
    world = scene_of(body).rigidbody_world
    for part in parts:
        if part.parent != body or part.type != "MESH":
            report.append(f"{part.name}: a Blender compound only takes mesh children of the "
                          f"body: left out of {body.name}")
            continue
        if left_as_it_was(part, done, report, rigid_body=True, part_of=body):
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
    if kind in NATIVE_MESH_SHAPE:
        rb.collision_shape, rb.mesh_source = NATIVE_MESH_SHAPE[kind], "FINAL"
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
    turned = props.size_mode == "CUSTOM" and not same(props.shape_rotation, (1, 0, 0, 0))
    wanted = fit_signature(kind, dimensions_of(obj, kind))
    return not turned and same(wanted, fit_signature(kind, native_fit(shape, bounds)))


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
    scene = scene_of(obj)
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
    """A Blender rigid body constraint on `obj` for its joint; a joint that makes none is
    said once and not counted as converted."""
    if (obj, "joint") in done or (obj, JOINT_SKIPPED) in done:
        return
    done.add((obj, JOINT_SKIPPED))  # (until a constraint is made)
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
    scene = scene_of(obj)
    world = scene.rigidbody_world
    away = [body for body in dict.fromkeys((first, second)) if world is None
            or world.collection is None or not has_object(world.collection.objects, body)]
    if away:  # (rigid bodies of another scene's world, left as they were)
        names = " and ".join(body.name for body in away)
        report.append(f"{obj.name}: {names} {'is' if len(away) == 1 else 'are'} not in the "
                      f"rigid body world of the scene {scene.name}: no constraint")
        return
    if world.constraints is None:
        world.constraints = bpy.data.collections.new("RigidBodyConstraints")
    if obj.rigid_body_constraint is None \
            and not has_object(world.constraints.objects, obj):
        world.constraints.objects.link(obj)  # Blender adds obj.rigid_body_constraint
    done.discard((obj, JOINT_SKIPPED))
    done.add((obj, "joint"))
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
    step = step_time(scene_of(obj))
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
            suffix = spring_suffix(short, letter)
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
