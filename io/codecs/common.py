# SPDX-License-Identifier: GPL-3.0-or-later
"""Pieces OMI and KHR share: shape parameters, materials, filters, motion fields, pools. Pure.

Writers follow the digest's "valid for every reader" rules: every shape parameter written,
capsules as mid-height with `radiusTop`/`radiusBottom`, no −1 sentinels.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .. import field_table
from ..diagnostics import Report
from ..json_read import Json, JsonReader
from ..model import (
    IDENTITY,
    CollisionFilter,
    Combine,
    Motion,
    PhysicsMaterial,
    Shape,
)
from ..numbers import canon, canon_list
from .fields import decode_fields, encode_fields

_least = field_table.read_minimum  # readers' bounds come from the field table

ResolveRef = Callable[[Hashable], "int | None"]
MIN_EXTENT = 0.001


@dataclass(frozen=True, slots=True)
class ShapeDefaults:
    """A format's defaults for the parameters a file may omit."""

    capsule_height: float
    capsule_radius: float
    cylinder_height: float
    cylinder_radius: float
    family: field_table.Family = "KHR"  # whose schema bounds a read value is held to


OMI_DEFAULTS = ShapeDefaults(1.0, 0.5, 2.0, 0.5, "OMI")
KHR_DEFAULTS = ShapeDefaults(0.5, 0.25, 0.5, 0.25, "KHR")


