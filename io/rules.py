# SPDX-License-Identifier: GPL-3.0-or-later
"""Physics rules the Blender scene check and the file checker share: each rule's stable code,
severity and message, and the predicate that decides it. Pure; each caller reads its own
data (Blender objects or glTF JSON) and asks these, so a rule exists once.

Kinds are the model's lower-case names ("trimesh", "dynamic"); sizes are in metres.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from .diagnostics import Severity
from .hull import ENGINE_MAX_POINTS

T = TypeVar("T")

MIN_SIZE: Final = 1e-4  # a shape extent at or below this is degenerate
SCALE_TOLERANCE: Final = 1e-4  # relative spread of scale factors still taken as uniform
MOVING: Final = frozenset({"dynamic", "kinematic"})
ROUND: Final = frozenset({"sphere", "capsule", "cylinder"})
NORMAL_TOLERANCE: Final = 1e-4  # |length − 1| a normalised direction may be off by


@dataclass(frozen=True, slots=True)
class Rule:
    """A finding's stable code, its severity and its message (a format string)."""

    code: str
    severity: Severity
    text: str

    def message(self, **values: object) -> str:
        """The message with its `{placeholders}` filled in."""
        return self.text.format(**values)


MOVING_TRIMESH = Rule("moving-trimesh", "warning",
                      "a triangle mesh on a moving body: engines need a convex hull")
NEGATIVE_SCALE = Rule("negative-scale", "warning", "negative scale on a shape")
NON_UNIFORM_SCALE = Rule("non-uniform-scale", "warning",
                         "non-uniform scale distorts a {kind} in most engines")
DEGENERATE_SIZE = Rule("degenerate-size", "warning", "the {kind} has a zero size: it is degenerate")
SHORT_CAPSULE = Rule("short-capsule", "warning",
                     "the capsule is shorter than its diameter: a sphere fits it better")
FLAT_HULL = Rule("flat-hull", "warning",
                 "the convex hull has no volume: its mesh is flat or has fewer than 4 points")
HULL_TOO_MANY_POINTS = Rule("hull-too-many-points", "warning",
                            "the hull has {count} points (engines take {limit})")
JOINT_NOT_DYNAMIC = Rule("joint-not-dynamic", "warning", "neither joined body is dynamic")
PART_OUTSIDE_VEHICLE = Rule("part-outside-vehicle", "error",
                            "a {part} must be below a vehicle body (a dynamic body that is "
                            "a vehicle)")
VEHICLE_NOT_DYNAMIC = Rule("vehicle-not-dynamic", "error",
                           "a vehicle body belongs on a dynamic body: {what}")
COMPOUND_TRIGGER_FILTER = Rule("compound-trigger-filter", "error",
                               "a compound trigger cannot carry a filter: put it on its member "
                               "shapes")

GRAVITY_NOT_ON_TRIGGER = Rule("gravity-not-on-trigger", "error",
                              "gravity belongs on a trigger without motion or collider "
                              "({what})")
GRAVITY_ON_COMPOUND_PART = Rule("gravity-on-compound-part", "error",
                                "gravity on a part of compound trigger {root}: a compound "
                                "trigger has one volume, on its root")
GRAVITY_LINE_POINTS = Rule("gravity-line-points", "error",
                           "line gravity needs at least 2 points (a multiple of 3 numbers, at "
                           "least 6); it has {count} numbers")
GRAVITY_SHAPE_MISSING = Rule("gravity-shape-missing", "error",
                             "shaped gravity without a valid shape has no effect")
GRAVITY_DIRECTION = Rule("gravity-direction-not-normalised", "warning",
                         "the gravity direction is not normalised (length {length:.4g})")

RULES: Final = (MOVING_TRIMESH, NEGATIVE_SCALE, NON_UNIFORM_SCALE, DEGENERATE_SIZE,
                SHORT_CAPSULE, FLAT_HULL, HULL_TOO_MANY_POINTS, JOINT_NOT_DYNAMIC,
                PART_OUTSIDE_VEHICLE, COMPOUND_TRIGGER_FILTER, GRAVITY_NOT_ON_TRIGGER,
                GRAVITY_ON_COMPOUND_PART, GRAVITY_LINE_POINTS, GRAVITY_SHAPE_MISSING,
                GRAVITY_DIRECTION)


