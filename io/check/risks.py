# SPDX-License-Identifier: GPL-3.0-or-later
"""Warnings: what the specifications allow but engines treat differently or badly — a
moving triangle mesh, a scaled round shape, a KHR body whose mass or material combine modes
are left to the engine, a zero (infinite) KHR mass or inertia, an OMI limit over both axis
kinds, OMI and KHR physics in one file. Shared rules come from io/rules.py. Pure (numpy)."""

from __future__ import annotations

from typing import Final

import numpy as np

from .. import rules
from ..diagnostics import Report
from ..json_read import as_dict, as_list
from ..node_graph import NodeGraph
from .facts import Facts, node_pointer
from .schema import is_number, pointer

KHR: Final = "KHR_physics_rigid_bodies"
OMI_FAMILY: Final = ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint", "OMI_collider")
KHR_FAMILY: Final = ("KHR_implicit_shapes", KHR, "KHR_collision_shapes")
#: Where a node's collider or trigger is written, most specific family first.
PART_EXTENSIONS: Final = (KHR, "OMI_physics_body", "OMI_collider", "OMI_physics_shape")


def part_pointer(facts: Facts, index: int, part: str) -> str:
    """The pointer of a node's collider or trigger in whichever extension holds it."""
    for ext in PART_EXTENSIONS:
        payload = facts.node_payload(index, ext)
        if part in payload:
            return pointer(node_pointer(index, ext), part)
        if payload and ext != KHR and ext != "OMI_physics_body":
            return node_pointer(index, ext)  # legacy layouts: the shape is the payload
    return f"/nodes/{index}"


def check_bodies(facts: Facts, report: Report) -> None:
    """`moving-trimesh`, and `negative-scale`/`non-uniform-scale` on each shape's node."""
    graph = NodeGraph.of(dict(facts.gltf))
    scaled = {index for index, node in enumerate(graph.nodes)
              if isinstance(node, dict) and ("scale" in node or "matrix" in node)}
    for index, physics in facts.scene.nodes.items():
        if not isinstance(index, int):
            continue
        for part, holder in (("collider", physics.collider), ("trigger", physics.trigger)):
            shape = None if holder is None else holder.shape
            if shape is None:
                continue
            where = part_pointer(facts, index, part)
            body = facts.body_of(index)
            moving = None if body is None else facts.motion_kind(body)
            if part == "collider" and rules.is_moving_trimesh(shape.kind, moving):
                _add(report, rules.MOVING_TRIMESH, where)
            chain = {index, *facts.ancestors(index)} if scaled else set()
            scale = _world_scale(graph, index) if chain & scaled else None
            rule = None if scale is None else rules.scale_rule(shape.kind, scale)
            if rule is not None:
                _add(report, rule, where, kind=shape.kind)


def _world_scale(graph: NodeGraph, index: int) -> tuple[float, ...] | None:
    """The node's world scale factors (one negative when the frame is mirrored); None when
    the transforms are not finite."""
    with np.errstate(all="ignore"):
        basis = graph.world(index)[:3, :3]
        if not np.isfinite(basis).all():
            return None
        scale = np.linalg.norm(basis, axis=0)
        if np.linalg.det(basis) < 0:
            scale[0] = -scale[0]
    return tuple(float(s) for s in scale)


def check_motion(facts: Facts, report: Report) -> None:
    """KHR bodies: `mass-unset` (a dynamic body's mass computed by the engine from a density
    the file cannot give), `infinite-mass`/`infinite-inertia` (0, which the schema forbids
    and the text reads as infinite). OMI bodies: `mass-not-positive` (no schema minimum)."""
    for index, payload in facts.view.used(KHR):
        motion = as_dict(payload).get("motion")
        if not isinstance(motion, dict):
            continue
        where = pointer(node_pointer(index, KHR), "motion")
        mass = motion.get("mass")
        if "mass" not in motion and motion.get("isKinematic") is not True:
            report.warn("mass-unset", where, "no mass: the engine computes it from the "
                        "colliders with a density of its own choosing")
        elif is_number(mass) and mass == 0:
            report.warn("infinite-mass", pointer(where, "mass"), "a mass of 0 means infinite "
                        "(the schema wants > 0): many readers reject it; use isKinematic")
        inertia = motion.get("inertiaDiagonal")
        if isinstance(inertia, list) and any(is_number(v) and v == 0 for v in inertia):
            report.warn("infinite-inertia", pointer(where, "inertiaDiagonal"),
                        "a 0 moment of inertia means infinite (the schema wants > 0): many "
                        "readers reject it")
    for index, payload in facts.view.used("OMI_physics_body"):
        mass = as_dict(as_dict(payload).get("motion")).get("mass")
        if is_number(mass) and mass <= 0:
            where = pointer(node_pointer(index, "OMI_physics_body"), "motion")
            report.warn("mass-not-positive", pointer(where, "mass"), f"a mass of {mass}: OMI "
                        "has no infinite or negative mass (engines substitute their own)")


def check_materials(facts: Facts, report: Report) -> None:
    """`combine-unset`: a KHR material without combine modes (KHR gives no default)."""
    materials = as_list(facts.root(KHR).get("physicsMaterials"))
    for index, material in enumerate(materials):
        missing = [key for key in ("frictionCombine", "restitutionCombine")
                   if isinstance(material, dict) and key not in material]
        if missing:
            report.warn("combine-unset", f"/extensions/{KHR}/physicsMaterials/{index}",
                        f"no {' or '.join(missing)}: each engine combines materials its own "
                        "way")


def check_limits(facts: Facts, report: Report) -> None:
    """`limit-mixed-axes`: an OMI limit over linear and angular axes at once (the weld
    example does it; the schema forbids it, and KHR has no such limit)."""
    joints = as_list(facts.root("OMI_physics_joint").get("physicsJoints"))
    for j, joint in enumerate(joints):
        for k, limit in enumerate(as_list(as_dict(joint).get("limits"))):
            if isinstance(limit, dict) and "linearAxes" in limit and "angularAxes" in limit:
                report.warn("limit-mixed-axes",
                            f"/extensions/OMI_physics_joint/physicsJoints/{j}/limits/{k}",
                            "one limit over linear and angular axes: split it in two (the "
                            "schema and KHR allow one kind per limit)")


def check_families(facts: Facts, report: Report) -> None:
    """`mixed-families`: OMI and KHR physics in one file (readers take one and drop the
    other; this project's importer keeps KHR on a node that has both)."""
    used = set(facts.view.extensions)
    for node in facts.view.nodes:
        used.update(node.extensions)
    omi = [name for name in OMI_FAMILY if name in used]
    khr = [name for name in KHR_FAMILY if name in used]
    if omi and khr:
        report.warn("mixed-families", "", f"both OMI ({', '.join(omi)}) and KHR "
                    f"({', '.join(khr)}) physics: readers use one family and drop the other")


def check_decoded(facts: Facts, report: Report) -> None:
    """Risks the decoders find: `seat-collinear` (back, foot and knee on one line)."""
    for issue in facts.decoded.issues:
        if issue.code == "seat-collinear":
            report.warn(issue.code, issue.where, "back, foot and knee are on one line: the "
                        "seat has no forward direction")


def _add(report: Report, rule: rules.Rule, where: str, **values: object) -> None:
    report.add(rule.severity, rule.code, where, rule.message(**values))
