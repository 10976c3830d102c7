# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex hulls of evaluated meshes with Blender's own algorithm (`bmesh.ops.convex_hull`).

Points travel as numpy arrays (`foreach_get`/`foreach_set`); only the hull runs in bmesh.
Points strictly inside a polytope of extreme points are dropped first (exact, and cheap).
"""

from dataclasses import dataclass

import bmesh
import bpy
import numpy as np
from mathutils import Matrix

from ...hull import (
    ENGINE_MAX_POINTS,
    HullResult,
    discard_interior,
    select_hull_points,
    simplify_hull,
    spans_volume,
)

GEOMETRY_TYPES = frozenset({"MESH", "CURVE", "SURFACE", "FONT", "META"})
#: up to this many points go to bmesh as they are (filtering them costs more than it saves)
UNFILTERED_POINTS = 2000


@dataclass(frozen=True, slots=True)
class BlenderHull:
    """Hull vertices (float32, in the points' space) and the hull's volume."""

    points: np.ndarray
    volume: float


def evaluated_vertices(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> np.ndarray:
    """(N, 3) float32 vertex positions of the object's evaluated mesh, in object space
    (none for objects without geometry, such as empties, lights and cameras)."""
    if obj.type not in GEOMETRY_TYPES:
        return np.empty((0, 3), dtype=np.float32)
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    if mesh is None:
        return np.empty((0, 3), dtype=np.float32)
    try:
        co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", co)
    finally:
        evaluated.to_mesh_clear()
    return co.reshape(-1, 3)


def convex_hull_points(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> np.ndarray:
    """(N, 3) float32 vertices of the convex hull of the object's evaluated mesh (object
    space). Inputs without volume (a line, a single point) return their distinct points."""
    return hull_of_points(evaluated_vertices(obj, depsgraph)).points


def simplify_object_hull(
    obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, max_points: int = ENGINE_MAX_POINTS,
    matrix: Matrix | None = None,
) -> HullResult:
    """At most `max_points` hull vertices of the evaluated mesh keeping most of its volume,
    with the volume lost measured against Blender's full hull; with `matrix`, of the mesh's
    points moved by it (into another object's space).

    The result's `indices` refer to the rows of `convex_hull_points(obj, depsgraph)` (moved
    by `matrix`).
    """
    points = evaluated_vertices(obj, depsgraph)
    if matrix is not None and len(points):
        m = np.array(matrix, dtype=np.float64)
        points = (points @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
    hull = hull_of_points(points)
    return simplify_hull(hull.points, max_points, volume_before=hull.volume)


def simplified_hull_points(
    obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, max_points: int = ENGINE_MAX_POINTS,
) -> np.ndarray:
    """At most `max_points` hull vertices chosen as by `simplify_object_hull`, without
    Blender's full hull: the selection finds hull vertices itself, only the volume figure
    needs the full hull. (Blender's hull drops nearly coplanar vertices first, so the two
    may pick slightly different points.)"""
    vertices = evaluated_vertices(obj, depsgraph)
    candidates = vertices[discard_interior(vertices)] if len(vertices) >= 4 else vertices
    return candidates[select_hull_points(candidates, max_points)]


def hull_of_points(points: np.ndarray) -> BlenderHull:
    """The convex hull's vertices and volume, computed by Blender."""
    data = np.ascontiguousarray(points, dtype=np.float32).reshape(-1, 3)
    candidates = data[discard_interior(data)] if len(data) >= 4 else data
    used, volume = _hull_vertex_mask(candidates)
    if not used.any():  # no faces: a line, a point or nothing
        return BlenderHull(np.unique(data, axis=0), 0.0)
    return BlenderHull(candidates[used], volume)


#: From how many points a hull's bmesh is filled through a scratch mesh (faster per point,
#: but removing a data-block costs time in proportion to the file's: a tool run on many small
#: objects would grow with their square)
SCRATCH_MESH_POINTS = 20_000


def _hull_vertex_mask(points: np.ndarray) -> tuple[np.ndarray, float]:
    """Which points are vertices of Blender's hull of them, and the hull's volume."""
    scratch = bpy.data.meshes.new("gltf_physics_hull_scratch") \
        if len(points) >= SCRATCH_MESH_POINTS else None
    bm = None
    try:
        if scratch is not None:
            bm = _bmesh_of_points(scratch, points)
        else:
            bm = bmesh.new()
            add = bm.verts.new
            for point in points.tolist():
                add(point)
        unused = bmesh.ops.convex_hull(bm, input=bm.verts)["geom_unused"]
        bm.verts.index_update()
        used = np.ones(len(points), dtype=bool)
        used[[v.index for v in unused if isinstance(v, bmesh.types.BMVert)]] = False
        return used, bm.calc_volume()
    finally:
        if bm is not None:
            bm.free()
        if scratch is not None:
            bpy.data.meshes.remove(scratch)


def hull_triangles(points: np.ndarray) -> np.ndarray:
    """The faces of Blender's convex hull of `points` as an (n, 3, 3) float64 array of
    outward-wound triangles: empty for inputs without volume (Blender would give a flat
    one-sided surface), as the pure hull. Makes no data-block. Raises ValueError for NaN or
    infinite coordinates."""
    data = np.ascontiguousarray(points, dtype=np.float32).reshape(-1, 3)
    if not np.isfinite(data).all():
        raise ValueError("points must be finite")
    if not spans_volume(data):
        return np.empty((0, 3, 3))
    if len(data) > UNFILTERED_POINTS:
        data = data[discard_interior(data)]
    bm = bmesh.new()
    try:
        add = bm.verts.new
        for point in data.tolist():
            add(point)
        faces = bmesh.ops.convex_hull(bm, input=bm.verts)["geom"]
        faces = [face for face in faces if isinstance(face, bmesh.types.BMFace)]
        faces = bmesh.ops.triangulate(bm, faces=faces)["faces"]  # (they come as triangles)
        bm.verts.index_update()
        corners = np.array([[vert.index for vert in face.verts] for face in faces],
                           dtype=np.intp).reshape(-1, 3)
    finally:
        bm.free()
    return data[corners].astype(np.float64)


def hull_mesh(name: str, points: np.ndarray) -> bpy.types.Mesh:
    """A new mesh holding the convex hull of `points` (triangles; no loose vertices)."""
    mesh = bpy.data.meshes.new(name)
    data = np.ascontiguousarray(points, dtype=np.float32).reshape(-1, 3)
    bm = _bmesh_of_points(mesh, data)
    try:
        bmesh.ops.convex_hull(bm, input=bm.verts)
        loose = [v for v in bm.verts if not v.link_faces]
        bmesh.ops.delete(bm, geom=loose, context="VERTS")
        bm.to_mesh(mesh)
    finally:
        bm.free()
    mesh.update()
    return mesh


def _bmesh_of_points(mesh: bpy.types.Mesh, points: np.ndarray) -> bmesh.types.BMesh:
    """A bmesh of loose vertices, filled through `mesh` (much faster than `verts.new`)."""
    mesh.clear_geometry()
    mesh.vertices.add(len(points))
    mesh.vertices.foreach_set("co", points.ravel())
    bm = bmesh.new()
    bm.from_mesh(mesh)
    return bm
