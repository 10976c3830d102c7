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
        self.elements = 0  # read so far, within MAX_DOCUMENT_COUNT
        self.hull = cache(lambda mesh: hull_triangles(self.mesh(mesh)[0]))

    def buffer(self, index: int) -> bytes:
        """The bytes of buffer `index`."""
        if index not in self.buffers:
            self.buffers[index] = read_buffer(self.gltf["buffers"][index], self.base_dir,
                                              self.binary)
        return self.buffers[index]

    def accessor(self, index: int) -> np.ndarray:
        """An accessor's values as floats, one row per element (sparse parts ignored)."""
        acc = self.gltf["accessors"][index]
        code, norm = _COMPONENTS[acc["componentType"]]
        dtype, width, count = np.dtype(code), _WIDTHS[acc["type"]], self.count(index)
        if "bufferView" not in acc:
            return np.zeros((count, width))
        view = self.gltf["bufferViews"][acc["bufferView"]]
        buffer = self.buffer(view["buffer"])
        start = _offset(view) + _offset(acc)
        stride = _whole(view.get("byteStride") or dtype.itemsize * width, "byteStride")
        end = start + (count - 1) * stride + dtype.itemsize * width if count else start
        length = _whole(view.get("byteLength"), "byteLength")
        if end > _offset(view) + length or _offset(view) + length > len(buffer) or stride < 1:
            raise ValueError(f"accessor {index} claims {count:,} elements, more than its "
                             "bufferView's bytes hold: not read")
        data = np.ndarray((count, width), dtype, buffer, start,
                          (stride, dtype.itemsize)).astype(float)
        return np.maximum(data / norm, -1.0) if acc.get("normalized") and norm else data

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
        """All primitives' positions (n×3) and triangles (m×3×3, mode 4 only)."""
        if index not in self.meshes:
            self._claim(index)
            points, triangles = [np.zeros((0, 3))], [np.zeros((0, 3, 3))]
            for primitive in self.gltf["meshes"][index].get("primitives", []):
                positions = self.accessor(primitive["attributes"]["POSITION"])
                points.append(positions)
                if primitive.get("mode", 4) == 4:
                    order = (self.accessor(primitive["indices"]).astype(int).ravel()
                             if "indices" in primitive else np.arange(len(positions)))
                    if len(order) and (order.min() < 0 or order.max() >= len(positions)):
                        raise ValueError(f"mesh {index}'s indices are not all within its "
                                         f"{len(positions):,} vertices: not read")
                    triangles.append(positions[order[: len(order) // 3 * 3].reshape(-1, 3)])
            self.meshes[index] = (np.concatenate(points), np.concatenate(triangles))
        return self.meshes[index]

    def _claim(self, index: Any) -> None:
        """Counts mesh `index`'s elements against the caps before any is read."""
        total = 0
        for primitive in self.gltf["meshes"][index].get("primitives", []):
            total += self.count(primitive["attributes"]["POSITION"])
            if primitive.get("mode", 4) == 4 and "indices" in primitive:
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
