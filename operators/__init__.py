# SPDX-License-Identifier: GPL-3.0-or-later
"""Operators: thin UI actions over the bridge."""

import bpy

from . import (
    decomposition,
    gravity,
    hull,
    joints,
    layers,
    native,
    shapes,
    tools,
    validation,
    vehicles,
)

CLASSES = (
    *shapes.CLASSES, *layers.CLASSES, *joints.CLASSES, *tools.CLASSES, *hull.CLASSES,
    *validation.CLASSES, *vehicles.CLASSES, *native.CLASSES, *decomposition.CLASSES,
    *gravity.CLASSES,
)


def register() -> None:
    """Register every operator class."""
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    """Unregister every operator class, in reverse order."""
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
