# SPDX-License-Identifier: GPL-3.0-or-later
"""Errors about where physics sits in the node tree, which no schema can express: compound
trigger members, the bodies a joint joins, vehicle parts and pilot seats, mesh geometry
nodes, and the README's typed vectors. Pure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from .. import rules
from ..codecs.joints import is_legacy_node_joint
from ..diagnostics import Report
from ..json_read import Json, as_dict, as_list, is_index
from .facts import Facts, node_pointer
from .schema import is_number, pointer

BODY_EXTENSIONS: Final = ("OMI_physics_body", "KHR_physics_rigid_bodies")
VEHICLE_PARTS: Final = {"OMI_vehicle_wheel": "wheel", "OMI_vehicle_thruster": "thruster",
                        "OMI_vehicle_hover_thruster": "hover thruster"}
#: OMI motion and seat arrays the schemas leave untyped; the READMEs give their lengths.
README_VECTORS: Final = {
    ("OMI_physics_body", "motion"): {"inertiaDiagonal": 3, "inertiaOrientation": 4,
                                     "linearVelocity": 3, "angularVelocity": 3},
    ("OMI_seat", ""): {"back": 3, "foot": 3, "knee": 3},
}
GODOT_INERTIA: Final = 4  # Godot writes the inertia orientation under inertiaDiagonal


def check_triggers(facts: Facts, report: Report) -> None:
    """Members of a compound trigger are descendants of its node with their own trigger."""
    for ext in BODY_EXTENSIONS:
        for index, payload in facts.view.used(ext):
            members = as_list(as_dict(as_dict(payload).get("trigger")).get("nodes"))
            if not members:
                continue
            below = set(facts.view.descendants(index))
            base = pointer(node_pointer(index, ext), "trigger")
            for position, member in enumerate(members):
                if not is_index(member) or member >= facts.node_count:
                    continue  # the schema rules or the index check report it
                where = pointer(pointer(base, "nodes"), position)
                if member not in below:
                    report.add("error", "trigger-member-outside", where,
                               f"node {member} is not below the compound trigger's node {index}")
                if "trigger" not in facts.node_payload(member, ext):
                    report.add("error", "trigger-member-no-trigger", where,
                               f"node {member} has no {ext} trigger of its own")


def check_joints(facts: Facts, report: Report) -> None:
    """A joint joins two bodies (OMI: both frames below a body; KHR: at least one, the
    other may be the world), never a body to itself; warns when neither body is dynamic."""
    for index, connected, where, khr in _joints(facts):
        bodies = (facts.body_of(index), facts.body_of(connected))
        missing = [side for side, body in zip(("the joint node", "connectedNode"), bodies,
                                              strict=True) if body is None]
        if connected == index:
            report.add("error", "joint-same-body", where, "connectedNode is the joint's own node")
        elif missing and (not khr or len(missing) == 2):
            report.add("error", "joint-body-missing", where,
                       f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not "
                       "below a body (a node with a motion)")
        elif bodies[0] is not None and bodies[0] == bodies[1]:
            report.add("error", "joint-same-body", where,
                       f"both joint frames belong to the body on node {bodies[0]}")
        elif not rules.has_dynamic_side(facts.motion_kind(b) for b in bodies if b is not None):
            rule = rules.JOINT_NOT_DYNAMIC
            report.add(rule.severity, rule.code, where, rule.message())


def _joints(facts: Facts) -> Iterator[tuple[int, int, str, bool]]:
    """(node, connected node, pointer, is KHR) of each current-layout joint whose
    connectedNode is a node (OMI v1 joints name their bodies: the converter upgrades them)."""
    khr_ext = "KHR_physics_rigid_bodies"
    found = [(index, as_dict(payload), node_pointer(index, "OMI_physics_joint"), False)
             for index, payload in facts.view.used("OMI_physics_joint")
             if not is_legacy_node_joint(as_dict(payload))]
    found += [(index, as_dict(as_dict(payload).get("joint")),
               pointer(node_pointer(index, khr_ext), "joint"), True)
              for index, payload in facts.view.used(khr_ext)]
    for index, obj, where, khr in found:
        connected = obj.get("connectedNode")
        if is_index(connected) and connected < facts.node_count:
            yield index, connected, where, khr


def check_vehicles(facts: Facts, report: Report) -> None:
    """Wheels and thrusters below a vehicle body; a vehicle body on a dynamic body; its
    pilot seat a seat."""
    def is_vehicle(node: int) -> bool:
        return rules.is_vehicle_body("OMI_vehicle_body" in facts.view.nodes[node].extensions,
                                     facts.motion_kind(node))

    rule = rules.PART_OUTSIDE_VEHICLE
    for ext, label in VEHICLE_PARTS.items():
        for index in facts.view.users(ext):
            if not rules.under_vehicle(facts.ancestors(index), is_vehicle):
                report.add(rule.severity, rule.code, node_pointer(index, ext),
                           rule.message(part=label))
    for index, payload in facts.view.used("OMI_vehicle_body"):
        where = node_pointer(index, "OMI_vehicle_body")
        if facts.motion_kind(index) != "dynamic":
            not_dynamic = rules.VEHICLE_NOT_DYNAMIC
            report.add(not_dynamic.severity, not_dynamic.code, where,
                       not_dynamic.message(what="readers may ignore it"))
        seat = as_dict(payload).get("pilotSeat")
        if is_index(seat) and seat < facts.node_count \
                and "OMI_seat" not in facts.view.nodes[seat].extensions:
            report.add("error", "pilot-seat-not-a-seat", pointer(where, "pilotSeat"),
                       f"the pilot seat, node {seat}, has no OMI_seat")


def check_geometry_nodes(facts: Facts, report: Report) -> None:
    """A KHR `geometry.node` names a node with a mesh (on it or below it)."""
    if facts.legacy_khr:
        return
    for index, payload in facts.view.used("KHR_physics_rigid_bodies"):
        for part in ("collider", "trigger"):
            node = as_dict(as_dict(as_dict(payload).get(part)).get("geometry")).get("node")
            if is_index(node) and node < facts.node_count and not facts.has_mesh_below(node):
                where = pointer(node_pointer(index, "KHR_physics_rigid_bodies"), part)
                report.add("error", "geometry-node-no-mesh", f"{where}/geometry/node",
                           f"node {node} has no mesh: the {part} has no geometry")


def check_vectors(facts: Facts, report: Report) -> None:
    """OMI motion vectors and seat points of the README's lengths (the schemas only say
    "array"); Godot's 4-number inertiaDiagonal is a known quirk (a warning)."""
    for (ext, key), lengths in README_VECTORS.items():
        for index, payload in facts.view.used(ext):
            obj = as_dict(as_dict(payload).get(key)) if key else as_dict(payload)
            base = pointer(node_pointer(index, ext), key) if key else node_pointer(index, ext)
            _vectors(obj, base, lengths, report)


def _vectors(obj: Mapping[str, Json], base: str, lengths: dict[str, int],
             report: Report) -> None:
    for name, length in lengths.items():
        value = obj.get(name)
        if not isinstance(value, list):
            continue  # absent, or a type error the schema rules report
        where = pointer(base, name)
        if name == "inertiaDiagonal" and len(value) == GODOT_INERTIA:
            report.warn("godot-inertia", where, "4 numbers under inertiaDiagonal: Godot's "
                        "inertia orientation under the wrong key (the diagonal is computed)")
        elif len(value) != length or not all(is_number(v) for v in value):
            report.add("error", "bad-vector", where, f"expected {length} numbers")
