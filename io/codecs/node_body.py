# SPDX-License-Identifier: GPL-3.0-or-later
"""Node-level collider/trigger/motion decoding and encoding shared by OMI and KHR. Pure.

The two formats differ only in how a collider or trigger names its geometry (`shape` vs
`geometry`) and how motion states its kind; those parts are passed in as callables.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import Json, JsonReader
from ..model import (
    Collider,
    CollisionFilter,
    Joint,
    JointSettings,
    NodePhysics,
    PhysicsMaterial,
    PhysicsScene,
    Shape,
    Trigger,
)
from .common import Pool, ResolveRef, encode_filter, encode_material
from .joints import decode_node_joint, encode_node_joint, encode_settings

ReadGeometry = Callable[[Mapping[str, Json], str], "Shape | None"]
WriteGeometry = Callable[[Shape, str], "dict[str, Any] | None"]


@dataclass(frozen=True, slots=True)
class Pools:
    """Decoded root arrays a node may index."""

    materials: list[PhysicsMaterial | None]
    filters: list[CollisionFilter | None]
    joints: list[JointSettings | None] = field(default_factory=list)


def decode_collider(
    obj: Mapping[str, Json], where: str, read: JsonReader, pools: Pools, geometry: ReadGeometry,
) -> Collider | None:
    """A collider; None when its geometry is unusable (reported)."""
    if obj.get("shape") == {}:  # a third-party exporter's compound parent (digest §4.7)
        read.report.info("empty-shape-object", where, "collider {shape: {}} read as {}")
        obj = {key: value for key, value in obj.items() if key != "shape"}
    shape = geometry(obj, where)
    if shape is None and _names_geometry(obj):
        return None
    material_index = read.index(obj, "physicsMaterial", where, len(pools.materials))
    filter_index = read.index(obj, "collisionFilter", where, len(pools.filters))
    return Collider(
        shape=shape,
        material=None if material_index is None else pools.materials[material_index],
        filter=None if filter_index is None else pools.filters[filter_index],
    )


def decode_trigger(
    obj: Mapping[str, Json], where: str, read: JsonReader, pools: Pools, geometry: ReadGeometry,
    view: DocumentView, node_index: int,
) -> Trigger | None:
    """A trigger: a shape, explicit compound `nodes`, or the legacy implicit compound `{}`."""
    filter_index = read.index(obj, "collisionFilter", where, len(pools.filters))
    flt = None if filter_index is None else pools.filters[filter_index]
    if _names_geometry(obj):
        shape = geometry(obj, where)
        if "nodes" in obj:
            read.bad(where, "a trigger with both a shape and nodes: nodes ignored", "trigger-both")
        return None if shape is None else Trigger(shape=shape, filter=flt)
    if "nodes" in obj:
        members = [
            read.index_value(n, f"{where}/nodes/{i}", len(view.nodes))
            for i, n in enumerate(read.array(obj, "nodes", where))
        ]
        nodes = tuple(dict.fromkeys(m for m in members if m is not None and m != node_index))
        if not nodes:
            read.bad(where, "compound trigger without valid member nodes skipped", "trigger-empty")
            return None
        return Trigger(nodes=nodes)
    members = tuple(d for d in view.descendants(node_index) if _has_shape_trigger(view, d))
    if not members:
        read.bad(where, "empty trigger {} without member shapes skipped", "trigger-empty")
        return None
    read.report.info("implicit-compound-trigger", where, "trigger {} upgraded to trigger.nodes")
    return Trigger(nodes=members)


def _names_geometry(obj: Mapping[str, Json]) -> bool:
    return "shape" in obj or "geometry" in obj


def _has_shape_trigger(view: DocumentView, index: int) -> bool:
    for payload in view.nodes[index].extensions.values():
        trigger = payload.get("trigger") if isinstance(payload, Mapping) else None
        if isinstance(trigger, Mapping) and _names_geometry(trigger):
            return True
    return False


def decode_node(
    payload: Json, where: str, read: JsonReader, pools: Pools, geometry: ReadGeometry,
    view: DocumentView, node_index: int,
    motion: Callable[[Mapping[str, Json], str], Any],
) -> NodePhysics | None:
    """A node's motion, collider, trigger and joint; each malformed block is skipped alone."""
    obj = read.obj(payload, where)
    if obj is None:
        return None
    parts: dict[str, Any] = {}
    motion_obj = read.obj(obj.get("motion"), f"{where}/motion")
    if motion_obj is not None:
        parts["motion"] = motion(motion_obj, f"{where}/motion")
    collider_obj = read.obj(obj.get("collider"), f"{where}/collider")
    if collider_obj is not None:
        parts["collider"] = decode_collider(
            collider_obj, f"{where}/collider", read, pools, geometry
        )
    trigger_obj = read.obj(obj.get("trigger"), f"{where}/trigger")
    if trigger_obj is not None:
        parts["trigger"] = decode_trigger(
            trigger_obj, f"{where}/trigger", read, pools, geometry, view, node_index
        )
    joint_obj = read.obj(obj.get("joint"), f"{where}/joint")
    if joint_obj is not None:
        parts["joint"] = decode_node_joint(
            joint_obj, f"{where}/joint", read, pools.joints, len(view.nodes), node_index
        )
    physics = NodePhysics(**parts)
    return None if physics.is_empty() else physics


