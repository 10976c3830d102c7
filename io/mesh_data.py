# SPDX-License-Identifier: GPL-3.0-or-later
"""Positions and triangles of a glTF document's meshes, read from its buffers. Pure numpy."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np

from .external_reader import read_buffer
from .hull import hull_triangles

_COMPONENTS = {5120: ("i1", 127), 5121: ("u1", 255), 5122: ("<i2", 32767),
               5123: ("<u2", 65535), 5125: ("<u4", 0), 5126: ("<f4", 0)}
_WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
#: Most elements (vertices or indices) read from one accessor, and from one mesh's
#: accessors together: a larger `count` is refused (ValueError) before anything is
#: allocated, with or without a bufferView (zeros) or sparse part.
MAX_ACCESSOR_COUNT: Final = 1 << 20
#: Most elements read from all of a document's meshes together.
MAX_DOCUMENT_COUNT: Final = 1 << 22
#: Primitive modes made of triangles: triangles, a triangle strip, a triangle fan.
TRIANGLE_MODES: Final = frozenset({4, 5, 6})
#: What a primitive of another mode is (it has no triangles: left out of a collider).
OTHER_MODES: Final = {0: "points", 1: "lines", 2: "a line loop", 3: "a line strip"}
#: Index component types (unsigned integers).
INDEX_TYPES: Final = frozenset({5121, 5123, 5125})
#: Why a primitive without a POSITION attribute gives no collider points.
NO_POSITION: Final = "a primitive has no POSITION"
#: Why a triangle primitive with fewer than three distinct corners in a row gives none.
FEW_CORNERS: Final = "a primitive has no triangle (too few indices, or only degenerate ones)"
#: The extension that compresses a primitive's attributes out of its accessors.
DRACO: Final = "KHR_draco_mesh_compression"


def triangle_corners(order: np.ndarray, mode: int) -> np.ndarray:
    """The (m, 3) vertex indices of the triangles of a primitive of `mode` (4 triangles, 5
    a strip, 6 a fan; glTF's rules) whose elements, in order, are `order`; a degenerate
    triangle (a vertex twice, as stitched strips have) is left out: it has no area."""
    count = len(order)
    if mode == 4:
        corners = order[: count // 3 * 3].reshape(-1, 3)
    elif count < 3:
        return np.empty((0, 3), dtype=order.dtype)
    else:
        i = np.arange(count - 2)
        if mode == 5:  # (every other triangle turned back, so all face one way)
            odd = i % 2
            corners = np.stack([order[i], order[i + 1 + odd], order[i + 2 - odd]], axis=1)
        else:
            corners = np.stack([order[i + 1], order[i + 2], np.full(count - 2, order[0])],
                               axis=1)
    a, b, c = corners.T
    return corners[(a != b) & (b != c) & (a != c)]


def mode_note(mode: object) -> str:
    """Why a primitive of a mode without triangles is left out of a collider."""
    kind = OTHER_MODES.get(mode, f"mode {mode!r}")  # type: ignore[call-overload]
    return f"a primitive of {kind} has no triangles"


def position_problem(kind: object, has_data: bool, compressed: bool) -> str:
    """Why a primitive's POSITION accessor (of type `kind`; `has_data`: a bufferView or a
    sparse part; `compressed`: the primitive is Draco-compressed) gives no collider points,
    or ""."""
    if not has_data:
        return "a primitive is Draco-compressed, which is not decoded" if compressed \
            else "a primitive's POSITION has no data (no bufferView)"
    if kind != "VEC3":
        return f"a primitive's POSITION is {kind}, not VEC3"
    return ""


def indices_problem(component_type: object, kind: object, has_data: bool) -> str:
    """Why a primitive's indices accessor (of `component_type` and type `kind`; `has_data`:
    a bufferView or a sparse part) gives no triangles, or ""."""
    if component_type not in INDEX_TYPES or kind != "SCALAR" or not has_data:
        return "a primitive's indices are not unsigned integers with data"
    return ""


class MeshData:
    """Reads mesh positions and triangles from a document's buffers (cached per mesh).

    Buffers come from a .glb's binary chunk, `data:` URIs or files in `base_dir`, through
    `external_reader` (files outside it are refused); a mesh that cannot be read raises
    ValueError (or KeyError, IndexError for a bad document): so does one whose accessors
    claim more elements than `MAX_ACCESSOR_COUNT`, than their bufferView's bytes hold, or
    than `MAX_DOCUMENT_COUNT` with the meshes read before it."""

    def __init__(self, gltf: dict[str, Any], base_dir: Path | str | None,
                 binary: bytes | None) -> None:
        self.gltf, self.base_dir, self.binary = gltf, base_dir, binary
        self.buffers: dict[int, bytes] = {}
        self.meshes: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
        #: Per mesh read, why some of its primitives were left out (`mesh`).
        self.notes: dict[Any, list[str]] = {}
        self.failed: dict[Any, str] = {}  # per mesh that could not be read, why
        self.elements = 0  # read so far, within MAX_DOCUMENT_COUNT
        self.hull = cache(lambda mesh: hull_triangles(self.mesh(mesh)[0]))

    def buffer(self, index: int) -> bytes:
        """The bytes of buffer `index`."""
        if index not in self.buffers:
            self.buffers[index] = read_buffer(self.gltf["buffers"][index], self.base_dir,
                                              self.binary)
        return self.buffers[index]

    def accessor(self, index: int) -> np.ndarray:
        """An accessor's values as floats, one row per element (its sparse part applied)."""
        acc = self.gltf["accessors"][index]
        code, norm = _COMPONENTS[acc["componentType"]]
        dtype, width, count = np.dtype(code), _WIDTHS[acc["type"]], self.count(index)
        if "bufferView" not in acc:
            data = np.zeros((count, width))
        else:
            data = self._view(acc["bufferView"], _offset(acc), dtype, width, count, index,
                              True)
        if "sparse" in acc:
            data = self._sparse(acc["sparse"], data, dtype, index)
        return np.maximum(data / norm, -1.0) if acc.get("normalized") and norm else data

    def _view(self, view_index: int, offset: int, dtype: np.dtype, width: int, count: int,
              index: int, strided: bool) -> np.ndarray:
        """`count` elements of `width` values of `dtype` at `offset` in a bufferView, as
        floats (`strided`: the view's byteStride applies)."""
        view = self.gltf["bufferViews"][view_index]
        buffer = self.buffer(view["buffer"])
        start = _offset(view) + offset
        packed = dtype.itemsize * width
        stride = _whole(view.get("byteStride") or packed, "byteStride") if strided else packed
        end = start + (count - 1) * stride + packed if count else start
        length = _whole(view.get("byteLength"), "byteLength")
        if end > _offset(view) + length or _offset(view) + length > len(buffer) or stride < 1:
            raise ValueError(f"accessor {index} claims {count:,} elements, more than its "
                             "bufferView's bytes hold: not read")
        return np.ndarray((count, width), dtype, buffer, start,
                          (stride, dtype.itemsize)).astype(float)

    def _sparse(self, sparse: Any, data: np.ndarray, dtype: np.dtype,
                index: int) -> np.ndarray:
        """`data` with the sparse part's values at its indices."""
        places, values = (sparse.get("indices"), sparse.get("values")) \
            if isinstance(sparse, dict) else (None, None)
        if not isinstance(places, dict) or not isinstance(values, dict):
            raise ValueError(f"accessor {index}'s sparse part is not valid: not read")
        count = _whole(sparse.get("count"), "sparse count")
        if count > len(data) or places.get("componentType") not in INDEX_TYPES:
            raise ValueError(f"accessor {index}'s sparse part is not valid: not read")
        at = self._view(places["bufferView"], _offset(places),
                        np.dtype(_COMPONENTS[places["componentType"]][0]), 1, count, index,
                        False).astype(np.int64).ravel()
        if len(at) and at.max() >= len(data):
            raise ValueError(f"accessor {index}'s sparse indices pass its {len(data):,} "
                             "elements: not read")
        data = data.copy()
        data[at] = self._view(values["bufferView"], _offset(values), dtype, data.shape[1],
                              count, index, False)
        return data

    def count(self, index: int) -> int:
        """Accessor `index`'s `count`, refused (ValueError) past `MAX_ACCESSOR_COUNT`."""
        count = self.gltf["accessors"][index]["count"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"accessor {index} has no valid count ({count!r})")
        if count > MAX_ACCESSOR_COUNT:
            raise ValueError(f"accessor {index} claims {count:,} elements, more than the "
                             f"{MAX_ACCESSOR_COUNT:,} read at most: not read")
        return count

    def mesh(self, index: Any) -> tuple[np.ndarray, np.ndarray]:
        """The positions (n×3) and triangles (m×3×3) of the mesh's triangle primitives
        (triangles, strips, fans). A primitive that gives none (another mode, no data, not
        finite, indices past its vertices, fewer than three) is left out, said in
        `notes[index]`; ValueError when every primitive is (remembered: a mesh is read, and
        counted against the caps, once)."""
        if index in self.failed:
            raise ValueError(self.failed[index])
        if index not in self.meshes:
            try:
                self.meshes[index] = self._read(index)
            except ValueError as exc:
                self.failed[index] = str(exc)
                self.notes.pop(index, None)  # (said as the mesh's failure, not twice)
                raise
        return self.meshes[index]

    def _read(self, index: Any) -> tuple[np.ndarray, np.ndarray]:
        primitives = self.gltf["meshes"][index].get("primitives", [])
        if not isinstance(primitives, list):
            raise ValueError(f"mesh {index}'s primitives are not a list")
        refusals = [self._refusal(primitive) for primitive in primitives]
        self._claim(index, [p for p, refused in zip(primitives, refusals, strict=True)
                            if not refused])
        points, triangles = [np.zeros((0, 3))], [np.zeros((0, 3, 3))]
        notes = self.notes.setdefault(index, [])
        for primitive, refused in zip(primitives, refusals, strict=True):
            found = refused or self._primitive(primitive)
            if isinstance(found, str):
                notes.append(found)
            else:
                points.append(found[0])
                triangles.append(found[1])
        if primitives and len(points) == 1:
            raise ValueError("; ".join(dict.fromkeys(notes)))
        return np.concatenate(points), np.concatenate(triangles)

    def _refusal(self, primitive: Any) -> str:
        """Why a primitive gives no triangles, known before anything is read ("" if none)."""
        if not isinstance(primitive, dict):
            return "a primitive is not an object"
        mode = primitive.get("mode", 4)
        if mode not in TRIANGLE_MODES:
            return mode_note(mode)
        attributes = primitive.get("attributes")
        if not isinstance(attributes, dict) or "POSITION" not in attributes:
            return NO_POSITION
        position = self.gltf["accessors"][attributes["POSITION"]]
        problem = position_problem(
            position.get("type"), "bufferView" in position or "sparse" in position,
            DRACO in (primitive.get("extensions") or {}))
        if problem or "indices" not in primitive:
            return problem
        indices = self.gltf["accessors"][primitive["indices"]]
        return indices_problem(indices.get("componentType"), indices.get("type"),
                               "bufferView" in indices or "sparse" in indices)

    def _primitive(self, primitive: dict[str, Any]) -> tuple[np.ndarray, np.ndarray] | str:
        """One primitive's positions and triangles (`_refusal` passed), or why it gives
        none."""
        positions = self.accessor(primitive["attributes"]["POSITION"])
        if not np.isfinite(positions).all():
            return "a primitive's positions are not all finite numbers"
        order = self.accessor(primitive["indices"]).astype(np.int64).ravel() \
            if "indices" in primitive else np.arange(len(positions))
        if len(order) and order.max() >= len(positions):
            return f"a primitive's indices pass its {len(positions):,} vertices"
        corners = triangle_corners(order, primitive.get("mode", 4))
        if not len(corners):
            return FEW_CORNERS
        return positions, positions[corners]

    def _claim(self, index: Any, primitives: list[dict[str, Any]]) -> None:
        """Counts mesh `index`'s elements (of the primitives it reads) against the caps
        before any is read."""
        total = 0
        for primitive in primitives:
            total += self.count(primitive["attributes"]["POSITION"])
            if "indices" in primitive:
                total += self.count(primitive["indices"])
        if total > MAX_ACCESSOR_COUNT or self.elements + total > MAX_DOCUMENT_COUNT:
            limit = (f"the {MAX_ACCESSOR_COUNT:,} read at most in one mesh"
                     if total > MAX_ACCESSOR_COUNT else
                     f"the {MAX_DOCUMENT_COUNT:,} read at most from all meshes together")
            raise ValueError(f"mesh {index}'s accessors claim {total:,} elements, more than "
                             f"{limit}: not read")
        self.elements += total


def _offset(item: dict[str, Any]) -> int:
    return _whole(item.get("byteOffset", 0), "byteOffset")


def _whole(value: Any, key: str) -> int:
    """`value` when it is a non-negative integer (booleans excluded); ValueError naming
    `key` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{key} {value!r} is not a valid size or offset")
    return value
