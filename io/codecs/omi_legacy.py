# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_body "type" revision (2022-12 → 2023-09) with node-level OMI_physics_shape. Pure.

Digest §4.2: `{type, mass, linearVelocity, angularVelocity, centerOfMass, inertiaTensor}`
on the body node; shapes as node extensions `OMI_physics_shape: {shape}` on the body node or
its descendants, colliders unless the governing body is a trigger.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from ..document import DocumentView
from ..field_table import read_minimum
from ..json_read import Json, JsonReader
from ..model import IDENTITY, ZERO3, Collider, Motion, NodePhysics, Quat, Shape, Trigger, Vec3

BODY_TYPES: Final = {
    "static": "static", "kinematic": "kinematic", "character": "kinematic",
    "rigid": "dynamic", "dynamic": "dynamic", "vehicle": "dynamic", "trigger": None,
}


def is_type_revision(payload: Json) -> bool:
    """True for a legacy body payload: a string `type` and none of the current keys."""
    return (
        isinstance(payload, Mapping) and isinstance(payload.get("type"), str)
        and not any(key in payload for key in ("motion", "collider", "trigger"))
    )


def decode_type_revision(
    view: DocumentView, body_ext: str, shape_ext: str, read: JsonReader,
    shapes: list[Shape | None],
) -> dict[int, NodePhysics]:
    """Physics of every node in the legacy layout, upgraded to the current model."""
    body_type: dict[int, str | None] = {}
    out: dict[int, NodePhysics] = {}
    for index, payload in view.used(body_ext):
        if is_type_revision(payload):
            _read_body(index, payload, f"/nodes/{index}/extensions/{body_ext}", read,
                       body_type, out)
    _read_node_shapes(view, shape_ext, read, shapes, body_type, out)
    return out


def _read_body(
    index: int, payload: Mapping[str, Json], where: str, read: JsonReader,
    body_type: dict[int, str | None], out: dict[int, NodePhysics],
) -> None:
    kind = payload["type"]
    if kind not in BODY_TYPES:
        read.bad(f"{where}/type", f"unknown body type {kind!r}; body skipped", "bad-enum")
        return
    if kind in ("character", "vehicle"):
        read.report.warn(
            "legacy-body-type", where, f"body type {kind!r} read as {BODY_TYPES[kind]}"
        )
    body_type[index] = BODY_TYPES[kind]
    if BODY_TYPES[kind] is not None:
        out[index] = NodePhysics(motion=_motion(payload, where, read, BODY_TYPES[kind]))
    read.report.info("legacy-body", where, "OMI_physics_body type revision upgraded")


def _read_node_shapes(
    view: DocumentView, shape_ext: str, read: JsonReader, shapes: list[Shape | None],
    body_type: dict[int, str | None], out: dict[int, NodePhysics],
) -> None:
    """Node-level shapes become colliders, or triggers (and compound members) of a trigger."""
    if not view.users(shape_ext):
        return
    parents = view.parents()
    members: dict[int, list[int]] = {}
    for index, payload in view.used(shape_ext):
        where = f"/nodes/{index}/extensions/{shape_ext}"
        obj = read.obj(payload, where)
        shape_index = None if obj is None else read.index(obj, "shape", where, len(shapes))
        shape = None if shape_index is None else shapes[shape_index]
        if shape is None:
            continue
        governing = _governing_body(index, parents, body_type)
        current = out.get(index, NodePhysics())
        if governing is not None and body_type[governing] is None:
            out[index] = NodePhysics(current.motion, current.collider, Trigger(shape=shape))
            if governing != index:
                members.setdefault(governing, []).append(index)
        else:
            out[index] = NodePhysics(current.motion, Collider(shape=shape), current.trigger)
    for body, nodes in members.items():
        current = out.get(body, NodePhysics())
        if current.trigger is None:
            out[body] = NodePhysics(current.motion, current.collider, Trigger(nodes=tuple(nodes)))


def _governing_body(index: int, parents: dict[int, int], bodies: dict[int, Any]) -> int | None:
    seen: set[int] = set()
    node: int | None = index
    while node is not None and node not in seen:
        if node in bodies:
            return node
        seen.add(node)
        node = parents.get(node)
    return None


def _motion(obj: Mapping[str, Json], where: str, read: JsonReader, kind: str) -> Motion:
    diagonal, orientation = _inertia(obj, where, read)
    return Motion(
        kind=kind,  # type: ignore[arg-type]
        # Any number, as the current OMI_physics_body (its revisions state no bound).
        mass=read.number(obj, "mass", where, 1.0, minimum=read_minimum("motion", "mass", ("OMI",))),
        center_of_mass=read.vector(obj, "centerOfMass", where, 3) or ZERO3,  # OMI: origin
        inertia_diagonal=diagonal,
        inertia_orientation=orientation,
        linear_velocity=read.vector(obj, "linearVelocity", where, 3) or (0.0, 0.0, 0.0),
        angular_velocity=read.vector(obj, "angularVelocity", where, 3) or (0.0, 0.0, 0.0),
    )  # type: ignore[arg-type]


def _inertia(obj: Mapping[str, Json], where: str, read: JsonReader) -> tuple[Vec3 | None, Quat]:
    """`inertiaTensor` (9 numbers) → principal moments and their orientation."""
    values = read.vector(obj, "inertiaTensor", where, 9)
    if values is None or not any(values):
        return None, IDENTITY
    tensor = np.array(values, dtype=float).reshape(3, 3)
    tensor = tensor / 2 + tensor.T / 2  # (halved first: a sum of two huge values overflows)
    moments, axes = np.linalg.eigh(tensor)
    if not (np.all(np.isfinite(moments)) and np.all(np.isfinite(axes))):
        read.bad(f"{where}/inertiaTensor", "inertia tensor too large to diagonalise; "
                 "computed instead")
        return None, IDENTITY
    if np.any(moments <= 0):
        read.bad(f"{where}/inertiaTensor", "inertia tensor is not positive; computed instead")
        return None, IDENTITY
    if np.allclose(tensor, np.diag(np.diag(tensor))):
        d = np.diag(tensor)
        return (float(d[0]), float(d[1]), float(d[2])), IDENTITY
    if np.linalg.det(axes) < 0:
        axes[:, 2] = -axes[:, 2]
    return (float(moments[0]), float(moments[1]), float(moments[2])), _quaternion(axes)


def _quaternion(m: np.ndarray) -> Quat:
    """A rotation matrix as a quaternion (x, y, z, w)."""
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = 2.0 * np.sqrt(trace + 1.0)
        q = ((m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4)
    else:
        i = int(np.argmax(np.diag(m)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k])
        v = [0.0, 0.0, 0.0]
        v[i] = s / 4
        v[j] = (m[j, i] + m[i, j]) / s
        v[k] = (m[k, i] + m[i, k]) / s
        q = (v[0], v[1], v[2], (m[k, j] - m[j, k]) / s)
    x, y, z, w = (float(c) for c in q)
    return (x, y, z, w)
