# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Physics for gravity volumes: the shared rules (io/rules.py) asked of an object."""

from collections.abc import Iterator
from typing import Any

import bpy

from ... import rules
from .bridge import line_points, shape_mesh_object
from .properties import GRAVITY_MESH_SHAPES


def gravity_findings(obj: bpy.types.Object) -> Iterator[tuple[rules.Rule, dict[str, Any]]]:
    """(rule, message values) for each gravity rule the object breaks."""
    props = obj.gltf_physics
    if props.gravity_type == "NONE":
        return
    trigger = props.is_compound_trigger or (
        props.shape_type != "NONE" and props.shape_role == "TRIGGER")
    collider = props.shape_type != "NONE" and props.shape_role == "COLLIDER"
    what = rules.gravity_placement(props.motion_type != "NONE", collider, trigger)
    if what:
        yield rules.GRAVITY_NOT_ON_TRIGGER, {"what": what}
    elif not props.is_compound_trigger and props.join_compound_trigger:
        root = next((a for a in _ancestors(obj) if a.gltf_physics.is_compound_trigger), None)
        if root is not None:
            yield rules.GRAVITY_ON_COMPOUND_PART, {"root": root.name}
    if props.gravity_type == "LINE":
        count = 3 * len(line_points(obj))
        if not rules.line_points_valid(count):
            yield rules.GRAVITY_LINE_POINTS, {"count": count}
    elif props.gravity_type == "SHAPED" and props.gravity_shape_type in GRAVITY_MESH_SHAPES:
        source = shape_mesh_object(obj)
        if source is None or (not source.data.polygons and not source.modifiers
                              and source.mode != "EDIT"):  # (its edit: faces not stored yet)
            yield rules.GRAVITY_SHAPE_MISSING, {}  # (no faces: the export has no shape)
    elif props.gravity_type == "SHAPED" and rules.is_degenerate(rules.critical_sizes(
            props.gravity_shape_type.lower(), size=tuple(props.gravity_shape_size),
            radius=props.gravity_shape_radius, height=props.gravity_shape_height,
            radius_top=props.gravity_shape_radius_top,
            radius_bottom=props.gravity_shape_radius_bottom)):
        yield rules.GRAVITY_SHAPE_MISSING, {}
    elif props.gravity_type == "DIRECTIONAL":
        length = rules.direction_length(tuple(props.gravity_direction))
        if length is not None:
            yield rules.GRAVITY_DIRECTION, {"length": length}


def _ancestors(obj: bpy.types.Object) -> Iterator[bpy.types.Object]:
    parent = obj.parent
    while parent is not None:
        yield parent
        parent = parent.parent
