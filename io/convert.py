# SPDX-License-Identifier: GPL-3.0-or-later
"""Rewrite the physics of a glTF document in current OMI or KHR; leave the rest alone. Pure.

`convert_document` decodes every physics and vehicle revision the codecs read, strips those
extensions, applies the structural changes the target needs, encodes with the target codec
and puts the result back. Meshes, accessors, buffers, materials, animations, other
extensions and extras are kept as they are; existing nodes keep their indices, new nodes are
appended, and only the `children` lists that re-parenting or new nodes require are edited.

Structural changes (digest §4.5 and §5):
- OMI v1 joints: the joint node moves under body A keeping its world transform, and a new
  empty under body B at the same world frame becomes `connectedNode`. A joint node that
  carries anything else (mesh, camera, children, animation, other physics) stays put and a
  new node under A takes the frame.
- OMI target: a joint on a node with a body, shape, mesh or other content moves to a new
  identity child, and so does a `connectedNode` that is not a plain frame. A joint side with
  no body (KHR world or static-collider anchor) gets a static partner: the nearest
  ancestor-or-self with colliders of its own (on it or below it, not under another motion),
  else the root of its tree, gains `motion: static` (the Blender import's choice).
- Both targets: a collider without a shape (OMI compound parent) is not written; its
  material and filter go to the child colliders below it that have none of their own.
- KHR target: a static body nested under a moving one becomes kinematic (it would merge
  into the moving body); `geometry.node` uses one orphan identity node per collision mesh,
  reusing orphans already in the file.
- OMI_physics_gravity is rewritten by its codec (shaped volumes' shapes pooled into
  `OMI_physics_shape`); KHR has no gravity: a KHR target reports once what it drops.

Every lossy step is reported. The structural steps are in io/convert_structure.py, putting
the result back in io/convert_output.py, reading and writing files in io/asset_files.py.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np

from .codecs import khr, omi
from .codecs.common import Encoded
from .codecs.registry import (
    decode_document,
    decode_gravity_document,
    decode_vehicle_document,
    encode_document,
)
from .convert_output import attach, declare, report_kept_mesh_nodes
from .convert_structure import (
    FRAME_KEYS,
    HANDLED,
    Work,
    anchor_world_sides,
    children_of,
    give_joints_own_nodes,
    keep_static_bodies_apart,
    leave_out_unwritable,
    upgrade_v1_joints,
)
from .diagnostics import Report, nodes_named
from .document import DocumentView
from .document_mass import DocumentMass
from .gravity import GravityScene
from .json_read import as_dict, as_list, is_index
from .lost_metadata import report_lost_metadata
from .mass_properties import MassPart, body_moments, centre_in_target
from .mesh_data import MeshData
from .model import Collider, Motion, PhysicsScene
from .node_graph import IDENTITY_TOLERANCE, NodeGraph
from .numbers import NEGATIVE_ZERO, exact_numbers
from .structure import (
    COMPOUND_DROPPED_CODE,
    COMPOUND_PASSED_CODE,
    CompoundParts,
    compound_parts_said,
    pass_down_compound_parts,
)

Target = Literal["OMI", "KHR"]
TARGETS: Final = ("OMI", "KHR")
GEOMETRY_FORMS: Final = ("mesh", "node")
GRAVITY_EXT: Final = "OMI_physics_gravity"
MESH_NODE_NAME: Final = "physicsMeshDataNode"
COMPOUND_OMITTED_CODE: Final = "compound-parent-omitted"


# -- the entry point -------------------------------------------------------------------------


def convert_document(
    gltf: Mapping[str, Any], target: Target, *, khr_geometry: khr.GeometryForm = "mesh",
    godot_capsules: bool = False, report: Report, binary: bytes | None = None,
    base_dir: Path | str | None = None,
) -> dict[str, Any]:
    """A copy of `gltf` with its physics and vehicles written as current `target` ("OMI" or
    "KHR"). `khr_geometry` picks KHR `geometry.mesh` or `geometry.node`; `godot_capsules`
    writes OMI capsules and cylinders in the pre-2025 layout Godot 4 reads. The .glb's
    `binary` chunk or the .gltf's folder `base_dir` let mesh colliders count in a centre of
    mass the target must spell out."""
    target = target.upper()  # type: ignore[assignment]
    if target not in TARGETS or khr_geometry not in GEOMETRY_FORMS:
        raise ValueError(f"unknown target {target!r} or KHR geometry form {khr_geometry!r}")
    view = DocumentView.from_json(gltf)
    scene = decode_document(view, report)
    vehicles = decode_vehicle_document(view, report)
    gravity = decode_gravity_document(view, report)
    report_lost_metadata(view, report)
    report_kept_mesh_nodes(gltf, target == "KHR" and khr_geometry == "node", report)
    out = copy.deepcopy(dict(gltf))
    work = Work(out, NodeGraph.of(out), scene, vehicles, report)
    khr.report_moved_geometry_nodes(view, lambda node: not _at_identity(work, node), report)
    upgrade_v1_joints(work)
    _pass_down_compound_parts(work, target)
    if target == "OMI":
        anchor_world_sides(work)
        give_joints_own_nodes(work)
    else:
        keep_static_bodies_apart(work)
    _resolve_mass(work, target, MeshData(out, base_dir, binary))  # (static partners too)
    leave_out_unwritable(work, target, gravity)
    encoded = _encode(work, target, khr_geometry, godot_capsules, gravity,
                      stated_numbers(gltf))
    attach(work, encoded)
    declare(out, gltf, encoded.used(), report)
    return out


def _resolve_mass(work: Work, target: Target, meshes: MeshData) -> None:
    """What the target cannot leave to the engine, from the colliders: centres of mass
    (`mass_properties.centre_in_target`) and, for OMI, every rotation locked."""
    mass = DocumentMass(work.scene, work.graph, meshes)
    for index, physics in work.scene.nodes.items():
        motion = physics.motion
        if motion is None or not is_index(index):
            continue
        where = f"/nodes/{index}"
        try:
            resolved = _resolved(motion, where, target, lambda index=index: mass.solid(index),
                                 work.report)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, OSError) as exc:
            work.report.warn("mesh-unreadable", where, f"a collider mesh cannot be read ({exc}): "
                             "centre of mass and inertia not computed")
            continue
        except (OverflowError, FloatingPointError):  # colliders too large for a volume
            resolved = None
        if resolved is None:
            work.report.warn("mass-not-computed", where, "the colliders are too large for their "
                             "volume to be computed: the centre of mass and inertia are written "
                             "as the file states them")
        elif resolved != motion:
            work.scene.nodes[index] = replace(physics, motion=resolved)
    for mesh, left_out in meshes.notes.items():
        if left_out:
            work.report.warn("mesh-part-left-out", f"/meshes/{mesh}",
                             f"{'; '.join(dict.fromkeys(left_out))}: left out of the colliders' "
                             "centre of mass and inertia")


def _resolved(motion: Motion, where: str, target: Target,
              solid: Callable[[], MassPart | None], report: Report) -> Motion | None:
    """`motion` with its centre in the target's terms and, for OMI, a fully locked rotation
    scaled on the colliders' moments (`omi.full_lock`); None when the colliders' volume is
    not finite."""
    centre = centre_in_target(motion.center_of_mass, target, solid, motion.kind, report, where)
    if centre is not None and not all(math.isfinite(c) for c in centre):
        return None
    motion = replace(motion, center_of_mass=centre)
    if target != "OMI":
        return motion
    return omi.full_lock(motion, lambda: body_moments(
        solid(), motion.mass, motion.center_of_mass, report, where), where, report)


def _pass_down_compound_parts(work: Work, target: Target) -> None:
    """No target writes a collider without a shape: its material and filter go to the child
    colliders without their own (io/structure.py, as the Blender import does), said once."""
    done = pass_down_compound_parts(work.scene.nodes, lambda n: children_of(work.graph, n))
    work.scene.nodes.update(done.nodes)
    _report_compound_parents(work, target, done)


def _report_compound_parents(work: Work, target: Target, done: CompoundParts) -> None:
    """One issue per code: parts passed down (note), parts that reached no child collider
    (warning), and bare `collider: {}` parents (note)."""
    why = "KHR has no compound-parent collider" if target == "KHR" else \
        "a collider without a shape is not written"
    said = {*done.passed, *done.dropped}
    bare = [index for index, physics in work.scene.nodes.items()
            if _shapeless(physics.collider) and index not in said]
    if done.passed:
        work.report.info(COMPOUND_PASSED_CODE, _collider_at(list(done.passed)),
                         f"{why}: {compound_parts_said(done.passed)} (a shapeless collider) now "
                         "go to the child colliders below that have none of their own")
    if done.dropped:
        work.report.warn(COMPOUND_DROPPED_CODE, _collider_at(list(done.dropped)),
                         f"{why}: {compound_parts_said(done.dropped)} (a shapeless collider) are "
                         "dropped: no child collider below takes them (each has its own, or "
                         "there is none)")
    if bare:
        work.report.info(COMPOUND_OMITTED_CODE, _collider_at(bare),
                         f"{why}: collider {{}} on {nodes_named(bare)} omitted; the child "
                         "colliders join the nearest motion or stay static")


def _shapeless(collider: Collider | None) -> bool:
    return collider is not None and collider.shape is None


def _collider_at(nodes: list[Hashable]) -> str:
    """Where an issue about the colliders of `nodes` is: the one's pointer, else "/nodes"."""
    return f"/nodes/{nodes[0]}/extensions/{omi.BODY_EXT}/collider" if len(nodes) == 1 \
        else "/nodes"


