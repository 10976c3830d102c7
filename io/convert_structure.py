# SPDX-License-Identifier: GPL-3.0-or-later
"""Structural upgrades of a conversion: v1 joints, joints on their own nodes, static
partners and static bodies under moving ones (see io/convert.py). Pure."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .codecs import omi
from .codecs.registry import (
    HANDLED_EXTENSIONS,
)
from .diagnostics import Report
from .json_read import as_dict, as_list, is_index
from .model import Joint, Motion, NodePhysics, PhysicsScene
from .node_graph import NodeGraph
from .structure import (
    STATIC_IN_MOVING_CODE,
    joint_needs_own_node,
    kind_in_target,
    own_colliders_of,
    static_partner,
)
from .vehicle_model import VehicleScene

HANDLED: Final = frozenset(HANDLED_EXTENSIONS)
FRAME_KEYS: Final = ("mesh", "camera", "skin", "weights", "children")


@dataclass(slots=True)
class Work:
    """One conversion: the output document, its node tree and the decoded physics."""

    out: dict[str, Any]
    graph: NodeGraph
    scene: PhysicsScene
    vehicles: VehicleScene
    report: Report
    frames: dict[int, int] = field(default_factory=dict)  # connected node → its new frame


def node_name(work: Work, index: int, suffix: str) -> str:
    name = as_dict(work.graph.nodes[index]).get("name")
    return f"{name if isinstance(name, str) else f'node{index}'}.{suffix}"


def _move_joint(work: Work, source: int, frame: int, joint: Joint | None) -> None:
    """Take the joint off `source` and put `joint` (when given) on `frame`."""
    rest = replace(work.scene.nodes[source], joint=None)
    if rest.is_empty():
        del work.scene.nodes[source]
    else:
        work.scene.nodes[source] = rest
    if joint is not None:
        work.scene.nodes[frame] = replace(work.scene.nodes.get(frame, NodePhysics()), joint=joint)


def _joints(work: Work) -> list[tuple[int, Joint]]:
    """(node, joint) of every joint, as a snapshot the caller may edit the scene under."""
    found = []
    for index, physics in work.scene.nodes.items():
        if physics.joint is not None and is_index(index):
            found.append((index, physics.joint))
    return found  # type: ignore[return-value]


def _is_plain_frame(work: Work, index: int, *, leaf: bool = False) -> bool:
    """True for a node that holds nothing but (possibly) a joint: no mesh, camera, skin,
    other extension, body, shape or vehicle part; with `leaf`, no children nor animation."""
    node = work.graph.nodes[index]
    if not isinstance(node, dict):
        return False
    keys = FRAME_KEYS if leaf else FRAME_KEYS[:-1]
    if any(key in node for key in keys) or (leaf and index in work.graph.pinned):
        return False
    if any(name not in HANDLED for name in as_dict(node.get("extensions"))):
        return False
    physics = work.scene.nodes.get(index, NodePhysics())
    parts = (physics.motion, physics.collider, physics.trigger)
    return all(part is None for part in parts) and index not in work.vehicles.nodes


def upgrade_v1_joints(work: Work) -> None:
    """OMI v1 joints (digest §4.5): the frame goes under body A, a new empty under body B."""
    for index, joint in _joints(work):
        if joint.legacy_bodies is not None:
            _upgrade_v1_joint(work, index, joint, *joint.legacy_bodies)  # type: ignore[arg-type]


def _upgrade_v1_joint(work: Work, index: int, joint: Joint, body_a: int, body_b: int) -> None:
    graph, report = work.graph, work.report
    where = f"/nodes/{index}/extensions/{omi.JOINT_EXT}"
    if not graph.is_node(index) or not all(
        graph.is_node(body) and graph.invertible(body) for body in (body_a, body_b)
    ):
        report.warn("joint-skipped", where, "a v1 joint body is not a node with a usable transform")
        _move_joint(work, index, index, None)
        return
    world = graph.world(index)
    frame = index
    exact = True
    if body_of(work, index) != body_a:
        if _is_plain_frame(work, index, leaf=True):
            exact = graph.reparent(index, body_a)
        else:
            frame = graph.add_node({"name": node_name(work, index, "joint")}, body_a)
            exact = graph.place(frame, world)
            report.info("joint-frame-node", where,
                        f"the v1 joint node holds more than a joint: its frame is new node {frame}")
    connected = graph.add_node({"name": node_name(work, index, "connected")}, body_b)
    exact = graph.place(connected, world) and exact
    if not exact:
        report.warn("joint-frame-inexact", where,
                    "the joint frame is sheared relative to a body: nearest rotation used")
    _move_joint(work, index, frame, Joint(joint.settings, connected, enable_collision=False))


def body_of(work: Work, index: int) -> int | None:
    """The nearest ancestor-or-self carrying a motion."""
    for node in work.graph.ancestors_or_self(index):
        physics = work.scene.nodes.get(node)
        if physics is not None and physics.motion is not None:
            return node
    return None


def anchor_world_sides(work: Work) -> None:
    """OMI needs a body on both joint sides: world-anchored sides get a static partner."""
    # (the motions before any static partner is made)
    own = own_colliders_of(work.scene.nodes, lambda index: children_of(work.graph, index))
    for index, joint in _joints(work):
        if joint.connected_node is None or not work.graph.is_node(joint.connected_node):
            continue
        bodies = [_body_or_static_partner(work, side, own)
                  for side in (index, joint.connected_node)]
        if bodies[0] == bodies[1]:
            work.report.warn("joint-same-body", f"/nodes/{index}",
                             f"both joint sides belong to body {bodies[0]}: joint not written")
            _move_joint(work, index, index, None)


def _body_or_static_partner(work: Work, side: int, own: Callable[[int], bool]) -> int:
    """The body of a joint side; for a body-less side, its static partner (io/structure.py
    `static_partner`, as the Blender import picks it) made a static body."""
    body = body_of(work, side)
    if body is not None:
        return body
    partner = static_partner(list(work.graph.ancestors_or_self(side)), own, body_required=True)
    assert partner is not None  # a chain always has a root
    physics = work.scene.nodes.get(partner, NodePhysics())
    work.scene.nodes[partner] = replace(physics, motion=Motion(kind="static"))
    work.report.info("static-partner", f"/nodes/{partner}",
                     f"joint side node {side} is anchored to the world or a static collider: "
                     f"node {partner} written as an OMI static body")
    return partner


def children_of(graph: NodeGraph, index: Hashable) -> list[int]:
    """The children of node `index` in the tree (those whose parent it is)."""
    if not graph.is_node(index):
        return []
    return [child for child in as_list(graph.nodes[index].get("children"))
            if is_index(child) and graph.parents.get(child) == index]


def give_joints_own_nodes(work: Work) -> None:
    """OMI puts a joint on a node of its own and connects it to a plain frame."""
    for index, joint in _joints(work):
        connected = joint.connected_node
        if connected is None or not work.graph.is_node(connected):
            continue
        frame = index
        if joint_needs_own_node("OMI", _is_plain_frame(work, index)):
            frame = work.graph.add_node({"name": node_name(work, index, "joint")}, index)
            work.report.info("joint-own-node", f"/nodes/{index}",
                             f"OMI wants a joint on its own node: moved to new child {frame}")
        if not _is_plain_frame(work, connected):
            connected = _connected_frame(work, connected)
        _move_joint(work, index, frame, replace(joint, connected_node=connected))


def _connected_frame(work: Work, connected: int) -> int:
    if connected not in work.frames:
        frame = work.graph.add_node({"name": node_name(work, connected, "connected")}, connected)
        work.frames[connected] = frame
        work.report.info("connected-own-node", f"/nodes/{connected}",
                         f"joint connected to a node with content: new child frame {frame}")
    return work.frames[connected]


def keep_static_bodies_apart(work: Work) -> None:
    """KHR has no static motion: a static body inside a moving one becomes kinematic."""
    for index, physics in list(work.scene.nodes.items()):
        if physics.motion is None or physics.motion.kind != "static":
            continue
        moving = next((a for a in list(work.graph.ancestors_or_self(index))[1:]
                       if moves(work, a)), None)
        kind = kind_in_target("static", "KHR", moving is not None)
        if kind != "static":
            work.scene.nodes[index] = replace(physics, motion=replace(physics.motion,
                                                                       kind=kind))
            work.report.warn(STATIC_IN_MOVING_CODE, f"/nodes/{index}",
                             f"a static body under moving body {moving} would merge into it in "
                             "KHR: written as kinematic")


def moves(work: Work, index: int) -> bool:
    physics = work.scene.nodes.get(index)
    return physics is not None and physics.motion is not None and physics.motion.kind != "static"

