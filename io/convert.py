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
  ancestor-or-self with a collider, else the root of its tree, gains `motion: static`.
- KHR target: a static body nested under a moving one becomes kinematic (it would merge
  into the moving body); `geometry.node` uses one orphan identity node per collision mesh,
  reusing orphans already in the file.
- OMI_physics_gravity shapes keep their shapes (re-indexed) in `OMI_physics_shape`.

Every lossy step is reported. Reading and writing files: io/asset_files.py.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np

from .codecs import khr, omi
from .codecs.common import Encoded, Pool
from .codecs.registry import (
    HANDLED_EXTENSIONS,
    decode_document,
    decode_vehicle_document,
    encode_document,
)
from .codecs.vehicles import VEHICLE_EXTENSIONS
from .diagnostics import Report
from .document import DocumentView, NodeView
from .document_mass import DocumentMass
from .json_read import as_dict, as_list, is_index
from .mass_properties import centre_in_target
from .mesh_data import MeshData
from .model import Collider, Joint, Motion, NodePhysics, PhysicsScene, Shape
from .node_graph import IDENTITY_TOLERANCE, NodeGraph
from .structure import (
    STATIC_IN_MOVING_CODE,
    joint_needs_own_node,
    kind_in_target,
    static_partner,
)
from .vehicle_model import VehicleScene

Target = Literal["OMI", "KHR"]
TARGETS: Final = ("OMI", "KHR")
GEOMETRY_FORMS: Final = ("mesh", "node")
HANDLED: Final = frozenset(HANDLED_EXTENSIONS)
GRAVITY_EXT: Final = "OMI_physics_gravity"
MESH_NODE_NAME: Final = "physicsMeshDataNode"
FRAME_KEYS: Final = ("mesh", "camera", "skin", "weights", "children")
METADATA_KEYS: Final = ("name", "extras", "extensions")



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
    _report_lost_metadata(gltf, report)
    _report_kept_mesh_nodes(gltf, target == "KHR" and khr_geometry == "node", report)
    out = copy.deepcopy(dict(gltf))
    work = _Work(out, NodeGraph.of(out), scene, vehicles, report)
    _upgrade_v1_joints(work)
    _report_compound_parents(work, target)
    _resolve_centres(work, target, MeshData(out, base_dir, binary))
    if target == "OMI":
        _anchor_world_sides(work)
        _give_joints_own_nodes(work)
    else:
        _keep_static_bodies_apart(work)
    encoded = _encode(work, target, khr_geometry, godot_capsules)
    _keep_gravity_shapes(work, view, encoded, godot_capsules)
    _attach(work, encoded)
    _declare(out, gltf, encoded.used(), report)
    return out


@dataclass(slots=True)
class _Work:
    """One conversion: the output document, its node tree and the decoded physics."""

    out: dict[str, Any]
    graph: NodeGraph
    scene: PhysicsScene
    vehicles: VehicleScene
    report: Report
    frames: dict[int, int] = field(default_factory=dict)  # connected node → its new frame


# -- structural upgrades ---------------------------------------------------------------------


def _node_name(work: _Work, index: int, suffix: str) -> str:
    name = as_dict(work.graph.nodes[index]).get("name")
    return f"{name if isinstance(name, str) else f'node{index}'}.{suffix}"


def _move_joint(work: _Work, source: int, frame: int, joint: Joint | None) -> None:
    """Take the joint off `source` and put `joint` (when given) on `frame`."""
    rest = replace(work.scene.nodes[source], joint=None)
    if rest.is_empty():
        del work.scene.nodes[source]
    else:
        work.scene.nodes[source] = rest
    if joint is not None:
        work.scene.nodes[frame] = replace(work.scene.nodes.get(frame, NodePhysics()), joint=joint)


def _joints(work: _Work) -> list[tuple[int, Joint]]:
    """(node, joint) of every joint, as a snapshot the caller may edit the scene under."""
    found = []
    for index, physics in work.scene.nodes.items():
        if physics.joint is not None and is_index(index):
            found.append((index, physics.joint))
    return found  # type: ignore[return-value]