def is_moving_trimesh(shape_kind: str, body_kind: str | None) -> bool:
    """A triangle mesh collider whose body moves (`body_kind` None: no body, static)."""
    return shape_kind == "trimesh" and body_kind in MOVING


def has_simulated_centre(body_kind: str) -> bool:
    """True when a body of motion `body_kind` moves about a centre of mass: a static body
    does not move, so a format need not state one (nor the engine compute one)."""
    return body_kind in MOVING


def scale_rule(shape_kind: str, scale: Sequence[float]) -> Rule | None:
    """What a shape's world scale breaks: a negative factor, or a non-uniform scale on a
    round shape (sphere, capsule, cylinder); None when nothing."""
    if any(s < 0 for s in scale):
        return NEGATIVE_SCALE
    if shape_kind in ROUND and max(scale) - min(scale) > SCALE_TOLERANCE * max(scale):
        return NON_UNIFORM_SCALE
    return None


def critical_sizes(kind: str, *, size: Sequence[float] = (), radius: float = 0.0,
                   height: float = 0.0, radius_top: float = 0.0,
                   radius_bottom: float = 0.0) -> tuple[float, ...]:
    """The extents of an analytic shape that must not be zero (a capsule or cylinder with
    one zero radius is a legal cone or tapered capsule; a plane has none)."""
    widest = max(radius_top, radius_bottom)
    return {"box": tuple(size), "sphere": (radius,), "capsule": (widest,),
            "cylinder": (height, widest)}.get(kind, ())


def is_degenerate(sizes: Iterable[float]) -> bool:
    """True when any of the critical extents is (nearly) zero."""
    return any(s <= MIN_SIZE for s in sizes)


def is_short_capsule(full_height: float, diameter: float) -> bool:
    """A capsule whose end-to-end height is below its diameter (its smaller hemisphere is
    swallowed by the larger, or it was fitted to a disc)."""
    return full_height < diameter


def is_flat_hull(distinct_points: int, volume: float) -> bool:
    """A convex hull without volume."""
    return distinct_points < 4 or volume <= 0.0


def has_too_many_hull_points(count: int) -> bool:
    """More hull points than engines accept."""
    return count > ENGINE_MAX_POINTS


def hull_points_message(count: int) -> str:
    """HULL_TOO_MANY_POINTS's message for a hull of `count` points."""
    return HULL_TOO_MANY_POINTS.message(count=count, limit=ENGINE_MAX_POINTS)


def has_dynamic_side(body_kinds: Iterable[str | None]) -> bool:
    """True when a joint joins at least one dynamic body."""
    return any(kind == "dynamic" for kind in body_kinds)


def is_vehicle_body(has_vehicle: bool, body_kind: str | None) -> bool:
    """A vehicle body: a vehicle on a dynamic body."""
    return has_vehicle and body_kind == "dynamic"


def under_vehicle(ancestors: Iterable[T], is_vehicle: Callable[[T], bool]) -> bool:
    """True when a vehicle part (wheel, thruster, hover thruster) has a vehicle body among
    its `ancestors` (parent first; the part's own node does not count)."""
    return any(is_vehicle(node) for node in ancestors)


def part_label(part: str) -> str:
    """A vehicle part's name in messages: 'HOVER_THRUSTER' or 'hoverThruster' → 'hover
    thruster'."""
    if "_" in part or part.isupper():
        return part.lower().replace("_", " ")
    return "".join(f" {c.lower()}" if c.isupper() else c for c in part).strip()


def gravity_placement(has_motion: bool, has_collider: bool, has_trigger: bool) -> str:
    """What stops a node from carrying a gravity volume ("" when nothing): the spec wants a
    trigger body node without motion or collider."""
    found = [name for name, present in (("motion", has_motion), ("collider", has_collider))
             if present]
    if found:
        return f"it has a {' and a '.join(found)}"
    return "" if has_trigger else "it has no trigger"


def line_points_valid(count: int) -> bool:
    """True when a line's number of point coordinates is a multiple of 3 and at least 6."""
    return count >= 6 and count % 3 == 0


def direction_length(direction: Sequence[float]) -> float | None:
    """The length of a direction that is not normalised (None when it is, within 1e-4)."""
    length = math.sqrt(sum(c * c for c in direction))
    return None if abs(length - 1.0) <= NORMAL_TOLERANCE else length
