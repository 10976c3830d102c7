# SPDX-License-Identifier: GPL-3.0-or-later
"""Positions and triangles of a glTF document's meshes, read from its buffers. Pure numpy."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from .external_reader import read_buffer
from .hull import hull_triangles

_COMPONENTS = {5120: ("i1", 127), 5121: ("u1", 255), 5122: ("<i2", 32767),
               5123: ("<u2", 65535), 5125: ("<u4", 0), 5126: ("<f4", 0)}
_WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


class MeshData:
    """Reads mesh positions and triangles from a document's buffers (cached per mesh).

    Buffers come from a .glb's binary chunk, `data:` URIs or files in `base_dir`, through
    `external_reader` (files outside it are refused); a mesh that cannot be read raises
    ValueError (or KeyError, IndexError for a bad document)."""

    def __init__(self, gltf: dict[str, Any], base_dir: Path | str | None,
                 binary: bytes | None) -> None:
        self.gltf, self.base_dir, self.binary = gltf, base_dir, binary
        self.buffers: dict[int, bytes] = {}
        self.meshes: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
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
        dtype, width, count = np.dtype(code), _WIDTHS[acc["type"]], acc["count"]
        if "bufferView" not in acc:
            return np.zeros((count, width))
        view = self.gltf["bufferViews"][acc["bufferView"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        stride = view.get("byteStride") or dtype.itemsize * width
        data = np.ndarray((count, width), dtype, self.buffer(view["buffer"]), start,
                          (stride, dtype.itemsize)).astype(float)
        return np.maximum(data / norm, -1.0) if acc.get("normalized") and norm else data

    def mesh(self, index: Any) -> tuple[np.ndarray, np.ndarray]:
        """All primitives' positions (n×3) and triangles (m×3×3, mode 4 only)."""
        if index not in self.meshes:
            points, triangles = [np.zeros((0, 3))], [np.zeros((0, 3, 3))]
            for primitive in self.gltf["meshes"][index].get("primitives", []):
                positions = self.accessor(primitive["attributes"]["POSITION"])
                points.append(positions)
                if primitive.get("mode", 4) == 4:
                    order = (self.accessor(primitive["indices"]).astype(int).ravel()
                             if "indices" in primitive else np.arange(len(positions)))
                    triangles.append(positions[order[: len(order) // 3 * 3].reshape(-1, 3)])
            self.meshes[index] = (np.concatenate(points), np.concatenate(triangles))
        return self.meshes[index]