def decode_nodes(
    view: DocumentView, extension: str, read: JsonReader, pools: Pools, geometry: ReadGeometry,
    motion: Callable[[Mapping[str, Json], str], Any],
) -> PhysicsScene:
    """Decode `extension` on every node that carries it."""
    scene = PhysicsScene()
    decoded: dict[bytes, NodePhysics | None] = {}  # clean results of node-independent payloads
    for (index, payload), key in zip(view.used(extension), view.payload_keys(extension),
                                     strict=True):
        key = _reuse_key(payload, key)
        if key is not None and key in decoded:
            physics = decoded[key]
        else:
            issues_before = read.report.count
            where = f"/nodes/{index}/extensions/{extension}"
            physics = decode_node(payload, where, read, pools, geometry, view, index, motion)
            if key is not None and read.report.count == issues_before:
                decoded[key] = physics
        if physics is not None:
            scene.nodes[index] = physics
    return scene


def _reuse_key(payload: Json, key: bytes | None) -> bytes | None:
    """`key` (the payload's `DocumentView.payload_keys`), under which an equal payload's
    clean decoding can be reused, or None when the payload refers to its own node (triggers
    and joints)."""
    if not isinstance(payload, dict) or "trigger" in payload or "joint" in payload:
        return None
    return key


@dataclass(slots=True)
class NodeEncoder:
    """Writes colliders and triggers, pooling materials and filters."""

    report: Report
    resolve_node: ResolveRef
    geometry: WriteGeometry
    materials: Pool
    filters: Pool
    joints: Pool = field(default_factory=Pool)
    written: dict[int, tuple[NodePhysics, dict[str, Any]]] = field(default_factory=dict)
    write_material: Callable[[PhysicsMaterial], dict[str, Any]] | None = None

    def collider(self, collider: Collider, where: str) -> dict[str, Any] | None:
        """A collider object, or None when it has no writable geometry (reported)."""
        if collider.shape is None:
            return None  # compound parents need no payload: children join the nearest body
        written = self.geometry(collider.shape, where)
        if written is None:
            return None
        if collider.material is not None:
            written["physicsMaterial"] = self.materials.add_value(
                collider.material,
                self.write_material or (lambda material: encode_material(material, self.report)),
            )
        if collider.filter is not None:
            written["collisionFilter"] = self.filters.add_value(collider.filter, encode_filter)
        return written

    def shared_payload(
        self, ref: Hashable, physics: NodePhysics,
        encode: Callable[[Hashable, NodePhysics, NodeEncoder], dict[str, Any]],
    ) -> dict[str, Any]:
        """`encode(ref, physics, self)`, written once for the nodes that share one `physics`
        object and refer to no node (no joint, no compound trigger); a payload that reported
        a problem is written again for each node, so each is reported."""
        if physics.joint is not None or (physics.trigger is not None
                                         and physics.trigger.shape is None):
            return encode(ref, physics, self)
        found = self.written.get(id(physics))
        if found is not None and found[0] is physics:
            return found[1]
        issues_before = self.report.count
        payload = encode(ref, physics, self)
        if self.report.count == issues_before:
            self.written[id(physics)] = (physics, payload)
        return payload

    def trigger(self, trigger: Trigger, where: str) -> dict[str, Any] | None:
        """A trigger object: a shape with an optional filter, or compound member nodes."""
        if trigger.shape is not None:
            written = self.geometry(trigger.shape, where)
            if written is not None and trigger.filter is not None:
                written["collisionFilter"] = self.filters.add_value(trigger.filter, encode_filter)
            return written
        nodes = [self.resolve_node(ref) for ref in trigger.nodes]
        kept = [n for n in nodes if n is not None]
        if len(kept) < len(nodes):
            self.report.warn(
                "trigger-member-missing", where, "compound trigger members not exported"
            )
        if not kept:
            self.report.warn("trigger-empty", where, "compound trigger without members skipped")
            return None
        return {"nodes": kept}

    def shapes_into(self, physics: NodePhysics, where: str, payload: dict[str, Any]) -> None:
        """Write the node's collider and trigger (each only when writable) into `payload`."""
        if physics.collider is not None:
            collider = self.collider(physics.collider, where)
            if collider is not None:
                payload["collider"] = collider
        if physics.trigger is not None:
            trigger = self.trigger(physics.trigger, where)
            if trigger is not None:
                payload["trigger"] = trigger

    def joint(self, joint: Joint, where: str) -> dict[str, Any] | None:
        """A node joint object with pooled settings; None when it cannot be written."""
        if joint.connected_node is None:
            self.report.warn("joint-legacy", where, "a v1 joint must be upgraded first; skipped")
            return None
        connected = self.resolve_node(joint.connected_node)
        if connected is None:
            self.report.warn("joint-unconnected", where, "connected node not exported; skipped")
            return None
        index = self.joints.add_value(
            joint.settings, lambda s: encode_settings(s, self.report, where) or None)
        if index is None:
            self.report.warn("joint-empty", where, "joint without limits or drives skipped")
            return None
        return encode_node_joint(joint, index, connected)

    def root(self, name: str, out: dict[str, dict[str, Any]], joints: bool = True) -> None:
        """Put the non-empty material, filter (and joint) pools into `out[name]`."""
        document: dict[str, Any] = {}
        if self.materials.entries:
            document["physicsMaterials"] = self.materials.entries
        if self.filters.entries:
            document["collisionFilters"] = self.filters.entries
        if joints and self.joints.entries:
            document["physicsJoints"] = self.joints.entries
        if document:
            out[name] = document


def node_where(ref: Hashable) -> str:
    """A readable location for a node reference in export reports."""
    return f"node {ref}"
