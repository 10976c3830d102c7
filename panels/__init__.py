# SPDX-License-Identifier: GPL-3.0-or-later
"""Panels: Object properties → Physics tab, scene layers, and the glTF dialog section."""

import bpy

from . import (
    gltf_dialog,
    gravity_overlay,
    gravity_panels,
    joint_overlay,
    object_menu,
    object_panels,
    scene_panels,
    shape_overlay,
)

CLASSES = (*object_panels.CLASSES, *scene_panels.CLASSES, *gravity_panels.CLASSES)


def register() -> None:
    """Register panels and the glTF export/import dialog section."""
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    gltf_dialog.register(__package__.rpartition(".")[0])
    joint_overlay.register()
    shape_overlay.register()
    gravity_overlay.register()
    object_menu.register()


def unregister() -> None:
    """Remove the dialog section and the panels."""
    object_menu.unregister()
    gravity_overlay.unregister()
    shape_overlay.unregister()
    joint_overlay.unregister()
    gltf_dialog.unregister(__package__.rpartition(".")[0])
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
