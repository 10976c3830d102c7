# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_gravity's rules beyond its schema (io/rules.py, shared with Check Physics):
on a trigger-only body node, not on a compound trigger's part, a line's points a multiple of
3, a shaped volume with a usable shape, a normalised direction. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .. import rules
from ..diagnostics import Report
from ..json_read import as_dict, as_list, is_finite_number, is_index
from ..model import NodePhysics
from .facts import Facts, node_pointer
from .schema import pointer

EXT: Final = "OMI_physics_gravity"
SHAPE_EXT: Final = "OMI_physics_shape"


def check_gravity(facts: Facts, report: Report) -> None:
    """Every rule on the world gravity and on each node's volume."""
    root = facts.root(EXT)
    _direction(root.get("direction"), pointer("/extensions", EXT) + "/direction", report)
    for index, value in facts.view.used(EXT):
        if not isinstance(value, Mapping):
            continue  # the schema rules said so
        where = node_pointer(index, EXT)
        _placement(facts, index, where, report)
        kind = value.get("type")
        part = value.get(kind) if isinstance(kind, str) else None
        sub = as_dict(part)
        if kind == "directional":
            _direction(sub.get("direction"), f"{where}/directional/direction", report)
        elif kind == "line":
            _line(part, where, report)
        elif kind == "shaped":
            _shaped(facts, part, where, report)


def _add(report: Report, rule: rules.Rule, where: str, **values: object) -> None:
    report.add(rule.severity, rule.code, where, rule.message(**values))


def _placement(facts: Facts, index: int, where: str, report: Report) -> None:
    physics = facts.scene.nodes.get(index, NodePhysics())
    problem = rules.gravity_placement(physics.motion is not None, physics.collider is not None,
                                      physics.trigger is not None)
    if problem:
        _add(report, rules.GRAVITY_NOT_ON_TRIGGER, where, what=problem)
        return
    for ancestor in facts.ancestors(index):
        trigger = facts.scene.nodes.get(ancestor, NodePhysics()).trigger
        if trigger is not None and index in trigger.nodes:
            name = as_dict(as_list(facts.gltf.get("nodes"))[ancestor]).get("name")
            _add(report, rules.GRAVITY_ON_COMPOUND_PART, where,
                 root=name if isinstance(name, str) else f"node {ancestor}")
            return


def _line(part: object, where: str, report: Report) -> None:
    """No line object (its points default to [], which the spec calls invalid), or points
    `rules.line_points_valid` refuses (fewer than 6 numbers, or no `points`: the schema's
    finding, said once)."""
    if part is None:
        _add(report, rules.GRAVITY_LINE_POINTS, where, count=0)
        return
    points = as_dict(part).get("points")
    if isinstance(points, list) and len(points) >= 6 and not rules.line_points_valid(
            len(points)):
        _add(report, rules.GRAVITY_LINE_POINTS, f"{where}/line/points", count=len(points))


def _shaped(facts: Facts, part: object, where: str, report: Report) -> None:
    """No shaped object, or an index to a shape that cannot be read (absent keys and
    indices past the end are the schema's and the references' findings)."""
    if part is None:
        _add(report, rules.GRAVITY_SHAPE_MISSING, where)
        return
    shape = as_dict(part).get("shape")
    shapes = as_list(facts.root(SHAPE_EXT).get("shapes"))
    if is_index(shape) and shape < len(shapes):
        entry = as_dict(shapes[shape])
        if entry.get("type") not in ("box", "sphere", "capsule", "cylinder", "convex",
                                     "trimesh"):
            _add(report, rules.GRAVITY_SHAPE_MISSING, f"{where}/shaped/shape")


def _direction(value: object, where: str, report: Report) -> None:
    if isinstance(value, list) and len(value) == 3 and all(is_finite_number(v) for v in value):
        length = rules.direction_length(value)  # type: ignore[arg-type]
        if length is not None:
            _add(report, rules.GRAVITY_DIRECTION, where, length=length)
