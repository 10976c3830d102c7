# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_collider, the archived flat collider layout (2022-12 → 2023-06; digest §4.1). Pure.

Spec: ../shared/specs/omi/OMI_collider. Root `OMI_collider.colliders[]` holds flat shapes
`{type, isTrigger, size | radius | height | mesh}`; a node names one with
`OMI_collider: {collider: i}`. Bodies of that era (the OMI_physics_body "type" revision) are
read by omi_legacy; this module yields only the shape parts: a collider or trigger on each
shape node, and a compound trigger on each trigger body. `merge_shape_parts` joins the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import Json, JsonReader
from ..model import Collider, NodePhysics, PhysicsScene, Shape, Trigger
from .common import OMI_DEFAULTS, decode_analytic, repaired
from .omi_legacy import is_type_revision

COLLIDER_EXT: Final = "OMI_collider"
BODY_EXT: Final = "OMI_physics_body"
NODE_SHAPE_EXT: Final = "OMI_physics_shape"
FLAT_TYPES: Final = ("box", "sphere", "capsule", "cylinder", "hull", "trimesh")
DEFAULT_RADIUS: Final = 0.5
DEFAULT_HEIGHT: Final = 2.0  # the full height of capsules and cylinders


@dataclass(frozen=True, slots=True)
class FlatCollider:
    """One entry of `OMI_collider.colliders`."""

    shape: Shape
    is_trigger: bool


def is_omi_collider(view: DocumentView) -> bool:
    """True when the document uses OMI_collider at the root or on any node."""
    return COLLIDER_EXT in view.extensions or bool(view.users(COLLIDER_EXT))


def decode_omi_collider(view: DocumentView, report: Report) -> PhysicsScene:
    """The shape parts of an OMI_collider document (no motion); bad data reported, skipped."""
    scene = PhysicsScene()
    if not is_omi_collider(view):
        return scene
    read = JsonReader(report)
    where_root = f"/extensions/{COLLIDER_EXT}"
    report.info("legacy-omi-collider", where_root if COLLIDER_EXT in view.extensions else "",
                "archived OMI_collider shapes upgraded to OMI_physics_shape")
    colliders = _decode_colliders(view, read)
    parents = view.parents()
    members: dict[int, list[int]] = {}
    for index, payload in view.used(COLLIDER_EXT):
        where = f"/nodes/{index}/extensions/{COLLIDER_EXT}"
        flat = _node_collider(payload, where, read, colliders)
        if flat is None:
            continue
        body = _governing_body(view, index, parents)
        trigger_body = body if body is not None and _is_trigger_body(view, body) else None
        scene.nodes[index] = _shape_part(flat, trigger_body is not None)
        if trigger_body is not None and trigger_body != index:
            members.setdefault(trigger_body, []).append(index)
    _add_compound_triggers(view, scene, members, read)
    scene.nodes = dict(sorted(scene.nodes.items()))  # type: ignore[arg-type]
    return scene


def merge_shape_parts(scene: PhysicsScene, parts: PhysicsScene, report: Report) -> PhysicsScene:
    """Add the colliders and triggers of `parts` to `scene`, node by node; a node that already
    has a collider or trigger keeps it (reported)."""
    for index, physics in parts.nodes.items():
        current = scene.nodes.get(index, NodePhysics())
        if current.collider is not None or current.trigger is not None:
            report.warn("two-shape-layouts", f"/nodes/{index}",
                        "OMI_collider beside a newer shape layout: OMI_collider ignored")
            continue
        scene.nodes[index] = replace(current, collider=physics.collider, trigger=physics.trigger)
    scene.nodes = dict(sorted(scene.nodes.items()))  # type: ignore[arg-type]
    return scene


def _shape_part(flat: FlatCollider, in_trigger_body: bool) -> NodePhysics:
    """A trigger when the shape says so or its body is a trigger, else a collider."""
    if flat.is_trigger or in_trigger_body:
        return NodePhysics(trigger=Trigger(shape=flat.shape))
    return NodePhysics(collider=Collider(shape=flat.shape))


# -- document colliders ------------------------------------------------------------------------


