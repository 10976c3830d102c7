# SPDX-License-Identifier: GPL-3.0-or-later
"""Which extension revisions are read and written, and the one entry point for reading. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import JsonReader
from ..model import PhysicsScene
from ..vehicle_model import VehicleScene
from . import khr, khr_legacy, omi, omi_collider, vehicles
from .common import decode_pool

#: Names the importer declares as handled, so files listing them as required import.
HANDLED_EXTENSIONS: Final = (
    omi.SHAPE_EXT,
    omi.BODY_EXT,
    omi.JOINT_EXT,
    khr.SHAPES_EXT,
    khr.BODIES_EXT,
    khr_legacy.SHAPES_EXT,
    omi_collider.COLLIDER_EXT,
    *vehicles.VEHICLE_EXTENSIONS,
)


#: Physics-family extensions read by nobody here: declared so required files still import,
#: and reported as ignored.
IGNORED_EXTENSIONS: Final = ("OMI_physics_gravity", "OMI_spawn_point")


def report_ignored(view: DocumentView, report: Report) -> None:
    """One warning per ignored extension the document uses, at its first use."""
    for name in IGNORED_EXTENSIONS:
        users = view.users(name)
        where = f"/extensions/{name}" if name in view.extensions else (
            f"/nodes/{users[0]}/extensions/{name}" if users else None)
        if where is not None:
            report.warn("extension-ignored", where,
                        f"{name} is not supported by gltf_physics: ignored")


def decode_document(view: DocumentView, report: Report) -> PhysicsScene:
    """Decode every physics family and revision present; KHR wins on a node that has both."""
    scene = omi.decode_omi(view, report)  # the motion of legacy "type" bodies comes from here
    if omi_collider.is_omi_collider(view):
        parts = omi_collider.decode_omi_collider(view, report)
        scene = omi_collider.merge_shape_parts(scene, parts, report)
    decode_khr = khr_legacy.decode_khr_2024 if khr_legacy.is_khr_2024(view) else khr.decode_khr
    for index, physics in decode_khr(view, report).nodes.items():
        if index in scene.nodes:
            report.warn("two-families", f"/nodes/{index}", "both OMI and KHR physics: KHR used")
        scene.nodes[index] = physics
    scene.nodes = dict(sorted(scene.nodes.items(), key=lambda item: item[0]))  # type: ignore[arg-type]
    return scene


def decode_vehicle_document(view: DocumentView, report: Report) -> VehicleScene:
    """Decode vehicles and seats; wheel materials index the file's physics materials (KHR's
    when the file has KHR physics, else OMI's)."""
    is_khr = isinstance(view.extension(khr.BODIES_EXT), Mapping)
    name, decode_material = (
        (khr.BODIES_EXT, khr.DECODE_MATERIAL) if is_khr else (omi.BODY_EXT, omi.DECODE_MATERIAL)
    )
    root = view.extension(name)
    quiet = JsonReader(Report())  # the physics decoder already reported bad materials
    materials = decode_pool(
        root if isinstance(root, Mapping) else None, "physicsMaterials", f"/extensions/{name}",
        quiet, decode_material,
    )
    return vehicles.decode_vehicles(view, report, materials)
