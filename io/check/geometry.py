# SPDX-License-Identifier: GPL-3.0-or-later
"""Warnings about shape geometry: degenerate sizes and short capsules in every shape pool
(each revision's defaults and layouts), flat and oversized convex hulls read from the
file's meshes. The rules themselves are io/rules.py's, shared with the Blender scene check.
Pure (numpy)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np

from .. import rules
from ..codecs.common import KHR_DEFAULTS, OMI_DEFAULTS, ShapeDefaults
from ..codecs.khr import KHR_SHAPE_TYPES
from ..diagnostics import Report
from ..hull import hull_triangles, hull_volume
from ..json_read import Json, as_dict, as_list, is_finite_number, is_index
from ..mesh_data import MeshData
from .facts import Facts, node_pointer
from .schema import pointer

ANALYTIC: Final = ("box", "sphere", "capsule", "cylinder")
LEGACY_FULL_HEIGHT: Final = 2.0  # an OMI capsule's or cylinder's full height before 2025
MESH_ERRORS: Final = (ValueError, KeyError, IndexError, TypeError, AttributeError, OSError,
                      OverflowError, MemoryError)


@dataclass(frozen=True, slots=True)
class ShapePool:
    """A root array of shapes; `flat`: parameters beside `type` (OMI_collider); `full`:
    a lone `radius` means the pre-2025 layout, whose capsule height is the full height."""

    extension: str
    key: str
    defaults: ShapeDefaults
    flat: bool = False
    full: bool = True


POOLS: Final = (
    ShapePool("OMI_physics_shape", "shapes", OMI_DEFAULTS),
    ShapePool("OMI_collider", "colliders", OMI_DEFAULTS, flat=True),
    ShapePool("KHR_implicit_shapes", "shapes", KHR_DEFAULTS, full=False),
    ShapePool("KHR_collision_shapes", "shapes", KHR_DEFAULTS, full=False),
)


@dataclass(frozen=True, slots=True)
class Sizes:
    """An analytic shape's extents that must not vanish, and for a capsule its end-to-end
    height and its diameter."""

    kind: str
    critical: tuple[float, ...]
    full_height: float = math.inf
    diameter: float = 0.0


def check_shapes(facts: Facts, report: Report) -> None:
    """`degenerate-size` and `short-capsule` for each analytic shape of every pool (a current
    KHR shape without extent: `degenerate-shape`, an error), and
    `shape-other-part` for a current KHR shape carrying another type's object."""
    for pool in POOLS:
        shapes = as_list(facts.root(pool.extension).get(pool.key))
        for index, shape in enumerate(shapes):
            where = pointer(pointer(pointer("/extensions", pool.extension), pool.key), index)
            if pool.extension == "KHR_implicit_shapes":
                _other_parts(as_dict(shape), where, report)
            sizes = shape_sizes(as_dict(shape), pool)
            if sizes is None:
                continue  # not analytic, or malformed (the schema rules report it)
            if pool.extension == "KHR_implicit_shapes" and min(sizes.critical) <= 0:
                report.add("error", "degenerate-shape", where, f"the {sizes.kind} has no extent "
                           "(KHR_implicit_shapes prohibits degenerate shapes)")
            elif rules.is_degenerate(sizes.critical):
                _add(report, rules.DEGENERATE_SIZE, where, kind=sizes.kind)
            elif sizes.kind == "capsule" and rules.is_short_capsule(sizes.full_height,
                                                                     sizes.diameter):
                _add(report, rules.SHORT_CAPSULE, where)


def _other_parts(shape: Mapping[str, Json], where: str, report: Report) -> None:
    """A shape of KHR_implicit_shapes' types "must not supply a value for a different shape
    type" (its README)."""
    kind = shape.get("type")
    if kind not in KHR_SHAPE_TYPES:
        return  # (another extension's type: its object may be anything)
    for other in KHR_SHAPE_TYPES:
        if other != kind and other in shape:
            report.add("error", "shape-other-part", pointer(where, other),
                       f"a {kind} shape must not have a '{other}' object (KHR_implicit_shapes): "
                       f"readers take the {kind} and drop it")


def shape_sizes(obj: Mapping[str, Json], pool: ShapePool) -> Sizes | None:
    """The extents of one shape entry with its revision's defaults; None when it is not an
    analytic shape or a parameter is malformed."""
    kind = obj.get("type")
    if kind not in ANALYTIC:
        return None
    sub = obj if pool.flat else obj.get(kind, {})
    if not isinstance(sub, Mapping):
        return None
    d = pool.defaults
    if kind == "box":
        size = sub.get("size", [1.0, 1.0, 1.0])
        ok = isinstance(size, list) and len(size) == 3 and all(_finite(v) for v in size)
        return Sizes(kind, tuple(size)) if ok else None
    if kind == "sphere":
        radius = _number(sub, "radius", 0.5)
        return None if radius is None else Sizes(kind, (radius,))
    return _round_sizes(kind, sub, d, pool)


def _round_sizes(kind: str, sub: Mapping[str, Json], d: ShapeDefaults,
                 pool: ShapePool) -> Sizes | None:
    capsule = kind == "capsule"
    lone = pool.flat or ("radius" in sub and "radiusTop" not in sub and "radiusBottom" not in sub)
    if lone and pool.full:  # OMI before 2025: one radius, a capsule's full height
        radius = _number(sub, "radius", 0.5)
        height = _number(sub, "height", LEGACY_FULL_HEIGHT)
        if radius is None or height is None:
            return None
        if capsule:
            return Sizes(kind, (radius,), height, 2 * radius)
        return Sizes(kind, (height, radius))
    default_r = d.capsule_radius if capsule else d.cylinder_radius
    default_h = d.capsule_height if capsule else d.cylinder_height
    lone_r = _number(sub, "radius", default_r) if lone else default_r
    values = (_number(sub, "height", default_h), _number(sub, "radiusTop", lone_r),
              _number(sub, "radiusBottom", lone_r))
    if any(v is None for v in values) or lone_r is None:
        return None
    height, top, bottom = (float(v) for v in values)  # type: ignore[arg-type]
    widest = max(top, bottom)
    if capsule:
        return Sizes(kind, (widest,), height + top + bottom, 2 * widest)
    return Sizes(kind, (height, widest))