def _is_plain_frame(work: _Work, index: int, *, leaf: bool = False) -> bool:
    """True for a node that holds nothing but (possibly) a joint: no mesh, camera, skin,
    other extension, body, shape or vehicle part; with `leaf`, no children nor animation."""
    node = work.graph.nodes[index]
    if not isinstance(node, dict):
        return False
    keys = FRAME_KEYS if leaf else FRAME_KEYS[:-1]
    if any(key in node for key in keys) or (leaf and index in work.graph.pinned):
        return False
    if any(name not in HANDLED for name in as_dict(node.get("extensions"))):
        return False
    physics = work.scene.nodes.get(index, NodePhysics())
    parts = (physics.motion, physics.collider, physics.trigger)
    return all(part is None for part in parts) and index not in work.vehicles.nodes


def _upgrade_v1_joints(work: _Work) -> None:
    """OMI v1 joints (digest §4.5): the frame goes under body A, a new empty under body B."""
    for index, joint in _joints(work):
        if joint.legacy_bodies is not None:
            _upgrade_v1_joint(work, index, joint, *joint.legacy_bodies)  # type: ignore[arg-type]


def _upgrade_v1_joint(work: _Work, index: int, joint: Joint, body_a: int, body_b: int) -> None:
    graph, report = work.graph, work.report
    where = f"/nodes/{index}/extensions/{omi.JOINT_EXT}"
    if not graph.is_node(index) or not all(
        graph.is_node(body) and graph.invertible(body) for body in (body_a, body_b)
    ):
        report.warn("joint-skipped", where, "a v1 joint body is not a node with a usable transform")
        _move_joint(work, index, index, None)
        return
    world = graph.world(index)
    frame = index
    exact = True
    if _body_of(work, index) != body_a:
        if _is_plain_frame(work, index, leaf=True):
            exact = graph.reparent(index, body_a)
        else:
            frame = graph.add_node({"name": _node_name(work, index, "joint")}, body_a)
            exact = graph.place(frame, world)
            report.info("joint-frame-node", where,
                        f"the v1 joint node holds more than a joint: its frame is new node {frame}")
    connected = graph.add_node({"name": _node_name(work, index, "connected")}, body_b)
    exact = graph.place(connected, world) and exact
    if not exact:
        report.warn("joint-frame-inexact", where,
                    "the joint frame is sheared relative to a body: nearest rotation used")
    _move_joint(work, index, frame, Joint(joint.settings, connected, enable_collision=False))


def _body_of(work: _Work, index: int) -> int | None:
    """The nearest ancestor-or-self carrying a motion."""
    for node in work.graph.ancestors_or_self(index):
        physics = work.scene.nodes.get(node)
        if physics is not None and physics.motion is not None:
            return node
    return None


def _anchor_world_sides(work: _Work) -> None:
    """OMI needs a body on both joint sides: world-anchored sides get a static partner."""
    for index, joint in _joints(work):
        if joint.connected_node is None or not work.graph.is_node(joint.connected_node):
            continue
        bodies = [_body_or_static_partner(work, side) for side in (index, joint.connected_node)]
        if bodies[0] == bodies[1]:
            work.report.warn("joint-same-body", f"/nodes/{index}",
                             f"both joint sides belong to body {bodies[0]}: joint not written")
            _move_joint(work, index, index, None)


def _body_or_static_partner(work: _Work, side: int) -> int:
    """The body of a joint side; for a body-less side, the nearest collider ancestor-or-self
    (else the root of its tree) made a static body."""
    body = _body_of(work, side)
    if body is not None:
        return body
    chain = list(work.graph.ancestors_or_self(side))
    partner = static_partner(chain, lambda n: _has_collider(work, n), body_required=True)
    assert partner is not None  # a chain always has a root
    physics = work.scene.nodes.get(partner, NodePhysics())
    work.scene.nodes[partner] = replace(physics, motion=Motion(kind="static"))
    work.report.info("static-partner", f"/nodes/{partner}",
                     f"joint side node {side} is anchored to the world or a static collider: "
                     f"node {partner} written as an OMI static body")
    return partner


def _has_collider(work: _Work, index: int) -> bool:
    physics = work.scene.nodes.get(index)
    return physics is not None and physics.collider is not None


