# SPDX-License-Identifier: GPL-3.0-or-later
"""Errors JSON schemas cannot express about references: every index in range of the array
it names, every extension used listed in `extensionsUsed` (and every required one used),
every number finite. Pure."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from ..diagnostics import Report
from ..json_read import Json, as_list
from .facts import Facts
from .schema import is_integer, pointer, shown
from .specs import CHECKED

#: Physics extensions read elsewhere or not at all: declared like the others, not checked.
OTHER_PHYSICS: Final = ("OMI_spawn_point",)
PHYSICS: Final = CHECKED | frozenset(OTHER_PHYSICS)

Target = tuple[str | None, str]  # (extension owning the root array, or None: core; key)
NODES: Final[tuple[Target, ...]] = ((None, "nodes"),)
MESHES: Final[tuple[Target, ...]] = ((None, "meshes"),)


@dataclass(frozen=True, slots=True)
class Reference:
    """Indices at `path` ("*": every array item) in an extension's root ("doc") or node
    objects; valid when in range of any of `targets`."""

    extension: str
    level: str
    path: str
    targets: tuple[Target, ...]


def _body(ext: str, shapes: Target, geometry: bool) -> list[Reference]:
    refs = [Reference(ext, "node", "collider/physicsMaterial", ((ext, "physicsMaterials"),)),
            Reference(ext, "node", "collider/collisionFilter", ((ext, "collisionFilters"),)),
            Reference(ext, "node", "trigger/collisionFilter", ((ext, "collisionFilters"),)),
            Reference(ext, "node", "trigger/nodes/*", NODES)]
    for part in ("collider", "trigger"):
        if geometry:
            refs += [Reference(ext, "node", f"{part}/geometry/shape", (shapes,)),
                     Reference(ext, "node", f"{part}/geometry/node", NODES),
                     Reference(ext, "node", f"{part}/geometry/mesh", MESHES)]
        else:
            refs.append(Reference(ext, "node", f"{part}/shape", (shapes,)))
    return refs


def _joint(ext: str, prefix: str) -> list[Reference]:
    return [Reference(ext, "node", f"{prefix}joint", ((ext, "physicsJoints"),)),
            Reference(ext, "node", f"{prefix}connectedNode", NODES)]


_KHR: Final = "KHR_physics_rigid_bodies"
_ANY_MATERIALS: Final[tuple[Target, ...]] = (("OMI_physics_body", "physicsMaterials"),
                                             (_KHR, "physicsMaterials"))
OMI_REFERENCES: Final = (
    Reference("OMI_physics_shape", "doc", "shapes/*/convex/mesh", MESHES),
    Reference("OMI_physics_shape", "doc", "shapes/*/trimesh/mesh", MESHES),
    *_body("OMI_physics_body", ("OMI_physics_shape", "shapes"), geometry=False),
    *_joint("OMI_physics_joint", ""),
    Reference("OMI_vehicle_body", "node", "pilotSeat", NODES),
    Reference("OMI_physics_gravity", "node", "shaped/shape", (("OMI_physics_shape", "shapes"),)),
    Reference("OMI_vehicle_wheel", "doc", "wheels/*/physicsMaterial", _ANY_MATERIALS),
    Reference("OMI_vehicle_wheel", "node", "wheel", (("OMI_vehicle_wheel", "wheels"),)),
    Reference("OMI_vehicle_thruster", "node", "thruster",
              (("OMI_vehicle_thruster", "thrusters"),)),
    Reference("OMI_vehicle_hover_thruster", "node", "hoverThruster",
              (("OMI_vehicle_hover_thruster", "hoverThrusters"),)),
    # legacy layouts: OMI_collider, node-level shapes, v1 joints
    Reference("OMI_collider", "doc", "colliders/*/mesh", MESHES),
    Reference("OMI_collider", "node", "collider", (("OMI_collider", "colliders"),)),
    Reference("OMI_physics_shape", "node", "shape", (("OMI_physics_shape", "shapes"),)),
    Reference("OMI_physics_joint", "node", "nodeA", NODES),
    Reference("OMI_physics_joint", "node", "nodeB", NODES),
    Reference("OMI_physics_joint", "node", "constraints/*",
              (("OMI_physics_joint", "constraints"),)),
)
KHR_REFERENCES: Final = (*_body(_KHR, ("KHR_implicit_shapes", "shapes"), geometry=True),
                         *_joint(_KHR, "joint/"))
LEGACY_KHR_REFERENCES: Final = (
    Reference("KHR_collision_shapes", "doc", "shapes/*/convex/mesh", MESHES),
    Reference("KHR_collision_shapes", "doc", "shapes/*/trimesh/mesh", MESHES),
    *_body(_KHR, ("KHR_collision_shapes", "shapes"), geometry=False),
    *_joint(_KHR, "joint/"),
)


def walk(value: Json, keys: list[str], where: str) -> Iterator[tuple[str, Json]]:
    """(pointer, value) of whatever `keys` ("*": each array item) lead to from `value`."""
    if not keys:
        yield where, value
        return
    key, rest = keys[0], keys[1:]
    if key == "*":
        for index, item in enumerate(as_list(value)):
            yield from walk(item, rest, pointer(where, index))
    elif isinstance(value, dict) and key in value:
        yield from walk(value[key], rest, pointer(where, key))


def check_references(facts: Facts, report: Report, legacy_khr: bool) -> None:
    """`bad-index` for each index past the end of its array; `float-index` (a warning) for
    an index written as 2.0, which JSON Schema accepts and many readers do not. Values of
    the wrong type or negative are the schema rules' findings."""
    grouped: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
    for ref in OMI_REFERENCES + (LEGACY_KHR_REFERENCES if legacy_khr else KHR_REFERENCES):
        counts = [facts.count(*target) for target in ref.targets]
        names = " or ".join(
            f"{'/' + key if owner is None else pointer('/extensions/' + owner, key)} "
            f"({count} items)" for (owner, key), count in zip(ref.targets, counts, strict=True))
        grouped.setdefault((ref.extension, ref.level), []).append((ref.path, max(counts), names))
    for (extension, level), refs in grouped.items():
        integral_floats = not (legacy_khr and extension.startswith("KHR"))
        for base, payload in facts.payloads(extension, level):
            for path, size, names in refs:
                for where, value in walk(payload, path.split("/"), base):
                    if not is_integer(value, integral_floats) or value < 0:
                        continue
                    if isinstance(value, float):
                        report.warn("float-index", where, f"the index {shown(value)} is "
                                    "written with a decimal point: readers that want an "
                                    "integer reject it")
                    if value >= size:
                        report.add("error", "bad-index", where,
                                   f"index {int(value)} is past the end of {names}")


