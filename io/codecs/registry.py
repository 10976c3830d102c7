# SPDX-License-Identifier: GPL-3.0-or-later
"""Which extension revisions are read and written, and the one entry point for reading and
for writing. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from ..diagnostics import Report
from ..document import DocumentView
from ..gravity import GravityScene
from ..json_read import JsonReader
from ..model import PhysicsMaterial, PhysicsScene
from ..vehicle_model import VehicleScene
from . import khr, khr_legacy, omi, omi_collider, omi_gravity
from . import vehicles as vehicles_codec
from .common import Encoded, Pool, ResolveRef, decode_pool, encode_material

#: Names the importer declares as handled, so files listing them as required import.
HANDLED_EXTENSIONS: Final = (
    omi.SHAPE_EXT,
    omi.BODY_EXT,
    omi.JOINT_EXT,
    khr.SHAPES_EXT,
    khr.BODIES_EXT,
    khr_legacy.SHAPES_EXT,
    omi_collider.COLLIDER_EXT,
    *vehicles_codec.VEHICLE_EXTENSIONS,
    omi_gravity.GRAVITY_EXT,
)


#: Physics-family extensions read by nobody here: declared so required files still import,
#: and reported as ignored.
IGNORED_EXTENSIONS: Final = ("OMI_spawn_point",)


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
    return vehicles_codec.decode_vehicles(view, report, materials)


def decode_gravity_document(view: DocumentView, report: Report) -> GravityScene:
    """Decode OMI_physics_gravity (shapes were already reported by the physics decoder; the
    pool is read again only for a file with gravity volumes, which may name its shapes)."""
    shapes = omi.decode_shape_pool(view, JsonReader(Report())) \
        if view.users(omi_gravity.GRAVITY_EXT) else []
    return omi_gravity.decode_gravity(view, report, shapes)


def encode_document(
    scene: PhysicsScene, vehicles: VehicleScene, target: Literal["OMI", "KHR"],
    resolve_node: ResolveRef, resolve_mesh: ResolveRef, report: Report, *,
    khr_geometry: khr.GeometryForm = "mesh", resolve_mesh_node: ResolveRef | None = None,
    godot_capsules: bool = False, gravity: GravityScene | None = None,
) -> Encoded:
    """Write physics and vehicles as the current `target` revision; wheel materials join the
    physics material pool. `khr_geometry`/`resolve_mesh_node`: KHR `geometry.mesh` or
    `geometry.node`; `godot_capsules`: OMI capsules in the pre-2025 layout. `gravity`: OMI
    writes it (shaped volumes' shapes join the shape pool); KHR reports it once, unwritten."""
    if target == "OMI":
        encoded = omi.encode_omi(scene, resolve_node, resolve_mesh, report,
                                 legacy_round=godot_capsules)
    else:
        encoded = khr.encode_khr(scene, resolve_node, resolve_mesh, report, form=khr_geometry,
                                 resolve_mesh_node=resolve_mesh_node)
    if vehicles.nodes:
        _add_vehicles(encoded, vehicles, target, resolve_node, report)
    if gravity is not None and target == "OMI":
        omi_gravity.add_gravity(encoded, gravity, resolve_node, resolve_mesh, report)
    elif gravity is not None:
        omi_gravity.report_unwritten(gravity, _node_label, report)
    return encoded


def _node_label(ref: object) -> str:
    """A node reference as a person reads it: its name when it has one."""
    name = getattr(ref, "name", None)
    return f"node {name}" if isinstance(name, str) and name else f"node {ref}"


def _add_vehicles(
    encoded: Encoded, vehicles: VehicleScene, target: str, resolve_node: ResolveRef,
    report: Report,
) -> None:
    root_name = omi.BODY_EXT if target == "OMI" else khr.BODIES_EXT
    root = encoded.root.get(root_name, {})
    materials = Pool()
    for entry in root.get("physicsMaterials", []):
        materials.add(entry)

    def material_index(material: PhysicsMaterial) -> int:
        if target == "OMI":
            return materials.add(omi.encode_omi_material(material, report))
        return materials.add(encode_material(material, report))

    written = vehicles_codec.encode_vehicles(vehicles, resolve_node, report, material_index)
    if materials.entries:
        encoded.root[root_name] = {**root, "physicsMaterials": materials.entries}
    encoded.root.update(written.root)
    for ref, payload in written.nodes.items():
        encoded.nodes.setdefault(ref, {}).update(payload)
