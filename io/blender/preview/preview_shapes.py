# SPDX-License-Identifier: GPL-3.0-or-later
"""The hidden helper meshes that stand for gltf_physics shapes in the preview (see
native_rigid_body.py): Blender's own shape when it gives the exact dimensions, else the parts
of a compound."""

import math
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING

import bmesh
import bpy
from mathutils import Matrix, Quaternion, Vector

from ..bridge.fitting import Fit, fit_shape, fit_signature, local_bounds
from ..bridge.to_model import dimensions_of
from ..settings.properties import MESH_LIKE_TYPES
from ..tools.native_common import NATIVE_MESH_SHAPE, TOLERANCE
from ..tools.ownership import TAG_PREFIX

if TYPE_CHECKING:
    from .native_rigid_body import PreviewBody

HELPER_TAG = TAG_PREFIX + "preview_helper"
PREVIEW_ID_TAG = TAG_PREFIX + "preview_id"  # on the scene: the token its preview's tags hold
PLANE_THICKNESS = 1.0
INFINITE_PLANE = 1000.0
HULL_SEGMENTS = 24
ANALYTIC_SHAPES = frozenset({"BOX", "SPHERE", "CAPSULE", "CYLINDER"})



def add_shapes(
    world: bpy.types.RigidBodyWorld, body: "PreviewBody", carrier: bpy.types.Object
) -> bool:
    """Give the carrier its collision shape; False when it has nothing to collide with."""
    settings = carrier.rigid_body
    own = _own_shape(body.colliders[0]) if body.colliders == (carrier,) else None
    if own is not None:
        settings.collision_shape = own
        settings.mesh_source = "FINAL"
        return True
    helpers = [_part_helper(world, part, body.obj.matrix_world, carrier)
               for part in body.colliders]
    helpers = [helper for helper in helpers if helper is not None]
    for helper in helpers:
        helper.rigid_body.type = settings.type
    settings.collision_shape = "COMPOUND" if helpers else "SPHERE"
    return bool(helpers)


def _own_shape(obj: bpy.types.Object) -> str | None:
    """The Blender shape that, built from the object's own geometry, is the gltf_physics one."""
    props = obj.gltf_physics
    kind = props.shape_type
    if kind in NATIVE_MESH_SHAPE:
        return NATIVE_MESH_SHAPE[kind] if props.mesh_source == "SELF" else None
    bounds = local_bounds(obj)
    if kind not in ANALYTIC_SHAPES or bounds is None:
        return None
    if _turn(obj) != Matrix.Identity(4):
        return None
    fitted = fit_shape(kind, bounds)
    centred = all(abs(c) < TOLERANCE for c in fitted.offset)
    same = all(
        math.isclose(a, b, abs_tol=TOLERANCE)
        for a, b in zip(fit_signature(kind, fitted), fit_signature(kind, dimensions_of(obj, kind)),
                        strict=True)
    )
    return kind if centred and same else None


def _turn(obj: bpy.types.Object) -> Matrix:
    """The custom shape rotation as a 4×4 matrix (identity for fitted shapes)."""
    props = obj.gltf_physics
    if props.size_mode != "CUSTOM":
        return Matrix.Identity(4)
    return Quaternion(props.shape_rotation).normalized().to_matrix().to_4x4()


def _part_helper(
    world: bpy.types.RigidBodyWorld, part: bpy.types.Object, body_matrix: Matrix,
    carrier: bpy.types.Object,
) -> bpy.types.Object | None:
    """A hidden compound child of the carrier shaped like the part's gltf_physics shape."""
    props = part.gltf_physics
    to_body = body_matrix.inverted_safe()
    name = f"{part.name}.shape"
    if props.shape_type in NATIVE_MESH_SHAPE:
        source = part if props.mesh_source == "SELF" else props.mesh_object
        has_geometry = source is not None and source.type in MESH_LIKE_TYPES \
            and local_bounds(source) is not None
        mesh = _mesh_copy(source, to_body @ source.matrix_world) if has_geometry else None
        if mesh is None:
            return None
        helper = new_helper(world, name, mesh, carrier, Matrix.Identity(4))
        helper.rigid_body.collision_shape = NATIVE_MESH_SHAPE[props.shape_type]
        return helper
    fit = dimensions_of(part, props.shape_type)
    frame = to_body @ part.matrix_world @ Matrix.Translation(fit.offset) @ _turn(part)
    location, rotation, scale = frame.decompose()
    mesh, shape = _analytic_mesh(props.shape_type, fit, scale)
    helper = new_helper(world, name, mesh, carrier, Matrix.LocRotScale(location, rotation, None))
    helper.rigid_body.collision_shape = shape
    return helper