def _give_joints_own_nodes(work: _Work) -> None:
    """OMI puts a joint on a node of its own and connects it to a plain frame."""
    for index, joint in _joints(work):
        connected = joint.connected_node
        if connected is None or not work.graph.is_node(connected):
            continue
        frame = index
        if joint_needs_own_node("OMI", _is_plain_frame(work, index)):
            frame = work.graph.add_node({"name": _node_name(work, index, "joint")}, index)
            work.report.info("joint-own-node", f"/nodes/{index}",
                             f"OMI wants a joint on its own node: moved to new child {frame}")
        if not _is_plain_frame(work, connected):
            connected = _connected_frame(work, connected)
        _move_joint(work, index, frame, replace(joint, connected_node=connected))


def _connected_frame(work: _Work, connected: int) -> int:
    if connected not in work.frames:
        frame = work.graph.add_node({"name": _node_name(work, connected, "connected")}, connected)
        work.frames[connected] = frame
        work.report.info("connected-own-node", f"/nodes/{connected}",
                         f"joint connected to a node with content: new child frame {frame}")
    return work.frames[connected]


def _keep_static_bodies_apart(work: _Work) -> None:
    """KHR has no static motion: a static body inside a moving one becomes kinematic."""
    for index, physics in list(work.scene.nodes.items()):
        if physics.motion is None or physics.motion.kind != "static":
            continue
        moving = next((a for a in list(work.graph.ancestors_or_self(index))[1:]
                       if _moves(work, a)), None)
        kind = kind_in_target("static", "KHR", moving is not None)
        if kind != "static":
            work.scene.nodes[index] = replace(physics, motion=replace(physics.motion,
                                                                       kind=kind))
            work.report.warn(STATIC_IN_MOVING_CODE, f"/nodes/{index}",
                             f"a static body under moving body {moving} would merge into it in "
                             "KHR: written as kinematic")


def _moves(work: _Work, index: int) -> bool:
    physics = work.scene.nodes.get(index)
    return physics is not None and physics.motion is not None and physics.motion.kind != "static"


def _resolve_centres(work: _Work, target: Target, meshes: MeshData) -> None:
    """Centres of mass in the target's terms (`mass_properties.centre_in_target`)."""
    mass = DocumentMass(work.scene, work.graph, meshes)
    for index, physics in work.scene.nodes.items():
        motion = physics.motion
        if motion is None or not is_index(index):
            continue
        try:
            centre = centre_in_target(motion.center_of_mass, target,
                                      lambda index=index: mass.solid(index))
        except (ValueError, KeyError, IndexError, TypeError, OSError) as exc:
            work.report.warn("mesh-unreadable", f"/nodes/{index}",
                             f"a collider mesh cannot be read ({exc}): centre of mass not computed")
            continue
        if centre != motion.center_of_mass:
            work.scene.nodes[index] = replace(physics, motion=replace(motion,
                                                                      center_of_mass=centre))


def _report_compound_parents(work: _Work, target: Target) -> None:
    for index, physics in work.scene.nodes.items():
        collider = physics.collider
        if collider is None or collider.shape is not None:
            continue
        where = f"/nodes/{index}/extensions/{omi.BODY_EXT}/collider"
        lost = " with its material/filter" if collider.material or collider.filter else ""
        if target == "KHR":
            work.report.warn("compound-parent-dropped", where,
                             f"KHR has no compound-parent collider: dropped{lost}; the child "
                             "colliders join the nearest motion or stay static")
        else:
            work.report.info("compound-parent-omitted", where,
                             f"collider {{}} omitted{lost}: child colliders still join the "
                             "nearest motion")


# -- encoding --------------------------------------------------------------------------------


def _same(ref: Hashable) -> int | None:
    return ref if is_index(ref) else None