def _finite(value: Json) -> bool:
    return is_finite_number(value)


def _number(obj: Mapping[str, Json], key: str, default: float) -> float | None:
    value = obj.get(key, default)
    return float(value) if _finite(value) else None


def _add(report: Report, rule: rules.Rule, where: str, **values: object) -> None:
    report.add(rule.severity, rule.code, where, rule.message(**values))


# -- convex hulls --------------------------------------------------------------------------------


def check_hulls(facts: Facts, report: Report, meshes: MeshData) -> None:
    """`flat-hull` and `hull-too-many-points` for each mesh used as a convex hull (each mesh
    computed once); `mesh-not-read` (a note) when its vertices cannot be read; and, once per
    collider mesh (convex or triangle), `mesh-part-left-out` for primitives that give no
    triangles (`MeshData.notes`)."""
    found: dict[int, tuple[rules.Rule | None, int] | str] = {}
    said: set[int] = set()
    for where, mesh, convex in mesh_uses(facts):
        if not convex:
            _say_left_out(meshes, mesh, where, report, said)
            continue
        if mesh not in found:
            found[mesh] = _hull_rule(meshes, mesh)
        result = found[mesh]
        if isinstance(result, str):
            report.info("mesh-not-read", where, f"mesh {mesh} gives no hull points{result}: "
                        "its convex hull was not checked")
            continue
        _say_left_out(meshes, mesh, where, report, said)
        if result[0] is rules.HULL_TOO_MANY_POINTS:
            report.warn(result[0].code, where, rules.hull_points_message(result[1]))
        elif result[0] is not None:
            _add(report, result[0], where)


def _say_left_out(meshes: MeshData, mesh: int, where: str, report: Report,
                  said: set[int]) -> None:
    """`mesh-part-left-out`, at the first shape using the mesh."""
    if mesh in said:
        return
    said.add(mesh)
    try:
        meshes.mesh(mesh)
    except ValueError:
        return  # (a trimesh's failure: the importer's and converter's to say)
    except MESH_ERRORS:
        return
    left_out = meshes.notes.get(mesh)
    if left_out:
        report.warn("mesh-part-left-out", where, f"mesh {mesh}: "
                    f"{'; '.join(dict.fromkeys(left_out))}: readers leave it out")


def mesh_uses(facts: Facts) -> Iterator[tuple[str, int, bool]]:
    """(pointer, mesh index, whether a convex hull) of every convex or triangle-mesh shape
    and KHR mesh geometry."""
    for pool, kinds, nested in (("OMI_physics_shape", ("convex", "trimesh"), True),
                                ("OMI_collider", ("hull", "trimesh"), False),
                                ("KHR_collision_shapes", ("convex", "trimesh"), True)):
        key = "colliders" if pool == "OMI_collider" else "shapes"
        for index, shape in enumerate(as_list(facts.root(pool).get(key))):
            obj = as_dict(shape)
            kind = obj.get("type")
            if kind not in kinds:
                continue
            mesh = (as_dict(obj.get(kind)) if nested else obj).get("mesh")
            if is_index(mesh) and mesh < facts.view.mesh_count:
                yield (pointer(pointer(pointer("/extensions", pool), key), index), mesh,
                       kind == kinds[0])
    if facts.legacy_khr:
        return
    for index, payload in facts.view.used("KHR_physics_rigid_bodies"):
        for part in ("collider", "trigger"):
            geometry = as_dict(as_dict(as_dict(payload).get(part)).get("geometry"))
            mesh = geometry.get("mesh")
            node = geometry.get("node")
            if not is_index(mesh) and is_index(node) and node < facts.node_count:
                mesh = facts.view.nodes[node].mesh
            if is_index(mesh) and mesh < facts.view.mesh_count:
                where = pointer(node_pointer(index, "KHR_physics_rigid_bodies"), part)
                yield f"{where}/geometry", mesh, geometry.get("convexHull") is True


def _hull_rule(meshes: MeshData, mesh: int) -> tuple[rules.Rule | None, int] | str:
    """The hull's rule and point count, or why the mesh cannot be read (" (reason)")."""
    try:
        points = np.asarray(meshes.mesh(mesh)[0], dtype=float)
        points = np.unique(points[np.isfinite(points).all(axis=1)], axis=0)
        if not rules.has_too_many_hull_points(len(points)):
            volume = hull_volume(points) if len(points) >= 4 else 0.0
            return (rules.FLAT_HULL if rules.is_flat_hull(len(points), volume) else None,
                    len(points))
        corners = hull_triangles(points).reshape(-1, 3)
    except ValueError as exc:  # a refused resource or accessor says why
        return f" ({exc})"
    except MESH_ERRORS:
        return ""
    count = len(np.unique(corners, axis=0))
    if rules.is_flat_hull(count, 1.0 if len(corners) else 0.0):
        return rules.FLAT_HULL, count
    return (rules.HULL_TOO_MANY_POINTS if rules.has_too_many_hull_points(count) else None, count)
