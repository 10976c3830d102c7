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
from .gravity import GravityScene
from .json_read import as_dict, as_list, is_index
from .model import Joint, Motion, NodePhysics, PhysicsScene
from .node_graph import NodeGraph
from .rules import GRAVITY_NOT_ON_TRIGGER, gravity_placement
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


def body_of(work: Work, index: int, moving: bool = False) -> int | None:
    """The nearest ancestor-or-self carrying a motion (`moving`: not a static one, which
    KHR writes as a collider alone)."""
    for node in work.graph.ancestors_or_self(index):
        physics = work.scene.nodes.get(node)
        if physics is not None and physics.motion is not None \
                and not (moving and physics.motion.kind == "static"):
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



def leave_out_unwritable(work: Work, target: str, gravity: GravityScene) -> None:
    """What the target would write invalid, left out and said (the importer skips the
    same): compound trigger members not below the trigger or without a trigger shape of
    their own (a compound left with none goes), a vehicle body on a node that is not a
    dynamic body, a KHR joint with no moving body on either side (KHR writes no motion for
    a static body), and (OMI) a gravity volume on a node that is not a trigger only."""
    for index, physics in list(work.scene.nodes.items()):
        trigger = physics.trigger
        if trigger is not None and trigger.shape is None and trigger.nodes:
            _leave_out_members(work, index, physics)
    for index, parts in list(work.vehicles.nodes.items()):
        motion = work.scene.nodes.get(index, NodePhysics()).motion
        if parts.vehicle_body is not None and (motion is None or motion.kind != "dynamic"):
            work.report.warn("vehicle-not-dynamic", f"/nodes/{index}", "a vehicle body belongs "
                             "on a dynamic body: not written")
            work.vehicles.nodes[index] = replace(parts, vehicle_body=None)
    if target == "KHR":
        _leave_out_bodiless_joints(work)
    else:
        _leave_out_misplaced_gravity(work, gravity)


def _leave_out_members(work: Work, index: int, physics: NodePhysics) -> None:
    trigger = physics.trigger
    assert trigger is not None
    problems = {node: _member_problem(work, index, node) for node in trigger.nodes}
    for node, problem in problems.items():
        if problem:
            code, why = problem.split(": ", 1)
            work.report.warn(code, f"/nodes/{index}",
                             f"compound trigger member node {node} {why}: left out of it")
    kept = tuple(node for node in trigger.nodes if not problems[node])
    if kept != trigger.nodes:
        if not kept:
            work.report.warn("trigger-empty", f"/nodes/{index}", "the compound trigger has no "
                             "member left: not written")
        work.scene.nodes[index] = replace(
            physics, trigger=replace(trigger, nodes=kept) if kept else None)


def _leave_out_bodiless_joints(work: Work) -> None:
    for index, joint in _joints(work):
        sides = (index, joint.connected_node)
        if joint.connected_node is not None and not any(
                work.graph.is_node(side) and body_of(work, side, moving=True) is not None
                for side in sides):
            work.report.warn("joint-body-missing", f"/nodes/{index}", "neither joint side is "
                             "below a moving body (KHR writes a static one as a collider "
                             "alone): joint not written")
            _move_joint(work, index, index, None)


def _leave_out_misplaced_gravity(work: Work, gravity: GravityScene) -> None:
    for index in list(gravity.nodes):
        physics = work.scene.nodes.get(index, NodePhysics())
        what = gravity_placement(physics.motion is not None, physics.collider is not None,
                                 physics.trigger is not None)
        if what:
            work.report.warn(GRAVITY_NOT_ON_TRIGGER.code, f"/nodes/{index}",
                             f"{GRAVITY_NOT_ON_TRIGGER.message(what=what)}; not written")
            del gravity.nodes[index]


def _member_problem(work: Work, compound: int, node: Hashable) -> str:
    """"code: why" a compound trigger's member cannot be written as one ("" when it can)."""
    if not work.graph.is_node(node) or node == compound \
            or compound not in work.graph.ancestors_or_self(node):  # type: ignore[arg-type]
        return "trigger-member-outside: is not below it"
    member = work.scene.nodes.get(node)
    if member is None or member.trigger is None or member.trigger.shape is None:
        return "trigger-member-no-trigger: has no trigger shape of its own"
    return ""
