# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_shape + OMI_physics_body + OMI_physics_joint, current revision (2024-11 on). Pure.

Spec: ../shared/specs/omi/OMI_physics_{shape,body,joint}. Writes the current layout only;
reads it plus the quirks still found in files (digest §4.3, §4.4, §4.7) and v1 joints (§4.5).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from typing import Any, Final

from .. import rules
from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import Json, JsonReader
from ..model import (
    MESH_SHAPES,
    MOTION_KINDS,
    ZERO3,
    Motion,
    NodePhysics,
    PhysicsMaterial,
    PhysicsScene,
    Shape,
)
from ..numbers import canon, canon_list
from .common import (
    OMI_DEFAULTS,
    Encoded,
    Pool,
    ResolveRef,
    decode_analytic,
    decode_filter,
    decode_motion_fields,
    decode_pool,
    encode_analytic,
    encode_material,
    encode_motion_fields,
    encode_orientation,
    material_decoder,
    named,
    with_name,
)
from .joints import (
    decode_legacy_node_joint,
    decode_node_joint,
    decode_settings,
    is_legacy_node_joint,
)
from .node_body import NodeEncoder, Pools, decode_nodes
from .omi_legacy import decode_type_revision

SHAPE_EXT: Final = "OMI_physics_shape"
BODY_EXT: Final = "OMI_physics_body"
JOINT_EXT: Final = "OMI_physics_joint"
OMI_SHAPE_TYPES: Final = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh")
PLANE_THICKNESS: Final = 0.01
INFINITE_PLANE: Final = 1000.0
#: OMI's mass when a body gives none (it has no computed mass).
OMI_MASS: Final = 1.0
#: OMI cannot lock a rotation: a locked axis gets this many times the largest free moment.
LOCKED_INERTIA_FACTOR: Final = 1000.0
#: OMI's combine modes default to average.
DECODE_MATERIAL: Final = material_decoder("average")


def encode_omi(
    scene: PhysicsScene, resolve_node: ResolveRef, resolve_mesh: ResolveRef, report: Report,
    legacy_round: bool = False,
) -> Encoded:
    """Write a scene as OMI: shapes, materials and filters pooled into the root arrays.

    `legacy_round` writes capsules and cylinders in the pre-2025 layout (one `radius`, a
    capsule's full height) that Godot 4 releases read; other readers misread it.
    """
    shapes = Pool()

    def geometry(shape: Shape, where: str) -> dict[str, Any] | None:
        if legacy_round and shape.kind in ("capsule", "cylinder"):
            return {"shape": shapes.add(_legacy_round(shape, where, report))}
        index = shapes.add_value(shape, lambda s: _encode_shape(s, where, resolve_mesh, report))
        return None if index is None else {"shape": index}

    nodes = NodeEncoder(report, resolve_node, geometry, Pool(), Pool(),
                        write_material=lambda material: encode_omi_material(material, report))
    encoded = Encoded()
    for ref, physics in scene.nodes.items():
        payload = nodes.shared_payload(ref, physics, _encode_node)
        joint = None if physics.joint is None else nodes.joint(physics.joint, f"node {ref}")
        if joint is not None and payload:
            report.warn("joint-on-body", f"node {ref}",
                        "OMI wants a joint on its own node; written beside the body")
        extensions = {BODY_EXT: payload} if payload else {}
        if joint is not None:
            extensions[JOINT_EXT] = joint
        if extensions:
            encoded.nodes[ref] = extensions
    if shapes.entries:
        encoded.root[SHAPE_EXT] = {"shapes": shapes.entries}
    nodes.root(BODY_EXT, encoded.root, joints=False)
    if nodes.joints.entries:
        encoded.root[JOINT_EXT] = {"physicsJoints": nodes.joints.entries}
    return encoded


def _encode_node(ref: Hashable, physics: NodePhysics, nodes: NodeEncoder) -> dict[str, Any]:
    where = f"node {ref}"
    payload: dict[str, Any] = {}
    if physics.motion is not None:
        payload["motion"] = _encode_motion(physics.motion, nodes.report, where)
    nodes.shapes_into(physics, where, payload)
    return payload


def encode_omi_material(material: PhysicsMaterial, report: Report) -> dict[str, Any]:
    """An OMI physics material; combine modes left to the engine are omitted (OMI then means
    average) and reported once per material."""
    engine = [name for name, mode in (("friction", material.friction_combine),
                                      ("restitution", material.restitution_combine))
              if mode is None]
    if engine:
        report.warn("omi-engine-combine", f"physics material {_material_label(material)}",
                    f"OMI has no engine-chosen {' and '.join(engine)} combine: it means average")
    return encode_material(material, report)


def _material_label(material: PhysicsMaterial) -> str:
    return (f"(friction {material.static_friction:g}/{material.dynamic_friction:g}, "
            f"restitution {material.restitution:g})")


