# SPDX-License-Identifier: GPL-3.0-or-later
"""Viewport overlay: every collider, trigger and wheel drawn as its shape, from cached batches.

A batch is rebuilt only when the object's shape signature (kind, dimensions, mesh) changes;
colour (role, selection) and placement (the object matrix) are applied at draw time.
"""

from collections.abc import Callable
from typing import Any

import bpy
import numpy as np
from mathutils import Quaternion

from ..io import shape_lines
from ..io.blender.bridge.to_model import dimensions_of
from .viewport_overlay import ViewportOverlay

COLLIDER = (0.3, 0.9, 0.4, 0.9)
WHEEL = (0.4, 0.7, 1.0, 0.9)
TRIGGER = (1.0, 0.6, 0.15, 0.9)
SELECTED = (1.0, 1.0, 1.0, 1.0)
ANALYTIC = frozenset({"BOX", "SPHERE", "CAPSULE", "CYLINDER", "PLANE"})



def shape_signature(obj: bpy.types.Object) -> tuple | None:
    """What the drawn geometry depends on; None when the object draws nothing."""
    props = obj.gltf_physics
    kind = props.shape_type
    if props.vehicle_part == "WHEEL":
        return ("WHEEL", props.wheel_radius, props.wheel_width)
    if kind == "NONE":
        return None
    if kind in ANALYTIC:
        fit = dimensions_of(obj, kind)
        return (kind, fit.size, fit.radius, fit.height, fit.radius_top, fit.radius_bottom,
                fit.plane_size, fit.offset, _rotation(obj))
    source = obj if props.mesh_source == "SELF" else props.mesh_object
    if source is None or source.type != "MESH":
        return None
    relative = tuple(map(tuple, obj.matrix_world.inverted_safe() @ source.matrix_world))
    mesh = source.data
    return (kind, mesh.as_pointer(), len(mesh.vertices), len(mesh.edges), relative)


def shape_segments(obj: bpy.types.Object) -> np.ndarray:
    """(N, 2, 3) line segments of the object's shape in its local space."""
    props = obj.gltf_physics
    kind = props.shape_type
    if props.vehicle_part == "WHEEL":
        return shape_lines.wheel_lines(props.wheel_radius, props.wheel_width)
    if kind in ANALYTIC:
        fit = dimensions_of(obj, kind)
        if kind == "BOX":
            lines = shape_lines.box_lines(fit.size)
        elif kind == "SPHERE":
            lines = shape_lines.sphere_lines(fit.radius)
        elif kind == "PLANE":
            lines = shape_lines.plane_lines(*fit.plane_size)
        else:
            lines = shape_lines.round_lines(kind.lower(), fit.height, fit.radius_top,
                                            fit.radius_bottom)
        rotation = np.array(Quaternion(_rotation(obj)).to_matrix(), dtype=np.float32)
        return shape_lines.offset(lines @ rotation.T, fit.offset)
    source = obj if props.mesh_source == "SELF" else props.mesh_object
    mesh = source.data
    vertices = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", vertices)
    edges = np.empty(len(mesh.edges) * 2, dtype=np.int32)
    mesh.edges.foreach_get("vertices", edges)
    lines = shape_lines.mesh_lines(vertices, edges)
    if source is not obj:
        matrix = np.array(obj.matrix_world.inverted_safe() @ source.matrix_world, dtype=np.float32)
        flat = lines.reshape(-1, 3) @ matrix[:3, :3].T + matrix[:3, 3]
        lines = flat.reshape(-1, 2, 3)
    return lines


def _rotation(obj: bpy.types.Object) -> tuple[float, ...]:
    props = obj.gltf_physics
    return tuple(props.shape_rotation) if props.size_mode == "CUSTOM" else (1.0, 0.0, 0.0, 0.0)


class BatchCache:
    """Per object: the last signature and the batch built for it."""

    def __init__(self, make_batch: Callable[[np.ndarray], Any]) -> None:
        self.make_batch = make_batch
        self.entries: dict[int, tuple[tuple, Any]] = {}
        self.builds = 0

    def batch(self, obj: bpy.types.Object) -> Any:
        """The object's batch, rebuilt only when its signature changed (None: nothing)."""
        signature = shape_signature(obj)
        if signature is None:
            self.entries.pop(obj.session_uid, None)
            return None
        entry = self.entries.get(obj.session_uid)
        if entry is None or entry[0] != signature:
            self.builds += 1
            entry = (signature, self.make_batch(shape_segments(obj)))
            self.entries[obj.session_uid] = entry
        return entry[1]

    def prune(self, drawn: set[int]) -> None:
        """Forget objects no longer drawn (`drawn`: their `session_uid`s; a name may be a
        linked object's and a local one's)."""
        for key in set(self.entries) - drawn:
            del self.entries[key]


def color_of(obj: bpy.types.Object) -> tuple[float, float, float, float]:
    """Collider green, trigger orange, wheel blue, white when selected."""
    if obj.select_get():
        return SELECTED
    if obj.gltf_physics.vehicle_part == "WHEEL":
        return WHEEL
    return TRIGGER if obj.gltf_physics.shape_role == "TRIGGER" else COLLIDER


def line_batch(segments: np.ndarray) -> Any:
    """A GPU batch of line segments (pairs of points), drawn with one uniform colour."""
    import gpu
    from gpu_extras.batch import batch_for_shader

    shader = gpu.shader.from_builtin("UNIFORM_COLOR")
    return batch_for_shader(shader, "LINES", {"pos": segments.reshape(-1, 3)})


CACHE = BatchCache(line_batch)


def draw_batches(cache: Any, color: Callable[[bpy.types.Object], tuple]) -> None:
    """Draw each visible object's cached batch at its world matrix in its colour, then let
    the cache forget objects no longer drawn (`cache` has `batch(obj)` and `prune(uids)`)."""
    import gpu

    shader = gpu.shader.from_builtin("UNIFORM_COLOR")
    drawn = set()
    for obj in bpy.context.visible_objects:
        batch = cache.batch(obj)
        if batch is None:
            continue
        drawn.add(obj.session_uid)
        gpu.matrix.push()
        gpu.matrix.multiply_matrix(obj.matrix_world)
        shader.uniform_float("color", color(obj))
        batch.draw(shader)
        gpu.matrix.pop()
    cache.prune(drawn)


def _draw() -> None:
    scene = bpy.context.scene
    if scene is None or not scene.gltf_physics.show_shapes:
        return
    draw_batches(CACHE, color_of)


OVERLAY = ViewportOverlay(_draw, "show_shapes")


def register() -> None:
    """Add the draw handler and the overlay popover toggle."""
    OVERLAY.register()


def unregister() -> None:
    """Remove the draw handler and the toggle."""
    OVERLAY.unregister()
    CACHE.entries.clear()
