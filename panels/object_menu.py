# SPDX-License-Identifier: GPL-3.0-or-later
"""Entries in the 3D Viewport's Object menu."""

import bpy


def _draw(self: bpy.types.Menu, _context: bpy.types.Context) -> None:
    layout = self.layout
    layout.separator()
    layout.operator("gltf_physics.joint_add", icon="CONSTRAINT")
    # greyed out, with the reason as tooltip, where CoACD is missing (the operator's poll)
    layout.operator("gltf_physics.convex_decompose", icon="MOD_EXPLODE")


def register() -> None:
    """Add the entries."""
    bpy.types.VIEW3D_MT_object.append(_draw)


def unregister() -> None:
    """Remove the entries."""
    bpy.types.VIEW3D_MT_object.remove(_draw)
