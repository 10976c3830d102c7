# SPDX-License-Identifier: GPL-3.0-or-later
"""One viewport overlay: a draw callback plus its toggle in the Overlays popover."""

from collections.abc import Callable

import bpy


class ViewportOverlay:
    """Registers `draw` as a 3D-view draw handler, toggled by a scene setting."""

    def __init__(self, draw: Callable[[], None], setting: str) -> None:
        self.draw = draw
        self.handle = None

        def toggle(panel: bpy.types.Panel, context: bpy.types.Context) -> None:
            if context.scene is not None:
                panel.layout.prop(context.scene.gltf_physics, setting)

        self._toggle = toggle  # a plain function: Panel.append marks it with its owner

    def register(self) -> None:
        """Add the draw handler and the popover toggle."""
        self.handle = bpy.types.SpaceView3D.draw_handler_add(self.draw, (), "WINDOW",
                                                             "POST_VIEW")
        bpy.types.VIEW3D_PT_overlay_object.append(self._toggle)

    def unregister(self) -> None:
        """Remove the toggle and the draw handler."""
        bpy.types.VIEW3D_PT_overlay_object.remove(self._toggle)
        if self.handle is not None:
            bpy.types.SpaceView3D.draw_handler_remove(self.handle, "WINDOW")
            self.handle = None