def _legacy_round(shape: Shape, where: str, report: Report) -> dict[str, Any]:
    radius = max(shape.radius_top, shape.radius_bottom)
    if shape.radius_top != shape.radius_bottom:
        report.warn("legacy-round-tapered", where,
                    f"pre-2025 {shape.kind} has one radius: wrote the larger, {radius:.4g} m")
    height = shape.height + 2 * radius if shape.kind == "capsule" else shape.height
    return with_name({"type": shape.kind,
                      shape.kind: {"radius": canon(radius), "height": canon(height)}}, shape.name)


def _encode_shape(
    shape: Shape, where: str, resolve_mesh: ResolveRef, report: Report
) -> dict[str, Any] | None:
    if shape.kind in MESH_SHAPES:
        mesh = None if shape.mesh is None else resolve_mesh(shape.mesh)
        if mesh is None:
            report.warn("shape-mesh-missing", where, f"{shape.kind} shape has no mesh; skipped")
            return None
        return with_name({"type": shape.kind, shape.kind: {"mesh": mesh}}, shape.name)
    if shape.kind == "plane":
        report.warn("plane-as-box", where, "OMI has no plane: written as a thin box")
        size_x = shape.size_x if shape.size_x is not None else INFINITE_PLANE
        size_z = shape.size_z if shape.size_z is not None else INFINITE_PLANE
        shape = Shape("box", size=(size_x, PLANE_THICKNESS, size_z), name=shape.name)
    return with_name({"type": shape.kind, shape.kind: encode_analytic(shape)}, shape.name)


def decode_omi(view: DocumentView, report: Report) -> PhysicsScene:
    """Read OMI physics from a document; malformed blocks are reported and skipped."""
    read = JsonReader(report)
    body_ext = read.obj(view.extension(BODY_EXT), f"/extensions/{BODY_EXT}")
    shapes = decode_shape_pool(view, read)
    where_body = f"/extensions/{BODY_EXT}"
    pools = Pools(
        materials=decode_pool(body_ext, "physicsMaterials", where_body, read, DECODE_MATERIAL),
        filters=decode_pool(body_ext, "collisionFilters", where_body, read, decode_filter),
    )

    def geometry(obj: Mapping[str, Json], where: str) -> Shape | None:
        index = read.index(obj, "shape", where, len(shapes))
        return None if index is None else shapes[index]

    scene = decode_nodes(
        view, BODY_EXT, read, pools, geometry, lambda obj, w: _decode_motion(obj, w, read)
    )
    for index, physics in decode_type_revision(view, BODY_EXT, SHAPE_EXT, read, shapes).items():
        current = scene.nodes.get(index, NodePhysics())
        scene.nodes[index] = NodePhysics(
            current.motion or physics.motion, current.collider or physics.collider,
            current.trigger or physics.trigger,
        )
    _decode_joints(view, read, scene)
    scene.nodes = dict(sorted(scene.nodes.items()))  # type: ignore[arg-type]
    return scene


def decode_shape_pool(view: DocumentView, read: JsonReader) -> list[Shape | None]:
    """The document's OMI_physics_shape shapes (None for an unusable one, reported)."""
    shape_ext = read.obj(view.extension(SHAPE_EXT), f"/extensions/{SHAPE_EXT}")
    return [
        _decode_shape(s, f"/extensions/{SHAPE_EXT}/shapes/{i}", read, view.mesh_count)
        for i, s in enumerate(read.array(shape_ext or {}, "shapes", f"/extensions/{SHAPE_EXT}"))
    ]


def _decode_joints(view: DocumentView, read: JsonReader, scene: PhysicsScene) -> None:
    """Add OMI_physics_joint node joints (current or v1 layout) to `scene`."""
    where_root = f"/extensions/{JOINT_EXT}"
    root = read.obj(view.extension(JOINT_EXT), where_root) or {}
    settings = decode_pool(root, "physicsJoints", where_root, read, decode_settings)
    constraints = read.array(root, "constraints", where_root)
    for index, payload in view.used(JOINT_EXT):
        where = f"/nodes/{index}/extensions/{JOINT_EXT}"
        obj = read.obj(payload, where)
        if obj is None:
            continue
        if is_legacy_node_joint(obj):
            joint = decode_legacy_node_joint(obj, where, read, constraints, len(view.nodes))
        else:
            joint = decode_node_joint(obj, where, read, settings, len(view.nodes), index)
        if joint is not None:
            scene.nodes[index] = replace(scene.nodes.get(index, NodePhysics()), joint=joint)


def _decode_motion(obj: Mapping[str, Json], where: str, read: JsonReader) -> Motion:
    fields = decode_motion_fields(obj, where, read, "OMI")
    if "type" in obj:
        kind = read.choice(obj, "type", where, MOTION_KINDS, "dynamic")
    else:
        kind = "kinematic" if obj.get("isKinematic") is True else "dynamic"
        read.report.warn("motion-without-type", where, f"motion without type read as {kind}")
    if fields["mass"] is None:  # any number is OMI's mass, 0 and below included
        fields["mass"] = OMI_MASS
    if fields["center_of_mass"] is None:
        fields["center_of_mass"] = ZERO3
    diagonal = fields["inertia_diagonal"]
    if diagonal is not None and not all(diagonal):
        if any(diagonal):
            read.report.warn("inertia-partial", f"{where}/inertiaDiagonal",
                             "OMI computes an inertia with a 0 component: read as computed")
        fields["inertia_diagonal"] = None
    return Motion(kind=kind, **fields)  # type: ignore[arg-type]


