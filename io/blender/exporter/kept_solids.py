# SPDX-License-Identifier: GPL-3.0-or-later
"""Solids of collision meshes (and Check Physics' hull figures) kept between runs: an artist
exports or checks the same level again and again, and a hull of a large mesh takes long.
Each is keyed by a digest of the very geometry it is computed from, so an edited mesh is a
new key and no entry is stale."""

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import mass_properties
from ...mass_properties import MassPart
from ..tools.hull import hull_triangles

#: How many solids are kept (each under 1 KB): more than the distinct meshes of a level, so
#: exporting it again finds every one.
KEPT_SOLIDS = 4096


class KeptSolids:
    """Mesh solids by geometry; the least recently used goes first. Kept solids are shared,
    so their arrays are read-only."""

    def __init__(self, size: int = KEPT_SOLIDS) -> None:
        self._size = size
        self._parts: OrderedDict[bytes, Any] = OrderedDict()

    def hull_solid(self, points: np.ndarray) -> MassPart | None:
        """The solid of the convex hull of `points` (None when it has no volume)."""
        return self.kept(b"hull", (points,),
                         lambda: _read_only(mass_properties.mesh_part(hull_triangles(points))))

    def mesh_solid(self, points: np.ndarray, faces: np.ndarray) -> MassPart | None:
        """The solid the triangles `faces` (indices into `points`) enclose."""
        return self.kept(b"mesh", (points, faces), lambda: _read_only(
            mass_properties.mesh_part(points[faces].astype(np.float64))))

    def kept(self, kind: bytes, arrays: tuple[np.ndarray, ...], compute: Callable[[], Any]
             ) -> Any:
        """What `compute()` makes of `arrays` (`kind` names what it is), computed once for
        the same geometry: the value must not change, it is shared."""
        key = _geometry_key(kind, *arrays)
        if key in self._parts:
            self._parts.move_to_end(key)
            return self._parts[key]
        value = self._parts[key] = compute()
        while len(self._parts) > self._size:
            self._parts.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._parts)


def _read_only(part: MassPart | None) -> MassPart | None:
    if part is not None:
        part.centroid.setflags(write=False)
        part.second_moment.setflags(write=False)
    return part


def _geometry_key(kind: bytes, *arrays: np.ndarray) -> bytes:
    """A digest of `kind` and the arrays (each with its type and shape)."""
    digest = hashlib.blake2b(kind, digest_size=20)
    for array in arrays:
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.data)
    return digest.digest()


#: The process's kept solids (every export reads and fills them).
SOLIDS = KeptSolids()