# -- encoding --------------------------------------------------------------------------------


def _same(ref: Hashable) -> int | None:
    return ref if is_index(ref) else None


def stated_numbers(gltf: Mapping[str, Any]) -> frozenset[float | str]:
    """Every number the document's extensions (its own and its nodes') state: what the
    converter writes as stated (`exact_numbers`). Walked without recursion."""
    found: set[float | str] = set()
    nodes = gltf.get("nodes")
    pending: list[Any] = [gltf.get("extensions")] + [
        node.get("extensions") for node in (nodes if isinstance(nodes, list) else ())
        if isinstance(node, Mapping)]
    while pending:
        value = pending.pop()
        if isinstance(value, Mapping):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, float | int) and not isinstance(value, bool):
            found.add(value)
            if value == 0 and math.copysign(1.0, value) < 0:
                found.add(NEGATIVE_ZERO)
    return frozenset(found)


def _encode(
    work: Work, target: Target, form: str, godot_capsules: bool, gravity: GravityScene,
    stated: frozenset[float | str],
) -> Encoded:
    scratch = Report()
    mesh_nodes = _mesh_nodes(work) if target == "KHR" and form == "node" else {}
    with exact_numbers(stated):  # (the file's numbers as it states them)
        encoded = encode_document(
            work.scene, work.vehicles, target, _same, _same, scratch,
            khr_geometry=form,  # type: ignore[arg-type]
            resolve_mesh_node=lambda mesh: mesh_nodes.get(mesh),  # type: ignore[arg-type]
            godot_capsules=godot_capsules, gravity=gravity,
        )
    _copy_issues(scratch, work.report)
    return encoded