def _encode(work: _Work, target: Target, form: str, godot_capsules: bool) -> Encoded:
    scratch = Report()
    mesh_nodes = _mesh_nodes(work) if target == "KHR" and form == "node" else {}
    encoded = encode_document(
        work.scene, work.vehicles, target, _same, _same, scratch,
        khr_geometry=form,  # type: ignore[arg-type]
        resolve_mesh_node=lambda mesh: mesh_nodes.get(mesh),  # type: ignore[arg-type]
        godot_capsules=godot_capsules,
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


def _mesh_nodes(work: _Work) -> dict[int, int]:
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


def _orphan_mesh_nodes(work: _Work) -> dict[int, int]:
    """Existing nodes in no scene and without parent that only carry a mesh at identity."""
    in_scenes = {
        n for s in as_list(work.out.get("scenes")) for n in as_list(as_dict(s).get("nodes"))
    }
    found: dict[int, int] = {}
    for index, node in enumerate(work.graph.nodes):
        if index not in in_scenes and _is_bare_mesh_node(work, index):
            found.setdefault(node["mesh"], index)
    return found


def _is_bare_mesh_node(work: _Work, index: int) -> bool:
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
    return bool(np.allclose(work.graph.local(index), np.identity(4), atol=IDENTITY_TOLERANCE))


def _gravity_references(gltf: Mapping[str, Any]) -> list[tuple[int, int]]:
    """(node, shape index) of every shaped OMI_physics_gravity."""
    refs = []
    for index, node in enumerate(as_list(gltf.get("nodes"))):
        gravity = as_dict(as_dict(as_dict(node).get("extensions")).get(GRAVITY_EXT))
        shape = as_dict(gravity.get("shaped")).get("shape")
        if is_index(shape):
            refs.append((index, shape))
    return refs


def _keep_gravity_shapes(
    work: _Work, view: DocumentView, encoded: Encoded, godot_capsules: bool
) -> None:
    """OMI_physics_gravity indexes OMI_physics_shape: re-add its shapes and re-index it."""
    refs = _gravity_references(work.out)
    if not refs:
        return
    shapes_root = encoded.root.get(omi.SHAPE_EXT, {})
    pool = Pool()
    for entry in shapes_root.get("shapes", []):
        pool.add(entry)
    raw_shapes = as_list(as_dict(view.extension(omi.SHAPE_EXT)).get("shapes"))
    for index, shape_index in refs:
        where = f"/nodes/{index}/extensions/{GRAVITY_EXT}/shaped/shape"
        if shape_index >= len(raw_shapes):
            work.report.warn("gravity-shape-missing", where, "shape index out of range; kept")
            continue
        entry = _reencode_omi_shape(raw_shapes[shape_index], view.mesh_count, godot_capsules)
        work.out["nodes"][index]["extensions"][GRAVITY_EXT]["shaped"]["shape"] = pool.add(entry)
    encoded.root[omi.SHAPE_EXT] = {**shapes_root, "shapes": pool.entries}
    work.report.info("gravity-shapes-kept", f"/extensions/{omi.SHAPE_EXT}",
                     f"{GRAVITY_EXT} keeps its shapes in {omi.SHAPE_EXT} (re-indexed)")


def _reencode_omi_shape(raw: Any, mesh_count: int, godot_capsules: bool) -> dict[str, Any]:
    """A raw OMI shape in the current layout (the raw entry when it cannot be read)."""
    quiet = Report()  # the physics decoder already reported this shape's problems
    mini = DocumentView(
        extensions={omi.SHAPE_EXT: {"shapes": [raw]}},
        nodes=[NodeView({omi.BODY_EXT: {"collider": {"shape": 0}}}, None, ())],
        mesh_count=mesh_count,
    )
    physics = omi.decode_omi(mini, quiet).nodes.get(0)
    shape: Shape | None = None
    if physics is not None and physics.collider is not None:
        shape = physics.collider.shape
    if shape is None:
        return copy.deepcopy(raw)
    one = PhysicsScene({0: NodePhysics(collider=Collider(shape=shape))})
    written = omi.encode_omi(one, _same, _same, quiet, legacy_round=godot_capsules)
    shapes = written.root.get(omi.SHAPE_EXT, {}).get("shapes", [])
    return shapes[0] if shapes else copy.deepcopy(raw)


# -- putting it back -------------------------------------------------------------------------


def _splice(mapping: Mapping[str, Any], additions: Mapping[str, Any]) -> dict[str, Any]:
    """`mapping` without the handled extensions, `additions` where the first one was."""
    result: dict[str, Any] = {}
    placed = False
    for key, value in mapping.items():
        if key not in HANDLED:
            result[key] = value
        elif not placed:
            result.update(additions)
            placed = True
    if not placed:
        result.update(additions)
    return result


def _splice_names(names: list[Any], additions: list[str]) -> list[Any]:
    """A name list without the handled names, `additions` where the first one was."""
    result: list[Any] = []
    placed = False
    for name in names:
        if name not in HANDLED:
            result.append(name)
        elif not placed:
            result.extend(a for a in additions if a not in result)
            placed = True
    if not placed:
        result.extend(a for a in additions if a not in result)
    return result


def _set_or_drop(owner: dict[str, Any], key: str, value: Any) -> None:
    if value:
        owner[key] = value
    else:
        owner.pop(key, None)


def _attach(work: _Work, encoded: Encoded) -> None:
    """Replace the handled extensions of the root and of every node by the encoded ones."""
    out = work.out
    if isinstance(out.get("extensions"), Mapping) or encoded.root:
        _set_or_drop(out, "extensions", _splice(as_dict(out.get("extensions")), encoded.root))
    for index, node in enumerate(work.graph.nodes):
        payload = encoded.nodes.get(index, {})
        if isinstance(node, dict) and (isinstance(node.get("extensions"), Mapping) or payload):
            _set_or_drop(node, "extensions", _splice(as_dict(node.get("extensions")), payload))


def _declare(
    out: dict[str, Any], source: Mapping[str, Any], written: list[str], report: Report
) -> None:
    """`extensionsUsed` lists what is written; a required physics name stays required as its
    written equivalents."""
    if isinstance(source.get("extensionsUsed"), list) or written:
        _set_or_drop(out, "extensionsUsed", _splice_names(as_list(source.get("extensionsUsed")),
                                                          written))
    required = source.get("extensionsRequired")
    if not isinstance(required, list):
        return
    physics_written = [name for name in written if name not in VEHICLE_EXTENSIONS]
    additions = [name for name in written if name in VEHICLE_EXTENSIONS and name in required]
    if any(name in HANDLED and name not in VEHICLE_EXTENSIONS for name in required):
        additions = physics_written + additions
        report.warn("physics-required", "/extensionsRequired",
                    "physics was listed as required: the written physics names are required "
                    "too, although readers without them could still show the file")
    _set_or_drop(out, "extensionsRequired", _splice_names(required, additions))


def _report_lost_metadata(gltf: Mapping[str, Any], report: Report) -> None:
    """Names, extras and nested extensions inside physics payloads are not carried over."""
    places = [
        pointer
        for base, payload in _handled_payloads(gltf)
        for pointer in _metadata_pointers(payload, base)
    ]
    if places:
        report.warn("physics-metadata-dropped", places[0],
                    f"names, extras or extensions inside physics data are not kept "
                    f"({len(places)} place(s))")


def _report_kept_mesh_nodes(gltf: Mapping[str, Any], node_form: bool, report: Report) -> None:
    """Nodes that only served KHR `geometry.node` stay in the file when another form is
    written (removing nodes would re-index the document)."""
    targets: set[int] = set()
    for base, payload in _handled_payloads(gltf):
        for part in ("collider", "trigger"):
            node = as_dict(as_dict(as_dict(payload).get(part)).get("geometry")).get("node")
            if base.startswith("/nodes/") and is_index(node):
                targets.add(node)
    if targets and not node_form:
        report.info("geometry-nodes-kept", "/nodes",
                    f"nodes {sorted(targets)} held geometry.node meshes; kept, now unused")


def _handled_payloads(gltf: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for name, payload in as_dict(gltf.get("extensions")).items():
        if name in HANDLED:
            yield f"/extensions/{name}", payload
    for index, node in enumerate(as_list(gltf.get("nodes"))):
        for name, payload in as_dict(as_dict(node).get("extensions")).items():
            if name in HANDLED:
                yield f"/nodes/{index}/extensions/{name}", payload


def _metadata_pointers(value: Any, pointer: str) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in METADATA_KEYS:
                yield f"{pointer}/{key}"
            else:
                yield from _metadata_pointers(item, f"{pointer}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _metadata_pointers(item, f"{pointer}/{i}")



