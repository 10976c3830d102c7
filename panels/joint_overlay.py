# SPDX-License-Identifier: GPL-3.0-or-later
"""Viewport overlay: each joint's frame axes and its links to the two bodies."""

import bpy
from mathutils import Vector

from ..io.blender.bridge.joint_bridge import body_of
from .viewport_overlay import ViewportOverlay

AXIS_COLORS = ((1.0, 0.25, 0.25, 1.0), (0.35, 1.0, 0.35, 1.0), (0.35, 0.55, 1.0, 1.0))
BODY_LINK = (1.0, 0.85, 0.2, 1.0)
CONNECTED_LINK = (0.2, 0.9, 1.0, 1.0)
FRAME_SIZE = 0.2

Segment = tuple[tuple[float, ...], tuple[float, ...], tuple[float, float, float, float]]


def joint_segments(scene: bpy.types.Scene) -> list[Segment]:
    """Line segments (start, end, colour) for every visible joint in `scene`."""
    segments: list[Segment] = []
    for obj in scene.objects:
        props = obj.gltf_physics
        if props.joint_type == "NONE" or not obj.visible_get():
            continue
        world = obj.matrix_world
        origin = world.translation
        rotation = world.to_quaternion()
        for axis, color in enumerate(AXIS_COLORS):
            direction = Vector((0.0, 0.0, 0.0))
            direction[axis] = FRAME_SIZE
            segments.append((tuple(origin), tuple(origin + rotation @ direction), color))
        body = body_of(obj)
        if body is not None and body != obj:
            segments.append((tuple(origin), tuple(body.matrix_world.translation), BODY_LINK))
        other = props.joint_attachment or props.joint_connected_body
        if other is not None:
            segments.append((tuple(origin), tuple(other.matrix_world.translation), CONNECTED_LINK))
    return segments


def _draw() -> None:
    context = bpy.context
    scene = context.scene
    if scene is None or not scene.gltf_physics.show_joints:
        return
    segments = joint_segments(scene)
    if not segments:
        return
    import gpu
    from gpu_extras.batch import batch_for_shader

    coords = [point for start, end, _ in segments for point in (start, end)]
    colors = [color for _, _, color in segments for _ in range(2)]
    shader = gpu.shader.from_builtin("FLAT_COLOR")
    batch = batch_for_shader(shader, "LINES", {"pos": coords, "color": colors})
    gpu.state.line_width_set(2.0)
    batch.draw(shader)
    gpu.state.line_width_set(1.0)


OVERLAY = ViewportOverlay(_draw, "show_joints")


def register() -> None:
    """Add the draw handler and the overlay popover toggle."""
    OVERLAY.register()


def unregister() -> None:
    """Remove the draw handler and the toggle."""
    OVERLAY.unregister()
