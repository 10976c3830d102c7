# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision geometry between Blender meshes and glTF position-only triangle meshes."""

from pathlib import Path
from typing import Any

import bpy
import numpy as np
from mathutils import Matrix

from ... import external_reader
from ...diagnostics import Report, listing
from ...mesh_data import (
    DRACO,
    FEW_CORNERS,
    MAX_ACCESSOR_COUNT,
    MAX_DOCUMENT_COUNT,
    NO_POSITION,
    TRIANGLE_MODES,
    indices_problem,
    mode_note,
    position_problem,
    triangle_corners,
)
from .. import gltf_compat

#: the name suffix of a collision mesh (an import's proxy object, an export's built mesh)
COLLISION_SUFFIX = ".collision"


def evaluated_triangles(
    source: bpy.types.Object, depsgraph: bpy.types.Depsgraph, to_target: Matrix, yup: bool,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Welded positions (in the target's space, glTF axes) and triangles of `source`: the
    vertices the triangles use (loose ones are no part of a solid), wound outward in the
    target's space (a mirroring matrix turns them inside out: reversed)."""
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
    triangles = triangles.reshape(-1, 3)
    used, triangles = np.unique(triangles, return_inverse=True)
    triangles = triangles.reshape(-1, 3).astype(np.int32)
    matrix = np.array(to_target, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # (a scale beyond float: no turn)
        mirrored = np.linalg.det(matrix[:3, :3]) < 0
    if mirrored:
        triangles = triangles[:, ::-1]
    with np.errstate(invalid="ignore", over="ignore"):
        points = co.reshape(-1, 3)[used] @ matrix[:3, :3].T + matrix[:3, 3]
    if not np.isfinite(points).all():  # (a transform beyond float's range: no place)
        return None
    if yup:
        points = np.stack([points[:, 0], points[:, 2], -points[:, 1]], axis=1)
    return points.astype(np.float32), np.ascontiguousarray(triangles)


def gltf_mesh_from_object(
    name: str, source: bpy.types.Object, depsgraph: bpy.types.Depsgraph, to_target: Matrix,
    yup: bool,
) -> Any | None:
    """A glTF mesh (POSITION + indices) of `source`'s evaluated geometry, or None if empty."""
    data = evaluated_triangles(source, depsgraph, to_target, yup)
    if data is None:
        return None
    return gltf_compat.new_position_mesh(name, *data)


class MeshClaims:
    """What an import's collision meshes may read beyond the file's own data: elements its
    accessors claim without bytes behind them (no bufferView: zeros, which the glTF add-on
    allocates as claimed), and every element of an accessor read again (a file can list one
    accessor in thousands of primitives or meshes, each read anew): at most
    `MAX_ACCESSOR_COUNT` in a mesh and `MAX_DOCUMENT_COUNT` in the whole import. An
    accessor with a bufferView is read once for free, and only as far as its bytes go. Each
    mesh is read once per import, for every shape and gravity volume naming it (`meshes`)."""

    def __init__(self) -> None:
        self.total = 0
        self.read: set[int] = set()  # accessors with a bufferView read so far
        self.meshes: dict[int, tuple[bpy.types.Mesh | None, str]] = {}  # read_collision_mesh

    def take(self, gltf: Any, primitives: list[Any]) -> None:
        """Count the primitives' claimed elements; ValueError past a cap (nothing read)."""
        claimed, backed = 0, set()
        for index in _accessor_indices(primitives):
            count, has_bytes = _claim(gltf, index)
            if has_bytes and index not in self.read and index not in backed:
                backed.add(index)  # (its first read: the file's own data)
            else:
                claimed += count
        if claimed > MAX_ACCESSOR_COUNT or self.total + claimed > MAX_DOCUMENT_COUNT:
            limit = MAX_ACCESSOR_COUNT if claimed > MAX_ACCESSOR_COUNT else MAX_DOCUMENT_COUNT
            raise ValueError(f"its accessors claim {claimed:,} elements without data or read "
                             f"again, past the {limit:,} read at most")
        self.total += claimed
        self.read |= backed


class MeshNotes:
    """What an import's collision meshes lost, said once per mesh when the import is done
    (a mesh shared by many shapes was said once per shape)."""

    def __init__(self) -> None:
        self.found: dict[Any, tuple[str, bool, list[str]]] = {}

    def add(self, mesh_index: Any, owner: str, mesh: bpy.types.Mesh | None, why: str) -> None:
        """Note a read (`read_collision_mesh`'s result) for `owner`'s shape."""
        if mesh is None or why:
            owners = self.found.setdefault(mesh_index, (why, mesh is None, []))[2]
            if owner not in owners:
                owners.append(owner)

    def say(self, report: Report) -> None:
        for index, (why, lost, owners) in self.found.items():
            if lost:
                report.warn("proxy-mesh", listing(owners, 3),
                            f"mesh {index} is unreadable ({why}): the shape has no mesh")
            else:
                report.warn("mesh-part-left-out", listing(owners, 3),
                            f"mesh {index}: {why}: left out of the shape")
        self.found.clear()


def read_collision_mesh(gltf: Any, mesh_index: int, name: str, claims: MeshClaims
                        ) -> tuple[bpy.types.Mesh | None, str]:
    """`blender_mesh_from_gltf`, for a file being imported: (the mesh, what of it was left
    out, or "") or (None, why it could not be read), once per mesh and import
    (`claims.meshes`: every proxy and gravity shape of that mesh shares it). A mesh only a
    shape uses was never read by the importer: anything in it may be wrong, and nothing it
    merely claims is allocated."""
    known = type(mesh_index) is int
    if known and mesh_index in claims.meshes:
        return claims.meshes[mesh_index]
    notes: list[str] = []
    try:
        mesh = blender_mesh_from_gltf(gltf, mesh_index, name, claims, notes)
        why = "; ".join(dict.fromkeys(notes))  # (said once each)
        found = mesh, why if mesh is not None or why else "it has no triangles"
    except Exception as exc:  # a bad accessor, buffer or index: the add-on's reader raises
        found = None, str(exc) or type(exc).__name__
    if known:
        claims.meshes[mesh_index] = found
    return found


def blender_mesh_from_gltf(gltf: Any, mesh_index: int, name: str,
                           claims: MeshClaims | None = None,
                           notes: list[str] | None = None) -> bpy.types.Mesh | None:
    """A Blender mesh from every triangle primitive of a glTF mesh (triangles, strips and
    fans; positions only; a primitive repeating an earlier one's accessors adds nothing and
    is left out); a primitive giving no triangles is left out, why said in `notes` (the
    rules `MeshData` reads by). Raises ValueError when its accessors claim more elements
    than `claims` allows."""
    meshes = gltf.data.meshes or []
    if not 0 <= mesh_index < len(meshes):
        return None
    notes = [] if notes is None else notes
    kept = []
    for primitive in meshes[mesh_index].primitives or []:
        problem = NO_POSITION if (primitive.attributes or {}).get("POSITION") is None \
            else _primitive_problem(gltf, primitive)
        if problem:
            notes.append(problem)
        else:
            kept.append(primitive)
    distinct = {_accessors_of(p): p for p in reversed(kept)}
    primitives = list(reversed(distinct.values()))  # (the first of each, in file order)
    (claims or MeshClaims()).take(gltf, primitives)
    _refuse_outside_buffers(gltf, _accessor_indices(primitives))
    points: list[np.ndarray] = []
    faces: list[np.ndarray] = []
    offset = 0
    for primitive in primitives:
        position = primitive.attributes["POSITION"]
        xyz = gltf_compat.read_accessor(gltf, position).reshape(-1, 3).astype(np.float64)
        if not np.isfinite(xyz).all():
            notes.append("a primitive's positions are not all finite numbers")
            continue
        if primitive.indices is None:
            order = np.arange(len(xyz), dtype=np.int64)
        else:
            order = gltf_compat.read_accessor(gltf, primitive.indices).astype(np.int64).ravel()
        if len(order) and (order.min() < 0 or order.max() >= len(xyz)):
            notes.append(f"a primitive's indices pass its {len(xyz):,} vertices")
            continue
        corners = triangle_corners(order, 4 if primitive.mode is None else primitive.mode)
        if not len(corners):
            notes.append(FEW_CORNERS)
            continue
        points.append(np.stack([xyz[:, 0], -xyz[:, 2], xyz[:, 1]], axis=1))
        faces.append(corners + offset)
        offset += len(xyz)
    if not points:
        return None
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(np.concatenate(points).tolist(), [], np.concatenate(faces).tolist())
    mesh.validate(clean_customdata=False)  # (a file's faces repeated: one each, as Blender)
    mesh.update()
    return mesh


def _primitive_problem(gltf: Any, primitive: Any) -> str:
    """Why a primitive gives no collider triangles before anything is read ("" if none):
    its mode, a POSITION without data (Draco) or not VEC3, indices not unsigned integers."""
    mode = 4 if primitive.mode is None else primitive.mode
    if mode not in TRIANGLE_MODES:
        return mode_note(mode)
    accessors = gltf.data.accessors or []
    position = _accessor(accessors, primitive.attributes["POSITION"])
    if position is None:
        return ""  # (the add-on's reader says what is wrong with it)
    problem = position_problem(
        position.type, position.buffer_view is not None or position.sparse is not None,
        DRACO in (primitive.extensions or {}))
    if problem:
        return problem
    indices = _accessor(accessors, primitive.indices)
    return "" if indices is None else indices_problem(
        indices.component_type, indices.type,
        indices.buffer_view is not None or indices.sparse is not None)


def _accessor(accessors: list[Any], index: Any) -> Any:
    return accessors[index] if type(index) is int and 0 <= index < len(accessors) else None


def _accessor_indices(primitives: list[Any]) -> list[Any]:
    """The POSITION and indices accessors the primitives read."""
    return [index for p in primitives for index in (p.attributes["POSITION"], p.indices)
            if index is not None]


def _accessors_of(primitive: Any) -> Any:
    """What makes a primitive's triangles: its POSITION and indices accessors and its mode
    (the primitive itself when the file gives something else there)."""
    key = (primitive.attributes["POSITION"], primitive.indices, primitive.mode or 4)
    return key if all(type(i) is int or i is None for i in key) else id(primitive)


def _refuse_outside_buffers(gltf: Any, accessors: list[int]) -> None:
    """ValueError naming the first buffer behind `accessors` that the glTF add-on has not
    read and `external_reader` would not (outside the asset's folder, not a regular file, a
    byteLength past the file): a mesh only a shape uses is read for us, not by the
    importer, so its files are ours to vouch for."""
    data = gltf.data
    views, buffers = data.buffer_views or [], data.buffers or []
    folder = Path(gltf.filename).absolute().parent
    for index in accessors:
        accessor = (data.accessors or [])[index]
        sparse = accessor.sparse
        for view in (accessor.buffer_view,
                     *(getattr(getattr(sparse, part, None), "buffer_view", None)
                       for part in ("indices", "values"))):
            if type(view) is not int or not 0 <= view < len(views):
                continue  # (the add-on's reader says what is wrong with it)
            buffer = views[view].buffer
            if type(buffer) is not int or not 0 <= buffer < len(buffers) \
                    or buffer in gltf.buffers:
                continue
            refusal = external_reader.buffer_refusal(
                {"uri": buffers[buffer].uri, "byteLength": buffers[buffer].byte_length}, folder)
            if refusal is not None:
                raise ValueError(f"buffer {buffer} {refusal}")


def _claim(gltf: Any, accessor_index: Any) -> tuple[int, bool]:
    """The elements an accessor claims, and whether it has bytes behind them (a bufferView;
    read only as far as they go)."""
    accessors = gltf.data.accessors or []
    if isinstance(accessor_index, bool) or not isinstance(accessor_index, int) \
            or not 0 <= accessor_index < len(accessors):
        raise ValueError(f"accessor {accessor_index!r} does not exist")
    accessor = accessors[accessor_index]
    count = accessor.count
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"accessor {accessor_index} has no valid count ({count!r})")
    return count, accessor.buffer_view is not None
