# SPDX-License-Identifier: GPL-3.0-or-later
"""The apply-scale fix: the object's scale goes into its mesh, and every setting given in
object space follows, so the world sizes and offsets the user sees stay where they were.

With a uniform scale (of any signs) or a shape aligned with the scaled axes, a shape keeps
its exact world size and place. A round shape under a non-uniform scale was an ellipsoid the
engines do not have: it becomes the round shape that encloses it (largest radius), as Fit to
Mesh does. Under a reflection (an odd number of negative factors) a shape keeps its Z and X
axes and its Y turns over; every shape is symmetric in Y (a tapered capsule's Z is kept).

A gravity volume keeps its figure in the world: a line's points move with the mesh, the
directional volume's direction follows (normalised), a disc's or torus's radius and a shaped
volume's shape (axis-aligned, no rotation of its own) stretch with their axes; a round one
under a non-uniform scale encloses its ellipse (largest factor) as the shapes do, and a
tapered shape whose Z turns over swaps its end radii. The unit distance is a world distance
(the spec's metres, measured in the world by the pull) and is kept.
"""

from typing import Any

import bpy
from mathutils import Matrix, Quaternion, Vector

UNIT = 1e-6  # an own scale factor this close to 1 is no scale
#: A seat's points, in object space (moved with the mesh).
SEAT_POINTS = ("seat_back", "seat_foot", "seat_knee")


def scale_fix_problem(obj: bpy.types.Object) -> str | None:
    """Why the object's scale cannot be applied (Check Physics then offers no Fix), or None."""
    if obj.type != "MESH":
        return "only a mesh's scale can be applied"
    if obj.data.library is not None or obj.data.override_library is not None:
        return f"its mesh {obj.data.name} is linked from a library: make it local to apply " \
            "the scale"
    if {"scale", "delta_scale"} & animated_paths(obj):
        return "its scale is animated or driven: applied to the mesh, it would scale it " \
            "twice (remove the scale's keys or drivers first)"
    users = obj.data.users - obj.data.use_fake_user  # (a fake user is no object)
    if users > 1:
        return f"its mesh {obj.data.name} has {users} users: only a single-user " \
            "mesh's scale can be applied"
    own = [a * b for a, b in zip(obj.scale, obj.delta_scale, strict=True)]
    if obj.parent is not None and all(abs(f - 1.0) <= UNIT for f in own):
        return f"the scale comes from its parent {obj.parent.name}: fix it there"
    return None


def animated_paths(obj: bpy.types.Object) -> set[str]:
    """The properties of `obj` its action, NLA strips or drivers animate."""
    anim = obj.animation_data
    if anim is None:
        return set()
    paths = {driver.data_path for driver in anim.drivers}
    used = [(anim.action, getattr(anim, "action_slot", None)),
            *((strip.action, getattr(strip, "action_slot", None))
              for track in anim.nla_tracks for strip in track.strips)]
    for action, slot in used:
        if action is not None:
            paths.update(curve.data_path for curve in _curves(action, slot))
    return paths


def _curves(action: bpy.types.Action, slot: Any) -> list[Any]:
    """The F-curves of `action` that animate the slot `slot` (4.2: all of them)."""
    curves = getattr(action, "fcurves", None)  # (4.2–4.5; 5.x: in the action's layers)
    if curves is not None:
        return list(curves)
    if slot is None:
        return []
    bags = (strip.channelbag(slot) for layer in action.layers for strip in layer.strips)
    return [curve for bag in bags if bag is not None for curve in bag.fcurves]


def apply_scale(obj: bpy.types.Object) -> str:
    """Apply the object's scale to its single-user mesh and keep its physics in place."""
    problem = scale_fix_problem(obj)
    if problem:
        raise ValueError(problem)
    editing = bpy.context.object if bpy.context.mode != "OBJECT" else None
    if editing is not None:  # (Blender applies a scale in Object Mode only)
        raise ValueError(f"{editing.name} is in {editing.mode.replace('_', ' ').title()} "
                         "Mode: leave it first (Tab)")
    before = obj.matrix_world.copy()
    with bpy.context.temp_override(active_object=obj, object=obj, selected_objects=[obj],
                                   selected_editable_objects=[obj]):
        bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    bpy.context.view_layer.update()
    # old object space → new object space (the applied scale, exactly as Blender applied it)
    change = obj.matrix_world.inverted() @ before
    keep_in_place(obj.gltf_physics, change)
    return "scale applied to the mesh; shape sizes and offsets kept in the world"


