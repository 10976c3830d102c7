# SPDX-License-Identifier: GPL-3.0-or-later
"""Panel rows drawn from the field table, in table order."""

import bpy

from ..io.field_table import props_of


def draw_fields(layout: bpy.types.UILayout, props: bpy.types.PropertyGroup, group: str) -> None:
    """One row per Blender property of a field-table group."""
    for name in props_of(group):
        layout.prop(props, name)
