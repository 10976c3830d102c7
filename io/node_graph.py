# SPDX-License-Identifier: GPL-3.0-or-later
"""A glTF document's node tree as the converter edits it: parents, world matrices, adding
and re-parenting nodes while keeping world transforms. Pure numpy."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from .json_read import as_dict, as_list, is_finite_number, is_index

TRS_KEYS: Final = ("matrix", "translation", "rotation", "scale")
NEAR_ZERO: Final = 1e-12
IDENTITY_TOLERANCE: Final = 1e-9
ORTHONORMAL_TOLERANCE: Final = 1e-6
SINGULAR: Final = 1e-12


# -- the node tree ---------------------------------------------------------------------------


@dataclass(slots=True)
class NodeGraph:
    """The output document's nodes as an editable tree with local and world matrices."""

    gltf: dict[str, Any]
    parents: dict[int, int]
    pinned: set[int]  # animated or skin nodes: their local transform must not change

    @classmethod
    def of(cls, gltf: dict[str, Any]) -> NodeGraph:
        """The tree of a document (first parent wins; bad indices are ignored)."""
        graph = cls(gltf, {}, _animated_or_skinned(gltf))
        for index, node in enumerate(graph.nodes):
            for child in as_list(as_dict(node).get("children")):
                if graph.is_node(child) and child != index:
                    graph.parents.setdefault(child, index)
        return graph

    @property
    def nodes(self) -> list[Any]:
        """The document's node list (an empty list when it has none)."""
        return as_list(self.gltf.get("nodes"))

    def is_node(self, index: Any) -> bool:
        """True when `index` names a node object of the document."""
        return is_index(index) and index < len(self.nodes) and isinstance(self.nodes[index], dict)

    def ancestors_or_self(self, index: int) -> Iterator[int]:
        """`index`, its parent, and so on up to the root (safe against cycles)."""
        seen: set[int] = set()
        current: int | None = index
        while current is not None and current not in seen:
            seen.add(current)
            yield current
            current = self.parents.get(current)

    def local(self, index: int) -> np.ndarray:
        """The node's local 4×4 matrix (identity for malformed transforms)."""
        return _local_matrix(as_dict(self.nodes[index]))

    def world(self, index: int) -> np.ndarray:
        """The node's world 4×4 matrix at rest."""
        matrix = np.identity(4)
        for node in self.ancestors_or_self(index):
            matrix = self.local(node) @ matrix
        return matrix

    def add_node(self, node: dict[str, Any], parent: int | None) -> int:
        """Append `node` (as a child of `parent` when given); its index."""
        if not isinstance(self.gltf.get("nodes"), list):
            self.gltf["nodes"] = []
        index = len(self.nodes)
        self.nodes.append(node)
        if parent is not None:
            _append_child(self.nodes[parent], index)
            self.parents[index] = parent
        return index

    def place(self, index: int, world: np.ndarray) -> bool:
        """Give the node the local transform that puts it at `world`; False when the world
        frame is not exactly a translation, rotation and scale there."""
        parent = self.parents.get(index)
        local = world if parent is None else np.linalg.inv(self.world(parent)) @ world
        return _write_trs(self.nodes[index], local)

    def reparent(self, index: int, parent: int) -> bool:
        """Move the node under `parent` keeping its world transform (see `place`)."""
        world = self.world(index)
        self._detach(index)
        _append_child(self.nodes[parent], index)
        self.parents[index] = parent
        return self.place(index, world)

    def invertible(self, index: int) -> bool:
        """True when the node's world matrix can be inverted (no zero scale)."""
        return abs(float(np.linalg.det(self.world(index)[:3, :3]))) > SINGULAR

    def _detach(self, index: int) -> None:
        parent = self.parents.pop(index, None)
        if parent is not None:
            _remove_item(self.nodes[parent], "children", index)
        for scene in as_list(self.gltf.get("scenes")):
            if isinstance(scene, dict):
                _remove_item(scene, "nodes", index)


def _animated_or_skinned(gltf: Mapping[str, Any]) -> set[int]:
    pinned: set[int] = set()
    for animation in as_list(gltf.get("animations")):
        for channel in as_list(as_dict(animation).get("channels")):
            node = as_dict(as_dict(channel).get("target")).get("node")
            if is_index(node):
                pinned.add(node)
    for skin in as_list(gltf.get("skins")):
        skin = as_dict(skin)
        pinned.update(j for j in as_list(skin.get("joints")) if is_index(j))
        if is_index(skin.get("skeleton")):
            pinned.add(skin["skeleton"])
    return pinned