def _analytic_mesh(kind: str, fit: Fit, scale: Vector) -> tuple[bpy.types.Mesh, str]:
    """A mesh whose bounds (or hull) are the shape, scaled into the carrier's units."""
    bm = bmesh.new()
    tapered = kind in ("CAPSULE", "CYLINDER") and not math.isclose(
        fit.radius_top, fit.radius_bottom, abs_tol=TOLERANCE
    )
    if kind == "PLANE":
        size = (fit.plane_size[0] or INFINITE_PLANE, fit.plane_size[1] or INFINITE_PLANE,
                PLANE_THICKNESS)
        _add_box(bm, size, (0.0, 0.0, -PLANE_THICKNESS / 2))
    elif tapered and kind == "CYLINDER":
        bmesh.ops.create_cone(bm, cap_ends=True, segments=HULL_SEGMENTS,
                              radius1=fit.radius_bottom, radius2=fit.radius_top, depth=fit.height)
    elif tapered:
        for radius, z in ((fit.radius_bottom, -fit.height / 2), (fit.radius_top, fit.height / 2)):
            sphere = bmesh.ops.create_uvsphere(bm, u_segments=HULL_SEGMENTS,
                                               v_segments=HULL_SEGMENTS // 2, radius=radius)
            bmesh.ops.translate(bm, vec=(0.0, 0.0, z), verts=sphere["verts"])
    else:
        _add_box(bm, _analytic_extents(kind, fit), (0.0, 0.0, 0.0))
    bmesh.ops.scale(bm, vec=scale, verts=bm.verts)
    mesh = bpy.data.meshes.new(f"{kind.lower()}.preview")
    bm.to_mesh(mesh)
    bm.free()
    hull = kind == "PLANE" or tapered
    return mesh, "CONVEX_HULL" if hull else kind


def _analytic_extents(kind: str, fit: Fit) -> tuple[float, float, float]:
    """Bounds from which Blender derives exactly this box, sphere, capsule or cylinder."""
    if kind == "BOX":
        return fit.size  # type: ignore[return-value]
    if kind == "SPHERE":
        return (2 * fit.radius,) * 3  # type: ignore[return-value]
    diameter = 2 * fit.radius_bottom
    length = fit.height + diameter if kind == "CAPSULE" else fit.height
    return diameter, diameter, length


def box_mesh(size: tuple[float, float, float]) -> bpy.types.Mesh:
    bm = bmesh.new()
    _add_box(bm, size, (0.0, 0.0, 0.0))
    mesh = bpy.data.meshes.new("box.preview")
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def _add_box(bm: bmesh.types.BMesh, size: Iterable[float], center: Iterable[float]) -> None:
    box = bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=tuple(size), verts=box["verts"])
    bmesh.ops.translate(bm, vec=tuple(center), verts=box["verts"])


def _mesh_copy(source: bpy.types.Object, matrix: Matrix) -> bpy.types.Mesh | None:
    """The source's evaluated mesh, transformed by `matrix`; None when it has no vertices."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    mesh = bpy.data.meshes.new_from_object(source.evaluated_get(depsgraph))
    if not mesh.vertices:
        bpy.data.meshes.remove(mesh)
        return None
    mesh.transform(matrix)
    return mesh


def preview_id(scene: bpy.types.Scene) -> str:
    """The token naming `scene`'s preview in its tags (a string, not the scene itself: an
    object appended from a file saved with its preview on must not pull in that scene)."""
    token = scene.get(PREVIEW_ID_TAG)
    if not isinstance(token, str):
        token = scene[PREVIEW_ID_TAG] = uuid.uuid4().hex
    return token


def new_helper(
    world: bpy.types.RigidBodyWorld, name: str, mesh: bpy.types.Mesh,
    parent: bpy.types.Object | None, matrix: Matrix,
) -> bpy.types.Object:
    """A hidden mesh object in the rigid body collection only (Blender adds its rigid body)."""
    helper = bpy.data.objects.new(name, mesh)
    helper[HELPER_TAG] = preview_id(world.id_data)  # the scene whose preview made it
    helper.parent = parent
    helper.matrix_basis = matrix
    world.collection.objects.link(helper)
    return helper