def _copy_issues(source: Report, target: Report) -> None:
    """Codec issues name nodes as "node N": turn those into JSON pointers."""
    target.merge(source, lambda where: re.sub(r"^node (\d+)$", r"/nodes/\1", where))


def _collision_meshes(scene: PhysicsScene) -> list[int]:
    meshes: dict[int, None] = {}
    for physics in scene.nodes.values():
        for part in (physics.collider, physics.trigger):
            shape = None if part is None else part.shape
            if shape is not None and is_index(shape.mesh):
                meshes[shape.mesh] = None  # type: ignore[index]
    return list(meshes)


def _mesh_nodes(work: Work) -> dict[int, int]:
    """KHR `geometry.node`: one orphan identity node per collision mesh."""
    reusable = _orphan_mesh_nodes(work)
    made = 0
    nodes: dict[int, int] = {}
    for mesh in _collision_meshes(work.scene):
        if mesh not in reusable:
            reusable[mesh] = work.graph.add_node({"name": MESH_NODE_NAME, "mesh": mesh}, None)
            made += 1
        nodes[mesh] = reusable[mesh]
    if made:
        work.report.info("geometry-node-orphans", "/nodes",
                         f"{made} orphan node(s) added for KHR geometry.node (in no scene)")
    return nodes


def _orphan_mesh_nodes(work: Work) -> dict[int, int]:
    """Existing nodes in no scene and without parent that only carry a mesh at identity."""
    in_scenes = {
        n for s in as_list(work.out.get("scenes")) for n in as_list(as_dict(s).get("nodes"))
    }
    found: dict[int, int] = {}
    for index, node in enumerate(work.graph.nodes):
        if index not in in_scenes and _is_bare_mesh_node(work, index):
            found.setdefault(node["mesh"], index)
    return found


def _is_bare_mesh_node(work: Work, index: int) -> bool:
    """A parentless node with a mesh at identity and nothing else (no physics either)."""
    node = work.graph.nodes[index]
    if not isinstance(node, dict) or not is_index(node.get("mesh")):
        return False
    if any(key in node for key in FRAME_KEYS[1:]) or index in work.graph.parents:
        return False
    if any(name not in HANDLED for name in as_dict(node.get("extensions"))):
        return False
    if index in work.scene.nodes or index in work.vehicles.nodes:
        return False
    return _at_identity(work, index)


def _at_identity(work: Work, index: int) -> bool:
    """True when node `index`'s own transform is the identity."""
    return bool(np.allclose(work.graph.local(index), np.identity(4), atol=IDENTITY_TOLERANCE))