def _append_child(node: dict[str, Any], child: int) -> None:
    if not isinstance(node.get("children"), list):
        node["children"] = []
    node["children"].append(child)


def _remove_item(owner: dict[str, Any], key: str, item: int) -> None:
    values = owner.get(key)
    if isinstance(values, list) and item in values:
        values.remove(item)
        if not values:
            del owner[key]  # glTF arrays have minItems 1


# -- matrices --------------------------------------------------------------------------------


def _numbers(value: Any, count: int) -> list[float] | None:
    if not isinstance(value, list) or len(value) != count:
        return None
    if not all(is_finite_number(v) for v in value):
        return None
    return [float(v) for v in value]


def _local_matrix(node: Mapping[str, Any]) -> np.ndarray:
    matrix = _numbers(node.get("matrix"), 16)
    if matrix is not None:
        return np.array(matrix).reshape(4, 4).T  # glTF matrices are column-major
    translation = _numbers(node.get("translation"), 3) or [0.0, 0.0, 0.0]
    rotation = _numbers(node.get("rotation"), 4) or [0.0, 0.0, 0.0, 1.0]
    scale = _numbers(node.get("scale"), 3) or [1.0, 1.0, 1.0]
    return compose(translation, rotation, scale)


def compose(
    translation: Iterable[float], rotation: Iterable[float], scale: Iterable[float]
) -> np.ndarray:
    """T·R·S as a 4×4 matrix; `rotation` is a glTF quaternion (x, y, z, w)."""
    matrix = np.identity(4)
    matrix[:3, :3] = _rotation_matrix(np.array(list(rotation), dtype=float)) * np.array(
        list(scale), dtype=float
    )
    matrix[:3, 3] = list(translation)
    return matrix


def _rotation_matrix(quat: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(quat))
    x, y, z, w = quat / norm if norm > SINGULAR else (0.0, 0.0, 0.0, 1.0)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def decompose(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Translation, rotation (x, y, z, w) and scale of a 4×4 matrix, and whether they
    reproduce it exactly (False for shear, where the nearest rotation is used)."""
    basis = matrix[:3, :3]
    scale = np.linalg.norm(basis, axis=0)
    if np.linalg.det(basis) < 0:
        scale[0] = -scale[0]
    rotation = basis / np.where(np.abs(scale) > SINGULAR, scale, 1.0)
    if np.abs(rotation.T @ rotation - np.identity(3)).max() > ORTHONORMAL_TOLERANCE:
        u, _sigma, vt = np.linalg.svd(basis)
        if np.linalg.det(u @ vt) < 0:
            u[:, -1] = -u[:, -1]
        rotation = u @ vt
        scale = np.diag(rotation.T @ basis).copy()
    quat = _quaternion(rotation)
    exact = np.allclose(compose(matrix[:3, 3], quat, scale), matrix, atol=ORTHONORMAL_TOLERANCE)
    return matrix[:3, 3].copy(), quat, scale, bool(exact)


def _quaternion(m: np.ndarray) -> np.ndarray:
    """The unit quaternion (x, y, z, w) with w ≥ 0 of a rotation matrix (Shepperd)."""
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = 2.0 * np.sqrt(trace + 1.0)
        quat = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        quat = [s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s]
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        quat = [(m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s]
    else:
        s = 2.0 * np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        quat = [(m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s]
    result = np.array(quat) / np.linalg.norm(quat)
    return -result if result[3] < 0 else result


def _write_trs(node: dict[str, Any], matrix: np.ndarray) -> bool:
    """Replace the node's transform by `matrix` as TRS, omitting identity parts."""
    translation, rotation, scale, exact = decompose(matrix)
    for key in TRS_KEYS:
        node.pop(key, None)
    if np.abs(translation).max() > IDENTITY_TOLERANCE:
        node["translation"] = _tidy(translation)
    if np.abs(rotation[:3]).max() > IDENTITY_TOLERANCE:
        node["rotation"] = _tidy(rotation)
    if np.abs(scale - 1.0).max() > IDENTITY_TOLERANCE:
        node["scale"] = _tidy(scale)
    return exact


def _tidy(values: np.ndarray) -> list[float]:
    return [0.0 if abs(v) < NEAR_ZERO else float(v) for v in values]


