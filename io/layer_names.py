# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision layer names: a file names a collision system by its layer's name, so two layers
of one scene never share a name (they would become one system). Pure."""

from __future__ import annotations

from collections.abc import Collection

DEFAULT_STEM = "Layer"


def unique_name(wanted: str, taken: Collection[str]) -> str:
    """`wanted`, or Blender-style `wanted.001`, `.002`... when another layer has it."""
    if wanted not in taken:
        return wanted
    number = 1
    while f"{wanted}.{number:03d}" in taken:
        number += 1
    return f"{wanted}.{number:03d}"


def new_layer_name(taken: Collection[str]) -> str:
    """The first of "Layer 1", "Layer 2"... that no layer has."""
    number = 1
    while f"{DEFAULT_STEM} {number}" in taken:
        number += 1
    return f"{DEFAULT_STEM} {number}"
