# SPDX-License-Identifier: GPL-3.0-or-later
"""Viewport overlay: each gravity volume's pull (io/gravity_lines.py) in violet, from cached
batches rebuilt only when the volume changes; placed by the object's matrix at draw time."""

from typing import Any

import bpy

from ..io.blender.gravity.bridge import gravity_of, shape_mesh_key, shape_triangles
from ..io.gravity_lines import gravity_lines, to_blender
from .shape_overlay import SELECTED, draw_batches, line_batch
from .viewport_overlay import ViewportOverlay

GRAVITY = (0.75, 0.45, 1.0, 0.9)


class GravityBatches:
    """Per object: the volume last drawn and its batch."""

    def __init__(self, make_batch: Any) -> None:
        self.make_batch = make_batch
        self.entries: dict[int, tuple[Any, Any]] = {}
        self.builds = 0

    def batch(self, obj: bpy.types.Object) -> Any:
        """The object's batch (None when it has no volume or nothing to draw)."""
        if obj.gltf_physics.gravity_type == "NONE":
            self.entries.pop(obj.session_uid, None)
            return None
        try:  # a drawing never raises: a volume whose figure cannot be made shows none
            volume = gravity_of(obj)
            key = (volume, shape_mesh_key(obj))  # a mesh shape's edits rebuild too
        except (ValueError, TypeError, ArithmeticError):
            self.entries.pop(obj.session_uid, None)
            return None
        entry = self.entries.get(obj.session_uid)
        if entry is None or entry[0] != key:
            self.builds += 1
            try:
                mesh = shape_triangles(obj)
                lines = to_blender(gravity_lines(volume, mesh)) if volume is not None else None
            except (ValueError, TypeError, ArithmeticError):
                lines = None
            entry = (key, self.make_batch(lines) if lines is not None and len(lines) else None)
            self.entries[obj.session_uid] = entry
        return entry[1]

    def prune(self, drawn: set[int]) -> None:
        """Forget objects no longer drawn (`drawn`: their `session_uid`s; a name may be a
        linked object's and a local one's)."""
        for key in set(self.entries) - drawn:
            del self.entries[key]


CACHE = GravityBatches(line_batch)


def _color(obj: bpy.types.Object) -> tuple[float, float, float, float]:
    return SELECTED if obj.select_get() else GRAVITY


def _draw() -> None:
    scene = bpy.context.scene
    if scene is None or not scene.gltf_physics.show_gravity:
        return
    draw_batches(CACHE, _color)


OVERLAY = ViewportOverlay(_draw, "show_gravity")


def register() -> None:
    """Add the draw handler and the overlay popover toggle."""
    OVERLAY.register()


def unregister() -> None:
    """Remove the draw handler and the toggle."""
    OVERLAY.unregister()
    CACHE.entries.clear()
