# SPDX-License-Identifier: GPL-3.0-or-later
"""The physics section drawn inside the glTF export dialog."""

import bpy

from ..io.blender import gltf_compat


def draw_export(context: bpy.types.Context, layout: bpy.types.UILayout) -> None:
    """Draw the export format settings (a collapsible layout panel)."""
    header, body = layout.panel("GLTF_PHYSICS_export", default_closed=False)
    header.label(text="Physics")
    if body:
        settings = context.scene.gltf_physics
        body.prop(settings, "export_format")
        row = body.row()
        row.enabled = settings.export_format == "KHR"
        row.prop(settings, "khr_geometry")
        row = body.row()
        row.enabled = settings.export_format == "OMI"
        row.prop(settings, "omi_round_layout")


def register(package: str) -> None:
    """Add the export section (4.4+ no longer does it for us; 4.2 overwrites the same key)."""
    dicts = gltf_compat.dialog_dicts()
    if dicts is not None:
        dicts[0][package] = draw_export


def unregister(package: str) -> None:
    """Remove our entries from both dialog registries."""
    dicts = gltf_compat.dialog_dicts()
    if dicts is not None:
        for registry in dicts:
            registry.pop(package, None)
