# SPDX-License-Identifier: GPL-3.0-or-later
"""Every code the physics checker reports, with its severity and meaning: the catalogue the
README lists and the tests hold the checker to. Pure."""

from __future__ import annotations

from typing import Final

from .. import rules
from ..diagnostics import Severity


def _shared(rule: rules.Rule, meaning: str) -> dict[str, tuple[Severity, str]]:
    """A catalogue entry of a rule shared with the Blender scene check (io/rules.py)."""
    return {rule.code: (rule.severity, meaning)}


CODES: Final[dict[str, tuple[Severity, str]]] = {
    # errors: what the official JSON schemas reject
    "wrong-type": ("error", "a value of the wrong JSON type"),
    "missing-required": ("error", "a required property is absent"),
    "out-of-range": ("error", "a number outside its bounds"),
    "none-sentinel": ("error", "-1 written for 'none' (leave the property out)"),
    "bad-enum": ("error", "a string that is not one of the allowed values"),
    "bad-length": ("error", "an array too short or too long"),
    "not-unique": ("error", "a repeated item where items must be unique"),
    "trigger-empty": ("error", "a trigger with neither a shape/geometry nor nodes"),
    "trigger-both": ("error", "a trigger with both a shape/geometry and nodes"),
    **_shared(rules.COMPOUND_TRIGGER_FILTER, "a compound trigger with a collision filter"),
    "geometry-form": ("error", "a KHR geometry without exactly one of shape, node, mesh"),
    "limit-axes": ("error", "a joint limit without axes (KHR: with both kinds)"),
    "filter-both": ("error", "a filter with both collideWithSystems and notCollideWithSystems"),
    "drive-pair": ("error", "a KHR drive target without its stiffness/damping, or the reverse"),
    "shape-form": ("error", "a 2024-03 KHR shape without exactly one shape object, its type's"),
    # errors: rules the schemas cannot express
    "not-gltf": ("error", "the document is not a JSON object"),
    "bad-index": ("error", "an index past the end of the array it names"),
    "extension-not-declared": ("error", "a physics extension used but not in extensionsUsed"),
    "required-not-used": ("error", "an extensionsRequired entry not in extensionsUsed"),
    "not-finite": ("error", "NaN or an infinity, which JSON cannot hold"),
    "trigger-member-outside": ("error", "a compound trigger member not below its node"),
    "trigger-member-no-trigger": ("error", "a compound trigger member without its own trigger"),
    "joint-body-missing": ("error", "a joint frame not below a body (KHR: neither frame)"),
    "joint-same-body": ("error", "a joint whose two frames belong to one body"),
    **_shared(rules.PART_OUTSIDE_VEHICLE, "a wheel or thruster not below a vehicle body"),
    **_shared(rules.GRAVITY_NOT_ON_TRIGGER, "gravity on a node that is not a trigger only"),
    **_shared(rules.GRAVITY_ON_COMPOUND_PART, "gravity on a compound trigger's part"),
    **_shared(rules.GRAVITY_LINE_POINTS, "line gravity points not a multiple of 3"),
    **_shared(rules.GRAVITY_SHAPE_MISSING, "shaped gravity without a usable shape"),
    **_shared(rules.VEHICLE_NOT_DYNAMIC, "OMI_vehicle_body on a node without a dynamic motion"),
    "pilot-seat-not-a-seat": ("error", "a pilotSeat node without OMI_seat"),
    "geometry-node-no-mesh": ("error", "a KHR geometry.node without a mesh on or below it"),
    "bad-vector": ("error", "an OMI motion vector or seat point of the wrong length"),
    "degenerate-shape": ("error", "a KHR implicit shape without extent (both capsule radii 0)"),
    "shape-other-part": ("error", "a KHR shape with another type's object (a box's 'sphere')"),
    "json-not-strict": ("error", "JSON glTF forbids: a byte order mark, a key given twice"),
    "resource-refused": ("error", "a buffer or image not read: outside the file's folder, "
                         "not a regular file, or shorter than its byteLength"),
    "check-failed": ("error", "the checker itself failed (please report the file)"),
    # warnings: legal but risky or engine-dependent
    "float-index": ("warning", "an index written as 2.0"),
    "physics-required": ("warning", "a physics extension in extensionsRequired"),
    **_shared(rules.DEGENERATE_SIZE, "a shape with a zero extent"),
    **_shared(rules.SHORT_CAPSULE, "a capsule shorter than its diameter"),
    **_shared(rules.FLAT_HULL, "a convex mesh without volume"),
    **_shared(rules.HULL_TOO_MANY_POINTS, "a convex hull over 255 points"),
    **_shared(rules.MOVING_TRIMESH, "a triangle mesh collider on a moving body"),
    **_shared(rules.NON_UNIFORM_SCALE, "a sphere, capsule or cylinder under non-uniform scale"),
    **_shared(rules.NEGATIVE_SCALE, "a shape under a mirroring scale"),
    **_shared(rules.JOINT_NOT_DYNAMIC, "a joint with no dynamic body"),
    "mesh-part-left-out": ("warning", "a collider mesh primitive without triangles (points, "
                           "lines, Draco, not finite)"),
    "mass-unset": ("warning", "a dynamic KHR body whose mass the engine computes"),
    "mass-not-positive": ("warning", "an OMI mass of 0 or less"),
    "infinite-mass": ("warning", "a KHR mass of 0 (infinite)"),
    "infinite-inertia": ("warning", "a KHR inertia component of 0 (infinite)"),
    "combine-unset": ("warning", "a KHR material whose combine modes the engine picks"),
    "limit-mixed-axes": ("warning", "an OMI limit over linear and angular axes at once"),
    "mixed-families": ("warning", "OMI and KHR physics in one file"),
    "godot-inertia": ("warning", "Godot's inertia orientation under inertiaDiagonal"),
    "seat-collinear": ("warning", "seat back, foot and knee on one line"),
    **_shared(rules.GRAVITY_DIRECTION, "a gravity direction that is not normalised"),
    # notes
    "legacy-omi-collider": ("info", "OMI_collider (archived 2023)"),
    "legacy-omi-body-type": ("info", "OMI_physics_body with a body type (2023)"),
    "legacy-node-shape": ("info", "OMI_physics_shape on nodes (2023)"),
    "legacy-flat-shape": ("info", "OMI shape parameters beside its type (2023-06)"),
    "legacy-implicit-trigger": ("info", "an empty trigger over descendant triggers (2023)"),
    "legacy-omi-joint": ("info", "OMI_physics_joint v1 (before 2024-11)"),
    "legacy-radius": ("info", "a capsule or cylinder with one radius (before 2025)"),
    "legacy-vehicle-names": ("info", "OMI vehicle properties under their 2025 names"),
    "legacy-khr-2024": ("info", "the KHR physics draft of 2024-03"),
    "not-checked": ("info", "OMI_spawn_point, not checked here"),
    "mesh-not-read": ("info", "a convex mesh whose vertices cannot be read"),
}
