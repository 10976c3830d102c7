# SPDX-License-Identifier: GPL-3.0-or-later
"""KHR_physics_rigid_bodies with KHR_collision_shapes: the 2024-03 draft (digest §2.3, §4.8). Pure.

Spec: ../shared/specs/khr/legacy-2024-03/. Shapes live in the root `KHR_collision_shapes`
(the analytic shapes of KHR_implicit_shapes plus `convex{mesh}` and `trimesh{mesh}`), and
colliders and triggers name one with `shape` instead of `geometry`. Motion, materials,
filters and joints have the current layout (the joint schemas differ only in defects), so
node decoding is shared with the current reader and only the geometry lookup differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import Json, JsonReader
from ..model import MESH_SHAPES, PhysicsScene, Shape
from .common import (
    KHR_DEFAULTS,
    decode_analytic,
    decode_filter,
    decode_pool,
    named,
)
from .joints import decode_settings
from .khr import BODIES_EXT, DECODE_MATERIAL, KHR_SHAPE_TYPES, decode_motion
from .khr import SHAPES_EXT as IMPLICIT_SHAPES_EXT
from .node_body import Pools, decode_nodes

SHAPES_EXT: Final = "KHR_collision_shapes"


def is_khr_2024(view: DocumentView) -> bool:
    """True for the 2024-03 layout: a root `KHR_collision_shapes`, or a collider or trigger
    naming `shape` instead of `geometry`."""
    if SHAPES_EXT in view.extensions:
        return True
    payloads = view.payloads(BODIES_EXT)
    return any(_names_shape(payloads[at]) for at, _key in view.distinct(BODIES_EXT))


def _names_shape(payload: Json) -> bool:
    if type(payload) is not dict and not isinstance(payload, Mapping):  # dict: no ABC check
        return False
    for key in ("collider", "trigger"):
        obj = payload.get(key)
        if obj is not None and (type(obj) is dict or isinstance(obj, Mapping)) \
                and "shape" in obj and "geometry" not in obj:
            return True
    return False


def decode_khr_2024(view: DocumentView, report: Report) -> PhysicsScene:
    """Read 2024-03 KHR physics into the current model; bad blocks are reported and skipped."""
    read = JsonReader(report)
    if is_khr_2024(view):
        where = f"/extensions/{SHAPES_EXT if SHAPES_EXT in view.extensions else BODIES_EXT}"
        report.info("legacy-khr-2024", where, "KHR physics 2024-03 upgraded to the current draft")
    shapes = _decode_shapes(view, read)
    where_body = f"/extensions/{BODIES_EXT}"
    body_ext = read.obj(view.extensions.get(BODIES_EXT), where_body)
    pools = Pools(
        materials=decode_pool(body_ext, "physicsMaterials", where_body, read, DECODE_MATERIAL),
        filters=decode_pool(body_ext, "collisionFilters", where_body, read, decode_filter),
        joints=decode_pool(body_ext, "physicsJoints", where_body, read, decode_settings),
    )

    def geometry(obj: Mapping[str, Json], where: str) -> Shape | None:
        return _shape_reference(obj, where, read, shapes)

    return decode_nodes(
        view, BODIES_EXT, read, pools, geometry, lambda obj, w: decode_motion(obj, w, read)
    )


def _decode_shapes(view: DocumentView, read: JsonReader) -> list[Shape | None]:
    """The root shapes; the mid-2024 drafts kept `shape` references to KHR_implicit_shapes."""
    name = SHAPES_EXT if SHAPES_EXT in view.extensions else IMPLICIT_SHAPES_EXT
    where = f"/extensions/{name}"
    ext = read.obj(view.extensions.get(name), where) or {}
    return [
        _decode_shape(value, f"{where}/shapes/{i}", read, view.mesh_count)
        for i, value in enumerate(read.array(ext, "shapes", where))
    ]


def _shape_reference(
    obj: Mapping[str, Json], where: str, read: JsonReader, shapes: list[Shape | None]
) -> Shape | None:
    if "shape" not in obj:
        read.bad(where, "no `shape` index (required in 2024-03); skipped", "shape-missing")
        return None
    index = read.index(obj, "shape", where, len(shapes))
    return None if index is None else shapes[index]


# -- shapes ----------------------------------------------------------------------------------


def _decode_shape(value: Json, where: str, read: JsonReader, mesh_count: int) -> Shape | None:
    obj = read.obj(value, where)
    if obj is None:
        return None
    kind = obj.get("type")
    if kind == "mesh":
        read.bad(where, "the mid-2024 `mesh` shape type is not supported; shape skipped",
                 "unsupported-shape")
        return None
    if kind not in (*KHR_SHAPE_TYPES, *sorted(MESH_SHAPES)):
        read.bad(where, f"unknown shape type {kind!r}; shape skipped", "unknown-shape")
        return None
    sub_where = f"{where}/{kind}"
    sub = read.obj(obj.get(kind), sub_where) or {}
    if kind in MESH_SHAPES:
        mesh = read.index(sub, "mesh", sub_where, mesh_count)
        if mesh is None:
            read.bad(where, f"{kind} shape without a valid mesh skipped", "shape-mesh-missing")
            return None
        return named(Shape(kind, mesh=mesh), obj, where, read)
    if kind in ("capsule", "cylinder"):
        sub = _single_radius(sub, sub_where, read)
    shape = decode_analytic(kind, sub, sub_where, read, KHR_DEFAULTS)
    return None if shape is None else named(_flat_capsule(shape, sub_where, read.report), obj,
                                            where, read)


def _single_radius(sub: Mapping[str, Json], where: str, read: JsonReader) -> Mapping[str, Json]:
    """Early drafts' one `radius`: copied to both ends; KHR `height` is always the mid-height."""
    if "radius" not in sub or "radiusTop" in sub or "radiusBottom" in sub:
        return sub
    read.report.info("khr-single-radius", where, "`radius` read as radiusTop and radiusBottom")
    rest = {key: value for key, value in sub.items() if key != "radius"}
    return rest | {"radiusTop": sub["radius"], "radiusBottom": sub["radius"]}


def _flat_capsule(shape: Shape, where: str, report: Report) -> Shape:
    """A capsule of height 0 (valid in 2024-03) is a sphere; other zeros: `decode_analytic`."""
    if shape.kind != "capsule" or shape.height > 0:
        return shape
    report.warn("zero-size-repaired", where, "capsule of height 0 read as a sphere")
    return Shape("sphere", radius=max(shape.radius_top, shape.radius_bottom))