def _decode_colliders(view: DocumentView, read: JsonReader) -> list[FlatCollider | None]:
    where = f"/extensions/{COLLIDER_EXT}"
    ext = read.obj(view.extensions.get(COLLIDER_EXT), where) or {}
    return [
        _decode_flat(value, f"{where}/colliders/{i}", read, view.mesh_count)
        for i, value in enumerate(read.array(ext, "colliders", where))
    ]


def _decode_flat(value: Json, where: str, read: JsonReader, mesh_count: int) -> FlatCollider | None:
    obj = read.obj(value, where)
    if obj is None:
        return None
    kind = obj.get("type")
    if kind not in FLAT_TYPES:
        read.bad(where, f"unknown collider type {kind!r}; collider skipped", "unknown-shape")
        return None
    shape = _flat_shape(kind, obj, where, read, mesh_count)
    if shape is None:
        return None
    return FlatCollider(shape, read.boolean(obj, "isTrigger", where, False))


def _flat_shape(
    kind: str, obj: Mapping[str, Json], where: str, read: JsonReader, mesh_count: int
) -> Shape | None:
    if kind in ("hull", "trimesh"):
        mesh = read.index(obj, "mesh", where, mesh_count)
        if mesh is None:
            read.bad(where, f"{kind} collider without a valid mesh skipped", "shape-mesh-missing")
            return None
        return Shape("convex" if kind == "hull" else "trimesh", mesh=mesh)
    if kind in ("box", "sphere"):
        return decode_analytic(kind, obj, where, read, OMI_DEFAULTS)
    radius = read.number(obj, "radius", where, DEFAULT_RADIUS, minimum=0.0)
    height = read.number(obj, "height", where, DEFAULT_HEIGHT, minimum=0.0)
    if radius <= 0:  # (its schema allows 0; the current revisions prohibit it: as they do)
        (radius,) = repaired((radius,), f"{where}/radius", read)
    if kind == "cylinder":
        if height <= 0:
            (height,) = repaired((height,), f"{where}/height", read)
        return Shape("cylinder", height=height, radius_top=radius, radius_bottom=radius)
    if height <= 2 * radius:
        read.report.warn("capsule-to-sphere", where, "full height <= 2r: read as a sphere")
        return Shape("sphere", radius=radius)
    return Shape("capsule", height=height - 2 * radius, radius_top=radius, radius_bottom=radius)


# -- nodes -----------------------------------------------------------------------------------


def _node_collider(
    payload: Json, where: str, read: JsonReader, colliders: list[FlatCollider | None]
) -> FlatCollider | None:
    obj = read.obj(payload, where)
    if obj is None:
        return None
    if "collider" not in obj:
        read.bad(where, "no collider index; skipped", "collider-missing")
        return None
    index = read.index(obj, "collider", where, len(colliders))
    return None if index is None else colliders[index]


def _governing_body(view: DocumentView, index: int, parents: dict[int, int]) -> int | None:
    """The node itself or its nearest ancestor carrying OMI_physics_body."""
    seen: set[int] = set()
    node: int | None = index
    while node is not None and node not in seen:
        if BODY_EXT in view.nodes[node].extensions:
            return node
        seen.add(node)
        node = parents.get(node)
    return None


def _is_trigger_body(view: DocumentView, index: int) -> bool:
    payload = view.nodes[index].extensions.get(BODY_EXT)
    return is_type_revision(payload) and payload.get("type") == "trigger"


def _add_compound_triggers(
    view: DocumentView, scene: PhysicsScene, members: dict[int, list[int]], read: JsonReader
) -> None:
    """Each trigger body without its own shape becomes a compound over its trigger shapes."""
    for index in view.users(BODY_EXT):
        if not _is_trigger_body(view, index) or index in scene.nodes:
            continue
        if index in members:
            scene.nodes[index] = NodePhysics(trigger=Trigger(nodes=tuple(members[index])))
        elif not _has_node_shapes(view, index):
            read.bad(f"/nodes/{index}/extensions/{BODY_EXT}",
                     "trigger body without OMI_collider shapes skipped", "trigger-empty")


def _has_node_shapes(view: DocumentView, index: int) -> bool:
    """True when node-level OMI_physics_shape (read by omi_legacy) fills the trigger body."""
    nodes = (index, *view.descendants(index))
    return any(NODE_SHAPE_EXT in view.nodes[n].extensions for n in nodes)
