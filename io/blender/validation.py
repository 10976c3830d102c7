# SPDX-License-Identifier: GPL-3.0-or-later
"""Scene checks: what would export badly or differently from what the artist expects.

Each problem names its object, a stable code, a message and, where one exists, a fix.
"""

from collections.abc import Iterator
from dataclasses import dataclass

import bpy

from .fitting import MIN_SIZE, local_bounds
from .joint_bridge import body_of
from .properties import MESH_SHAPE_ITEMS

ENGINE_MAX_HULL_POINTS = 255
THIN = 0.01
SHAPE_FIXES = {"make-convex": ("CONVEX", "Convex Hull"), "make-box": ("BOX", "Box"),
               "make-sphere": ("SPHERE", "Sphere")}
MOVING = frozenset({"DYNAMIC", "KINEMATIC"})
ROUND = frozenset({"SPHERE", "CAPSULE", "CYLINDER"})


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding; `fix` is a code understood by `apply_fix`, or "" when none applies."""

    obj: str
    code: str
    message: str
    fix: str = ""


def validate_scene(scene: bpy.types.Scene) -> list[Problem]:
    """Every problem in `scene`, objects in name order."""
    fmt = scene.gltf_physics.export_format
    exported = {obj.name for obj in bpy.context.view_layer.objects} \
        if bpy.context.scene == scene else {o.name for o in scene.objects}
    problems: list[Problem] = []
    for obj in sorted(scene.objects, key=lambda o: o.name):
        problems.extend(_object_problems(obj, fmt, obj.name in exported))
    return problems


def _object_problems(obj: bpy.types.Object, fmt: str, exported: bool) -> Iterator[Problem]:
    props = obj.gltf_physics
    tagged = (props.motion_type != "NONE" or props.shape_type != "NONE"
              or props.is_compound_trigger or props.joint_type != "NONE"
              or props.vehicle_part != "NONE" or props.is_seat)
    if tagged and not exported:
        yield Problem(obj.name, "not-exported",
                      "has physics but is in an excluded collection: it will not be exported")
    if props.shape_type != "NONE":
        yield from _shape_problems(obj, fmt)
    if props.is_compound_trigger and props.use_filter:
        yield Problem(obj.name, "compound-trigger-filter",
                      "a compound trigger cannot carry a filter: put it on its member shapes",
                      "move-filter-to-members")
    if props.joint_type != "NONE":
        yield from _joint_problems(obj)
    if props.vehicle_part != "NONE" and not _under_vehicle(obj):
        yield Problem(obj.name, "part-outside-vehicle",
                      f"a {props.vehicle_part.lower().replace('_', ' ')} must be below a "
                      "vehicle body (a Dynamic body marked Vehicle)")


def _shape_problems(obj: bpy.types.Object, fmt: str) -> Iterator[Problem]:
    props = obj.gltf_physics
    kind = props.shape_type
    body = body_of(obj)
    if kind == "TRIMESH" and body is not None and body.gltf_physics.motion_type in MOVING:
        yield Problem(obj.name, "moving-trimesh",
                      "a triangle mesh on a moving body: engines need a convex hull", "make-convex")
    scale = obj.matrix_world.to_scale()
    if any(s < 0 for s in scale):
        yield Problem(obj.name, "negative-scale", "negative scale on a shape", "apply-scale")
    elif kind in ROUND and max(scale) - min(scale) > 1e-4 * max(scale):
        yield Problem(obj.name, "non-uniform-scale",
                      f"non-uniform scale distorts a {kind.lower()} in most engines",
                      "apply-scale" if obj.type == "MESH" else "")
    if kind == "PLANE" and fmt == "OMI":
        yield Problem(obj.name, "plane-in-omi", "OMI has no plane: it is written as a thin box",
                      "make-box")
    if kind == "CONVEX":
        yield from _hull_problems(obj)
    yield from _size_problems(obj)


def _size_problems(obj: bpy.types.Object) -> Iterator[Problem]:
    props = obj.gltf_physics
    kind = props.shape_type
    if props.size_mode == "FIT":
        bounds = local_bounds(obj)
        if bounds is None:
            if kind not in MESH_SHAPE_ITEMS:
                yield Problem(obj.name, "no-bounds", "Fit to Mesh on an object without a mesh")
            return
        extents = [hi - lo for lo, hi in zip(*bounds, strict=True)]
        flat = [e for e in extents if e <= MIN_SIZE]
        if kind == "BOX" and flat:
            yield Problem(obj.name, "degenerate-size", "the mesh is flat: the box has no depth")
        if kind == "CAPSULE" and extents[2] < max(extents[0], extents[1]):
            yield Problem(obj.name, "short-capsule",
                          "the mesh is shorter than the capsule's diameter", "make-sphere")
        return
    sizes = {"BOX": tuple(props.box_size), "SPHERE": (props.radius,),
             "CAPSULE": (max(props.radius_top, props.radius_bottom),),
             "CYLINDER": (props.height, max(props.radius_top, props.radius_bottom))}.get(kind, ())
    if any(s <= MIN_SIZE for s in sizes):
        yield Problem(obj.name, "degenerate-size", "a zero size makes the shape degenerate",
                      "fit" if local_bounds(obj) is not None else "thicken")


def _hull_problems(obj: bpy.types.Object) -> Iterator[Problem]:
    from .hull import convex_hull_points  # numpy and bmesh only when a hull is checked

    props = obj.gltf_physics
    source = obj if props.mesh_source == "SELF" else props.mesh_object
    if source is None:
        yield Problem(obj.name, "hull-no-mesh", "the convex hull has no mesh")
        return
    points = convex_hull_points(source, bpy.context.evaluated_depsgraph_get())
    if len(points) > ENGINE_MAX_HULL_POINTS:
        yield Problem(obj.name, "hull-too-many-points",
                      f"the hull has {len(points)} points (engines take {ENGINE_MAX_HULL_POINTS})",
                      "simplify-hull")


def _joint_problems(obj: bpy.types.Object) -> Iterator[Problem]:
    props = obj.gltf_physics
    attachment = props.joint_attachment
    other = body_of(attachment) if attachment is not None else props.joint_connected_body
    sides = [side for side in (body_of(obj), other) if side is not None]
    if attachment is None and props.joint_connected_body is None:
        yield Problem(obj.name, "joint-unconnected", "the joint has no connected body")
    elif not any(side.gltf_physics.motion_type == "DYNAMIC" for side in sides):
        yield Problem(obj.name, "joint-not-dynamic", "neither joined body is dynamic")


def _under_vehicle(obj: bpy.types.Object) -> bool:
    parent = obj.parent
    while parent is not None:
        props = parent.gltf_physics
        if props.is_vehicle and props.motion_type == "DYNAMIC":
            return True
        parent = parent.parent
    return False


def apply_fix(obj: bpy.types.Object, fix: str) -> str:
    """Apply one fix; returns what was done."""
    props = obj.gltf_physics
    if fix in SHAPE_FIXES:
        props.shape_type, label = SHAPE_FIXES[fix]
        return f"shape set to {label}"
    if fix == "fit":
        props.size_mode = "FIT"
        return "dimensions fitted to the mesh"
    if fix == "thicken":
        props.box_size = tuple(max(s, THIN) for s in props.box_size)
        props.radius, props.height = max(props.radius, THIN), max(props.height, THIN)
        if max(props.radius_top, props.radius_bottom) <= MIN_SIZE:
            props.radius_top = props.radius_bottom = THIN
        return f"zero sizes raised to {THIN} m"
    if fix == "move-filter-to-members":
        return _move_filter_to_members(obj)
    if fix == "apply-scale":
        return _apply_scale(obj)
    if fix == "simplify-hull":
        from .hull_proxy import make_hull_proxy  # numpy and bmesh only when needed

        error = make_hull_proxy(obj)
        return f"hull simplified to a proxy ({error * 100:.2f} % of the volume lost)"
    raise ValueError(f"unknown fix {fix!r}")


def _move_filter_to_members(obj: bpy.types.Object) -> str:
    from .property_copy import copy_group

    members = [child for child in obj.children_recursive
               if child.gltf_physics.shape_role == "TRIGGER"
               and child.gltf_physics.shape_type != "NONE"]
    every = frozenset(p.identifier for p in obj.gltf_physics.bl_rna.properties)
    for member in members:
        copy_group(obj.gltf_physics, member.gltf_physics, skip=every - _FILTER_FIELDS)
    obj.gltf_physics.use_filter = False
    return f"filter moved to {len(members)} member(s)"


_FILTER_FIELDS = frozenset({"use_filter", "filter_layers", "filter_mode", "filter_targets"})


def _apply_scale(obj: bpy.types.Object) -> str:
    if obj.type != "MESH" or obj.data.users > 1:
        raise ValueError("only a single-user mesh's scale can be applied")
    with bpy.context.temp_override(active_object=obj, object=obj, selected_objects=[obj],
                                   selected_editable_objects=[obj]):
        bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    return "scale applied to the mesh"