def _encode_motion(motion: Motion, report: Report, where: str) -> dict[str, Any]:
    """OMI motion; what OMI cannot say (computed mass or centre, infinite mass or inertia)
    is written in its closest form and reported."""
    kind = motion.kind
    out: dict[str, Any] = {}
    if motion.mass is None:
        report.warn("omi-computed-mass", where,
                    f"OMI has no computed mass: written as its default, {OMI_MASS:g} kg")
        out["mass"] = OMI_MASS
    elif math.isinf(motion.mass):
        if kind == "dynamic":
            kind = "kinematic"
        report.warn("omi-infinite-mass", where, "OMI has no infinite mass: written as kinematic")
        out["mass"] = OMI_MASS
    else:
        out["mass"] = canon(motion.mass)
    if motion.center_of_mass is None:
        if rules.has_simulated_centre(motion.kind):  # (a static body's is not simulated)
            report.warn("omi-computed-center", where,
                        "OMI has no computed centre of mass: it is at the body origin")
    elif motion.center_of_mass != ZERO3:
        out["centerOfMass"] = canon_list(motion.center_of_mass)
    diagonal = None if motion.inertia_diagonal is None else \
        omi_inertia(motion.inertia_diagonal, where, report)
    if diagonal is not None:
        out["inertiaDiagonal"] = canon_list(diagonal)
    encode_orientation(motion, out)
    encode_motion_fields(motion, out, where, report)
    return {"type": kind, **out}


def omi_inertia(
    diagonal: tuple[float, ...], where: str, report: Report, colliders: tuple[float, ...] = (),
) -> tuple[float, ...] | None:
    """The inertia diagonal OMI is written with; None leaves it to the engine (said).

    OMI has no infinite moment: a locked (infinite) axis is written LOCKED_INERTIA_FACTOR ×
    the largest free moment or, with every axis locked, × the largest of `colliders` (the
    moments the body's colliders give, when the caller knows them). OMI reads a 0 moment as
    computed."""
    finite = [d for d in diagonal if not math.isinf(d)]
    reference = finite or [d for d in colliders if 0 < d < math.inf]
    if not reference:
        report.warn("omi-lock-unwritten", where, "every rotation is locked and no moment of "
                    "inertia is known to scale (no collider volume): OMI cannot lock a "
                    "rotation, so no inertia is written and the engine computes one (the body "
                    "turns freely)")
        return None
    if len(finite) < 3:
        source = "moment" if finite else "moment of the colliders"
        report.warn("omi-locked-rotation", where, "OMI has no infinite moment of inertia: "
                    f"a locked axis is written {LOCKED_INERTIA_FACTOR:g}× the largest {source}")
    if 0.0 in finite:
        report.warn("omi-zero-inertia", where, "OMI reads a moment of inertia of 0 as "
                    "computed: the inertia is left to the engine")
        return None
    large = LOCKED_INERTIA_FACTOR * max(abs(d) for d in reference)
    return tuple(large if math.isinf(d) else d for d in diagonal)


def full_lock(
    motion: Motion, moments: Callable[[], tuple[float, ...] | None], where: str, report: Report,
) -> Motion:
    """`motion` as OMI writes a rotation locked about every axis: LOCKED_INERTIA_FACTOR × the
    largest of the colliders' `moments` (`omi_inertia`; asked only then). Unchanged
    otherwise, or without moments (the encoder then says OMI cannot write the lock)."""
    diagonal = motion.inertia_diagonal
    if diagonal is None or not all(math.isinf(d) for d in diagonal):
        return motion
    found = moments()
    if not found:
        return motion
    return replace(motion, inertia_diagonal=omi_inertia(diagonal, where, report, found))


def _decode_shape(value: Json, where: str, read: JsonReader, mesh_count: int) -> Shape | None:
    obj = read.obj(value, where)
    if obj is None:
        return None
    kind = obj.get("type")
    if kind == "hull":  # flat shapes of 2023-06 (digest §4.2)
        kind = "convex"
    if kind not in OMI_SHAPE_TYPES:
        read.bad(where, f"unknown shape type {kind!r}; shape skipped", "unknown-shape")
        return None
    flat = kind not in obj and any(key not in ("type", "isTrigger") for key in obj)
    if flat:
        read.report.info("flat-shape", where, "flat shape parameters upgraded")
    sub = obj if flat else obj.get(kind, {})
    if not isinstance(sub, Mapping):
        read.bad(f"{where}/{kind}", "expected an object", "not-an-object")
        sub = {}
    if kind in MESH_SHAPES:
        mesh = read.index(sub, "mesh", f"{where}/{kind}", mesh_count)
        if mesh is None:
            read.bad(where, f"{kind} shape without a valid mesh skipped", "shape-mesh-missing")
            return None
        return named(Shape(kind, mesh=mesh), obj, where, read)
    return named(decode_analytic(kind, sub, f"{where}/{kind}", read, OMI_DEFAULTS), obj, where,
                 read)
