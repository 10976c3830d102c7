# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint properties ↔ joint settings in Blender's local joint axes. Data API only."""

from typing import Any

import bpy
from mathutils import Matrix

from ...joints import JointPreset, match_preset, normalized, preset_limits
from ...model import JointDrive, JointLimit, JointSettings

AXIS_INDEX = {"X": 0, "Y": 1, "Z": 2}
AXIS_NAMES = ("X", "Y", "Z")
PRESET_OF_TYPE = {"FIXED": "fixed", "PIN": "pin", "HINGE": "hinge", "SLIDER": "slider",
                  "CONE_TWIST": "cone_twist"}
TYPE_OF_PRESET = {value: key for key, value in PRESET_OF_TYPE.items()}


#: An object parented to a bone stands for the bone's own glTF node when it sits at this
#: matrix relative to the bone (the exporter's Y-up bone-node basis, +Y along the bone's
#: axis turned back to the glTF node's axes: a -90 degree turn about X).
BONE_NODE_BASIS = Matrix(((1.0, 0.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0),
                          (0.0, -1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))


def bone_relative(obj: bpy.types.Object) -> Matrix | None:
    """`obj`'s matrix relative to its parent bone's frame, or None when not bone-parented."""
    armature = obj.parent
    if obj.parent_type != "BONE" or armature is None or armature.type != "ARMATURE":
        return None
    bone = armature.data.bones.get(obj.parent_bone)
    if bone is None:
        return None
    # Blender puts a bone child at the bone's tail: (0, length, 0) in bone space.
    return Matrix.Translation((0.0, bone.length, 0.0)) @ obj.matrix_parent_inverse \
        @ obj.matrix_basis


def on_bone_node(obj: bpy.types.Object, yup: bool = True) -> bool:
    """True when `obj` sits exactly at its parent bone's glTF node frame (what the importer
    makes for physics on a bone node), so its physics can be written on the bone node."""
    rel = bone_relative(obj)
    if rel is None:
        return False
    basis = BONE_NODE_BASIS if yup else Matrix.Identity(4)
    return all(abs(rel[r][c] - basis[r][c]) < 1e-5 for r in range(4) for c in range(4))


def bone_body(armature: bpy.types.Object, bone_name: str) -> bpy.types.Object | None:
    """The body carried by bone `bone_name` or by its nearest parent bone: a body parented
    to that bone, the one at the bone's node frame first."""
    bone = armature.data.bones.get(bone_name)
    while bone is not None:
        found = [c for c in armature.children if c.parent_type == "BONE"
                 and c.parent_bone == bone.name and c.gltf_physics.motion_type != "NONE"]
        if found:
            return next((c for c in found if on_bone_node(c)), found[0])
        bone = bone.parent
    return None


def body_of(obj: bpy.types.Object | None) -> bpy.types.Object | None:
    """`obj` or its nearest ancestor that is a body (motion type other than None). For an
    object parented to a bone, the bones up the chain count as ancestors (as in glTF)."""
    while obj is not None:
        if obj.gltf_physics.motion_type != "NONE":
            return obj
        if obj.parent_type == "BONE" and obj.parent is not None \
                and obj.parent.type == "ARMATURE":
            body = bone_body(obj.parent, obj.parent_bone)
            if body is not None:
                return body
        obj = obj.parent
    return None


def reparent_keep_world(
    obj: bpy.types.Object, parent: bpy.types.Object, world: Matrix | None = None
) -> None:
    """Parent `obj` to `parent` keeping its world transform (or placing it at `world`).
    World matrices must be current (`view_layer.update()`)."""
    world = (obj.matrix_world if world is None else world).copy()
    obj.parent = parent
    obj.matrix_parent_inverse.identity()
    obj.matrix_basis = parent.matrix_world.inverted_safe() @ world


def own_world(obj: bpy.types.Object) -> Matrix:
    """An object's world matrix from its own transform and its parents', as Blender composes
    it: an object outside the evaluated view layer (another scene, a hidden collection) may
    have no current `matrix_world` (a new one, or one only another scene's depsgraph placed:
    Blender 4.x does not write that back). Bone parenting is left to Blender (the view
    layer is updated for it)."""
    if obj.parent is None:
        return obj.matrix_basis.copy()
    if obj.parent_type != "OBJECT":
        return obj.matrix_world.copy()
    return own_world(obj.parent) @ obj.matrix_parent_inverse @ obj.matrix_basis


def preset_of(props: bpy.types.PropertyGroup) -> JointPreset | None:
    """The preset the properties describe; None for custom joints and non-joints."""
    kind = PRESET_OF_TYPE.get(props.joint_type)
    if kind is None:
        return None
    linear = kind == "slider"
    return JointPreset(
        kind=kind,  # type: ignore[arg-type]
        axis=AXIS_INDEX[props.joint_axis],
        use_limit=props.joint_use_limit,
        lower=props.joint_distance_min if linear else props.joint_angle_min,
        upper=props.joint_distance_max if linear else props.joint_angle_max,
        rotates=props.joint_slider_rotates,
        cone=props.joint_cone_angle,
    )


def settings_of(props: bpy.types.PropertyGroup, lists: Any = None) -> JointSettings:
    """The joint's limits and drives in Blender's local joint axes. `lists`: where the limit
    and drive lists are read (default `props`; the object's live settings when `props` is
    a snapshot of plain values)."""
    preset = preset_of(props)
    lists = props if lists is None else lists
    listed = tuple(limit for limit in (_limit_of(item) for item in lists.joint_limits) if limit)
    if preset is not None:
        limits = preset_limits(preset)
        if listed and normalized(listed) == normalized(limits):
            limits = listed  # the preset as a file wrote it: its grouping and order kept
    else:
        limits = listed
    return JointSettings(limits=limits, drives=tuple(_drive_of(d) for d in lists.joint_drives),
                         name=props.joint_name)


def _limit_of(item: bpy.types.PropertyGroup) -> JointLimit | None:
    axes = tuple(i for i, on in enumerate(item.axes) if on)
    if not axes:
        return None
    linear = item.kind == "LINEAR"
    low = item.min_distance if linear else item.min_angle
    high = item.max_distance if linear else item.max_angle
    return JointLimit(
        linear_axes=axes if linear else (),
        angular_axes=() if linear else axes,
        min=low if item.use_min else None,
        max=high if item.use_max else None,
        stiffness=item.stiffness if item.use_stiffness else None,
        damping=item.damping,
    )


def _drive_of(item: bpy.types.PropertyGroup) -> JointDrive:
    linear = item.kind == "LINEAR"
    target = item.position_target_distance if linear else item.position_target_angle
    return JointDrive(
        kind="linear" if linear else "angular",
        mode=item.mode,
        axis=AXIS_INDEX[item.axis],
        max_force=item.max_force if item.use_max_force else None,
        position_target=target if item.use_position_target else None,
        velocity_target=item.velocity_target if item.use_velocity_target else None,
        stiffness=item.stiffness,
        damping=item.damping,
    )


def write_settings(props: bpy.types.PropertyGroup, settings: JointSettings) -> None:
    """Set the joint properties from settings in Blender axes: a preset when one matches.
    The limits are also kept as listed, so an unedited preset is written back as read. A name
    the settings carry is set (settings made without one leave the joint's name alone)."""
    if settings.name:
        props.joint_name = settings.name
    preset = match_preset(settings.limits)
    props.joint_limits.clear()
    for limit in settings.limits:
        _write_limit(props.joint_limits.add(), limit)
    if preset is None:
        props.joint_type = "CUSTOM"
    else:
        write_preset(props, preset)
    props.joint_drives.clear()
    for drive in settings.drives:
        _write_drive(props.joint_drives.add(), drive)


def write_preset(props: bpy.types.PropertyGroup, preset: JointPreset) -> None:
    """Set the preset properties (type, axis, range, cone)."""
    props.joint_type = TYPE_OF_PRESET[preset.kind]
    props.joint_axis = AXIS_NAMES[preset.axis]
    props.joint_use_limit = preset.use_limit
    if preset.use_limit and preset.kind == "slider":
        props.joint_distance_min, props.joint_distance_max = preset.lower, preset.upper
    elif preset.use_limit:
        props.joint_angle_min, props.joint_angle_max = preset.lower, preset.upper
    props.joint_slider_rotates = preset.rotates
    if preset.kind == "cone_twist":
        props.joint_cone_angle = preset.cone


def write_custom(props: bpy.types.PropertyGroup, limits: tuple[JointLimit, ...]) -> None:
    """Make the joint custom with exactly `limits` (Blender axes)."""
    props.joint_limits.clear()
    for limit in limits:
        _write_limit(props.joint_limits.add(), limit)
    props.joint_type = "CUSTOM"


def _write_limit(item: bpy.types.PropertyGroup, limit: JointLimit) -> None:
    linear = bool(limit.linear_axes)
    axes = limit.linear_axes or limit.angular_axes
    item.kind = "LINEAR" if linear else "ANGULAR"
    item.axes = tuple(i in axes for i in range(3))
    item.use_min, item.use_max = limit.min is not None, limit.max is not None
    low = 0.0 if limit.min is None else limit.min
    high = 0.0 if limit.max is None else limit.max
    if linear:
        item.min_distance, item.max_distance = low, high
    else:
        item.min_angle, item.max_angle = low, high
    item.use_stiffness = limit.stiffness is not None
    if limit.stiffness is not None:
        item.stiffness = limit.stiffness
    item.damping = limit.damping


def _write_drive(item: bpy.types.PropertyGroup, drive: JointDrive) -> None:
    item.kind = "LINEAR" if drive.kind == "linear" else "ANGULAR"
    item.mode = drive.mode
    item.axis = AXIS_NAMES[drive.axis]
    item.use_max_force = drive.max_force is not None
    if drive.max_force is not None:
        item.max_force = drive.max_force
    item.use_position_target = drive.position_target is not None
    target = drive.position_target or 0.0
    if drive.kind == "linear":
        item.position_target_distance = target
    else:
        item.position_target_angle = target
    item.stiffness = drive.stiffness
    item.use_velocity_target = drive.velocity_target is not None
    item.velocity_target = drive.velocity_target or 0.0
    item.damping = drive.damping
