# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision geometry between Blender meshes and glTF position-only triangle meshes."""

from typing import Any

import bpy
import numpy as np
from mathutils import Matrix

from .. import gltf_compat


def evaluated_triangles(
    source: bpy.types.Object, depsgraph: bpy.types.Depsgraph, to_target: Matrix, yup: bool,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Welded positions (in the target's space, glTF axes) and triangles of `source`."""
    evaluated = source.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        mesh.calc_loop_triangles()
        count = len(mesh.vertices)
        if count == 0 or len(mesh.loop_triangles) == 0:
            return None
        co = np.empty(count * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", co)
        triangles = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int32)
        mesh.loop_triangles.foreach_get("vertices", triangles)
    finally:
        evaluated.to_mesh_clear()
    matrix = np.array(to_target, dtype=np.float64)
    points = co.reshape(-1, 3) @ matrix[:3, :3].T + matrix[:3, 3]
    if yup:
        points = np.stack([points[:, 0], points[:, 2], -points[:, 1]], axis=1)
    return points.astype(np.float32), triangles.reshape(-1, 3)


def gltf_mesh_from_object(
    name: str, source: bpy.types.Object, depsgraph: bpy.types.Depsgraph, to_target: Matrix,
    yup: bool,
) -> Any | None:
    """A glTF mesh (POSITION + indices) of `source`'s evaluated geometry, or None if empty."""
    data = evaluated_triangles(source, depsgraph, to_target, yup)
    if data is None:
        return None
    return gltf_compat.new_position_mesh(name, *data)


def blender_mesh_from_gltf(gltf: Any, mesh_index: int, name: str) -> bpy.types.Mesh | None:
    """A Blender mesh from every triangle primitive of a glTF mesh (positions only)."""
    meshes = gltf.data.meshes or []
    if not 0 <= mesh_index < len(meshes):
        return None
    points: list[np.ndarray] = []
    faces: list[np.ndarray] = []
    offset = 0
    for primitive in meshes[mesh_index].primitives or []:
        position = (primitive.attributes or {}).get("POSITION")
        if position is None or primitive.mode not in (None, 4):
            continue
        xyz = gltf_compat.read_accessor(gltf, position).reshape(-1, 3).astype(np.float64)
        if primitive.indices is None:
            tris = np.arange(len(xyz), dtype=np.int64)
        else:
            tris = gltf_compat.read_accessor(gltf, primitive.indices).astype(np.int64).ravel()
        tris = tris[: len(tris) - len(tris) % 3].reshape(-1, 3)
        if len(tris) and (tris.min() < 0 or tris.max() >= len(xyz)):
            continue  # indices out of range: skip this primitive rather than crash
        points.append(np.stack([xyz[:, 0], -xyz[:, 2], xyz[:, 1]], axis=1))
        faces.append(tris + offset)
        offset += len(xyz)
    if not points:
        return None
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(np.concatenate(points).tolist(), [], np.concatenate(faces).tolist())
    mesh.update()
    return mesh