def keep_in_place(props: bpy.types.PropertyGroup, change: Matrix) -> None:
    """Re-express the object-space settings in use after the object's space changed by
    `change`: the custom centre of mass and inertia frame, the shape, a seat's points and a
    wheel's size (its axis is X) and a gravity volume's figure."""
    linear = change.to_3x3()
    _keep_gravity(props, change)
    points = [*(("center_of_mass",) if props.center_of_mass_mode == "CUSTOM" else ()),
              *(("shape_offset",) if props.shape_type != "NONE" else ()),
              *(SEAT_POINTS if props.is_seat else ())]
    for name in points:
        setattr(props, name, change @ Vector(getattr(props, name)))
    if props.inertia_mode == "CUSTOM":
        props.inertia_orientation, _ = _frame(linear, Quaternion(props.inertia_orientation))
    if props.vehicle_part == "WHEEL":
        stretch = [linear.col[i].length for i in range(3)]
        props.wheel_width *= stretch[0]
        props.wheel_radius *= max(stretch[1], stretch[2])
    if props.shape_type == "NONE":
        return
    rotation, lengths = _frame(linear, Quaternion(props.shape_rotation))
    props.shape_rotation = rotation
    sx, sy, sz = lengths
    props.box_size = (props.box_size[0] * sx, props.box_size[1] * sy, props.box_size[2] * sz)
    props.plane_size = (props.plane_size[0] * sx, props.plane_size[1] * sy)
    props.radius *= max(lengths)
    across = max(sx, sy)
    props.radius_top *= across
    props.radius_bottom *= across
    props.height *= sz


def _keep_gravity(props: bpy.types.PropertyGroup, change: Matrix) -> None:
    """Re-express a gravity volume's object-space figure after the space changed: every
    type's settings, as the shape sizes are (a type picked later keeps its world size)."""
    if props.gravity_type == "NONE":
        return
    linear = change.to_3x3()
    sx, sy, sz = (linear.col[i].length for i in range(3))
    direction = Vector(props.gravity_direction)
    turned = linear @ direction
    if direction.length > 0 and turned.length > 0:
        props.gravity_direction = turned.normalized() * direction.length
    for point in props.gravity_line_points:  # a picked line object's points follow by itself
        point.co = change @ Vector(point.co)
    across = max(sx, sy)
    props.gravity_radius *= across
    size = props.gravity_shape_size
    props.gravity_shape_size = (size[0] * sx, size[1] * sy, size[2] * sz)
    props.gravity_shape_radius *= max(sx, sy, sz)
    props.gravity_shape_height *= sz
    top, bottom = props.gravity_shape_radius_top, props.gravity_shape_radius_bottom
    if linear.col[2].z < 0:  # local +Z now points to −Z: the ends swap
        top, bottom = bottom, top
    props.gravity_shape_radius_top = top * across
    props.gravity_shape_radius_bottom = bottom * across


def _frame(linear: Matrix, rotation: Quaternion) -> tuple[Quaternion, tuple[float, float, float]]:
    """A frame's rotation after `linear`, and how much `linear` stretches each of its axes.
    Z and then X keep their directions; Y completes a right-handed frame."""
    axes = linear @ rotation.to_matrix()
    x, y, z = (Vector(axes.col[i]) for i in range(3))
    lengths = (x.length, y.length, z.length)
    new_z = z.normalized()
    new_x = (x - x.dot(new_z) * new_z).normalized()
    new_y = new_z.cross(new_x)
    frame = Matrix((new_x, new_y, new_z)).transposed()
    return frame.to_quaternion(), lengths
