# SPDX-License-Identifier: GPL-3.0-or-later
"""Structural rules the Blender exporter, the importer and the converter share: where a
format needs a node, a body or a motion kind that the scene does not have as it is. Pure;
each caller walks its own tree (Blender objects or glTF nodes) and asks these."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

STATIC_IN_MOVING_CODE = "static-in-moving-body"


def kind_in_target(kind: str, target: str, moves_above: bool) -> str:
    """The motion kind a body is written with: KHR has no static motion (a motionless
    collider is static), so a static body under a moving body would join it; it is written
    as kinematic instead (report `STATIC_IN_MOVING_CODE`)."""
    if target == "KHR" and kind == "static" and moves_above:
        return "kinematic"
    return kind


def joint_needs_own_node(target: str, frame_is_plain: bool) -> bool:
    """OMI wants a joint on a node of its own: a frame node that carries anything else (a
    body, a shape, a mesh) gets a new child node for the joint."""
    return target == "OMI" and not frame_is_plain


def static_partner(chain: Sequence[T], has_collider: Callable[[T], bool], *,
                   body_required: bool) -> T | None:
    """For a joint side without a body (`chain`: the side, its parent, … its root), the node
    that becomes its Static body: the nearest collider at or above it; where a body is
    required (OMI), else the root of its tree. None: the side stays anchored to the world."""
    found = next((node for node in chain if has_collider(node)), None)
    if found is None and body_required and chain:
        return chain[-1]
    return found
