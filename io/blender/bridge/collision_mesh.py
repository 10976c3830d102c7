# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision geometry between Blender meshes and glTF position-only triangle meshes."""

from typing import Any

import bpy
import numpy as np
from mathutils import Matrix

from ...mesh_data import MAX_ACCESSOR_COUNT, MAX_DOCUMENT_COUNT
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


class UnbackedClaims:
    """The elements an import's accessors claim without bytes behind them (no bufferView:
    zeros, which the glTF add-on allocates as claimed): at most `MAX_ACCESSOR_COUNT` in a
    mesh and `MAX_DOCUMENT_COUNT` in the whole import. An accessor with a bufferView is read
    only as far as its bytes go."""

    def __init__(self) -> None:
        self.total = 0

    def take(self, gltf: Any, primitives: list[Any]) -> None:
        """Count the primitives' unbacked elements; ValueError past a cap (nothing read)."""
        claimed = sum(_unbacked(gltf, index) for p in primitives
                      for index in (p.attributes["POSITION"], p.indices) if index is not None)
        if claimed > MAX_ACCESSOR_COUNT or self.total + claimed > MAX_DOCUMENT_COUNT:
            limit = MAX_ACCESSOR_COUNT if claimed > MAX_ACCESSOR_COUNT else MAX_DOCUMENT_COUNT
            raise ValueError(f"its accessors claim {claimed:,} elements without data, past "
                             f"the {limit:,} read at most")
        self.total += claimed


def read_collision_mesh(gltf: Any, mesh_index: int, name: str, claims: UnbackedClaims
                        ) -> tuple[bpy.types.Mesh | None, str]:
    """`blender_mesh_from_gltf`, for a file being imported: (the mesh, "") or (None, why it
    could not be read). A mesh only a shape uses was never read by the importer: anything
    in it may be wrong, and nothing it merely claims is allocated."""
    try:
        mesh = blender_mesh_from_gltf(gltf, mesh_index, name, claims)
    except Exception as exc:  # a bad accessor, buffer or index: the add-on's reader raises
        return None, str(exc) or type(exc).__name__
    return mesh, "" if mesh is not None else "it has no triangles"


def blender_mesh_from_gltf(gltf: Any, mesh_index: int, name: str,
                           claims: UnbackedClaims | None = None) -> bpy.types.Mesh | None:
    """A Blender mesh from every triangle primitive of a glTF mesh (positions only); raises
    ValueError when its accessors claim more elements without data than `claims` allows."""
    meshes = gltf.data.meshes or []
    if not 0 <= mesh_index < len(meshes):
        return None
    primitives = [p for p in meshes[mesh_index].primitives or []
                  if (p.attributes or {}).get("POSITION") is not None and p.mode in (None, 4)]
    (claims or UnbackedClaims()).take(gltf, primitives)
    points: list[np.ndarray] = []
    faces: list[np.ndarray] = []
    offset = 0
    for primitive in primitives:
        position = primitive.attributes["POSITION"]
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


def _unbacked(gltf: Any, accessor_index: Any) -> int:
    """The elements an accessor claims with no bytes behind them (0 with a bufferView)."""
    accessors = gltf.data.accessors or []
    if isinstance(accessor_index, bool) or not isinstance(accessor_index, int) \
            or not 0 <= accessor_index < len(accessors):
        raise ValueError(f"accessor {accessor_index!r} does not exist")
    accessor = accessors[accessor_index]
    count = accessor.count
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"accessor {accessor_index} has no valid count ({count!r})")
    return 0 if accessor.buffer_view is not None else count
