# SPDX-License-Identifier: GPL-3.0-or-later
"""KHR_physics_rigid_bodies + KHR_implicit_shapes (2025-10 draft and the 2026-01 geometry). Pure.

Spec: ../shared/specs/khr/. Writes `geometry.mesh` (2026-01) or, on request, `geometry.node`
(2025-10) pointing at an orphan node that carries the mesh. Reads `shape`, `node` and `mesh`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import replace
from typing import Any, Final, Literal

from ..diagnostics import Report, listing
from ..document import DocumentView
from ..field_table import SCHEMA_BOUNDS, SMALLEST_POSITIVE
from ..json_read import Json, JsonReader
from ..model import INFINITE, MESH_SHAPES, Motion, NodePhysics, PhysicsScene, Shape
from ..numbers import canon, canon_list
from .common import (
    KHR_DEFAULTS,
    Encoded,
    Pool,
    ResolveRef,
    decode_analytic,
    decode_filter,
    decode_motion_fields,
    decode_pool,
    encode_analytic,
    encode_motion_fields,
    encode_orientation,
    material_decoder,
    named,
    with_name,
)
from .joints import decode_settings
from .node_body import NodeEncoder, Pools, decode_nodes

SHAPES_EXT: Final = "KHR_implicit_shapes"
BODIES_EXT: Final = "KHR_physics_rigid_bodies"
KHR_SHAPE_TYPES: Final = ("box", "sphere", "capsule", "cylinder", "plane")
GeometryForm = Literal["mesh", "node"]
#: KHR gives combine modes no default: absent ones are left to the engine.
DECODE_MATERIAL: Final = material_decoder(None)


def _khr_sphere(shape: Shape, where: str, report: Report) -> Shape:
    """A sphere of radius 0 (OMI allows it, KHR's schema wants > 0) written with the least
    radius KHR allows, said."""
    if shape.kind != "sphere" or shape.radius > 0 \
            or not SCHEMA_BOUNDS["KHR"]["sphere", "radius"].positive:
        return shape
    report.warn("degenerate-shape", where, f"a sphere of radius 0 is written with radius "
                f"{canon(SMALLEST_POSITIVE)!r} (KHR needs more than 0; OMI allows 0)")
    return replace(shape, radius=SMALLEST_POSITIVE)


def encode_khr(
    scene: PhysicsScene, resolve_node: ResolveRef, resolve_mesh: ResolveRef, report: Report,
    form: GeometryForm = "mesh", resolve_mesh_node: ResolveRef | None = None,
) -> Encoded:
    """Write a scene as KHR. With `form="node"`, `resolve_mesh_node` gives the orphan node."""
    shapes = Pool()

    def geometry(shape: Shape, where: str) -> dict[str, Any] | None:
        if shape.kind not in MESH_SHAPES:
            shape = _khr_sphere(shape, where, report)
            return {"geometry": {"shape": shapes.add_value(
                shape, lambda s: with_name({"type": s.kind, s.kind: encode_analytic(s)}, s.name)
            )}}
        hull = shape.kind == "convex"
        if form == "node" and resolve_mesh_node is not None:
            target = None if shape.mesh is None else resolve_mesh_node(shape.mesh)
            key = "node"
        else:
            target = None if shape.mesh is None else resolve_mesh(shape.mesh)
            key = "mesh"
        if target is None:
            report.warn("shape-mesh-missing", where, f"{shape.kind} shape has no mesh; skipped")
            return None
        if shape.name:
            report.warn("shape-name-not-written", where, f"KHR names a {shape.kind} shape's "
                        f"mesh, not a shape: its name {shape.name!r} is not written")
        return {"geometry": {key: target, "convexHull": hull}}

    nodes = NodeEncoder(report, resolve_node, geometry, Pool(), Pool())
    encoded = Encoded()
    for ref, physics in scene.nodes.items():
        payload = nodes.shared_payload(ref, physics, _encode_node)
        if payload:
            encoded.nodes[ref] = {BODIES_EXT: payload}
    if shapes.entries:
        encoded.root[SHAPES_EXT] = {"shapes": shapes.entries}
    nodes.root(BODIES_EXT, encoded.root)
    return encoded


def _encode_node(ref: Hashable, physics: NodePhysics, nodes: NodeEncoder) -> dict[str, Any]:
    where = f"node {ref}"
    payload: dict[str, Any] = {}
    motion = physics.motion
    if motion is not None and motion.kind != "static":
        written: dict[str, Any] = {}
        if motion.kind == "kinematic":
            written["isKinematic"] = True
        _encode_mass_fields(motion, written, where, nodes.report)
        encode_motion_fields(motion, written, where, nodes.report)
        # Writers drop empty objects (Blender's glTF exporter does), which would leave no motion.
        payload["motion"] = written or {"isKinematic": False}
    nodes.shapes_into(physics, where, payload)
    if physics.joint is not None:
        joint = nodes.joint(physics.joint, where)
        if joint is not None:
            payload["joint"] = joint
    return payload


def decode_khr(view: DocumentView, report: Report) -> PhysicsScene:
    """Read KHR physics from a document; malformed blocks are reported and skipped."""
    read = JsonReader(report)
    where_shapes = f"/extensions/{SHAPES_EXT}"
    shapes_ext = read.obj(view.extension(SHAPES_EXT), where_shapes)
    shapes = [
        _decode_shape(s, f"{where_shapes}/shapes/{i}", read)
        for i, s in enumerate(read.array(shapes_ext or {}, "shapes", where_shapes))
    ]
    where_body = f"/extensions/{BODIES_EXT}"
    body_ext = read.obj(view.extension(BODIES_EXT), where_body)
    pools = Pools(
        materials=decode_pool(body_ext, "physicsMaterials", where_body, read, DECODE_MATERIAL),
        filters=decode_pool(body_ext, "collisionFilters", where_body, read, decode_filter),
        joints=decode_pool(body_ext, "physicsJoints", where_body, read, decode_settings),
    )

    nodes = GeometryNodes(view, read)

    def geometry(obj: Mapping[str, Json], where: str) -> Shape | None:
        return _decode_geometry(obj, where, read, shapes, nodes)

    return decode_nodes(
        view, BODIES_EXT, read, pools, geometry, lambda obj, w: decode_motion(obj, w, read)
    )


def _encode_mass_fields(motion: Motion, out: dict[str, Any], where: str, report: Report) -> None:
    """Mass, centre of mass and inertia: absent is computed, 0 is infinite. A finite mass or
    inertia moment of 0 or less (OMI's) KHR cannot say (its 0 is infinite, below 0 invalid):
    omitted, reported."""
    if motion.mass is not None and motion.mass <= 0:
        report.warn("khr-mass-not-positive", where, f"a mass of {motion.mass:g} kg: KHR has "
                    "none of 0 or less (its 0 is infinite); not written, the engine computes it")
    elif motion.mass is not None:
        out["mass"] = 0.0 if math.isinf(motion.mass) else canon(motion.mass)
    if motion.center_of_mass is not None:
        out["centerOfMass"] = canon_list(motion.center_of_mass)
    diagonal = motion.inertia_diagonal
    if diagonal is not None and any(d <= 0 for d in diagonal):
        report.warn("khr-inertia-not-positive", where, f"an inertia of {list(diagonal)} kg·m²: "
                    "KHR has no moment of 0 or less (its 0 is a locked axis); not written, "
                    "the engine computes it")
    elif diagonal is not None:
        out["inertiaDiagonal"] = [0.0 if math.isinf(d) else canon(d) for d in diagonal]
    encode_orientation(motion, out)


def decode_motion(obj: Mapping[str, Json], where: str, read: JsonReader) -> Motion:
    """KHR motion: dynamic, or kinematic with `isKinematic`; mass and inertia components of 0
    are infinite, absent ones computed by the engine."""
    fields = decode_motion_fields(obj, where, read, "KHR")
    kinematic = read.boolean(obj, "isKinematic", where, False)
    if fields["mass"] == 0.0:
        fields["mass"] = INFINITE
    diagonal = fields["inertia_diagonal"]
    if diagonal is not None:
        fields["inertia_diagonal"] = tuple(INFINITE if d == 0 else d for d in diagonal)
    return Motion(kind="kinematic" if kinematic else "dynamic", **fields)


def _decode_geometry(
    obj: Mapping[str, Json], where: str, read: JsonReader, shapes: list[Shape | None],
    nodes: GeometryNodes,
) -> Shape | None:
    geo_where = f"{where}/geometry"
    geo = read.obj(obj.get("geometry"), geo_where)
    if geo is None:
        read.bad(where, "no geometry; skipped", "geometry-missing")
        return None
    hull = read.boolean(geo, "convexHull", geo_where, False)
    kind = "convex" if hull else "trimesh"
    if "shape" in geo:
        index = read.index(geo, "shape", geo_where, len(shapes))
        return None if index is None else shapes[index]
    if "mesh" in geo:
        if "node" in geo:
            read.bad(geo_where, "both mesh and node given; node ignored", "geometry-both")
        mesh = read.index(geo, "mesh", geo_where, nodes.view.mesh_count)
        return None if mesh is None else Shape(kind, mesh=mesh)
    if "node" in geo:
        node = read.index(geo, "node", geo_where, len(nodes.view.nodes))
        mesh = None if node is None else nodes.mesh(node, geo_where)
        return None if mesh is None else Shape(kind, mesh=mesh)
    read.bad(geo_where, "geometry names no shape, mesh or node; skipped", "geometry-missing")
    return None


class GeometryNodes:
    """The meshes of KHR `geometry.node` targets, each node resolved (and said) once.

    Only the node's own mesh is used, in the space of the node the geometry belongs to: a
    shape holds one mesh, so the meshes of nodes below it (which the spec includes, each
    placed by its transforms) are not gathered, and that is said (`geometry-node-children`).
    """

    def __init__(self, view: DocumentView, read: JsonReader) -> None:
        self.view, self.read = view, read
        self._found: dict[int, tuple[int | None, bool]] = {}

    def mesh(self, node: int, geo_where: str) -> int | None:
        """Node `node`'s mesh; None (said) when it has no valid one."""
        if node not in self._found:
            self._found[node] = self._resolve(node)
        mesh, below = self._found[node]
        if mesh is None and not below:
            self.read.bad(geo_where, f"geometry node {node} has no valid mesh",
                          "geometry-node-no-mesh")
        return mesh

    def _resolve(self, node: int) -> tuple[int | None, bool]:
        """(the node's own valid mesh, whether nodes below it carry meshes), said."""
        mesh = _node_mesh(self.view, node)
        below = [str(d) for d in self.view.descendants(node)
                 if _node_mesh(self.view, d) is not None]
        if below:
            used = f"only its own mesh {mesh} is used" if mesh is not None else \
                "it has no mesh of its own, so the colliders and triggers naming it are skipped"
            self.read.report.warn(
                "geometry-node-children", f"/nodes/{node}",
                f"KHR geometry.node {node}: the meshes of nodes below it ({listing(below, 10)}) "
                f"are not gathered into the collision geometry; {used}")
        return mesh, bool(below)


def _node_mesh(view: DocumentView, node: int) -> int | None:
    """Node `node`'s mesh when it is a valid index."""
    mesh = view.nodes[node].mesh
    return mesh if mesh is not None and 0 <= mesh < view.mesh_count else None


def geometry_node_refs(view: DocumentView) -> Iterator[tuple[int, int]]:
    """(node, target) for each KHR collider or trigger of `node` naming `geometry.node`
    `target` (a valid node index)."""
    for index, payload in view.used(BODIES_EXT):
        for part in ("collider", "trigger"):
            holder = payload.get(part) if isinstance(payload, Mapping) else None
            geometry = holder.get("geometry") if isinstance(holder, Mapping) else None
            if not isinstance(geometry, Mapping) or "shape" in geometry or "mesh" in geometry:
                continue  # (the decoder uses shape or mesh before node)
            target = geometry.get("node")
            if type(target) is int and 0 <= target < len(view.nodes):
                yield index, target


def report_moved_geometry_nodes(
    view: DocumentView, moved: Callable[[int], bool], report: Report,
) -> None:
    """Say once per KHR `geometry.node` target with a mesh and a transform of its own
    (`moved`) that another node's geometry names: its mesh is used without that transform.
    (A node naming itself is in its own space: nothing is lost.)"""
    said: set[int] = set()
    for index, target in geometry_node_refs(view):
        if target == index or target in said or _node_mesh(view, target) is None \
                or not moved(target):
            continue
        said.add(target)
        report.warn("geometry-node-transform", f"/nodes/{target}",
                    f"KHR geometry.node {target} has a transform of its own: its mesh is used "
                    "in the space of the node whose collider or trigger names it, without "
                    "that transform")


def _decode_shape(value: Json, where: str, read: JsonReader) -> Shape | None:
    obj = read.obj(value, where)
    if obj is None:
        return None
    kind = obj.get("type")
    if kind not in KHR_SHAPE_TYPES:
        read.bad(where, f"unknown shape type {kind!r}; shape skipped", "unknown-shape")
        return None
    sub = obj.get(kind, {})
    if not isinstance(sub, Mapping):
        read.bad(f"{where}/{kind}", "expected an object", "not-an-object")
        sub = {}
    for other in KHR_SHAPE_TYPES:  # ("must not": the checker's `shape-other-part`)
        if other != kind and other in obj:
            read.bad(f"{where}/{other}", f"a {kind} shape has a '{other}' object, which KHR "
                     f"forbids: the {kind} is read, the '{other}' dropped", "shape-other-part")
    return named(decode_analytic(kind, sub, f"{where}/{kind}", read, KHR_DEFAULTS), obj, where,
                 read)
