# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender's rigid body and constraint settings → gltf_physics (see native_convert.py)."""


import bpy

from ...joints import (
    JointPreset,
    preset_limits,
)
from ...model import JointDrive, JointLimit, JointSettings
from ..bridge.fitting import apply_fit, fit_shape, local_bounds
from ..bridge.joint_bridge import body_of, reparent_keep_world, write_settings
from ..settings.properties import MAX_LAYERS
from .editable import editable_problem
from .native_common import (
    DEFAULT_COLLECTIONS,
    KINDS,
    LETTERS,
    NATIVE_MESH_SHAPE,
    NO_LAYERS,
    PREVIEW_SKIPPED,
    SHAPE_FROM_NATIVE,
    TOLERANCE,
    Done,
    axes_of,
    is_preview,
    left_as_it_was,
    native_fit,
    same,
    scene_of,
    spring_suffix,
    step_time,
)
from .ownership import NATIVE_JOINT, link_like, made_by, mark


def from_native_step(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    if is_preview(obj):
        done.add((obj, PREVIEW_SKIPPED))
        return
    if obj.rigid_body is not None:
        _body_from_native(obj, report, done)
    if obj.rigid_body_constraint is not None:
        _joint_from_native(obj, report, done)


def _compound_parent(obj: bpy.types.Object) -> bpy.types.Object | None:
    parent = obj.parent
    if parent is None or parent.rigid_body is None or is_preview(parent):
        return None
    return parent if parent.rigid_body.collision_shape == "COMPOUND" else None


def _body_from_native(obj: bpy.types.Object, report: list[str], done: Done) -> None:
    parent = _compound_parent(obj)
    if parent is not None:
        _body_from_native(parent, report, done)  # converts its children, this one among them
        return
    if (obj, "body") in done or left_as_it_was(obj, done, report, rigid_body=False):
        return
    done.add((obj, "body"))
    rb = obj.rigid_body
    props = obj.gltf_physics
    props.motion_type = _motion_from_native(obj, report)
    props.mass = rb.mass
    _unkept_from_native(obj, report, damping=props.motion_type == "DYNAMIC")
    if rb.collision_shape != "COMPOUND":
        _shape_from_native(obj, rb.collision_shape, report)
        _surface_from_native(obj, rb, report)
        return
    props.shape_type = "NONE"
    children = [c for c in obj.children if c.rigid_body is not None and not is_preview(c)]
    if not children:
        report.append(f"{obj.name}: compound shape without rigid-body children: no shape")
    for child in children:
        if left_as_it_was(child, done, report, rigid_body=False, part_of=obj):
            continue
        done.add((child, "body"))
        child.gltf_physics.motion_type = "NONE"
        _shape_from_native(child, child.rigid_body.collision_shape, report)
        _surface_from_native(child, rb, report)
        _unkept_from_native(child, report, damping=False)


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


def _unkept_from_native(obj: bpy.types.Object, report: list[str], *, damping: bool) -> None:
    """Say the settings glTF has no field for, where they are not Blender's defaults: the
    damping of a dynamic body (but 0, what glTF means) and the collision margin (when
    Blender uses it)."""
    rb = obj.rigid_body
    defaults = bpy.types.RigidBodyObject.bl_rna.properties
    unkept = [f"{key.replace('_', ' ')} {getattr(rb, key):g}"
              for key in ("linear_damping", "angular_damping")
              if damping and min(abs(getattr(rb, key)),
                                 abs(getattr(rb, key) - defaults[key].default)) > TOLERANCE]
    custom = abs(rb.collision_margin - defaults["collision_margin"].default) > TOLERANCE
    used = rb.use_margin or (custom and rb.collision_shape in ("MESH", "CONE"))  # Blender's UI
    if used and rb.collision_margin > TOLERANCE:  # (0 is what glTF means)
        unkept.append(f"collision margin {rb.collision_margin:g} m")
    if unkept:
        report.append(f"{obj.name}: not kept (glTF has none): " + ", ".join(unkept))


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
    if kind in NATIVE_MESH_SHAPE:
        props.mesh_source = "SELF"
        if obj.modifiers and obj.rigid_body.mesh_source != "FINAL":
            report.append(f"{obj.name}: Blender used the mesh before modifiers; glTF uses the "
                          "final mesh")
        return
    centred = same(fit_shape(kind, bounds).offset, (0.0, 0.0, 0.0))
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
    scene = scene_of(obj)
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
    scene = bpy.context.scene
    if scene not in first.users_scene:  # the joint would go under an object of that scene
        report.append(f"{obj.name}: body A, {first.name}, is not in the scene {scene.name}: "
                      "the constraint is left as it was")
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
    """The object carrying the joint: obj, moved under body A (first) when needed. A body
    holding its own constraint, or an object above body A (it cannot go under its own
    descendant), gets a joint Empty under body A: the one an earlier run made for it (found
    by its tag, never by name), else a new one; obj stays where it is."""
    if body_of(obj) == first:
        return obj
    # obj above body A: parenting it there would loop (Blender refuses); it stays in place
    above = obj.gltf_physics.motion_type == "NONE" and _is_above(obj, first)
    if obj.gltf_physics.motion_type == "NONE" and not above:
        bpy.context.view_layer.update()
        reparent_keep_world(obj, first)
        report.append(f"{obj.name}: parented to {first.name} (in place): it is body A")
        return obj
    earlier = sorted((o for o in bpy.data.objects if made_by(o, NATIVE_JOINT, obj)
                      and o.type == "EMPTY" and editable_problem(o) is None),
                     key=lambda o: o.parent != first)  # the one under body A first
    holder = earlier[0] if earlier else bpy.data.objects.new(f"{obj.name}.joint", None)
    if not earlier:
        link_like(holder, obj, bpy.context.scene)
        mark(holder, NATIVE_JOINT, obj)
    bpy.context.view_layer.update()
    reparent_keep_world(holder, first, obj.matrix_world)
    where = f"{holder.name} under {first.name}"
    why = (f"{obj.name} is above body A, {first.name}, in the hierarchy, and stays where it is"
           if above else f"{obj.name} is a body itself")
    report.append(f"{why}: its joint is on " + (
        f"{where}, the Empty made for it before" if earlier else f"the new Empty {where}"))
    return holder


def _is_above(obj: bpy.types.Object, other: bpy.types.Object) -> bool:
    """True when `obj` is `other` or one of its ancestors."""
    while other is not None:
        if other == obj:
            return True
        other = other.parent
    return False


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
            suffix = spring_suffix(short, letter)
            sprung = springs and getattr(rbc, f"use_spring_{suffix}")
            if sprung and not (limited and low == high):
                if limited:
                    report.append(f"{obj.name}: ≈ spring with a range on {short} {letter}: a "
                                  "soft limit (Blender also pulls within the range)")
                limits.append(JointLimit(
                    **axes_of(kind, axis), min=low if limited else 0.0,
                    max=high if limited else 0.0,
                    stiffness=getattr(rbc, f"spring_stiffness_{suffix}"),
                    damping=getattr(rbc, f"spring_damping_{suffix}")))
            elif limited:
                limits.append(JointLimit(**axes_of(kind, axis), min=low, max=high))
    return tuple(limits)


def _motor_drives(obj: bpy.types.Object, report: list[str]) -> tuple[JointDrive, ...]:
    rbc = obj.rigid_body_constraint
    step = step_time(scene_of(obj))
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