def check_declarations(facts: Facts, report: Report) -> None:
    """Physics extensions used but not in `extensionsUsed` (errors), required extensions not
    used (errors), and physics extensions made required (a warning: viewers without physics
    then refuse the whole file)."""
    used_list = _names(facts, "extensionsUsed", report)
    required = _names(facts, "extensionsRequired", report)
    used = set(facts.view.extensions)
    for node in facts.view.nodes:
        used.update(node.extensions)
    for name in sorted(used & PHYSICS):
        if name not in used_list:
            report.add("error", "extension-not-declared", "/extensionsUsed",
                       f"{name} is used but not listed in extensionsUsed")
    for index, name in enumerate(required):
        at = f"/extensionsRequired/{index}"
        if name not in used_list:
            report.add("error", "required-not-used", at,
                       f"{name} is required but not listed in extensionsUsed")
        elif name in PHYSICS:
            report.warn("physics-required", at, f"{name} is required: viewers without "
                        "physics refuse the file (physics extensions can stay optional)")


def _names(facts: Facts, key: str, report: Report) -> list[str]:
    value = facts.gltf.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        report.add("error", "wrong-type", f"/{key}", f"{key} must be an array of strings")
        return [name for name in as_list(value) if isinstance(name, str)]
    return value


def check_numbers(facts: Facts, report: Report) -> None:
    """`not-finite` for NaN or an infinity (which JSON cannot hold) in a physics payload."""
    for name in sorted(PHYSICS):
        for level in ("doc", "node"):
            for where, payload in facts.payloads(name, level):
                if _all_finite(payload):
                    continue
                for at, value in _floats(payload, where):
                    if not math.isfinite(value):
                        report.add("error", "not-finite", at,
                                   f"{value} is not a JSON number: write a finite value")


def _all_finite(value: Json) -> bool:
    """True when `value` surely holds no NaN or infinity (the C encoder checks quickly)."""
    try:
        json.dumps(value, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return False
    return True


def _floats(value: Json, where: str) -> Iterator[tuple[str, float]]:
    """(pointer, value) of every float at or below `value` (pointers made only for those)."""
    stack: list[tuple[str, Json]] = [(where, value)]
    while stack:
        at, item = stack.pop()
        if isinstance(item, float):
            yield at, item
            continue
        children = item.items() if isinstance(item, dict) else enumerate(item) \
            if isinstance(item, list) else ()
        for key, child in children:
            if isinstance(child, float):
                yield pointer(at, key), child
            elif isinstance(child, dict | list):
                stack.append((pointer(at, key), child))
