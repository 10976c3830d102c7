# SPDX-License-Identifier: GPL-3.0-or-later
"""The only module that imports io_scene_gltf2. Internal names that moved between 4.2 and
5.0 are looked up here, newest path first; everything else uses the stable public classes.
"""

import sys
from importlib import import_module
from typing import Any

import numpy as np


def _first(*paths: str) -> Any:
    for path in paths:
        module_name, _, attr = path.rpartition(".")
        try:
            return getattr(import_module(module_name), attr)
        except (ImportError, AttributeError):
            continue
    raise ImportError(f"none of {paths} is available in this glTF add-on")


_GLTF_IO = "io_scene_gltf2.io.com.gltf2_io"


def gltf_io() -> Any:
    """The glTF schema classes module (stable 4.2–5.x): the one loaded now (4.2 reloads the
    add-on's modules when an export starts), looked up without the import machinery (called
    per node made)."""
    return sys.modules.get(_GLTF_IO) or import_module(_GLTF_IO)


def extension_class() -> Any:
    """`Extension(name, extension, required)` (stable 4.2–5.x)."""
    return import_module("io_scene_gltf2.io.com.gltf2_io_extensions").Extension


def _binary_data() -> Any:
    return _first(
        "io_scene_gltf2.io.exp.binary_data.BinaryData",  # 4.3+
        "io_scene_gltf2.io.exp.gltf2_io_binary_data.BinaryData",  # 4.2
    )


def _constants() -> Any:
    for name in ("io_scene_gltf2.io.com.constants", "io_scene_gltf2.io.com.gltf2_io_constants"):
        try:  # 4.3+ first, then 4.2
            return import_module(name)
        except ImportError:
            continue
    raise ImportError("the glTF add-on's constants module was not found")


def new_position_mesh(name: str, positions: np.ndarray, indices: np.ndarray) -> Any:
    """A glTF mesh with POSITION and triangle indices only (float32 xyz, uint32)."""
    io = gltf_io()
    consts = _constants()
    binary = _binary_data()
    xyz = np.ascontiguousarray(positions, dtype="<f4")
    idx = np.ascontiguousarray(indices, dtype="<u4").ravel()
    position = io.Accessor(
        buffer_view=binary(xyz.tobytes(), consts.BufferViewTarget.ARRAY_BUFFER),
        byte_offset=None, component_type=consts.ComponentType.Float, count=len(xyz),
        extensions=None, extras=None, max=xyz.max(axis=0).tolist(),
        min=xyz.min(axis=0).tolist(), name=None, normalized=None, sparse=None,
        type=consts.DataType.Vec3,
    )
    index = io.Accessor(
        buffer_view=binary(idx.tobytes(), consts.BufferViewTarget.ELEMENT_ARRAY_BUFFER),
        byte_offset=None, component_type=consts.ComponentType.UnsignedInt, count=len(idx),
        extensions=None, extras=None, max=None, min=None, name=None, normalized=None,
        sparse=None, type=consts.DataType.Scalar,
    )
    primitive = io.MeshPrimitive(
        attributes={"POSITION": position}, extensions=None, extras=None, indices=index,
        material=None, mode=4, targets=None,
    )
    return io.Mesh(extensions=None, extras=None, name=name, primitives=[primitive], weights=None)


def new_mesh_node(name: str, mesh: Any) -> Any:
    """An identity-transform node carrying `mesh` (a KHR 2025-10 `geometry.node` target)."""
    return gltf_io().Node(
        camera=None, children=[], extensions=None, extras=None, matrix=None, mesh=mesh, name=name,
        rotation=None, scale=None, skin=None, translation=None, weights=None,
    )


def new_child_node(name: str, translation: Any, rotation: Any) -> Any:
    """An empty child node with a translation and/or rotation."""
    return gltf_io().Node(
        camera=None, children=[], extensions=None, extras=None, matrix=None, mesh=None, name=name,
        rotation=list(rotation) if rotation else None,
        scale=None, skin=None, translation=list(translation) if translation else None,
        weights=None,
    )


def read_accessor(gltf: Any, accessor_index: int) -> np.ndarray:
    """Decode an accessor of the file being imported (stable 4.2–5.x)."""
    binary = import_module("io_scene_gltf2.io.imp.gltf2_io_binary").BinaryData
    return np.asarray(binary.decode_accessor(gltf, accessor_index))


def importer_extensions(names: tuple[str, ...]) -> list[Any]:
    """Handled-extension declarations for the importer (so required files import)."""
    ext = extension_class()
    return [ext(name, {}, required=True) for name in names]


def dialog_dicts() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The export and import dialog draw registries, or None without the glTF add-on."""
    try:
        gltf = import_module("io_scene_gltf2")
        return gltf.exporter_extension_layout_draw, gltf.importer_extension_layout_draw
    except (ImportError, AttributeError):
        return None