@dataclass(slots=True)
class Pool:
    """A root array whose equal entries share one index."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    _index: dict[str, int] = field(default_factory=dict)

    _memo: dict[Hashable, int] = field(default_factory=dict)

    def add(self, entry: dict[str, Any]) -> int:
        """The index of `entry`, appending it the first time it is seen."""
        key = json.dumps(entry, sort_keys=True)
        if key not in self._index:
            self._index[key] = len(self.entries)
            self.entries.append(entry)
        return self._index[key]

    def add_value(
        self, value: Hashable, encode: Callable[[Any], dict[str, Any] | None]
    ) -> int | None:
        """The index of `encode(value)`, encoding each distinct (hashable) value once; None
        when it encodes to nothing."""
        if value not in self._memo:
            entry = encode(value)
            if entry is None:
                return None
            self._memo[value] = self.add(entry)
        return self._memo[value]


@dataclass(slots=True)
class Encoded:
    """What a codec writes: root extension objects and per-node extension objects."""

    root: dict[str, dict[str, Any]] = field(default_factory=dict)
    nodes: dict[Hashable, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def used(self) -> list[str]:
        """Every extension name that appears, for `extensionsUsed`."""
        names = dict.fromkeys(self.root)
        for payload in self.nodes.values():
            names.update(dict.fromkeys(payload))
        return list(names)


# -- shapes -------------------------------------------------------------------------------


def encode_analytic(shape: Shape) -> dict[str, Any]:
    """The type-named sub-object of an analytic shape, every parameter explicit."""
    if shape.kind == "box":
        return {"size": canon_list(shape.size)}
    if shape.kind == "sphere":
        return {"radius": canon(shape.radius)}
    if shape.kind in ("capsule", "cylinder"):
        return {
            "height": canon(shape.height),
            "radiusTop": canon(shape.radius_top),
            "radiusBottom": canon(shape.radius_bottom),
        }
    if shape.kind == "plane":
        plane: dict[str, Any] = {"doubleSided": shape.double_sided}
        if shape.size_x is not None:
            plane["sizeX"] = canon(shape.size_x)
        if shape.size_z is not None:
            plane["sizeZ"] = canon(shape.size_z)
        return plane
    raise ValueError(f"not an analytic shape: {shape.kind}")


def decode_analytic(
    kind: str, sub: Mapping[str, Json], where: str, read: JsonReader, defaults: ShapeDefaults,
) -> Shape | None:
    """An analytic shape from its sub-object (missing fields take the format's defaults)."""
    if kind == "box":
        size = read.vector(sub, "size", where, 3, minimum=_least("box", "size")) or (1.0, 1.0, 1.0)
        if min(size) <= 0:
            size = repaired(size, f"{where}/size", read)
        return Shape("box", size=size)  # type: ignore[arg-type]
    if kind == "sphere":
        radius = read.number(sub, "radius", where, 0.5, minimum=_least("sphere", "radius"))
        bound = field_table.SCHEMA_BOUNDS[defaults.family].get(("sphere", "radius"))
        zero_allowed = bound is not None and bound.minimum == 0.0 and not bound.positive
        if radius < 0 or (radius == 0 and not zero_allowed):  # OMI's schema allows 0
            (radius,) = repaired((radius,), f"{where}/radius", read)
        return Shape("sphere", radius=radius)
    if kind in ("capsule", "cylinder"):
        shape = _decode_round(kind, sub, where, read, defaults)
        if shape.kind == "cylinder" and shape.height <= 0:
            (height,) = repaired((shape.height,), f"{where}/height", read)
            shape = replace(shape, height=height)
        if shape.kind in ("capsule", "cylinder") and shape.radius_top <= 0 >= shape.radius_bottom:
            top, bottom = repaired((shape.radius_top, shape.radius_bottom), where, read)
            shape = replace(shape, radius_top=top, radius_bottom=bottom)
        return shape
    if kind == "plane":
        return Shape(
            "plane",
            size_x=read.opt_number(sub, "sizeX", where, positive=True),
            size_z=read.opt_number(sub, "sizeZ", where, positive=True),
            double_sided=read.boolean(sub, "doubleSided", where, False),
        )
    return None


def repaired(values: tuple[float, ...], where: str, read: JsonReader) -> tuple[float, ...]:
    """Zero extents made `MIN_EXTENT` thin: a degenerate shape is prohibited (reported)."""
    read.report.warn("degenerate-shape", where, f"zero size raised to {MIN_EXTENT} m")
    return tuple(v if v > 0 else MIN_EXTENT for v in values)


def _decode_round(
    kind: str, sub: Mapping[str, Json], where: str, read: JsonReader, defaults: ShapeDefaults
) -> Shape:
    capsule = kind == "capsule"
    default_r = defaults.capsule_radius if capsule else defaults.cylinder_radius
    if "radius" in sub and "radiusTop" not in sub and "radiusBottom" not in sub:
        # Pre-2025 layout: one radius, and a capsule height that is the full height.
        r = read.number(sub, "radius", where, 0.5, minimum=_least(kind, "radiusTop"))
        full = read.number(sub, "height", where, 2.0, minimum=_least(kind, "height"))
        read.report.info("legacy-radius", where, f"upgraded the pre-2025 {kind} layout")
        if not capsule:
            return Shape("cylinder", height=full, radius_top=r, radius_bottom=r)
        if full <= 2 * r:
            read.report.warn("capsule-to-sphere", where, "full height <= 2r: read as a sphere")
            return Shape("sphere", radius=r)
        return Shape("capsule", height=full - 2 * r, radius_top=r, radius_bottom=r)
    default_h = defaults.capsule_height if capsule else defaults.cylinder_height
    return Shape(
        kind,  # type: ignore[arg-type]
        height=read.number(sub, "height", where, default_h, minimum=_least(kind, "height")),
        radius_top=read.number(sub, "radiusTop", where, default_r,
                               minimum=_least(kind, "radiusTop")),
        radius_bottom=read.number(sub, "radiusBottom", where, default_r,
                                  minimum=_least(kind, "radiusBottom")),
    )


# -- names of pooled entries (shapes, materials, filters, joint settings) --------------------


def with_name(out: dict[str, Any], name: str) -> dict[str, Any]:
    """`out` with the entry's optional `name` (none written when empty)."""
    if name:
        out["name"] = name
    return out


def named(part: Any, obj: Mapping[str, Json], where: str, read: JsonReader) -> Any:
    """A decoded model `part` (or None) with the `name` its entry `obj` gives, if any."""
    name = read.text(obj, "name", where)
    return replace(part, name=name) if name and part is not None else part


# -- materials and filters (identical in OMI and KHR) ---------------------------------------


def encode_material(material: PhysicsMaterial, report: Report | None = None) -> dict[str, Any]:
    """A physics material with every field explicit, except combine modes left to the engine."""
    where = "physics material"
    return encode_fields(material, field_table.MATERIAL, {}, where, report or Report())


def material_decoder(
    combine_default: Combine | None,
) -> Callable[[Json, str, JsonReader], PhysicsMaterial | None]:
    """A physics material reader for a family whose absent combine modes mean
    `combine_default` (OMI: average; KHR: None, left to the engine)."""
    absent = {"friction_combine": combine_default, "restitution_combine": combine_default}

    def decode(value: Json, where: str, read: JsonReader) -> PhysicsMaterial | None:
        obj = read.obj(value, where)
        if obj is None:
            return None
        return PhysicsMaterial(**decode_fields(obj, field_table.MATERIAL, where, read,
                                               defaults=absent))

    return decode


def encode_filter(flt: CollisionFilter) -> dict[str, Any]:
    """A collision filter; empty lists are omitted."""
    out: dict[str, Any] = {"collisionSystems": list(flt.collision_systems)}
    if flt.collide_with_systems:
        out["collideWithSystems"] = list(flt.collide_with_systems)
    elif flt.not_collide_with_systems:
        out["notCollideWithSystems"] = list(flt.not_collide_with_systems)
    return with_name(out, flt.name)


def decode_filter(value: Json, where: str, read: JsonReader) -> CollisionFilter | None:
    """A collision filter; having both collide lists keeps only `collideWithSystems`."""
    obj = read.obj(value, where)
    if obj is None:
        return None
    with_ = read.strings(obj, "collideWithSystems", where)
    without = read.strings(obj, "notCollideWithSystems", where)
    if with_ and without:
        read.bad(where, "both collide lists given; notCollideWithSystems ignored", "filter-both")
        without = ()
    return CollisionFilter(read.strings(obj, "collisionSystems", where), with_, without,
                           read.text(obj, "name", where))


def decode_pool(
    ext: Mapping[str, Json] | None, key: str, where: str, read: JsonReader,
    decode: Callable[[Json, str, JsonReader], Any],
) -> list[Any]:
    """Decode every entry of a root array (bad entries become None, reported)."""
    if ext is None:
        return []
    items = read.array(ext, key, where)
    return [decode(v, f"{where}/{key}/{i}", read) for i, v in enumerate(items)]


# -- motion fields shared by both formats ---------------------------------------------------


def encode_motion_fields(
    motion: Motion, out: dict[str, Any], where: str, report: Report
) -> None:
    """The motion fields OMI and KHR spell alike (velocities, gravity factor) into `out`."""
    encode_fields(motion, field_table.MOTION, out, where, report)


def encode_orientation(motion: Motion, out: dict[str, Any]) -> None:
    """`inertiaOrientation` beside a written `inertiaDiagonal`, and on its own whenever it is
    not the identity: both schemas allow it alone, and OMI's spec orients "the inertia's
    principle axes" whether stated or computed, so a stated orientation is kept."""
    orientation = canon_list(motion.inertia_orientation)
    if "inertiaDiagonal" in out or tuple(orientation) != IDENTITY:
        out["inertiaOrientation"] = orientation


def decode_motion_fields(
    obj: Mapping[str, Json], where: str, read: JsonReader, family: field_table.Family,
) -> dict[str, Any]:
    """The motion fields as `Motion` keyword arguments, as written (mass and inertia within
    `family`'s bounds): a family's decoder then resolves what its absent values and zeros
    mean."""
    fields: dict[str, Any] = {
        "mass": read.opt_number(obj, "mass", where,
                                minimum=_least("motion", "mass", (family,))),
        "center_of_mass": read.vector(obj, "centerOfMass", where, 3),
        **decode_fields(obj, field_table.MOTION, where, read),
    }
    diagonal = obj.get("inertiaDiagonal")
    if isinstance(diagonal, list) and len(diagonal) == 4:
        # Godot writes the orientation under the diagonal's key.
        read.report.warn("godot-inertia", where, "4-element inertiaDiagonal read as orientation")
        fields["inertia_orientation"] = read.vector(obj, "inertiaDiagonal", where, 4) or IDENTITY
        fields["inertia_diagonal"] = None
    else:
        fields["inertia_diagonal"] = read.vector(obj, "inertiaDiagonal", where, 3,
                                               minimum=_least("motion", "inertiaDiagonal",
                                                              (family,)))
        orientation = read.vector(obj, "inertiaOrientation", where, 4)
        fields["inertia_orientation"] = orientation or IDENTITY
    return fields
