# SPDX-License-Identifier: GPL-3.0-or-later
"""glTF importer hooks: decode physics once, then write it onto the created objects.

Every hook body is guarded: an exception inside an import hook would make the glTF
importer abort the whole import, and a physics problem must never cost geometry.
"""

import logging
from collections.abc import Hashable, Iterator, Mapping
from functools import cache
from typing import Any

import bpy
from mathutils import Quaternion

from ... import rules
from ...codecs.khr import BODIES_EXT, geometry_node_refs, report_moved_geometry_nodes
from ...codecs.registry import (
    HANDLED_EXTENSIONS,
    IGNORED_EXTENSIONS,
    decode_document,
    decode_gravity_document,
    decode_vehicle_document,
    report_ignored,
)
from ...diagnostics import Report, nodes_named
from ...document import DocumentView, LazyNodes, NodeView
from ...float32_storage import Float32Storage
from ...gravity import GravityScene
from ...joints import settings_to_blender
from ...lost_metadata import report_lost_metadata
from ...model import Joint, PhysicsScene
from ...structure import (
    COMPOUND_DROPPED_CODE,
    COMPOUND_PASSED_CODE,
    compound_parts_said,
    own_colliders_of,
    pass_down_compound_parts,
    static_partner,
)
from ...vehicle_model import VehicleScene
from .. import gltf_compat
from ..bridge.collision_mesh import (
    COLLISION_SUFFIX,
    MeshClaims,
    MeshNotes,
    read_collision_mesh,
)
from ..bridge.from_model import PropertyWriter
from ..bridge.joint_bridge import body_of, own_world, write_settings
from ..bridge.turned_nodes import TurnedBack
from ..bridge.vehicle_bridge import write_vehicle_node
from ..gravity.bridge import import_world_gravity, write_gravity
from ..settings.stored_settings import GROUP
from ..tools.ownership import (
    IMPORT_CHILD,
    IMPORT_GRAVITY_SHAPE,
    IMPORT_ORPHANS,
    IMPORT_PROXY,
    IMPORT_TRIGGER,
    TAG_PREFIX,
    mark,
)

LOG = logging.getLogger(__name__)
OBJECT = bpy.types.Object  # looked up once: each bpy.types access costs ~0.7 µs per node
#: the objects the importer turns from their nodes (`_turn_of`)
TURNED_TYPES = frozenset({"CAMERA", "LIGHT"})


def document_view(gltf: Any) -> DocumentView:
    """A DocumentView of the importer's parsed document."""
    data = gltf.data
    extensions = data.extensions if isinstance(data.extensions, dict) else {}
    return DocumentView(extensions, ImporterNodes(data.nodes or []), len(data.meshes or []))


class ImporterNodes(LazyNodes):
    """The importer's nodes seen as NodeViews, each made when asked for. Views kept for the
    whole import (one per node) would make the garbage collector run extra full passes."""

    __slots__ = ("_nodes",)

    def __init__(self, nodes: list[Any]) -> None:
        self._nodes = nodes

    def __len__(self) -> int:
        return len(self._nodes)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return NodeView(extensions=_extensions(self._nodes[index]), mesh=self.mesh(index),
                        children=self.children(index), transform=self.transform(index))

    def extension_maps(self) -> Iterator[Mapping[str, Any]]:
        return map(_extensions, self._nodes)

    def children(self, index: int) -> tuple[int, ...]:
        children = self._nodes[index].children
        return tuple([c for c in children if type(c) is int]) \
            if isinstance(children, list) else ()

    def mesh(self, index: int) -> int | None:
        """Node `index`'s mesh index, without making its whole view."""
        mesh = self._nodes[index].mesh
        return mesh if type(mesh) is int else None

    def transform(self, index: int) -> Mapping[str, Any]:
        """Where node `index`'s own transform is read: the importer's node's attributes,
        whose `matrix`, `translation`, `rotation` and `scale` are the file's (as a JSON
        view's raw node; nothing is copied or read here, and the importer turns them to
        Blender's axes later, on its vnodes)."""
        return vars(self._nodes[index])


def _extensions(node: Any) -> Mapping[str, Any]:
    extensions = node.extensions
    return extensions if isinstance(extensions, dict) else {}


class PhysicsImportExtension:
    """Reads OMI and KHR physics into gltf_physics object settings."""

    def __init__(self) -> None:
        self.extensions = gltf_compat.importer_extensions(HANDLED_EXTENSIONS + IGNORED_EXTENSIONS)
        self.view: DocumentView | None = None
        self.physics = PhysicsScene()
        self.vehicles = VehicleScene()
        self.gravity = GravityScene()
        self.report = Report()
        self.claims = MeshClaims()
        self.mesh_notes = MeshNotes()  # what the collision meshes lost, said at the end
        self.stand_ins: dict[int, bpy.types.Object | None] = {}  # bone node → its Empty
        #: (camera or light node, "joint"/"connected") → its frame Empty (`_node_frame`)
        self.node_frames: dict[tuple[int, str], bpy.types.Object] = {}
        self.world_sides: _WorldSides | None = None  # made on first need, once per import
        self.level = False  # the scene held objects before the import (a level, not empty)
        self.geometry_targets: set[int] = set()  # a superset of the KHR geometry.node targets

    def gather_import_gltf_before_hook(self, gltf: Any) -> None:
        """Decode the file's physics (pure; nothing is created yet)."""
        self.report = Report()
        self.physics = PhysicsScene()
        self.vehicles = VehicleScene()
        self.gravity = GravityScene()
        self.claims = MeshClaims()  # what collision meshes read beyond the file's data
        self.mesh_notes = MeshNotes()
        self.stand_ins = {}
        self.node_frames = {}
        self.world_sides = None
        self.geometry_targets = set()
        try:
            _drop_tool_tags(gltf, self.report)
            self.view = document_view(gltf)
            self.physics = decode_document(self.view, self.report)
            self.geometry_targets = _geometry_node_targets(self.view)
            self._report_moved_geometry_nodes()
            self._pass_down_compound_parts()
            self.vehicles = decode_vehicle_document(self.view, self.report)
            self.gravity = decode_gravity_document(self.view, self.report)
            report_ignored(self.view, self.report)
            report_lost_metadata(self.view, self.report)
            self._storable()
            # (nothing is created yet: any object of the scene is the artist's)
            self.level = _holds_objects(bpy.context.scene)
        except Exception as exc:
            LOG.exception("physics decoding failed")
            self.report.warn("import-failed", "", f"physics skipped: {exc}")

    def _report_moved_geometry_nodes(self) -> None:
        """A KHR geometry.node mesh goes on a proxy at its collider's origin, as the
        converter writes it: a target's own transform is lost, said as the converter says
        it (`geometry-node-transform`). The transform is read for the targets only, and the
        full rule runs only for a file naming any (`geometry_targets`)."""
        assert self.view is not None
        if self.geometry_targets:
            report_moved_geometry_nodes(self.view, cache(self.view.moved), self.report)

    def _pass_down_compound_parts(self) -> None:
        """Blender has no collider without a shape: the material and filter of one go to
        its child colliders that have none (io/structure.py), said once."""
        assert self.view is not None
        done = pass_down_compound_parts(self.physics.nodes, self.view.child_nodes())
        self.physics.nodes.update(done.nodes)
        if done.passed:
            self.report.info(
                COMPOUND_PASSED_CODE, nodes_named(list(done.passed)),
                "a collider without a shape combines its child colliders into one (OMI): "
                f"{compound_parts_said(done.passed)} are now on those child colliders that "
                "had none of their own (Blender has no collider without a shape)")
        if done.dropped:
            self.report.warn(
                COMPOUND_DROPPED_CODE, nodes_named(list(done.dropped)),
                f"{compound_parts_said(done.dropped)} (a collider without a shape) are not "
                "kept: no child collider below takes them (each has its own, or there is "
                "none; Blender has no collider without a shape)")

    def _storable(self) -> None:
        """Numbers Blender would store as 0 or as float32's largest made storable, said."""
        storage = Float32Storage(self.report)
        for nodes in (self.physics.nodes, self.vehicles.nodes, self.gravity.nodes):
            storage.fix_nodes(nodes)
        if self.gravity.world is not None:
            self.gravity.world = storage.of(self.gravity.world, "world gravity")

    def gather_import_scene_after_nodes_hook(
        self, gltf_scene: Any, blender_scene: Any, gltf: Any
    ) -> None:
        """Write the decoded physics onto the objects the importer created."""
        try:
            self._apply(gltf, blender_scene)
            self._apply_gravity(gltf, blender_scene)  # OMI_physics_gravity (io/blender/gravity)
        except Exception as exc:
            LOG.exception("applying physics failed")
            self.report.warn("import-failed", "", f"physics skipped: {exc}")
        self.mesh_notes.say(self.report)

    def _apply(self, gltf: Any, blender_scene: Any) -> None:
        if self.view is None or not (self.physics.nodes or self.vehicles.nodes):
            return
        scene = blender_scene if isinstance(blender_scene, bpy.types.Scene) else bpy.context.scene
        writer = PropertyWriter(scene, self.report, objects_untouched=not _restores_settings(gltf))
        self._apply_nodes(gltf, writer)
        self._mark_compound_members(gltf)
        if any(p.joint and p.joint.legacy_bodies for p in self.physics.nodes.values()):
            bpy.context.view_layer.update()  # world matrices of bone stand-ins (see `_world`)
        for index, physics in self.physics.nodes.items():
            if physics.joint is not None:
                try:
                    self._apply_joint(gltf, index, physics.joint)
                except Exception as exc:
                    self._node_failed(index, exc)
        self._apply_vehicles(gltf, writer)
        self._say_layer_changes(gltf, writer)

    def _apply_nodes(self, gltf: Any, writer: PropertyWriter) -> None:
        """Bodies, shapes and triggers onto the nodes' objects."""
        def make_proxy(owner: bpy.types.Object, mesh_index: int) -> bpy.types.Object | None:
            mesh, why = read_collision_mesh(gltf, mesh_index, owner.name + COLLISION_SUFFIX,
                                            self.claims)
            self.mesh_notes.add(mesh_index, owner.name, mesh, why)
            if mesh is None:
                return None
            return _collision_child(owner, owner.name + COLLISION_SUFFIX, mesh, IMPORT_PROXY)

        def make_child(owner: bpy.types.Object, name: str) -> bpy.types.Object:
            return _child(owner, name, None, IMPORT_TRIGGER)

        nodes = ImporterNodes(gltf.data.nodes or [])
        if writer.one_scene:  # (every object is in the writer's scene: equal physics alike)
            distinct = {id(physics): physics for physics in self.physics.nodes.values()}
            writer.add_layers((None, physics) for physics in distinct.values())
        else:
            writer.add_layers((obj, physics) for index, physics in self.physics.nodes.items()
                              if (obj := self._node_object(gltf, index)) is not None)
        for index, physics in self.physics.nodes.items():
            obj = self._node_object(gltf, index)
            if obj is None:
                self.report.warn("no-object", f"/nodes/{index}", "node has no object; skipped")
                continue
            # A bone's (or armature's) mesh went to a child object: the node's own mesh is
            # not on `obj`, so a collider naming it needs a proxy.
            kind = obj.type
            own_mesh = nodes.mesh(index) if kind == "MESH" else None
            try:
                writer.apply(obj, physics, own_mesh, make_proxy, make_child,
                             _turn_of(gltf, index, obj) if kind in TURNED_TYPES else None)
            except Exception as exc:  # one node's problem never costs the others theirs
                self._node_failed(index, exc)

    def _say_layer_changes(self, gltf: Any, writer: PropertyWriter) -> None:
        """The writer's notes on collision layers, once every node is written (guarded:
        everything is written already)."""
        try:
            writer.say_layer_changes(lambda: self._imported_objects(gltf), self.level)
        except Exception as exc:
            LOG.exception("describing collision layer changes failed")
            self.report.warn("import-failed", "", f"collision layer notes skipped: {exc}")

    def _imported_objects(self, gltf: Any) -> set[bpy.types.Object]:
        """The objects made by this import for its nodes (bones' stand-ins too)."""
        vnodes = gltf.vnodes.values() if isinstance(gltf.vnodes, dict) else ()
        made = {getattr(vnode, "blender_object", None) for vnode in vnodes}
        made.update(self.stand_ins.values())
        return {obj for obj in made if isinstance(obj, OBJECT)}

    def _apply_vehicles(self, gltf: Any, writer: PropertyWriter) -> None:
        """Vehicle bodies, wheels, thrusters and seats (seats first: a body names its seat)."""
        seats_first = sorted(self.vehicles.nodes.items(), key=lambda item: item[1].seat is None)
        for index, parts in seats_first:
            obj = self._node_object(gltf, index)
            if obj is None:
                self.report.warn("no-object", f"/nodes/{index}", "vehicle node has no object")
                continue
            seat = parts.vehicle_body.pilot_seat if parts.vehicle_body else None
            seat_object = None if seat is None else self._node_object(gltf, seat)
            try:
                turn = _turn_of(gltf, index, obj)
                write_vehicle_node(obj, parts if turn is None
                                   else TurnedBack(turn, writer.yup).vehicle(parts),
                                   seat_object, writer)
                if parts.vehicle_body is not None and obj.gltf_physics.motion_type != "DYNAMIC":
                    rule = rules.VEHICLE_NOT_DYNAMIC
                    self.report.warn(rule.code, f"/nodes/{index}", rule.message(
                        what=f"kept on {obj.name}, exported as a vehicle once its Motion is "
                        "Dynamic"))
            except Exception as exc:
                self._node_failed(index, exc)

    def _node_object(self, gltf: Any, index: int) -> bpy.types.Object | None:
        """The object of node `index`: the importer's, or for a bone's node one Empty that
        carries all of the node's physics (made once, on first need)."""
        obj = _object_of(gltf, index)
        if obj is None and isinstance(index, int):
            if index not in self.stand_ins:
                self.stand_ins[index] = _bone_stand_in(gltf, index, self.report)
            obj = self.stand_ins[index]
        return obj

    def _node_failed(self, index: int, exc: Exception) -> None:
        """Said once, without a traceback (kept in the debug log): the node's physics, or
        part of it, is skipped."""
        LOG.debug("applying the physics of node %d failed", index, exc_info=True)
        self.report.warn("import-failed", f"/nodes/{index}", f"physics skipped: {exc}")

    def _apply_gravity(self, gltf: Any, blender_scene: Any) -> None:
        """The world gravity onto the scene, each volume onto its node's object."""
        scene = blender_scene if isinstance(blender_scene, bpy.types.Scene) else bpy.context.scene
        if self.gravity.world is not None:
            import_world_gravity(scene, self.gravity.world, "/extensions/OMI_physics_gravity",
                                 self.report, level=self.level)
        for index, volume in self.gravity.nodes.items():
            obj = self._node_object(gltf, index)
            if obj is None:
                self.report.warn("no-object", f"/nodes/{index}", "gravity node has no object")
                continue
            try:
                turn = _turn_of(gltf, index, obj)
                if turn is not None:  # (a camera's or light's node: its values turned)
                    volume = TurnedBack(turn, True).gravity(volume)
                write_gravity(obj, volume, f"/nodes/{index}", self.report,
                              make_shape_object=lambda owner, mesh: _gravity_shape_object(
                                  gltf, owner, mesh, self.mesh_notes, self.claims))
            except Exception as exc:
                self._node_failed(index, exc)

    def _apply_joint(self, gltf: Any, index: int, joint: Joint) -> None:
        """Make the node's object a joint connected to the right body (or frame)."""
        where = f"/nodes/{index}"
        obj = self._node_object(gltf, index)
        if obj is None:
            self.report.warn("no-object", where, "joint node has no object; skipped")
            return
        props = obj.gltf_physics
        if joint.legacy_bodies is not None:
            body_a, body_b = (_object_of(gltf, ref) for ref in joint.legacy_bodies)
            if body_a is None or body_b is None:
                self.report.warn("joint-skipped", where, "v1 joint bodies have no objects")
                return
            # v1 frames are world frames (digest §4.5): the joint goes under body A
            obj = _v1_joint_frame(obj, body_a, self.report, where)
            props = obj.gltf_physics
            props.joint_connected_body = body_b
            props.joint_attachment = None
        else:
            attachment = self._node_object(gltf, joint.connected_node)
            if attachment is None:
                self.report.warn("joint-skipped", where, "connected node has no object")
                return
            obj = self._node_frame(gltf, index, obj, "joint")
            props = obj.gltf_physics
            attachment = self._node_frame(gltf, joint.connected_node, attachment, "connected")
            props.joint_attachment = attachment
            props.joint_connected_body = body_of(attachment) \
                or self._static_partner(gltf, joint.connected_node)
            if body_of(obj) is None:
                self._static_partner(gltf, index)
            self._say_same_body(obj, props, where)
        props.joint_enable_collision = joint.enable_collision
        write_settings(props, settings_to_blender(joint.settings))
        if obj.type == "EMPTY":
            obj.empty_display_type = "ARROWS"

    def _node_frame(self, gltf: Any, index: Any, obj: bpy.types.Object, suffix: str
                    ) -> bpy.types.Object:
        """`obj`, or where the importer turned it from node `index` (a camera or light:
        `_turn_of`), an Empty under it at the node's frame (tagged `import_child`, one per
        node and use): a joint's frame is the node's."""
        turn = _turn_of(gltf, index, obj) if isinstance(index, int) else None
        if turn is None:
            return obj
        frame = self.node_frames.get((index, suffix))
        if frame is None:
            frame = self.node_frames[(index, suffix)] = _child(obj, f"{obj.name}.{suffix}",
                                                               None)
            frame.rotation_mode = "QUATERNION"
            frame.rotation_quaternion = turn.inverted()
            frame.empty_display_type = "ARROWS"
        return frame

    def _say_same_body(self, obj: bpy.types.Object, props: Any, where: str) -> None:
        """Said as the converter says it: both sides of the joint are one body (their static
        partner is one node), so it holds nothing; kept, and an export writes no joint."""
        body = body_of(obj)
        if body is not None and props.joint_connected_body == body:
            self.report.warn("joint-same-body", where, f"both joint sides belong to body "
                             f"{body.name}: kept in Blender, but an export writes no joint")

    def _static_partner(self, gltf: Any, side: Hashable) -> bpy.types.Object | None:
        """Make the static partner of body-less joint side `side` a Static body: in Blender
        (and OMI) a joint side must be a body; KHR reads it as before (a static body is
        colliders without a motion)."""
        assert self.view is not None
        if self.world_sides is None:
            self.world_sides = _WorldSides(self.view, self.physics)
        partner = self.world_sides.partner(side)
        obj = None if partner is None else self._node_object(gltf, partner)
        if obj is None:
            return None
        obj.gltf_physics.motion_type = "STATIC"
        self.report.info("static-partner", f"/nodes/{partner}",
                         f"joint side node {side} is anchored to the world or a static "
                         f"collider: node {partner} ({obj.name}) made a Static body")
        return obj

    def gather_import_scene_after_animation_hook(
        self, gltf_scene: Any, blender_scene: Any, gltf: Any
    ) -> None:
        """Remove the objects made for KHR geometry.node orphans (after animations exist);
        then log every problem of the import, once."""
        try:
            if self.view is not None and self.physics.nodes:
                self._remove_geometry_orphans(gltf)
        except Exception as exc:  # never abort the import
            LOG.exception("removing geometry nodes failed")
            self.report.warn("import-failed", "", f"orphan geometry nodes kept: {exc}")
        self._log(gltf)  # (the last hook: every problem of the import is known)

    def _remove_geometry_orphans(self, gltf: Any) -> None:
        """Delete objects the importer made for KHR `geometry.node` targets outside every scene.

        Those nodes only carry collision meshes (now on proxies); as objects they would be
        exported again as visible geometry.
        """
        assert self.view is not None
        if not self.geometry_targets:
            return  # no collider or trigger names a geometry node (the usual file)
        roots = [root for scene in gltf.data.scenes or [] for root in scene.nodes or []]
        if not roots:
            return  # no scene: the importer imported every node as the scene
        in_scene = self.view.subtrees(roots)
        if len(in_scene) == len(self.view.nodes):
            return  # every node is in a scene (the usual file): no orphans to look for
        targets = {target for _node, target in geometry_node_refs(self.view)}  # (as decoded)
        parents = self.view.parents() if targets - in_scene else {}
        for index in targets - in_scene:
            # the target's subtree (its meshes on nodes below, which no scene draws), then
            # its orphan parents left empty: as objects, all would be exported as visible
            for node in [*reversed(list(self.view.descendants(index))), index]:
                if node not in in_scene:  # (a file may list a node below it in a scene)
                    self._remove_orphan_part(gltf, node, node == index)
            parent = parents.get(index)
            while parent is not None and parent not in in_scene:
                obj = _object_of(gltf, parent)
                if obj is None or obj.data is not None or not self._remove_orphan_part(
                        gltf, parent, False):
                    break
                parent = parents.get(parent)
        _mark_if_emptied(gltf)

    def _remove_orphan_part(self, gltf: Any, index: int, target: bool) -> bool:
        """Remove the object of orphan node `index` when nothing of it is left to keep (no
        children; no physics, unless it is the `target` itself, whose mesh its collider
        now holds): whether it was removed."""
        obj = _object_of(gltf, index)
        if obj is None or obj.children or (not target and (
                index in self.physics.nodes or index in self.gravity.nodes
                or index in self.vehicles.nodes)):
            return False
        self._remove_orphan(gltf, index, obj)
        return True

    def _remove_orphan(self, gltf: Any, index: int, obj: bpy.types.Object) -> None:
        """Delete the object of orphan node `index` with its mesh (both made by this import;
        the importer still uses the collection it made for orphans)."""
        mesh = obj.data
        bpy.data.objects.remove(obj)
        if isinstance(mesh, bpy.types.Mesh) and mesh.users == 0:
            bpy.data.meshes.remove(mesh)
        # the importer selects every vnode's object next: forget this one everywhere
        vnode = gltf.vnodes.pop(index, None)
        parent = gltf.vnodes.get(getattr(vnode, "parent", None))
        for holder in (parent, gltf.vnodes.get("root")):
            children = getattr(holder, "children", None)
            if isinstance(children, list) and index in children:
                children.remove(index)

    def _mark_compound_members(self, gltf: Any) -> None:
        """Descendant triggers that a compound trigger does not list stay out of it; a
        listed node not below it is no member (Blender's members are its descendants:
        said)."""
        assert self.view is not None
        for index, physics in self.physics.nodes.items():
            trigger = physics.trigger
            if trigger is None or trigger.shape is not None:
                continue
            below = set(self.view.descendants(index))
            outside = [str(node) for node in trigger.nodes if node not in below]
            if outside:
                self.report.warn("trigger-member-outside", f"/nodes/{index}",
                                 f"the compound trigger lists node {', '.join(outside)}, not "
                                 "below it: no member of it here")
            for descendant in below:
                member = self.physics.nodes.get(descendant)
                if member is None or member.trigger is None or member.trigger.shape is None:
                    continue
                obj = _object_of(gltf, descendant)
                if obj is not None:
                    obj.gltf_physics.join_compound_trigger = descendant in trigger.nodes

    def _log(self, gltf: Any) -> None:
        """Each listed issue once, in the glTF add-on's log (notes at its info level)."""
        for issue in self.report.listed():
            say = gltf.log.info if issue.severity == "info" else gltf.log.warning
            say(f"gltf_physics: {issue} [{issue.code}]")
        summary = self.report.summary()
        if summary:
            gltf.log.warning(f"gltf_physics: {summary}", popup=True)


class _WorldSides:
    """The file's node tree as the static partners of joint sides anchored to the world
    need it: each node's parent, and its own colliders (io/structure.py), worked out once
    per import."""

    def __init__(self, view: DocumentView, physics: PhysicsScene) -> None:
        self._parents = view.parents()
        self._own = own_colliders_of(physics.nodes, view.child_nodes())

    def partner(self, side: Hashable) -> int | None:
        """The node to make the Static body of joint side `side` (no motion at or above)."""
        chain: dict[int, None] = {}  # (ordered; safe against cycles)
        node = side if type(side) is int else None
        while node is not None and node not in chain:
            chain[node] = None
            node = self._parents.get(node)
        return static_partner(list(chain), self._own, body_required=True)


def _holds_objects(scene: bpy.types.Scene) -> bool:
    """Whether the scene holds any object (without listing them)."""
    return next(iter(scene.objects), None) is not None


def _geometry_node_targets(view: DocumentView) -> set[int]:
    """A quick look (payloads are the importer's JSON dicts): the integer nodes KHR
    colliders and triggers name in `geometry.node`, also beside a shape or mesh the decoder
    uses instead; a superset of what `khr.geometry_node_refs` yields, which tells exactly."""
    targets: set[int] = set()
    payloads = view.payloads(BODIES_EXT)
    for at, _key in view.distinct(BODIES_EXT):  # (equal payloads name equal targets)
        payload = payloads[at]
        if not isinstance(payload, dict):
            continue
        for part in (payload.get("collider"), payload.get("trigger")):
            geometry = part.get("geometry") if isinstance(part, dict) else None
            target = geometry.get("node") if isinstance(geometry, dict) else None
            if isinstance(target, int) and not isinstance(target, bool):
                targets.add(target)
    return targets


def _drop_tool_tags(gltf: Any, report: Report) -> None:
    """Remove the tools' tags from the file's extras before the importer copies them onto
    objects, meshes and the scene: a tag makes a tool delete or replace what carries it, so
    only the tools may set one, never a file."""
    data = gltf.data
    dropped = 0
    for items in (data.nodes, data.meshes, data.scenes):
        for item in items or ():
            extras = item.extras
            if isinstance(extras, dict):
                tags = [key for key in extras if isinstance(key, str)
                        and key.startswith(TAG_PREFIX)]
                for key in tags:
                    del extras[key]
                dropped += len(tags)
    if dropped:
        report.warn("foreign-tags", "", f"{dropped} extras named like the tools' own tags "
                    f"({TAG_PREFIX}…) were not imported")


def _restores_settings(gltf: Any) -> bool:
    """True when node extras carry gltf_physics settings, which the glTF add-on of 4.2/4.5
    copies onto the new objects before any hook runs."""
    return any(
        isinstance(node.extras, dict) and GROUP in node.extras
        for node in gltf.data.nodes or []
    )


def _turn_of(gltf: Any, index: int, obj: bpy.types.Object) -> Quaternion | None:
    """The turn the importer gave node `index`'s camera or light object from the node (its
    vnode's `rotation_before`: Blender's cameras and lights look down another axis); None
    for any other object."""
    if obj.type not in TURNED_TYPES:
        return None
    vnode = gltf.vnodes.get(index) if isinstance(gltf.vnodes, dict) else None
    turn = getattr(vnode, "rotation_before", None)
    if not isinstance(turn, Quaternion) or turn.rotation_difference(Quaternion()).angle < 1e-6:
        return None
    return turn.copy()


def _object_of(gltf: Any, index: int) -> bpy.types.Object | None:
    vnode = gltf.vnodes.get(index) if isinstance(gltf.vnodes, dict) else None
    obj = getattr(vnode, "blender_object", None)
    return obj if isinstance(obj, OBJECT) else None


def _bone_stand_in(gltf: Any, index: int, report: Report) -> bpy.types.Object | None:
    """An Empty that follows the bone made from node `index`, to carry its physics."""
    vnode = gltf.vnodes.get(index) if isinstance(gltf.vnodes, dict) else None
    bone_name = getattr(vnode, "blender_bone_name", None)
    arma_vnode = gltf.vnodes.get(getattr(vnode, "bone_arma", None))
    armature = getattr(arma_vnode, "blender_object", None)
    if bone_name is None or armature is None or bone_name not in armature.pose.bones:
        return None
    empty = _child(armature, bone_name, None)
    empty.parent_type = "BONE"
    empty.parent_bone = bone_name
    # At the glTF node's frame, not the bone's: the importer turned the bone by
    # `rotation_before` (+90 degrees about X for the Blender heuristic) so that its +Y is
    # the bone axis, and a bone child starts at the bone's tail.
    empty.rotation_mode = "QUATERNION"
    empty.location = (0.0, -armature.data.bones[bone_name].length, 0.0)
    before = getattr(vnode, "rotation_before", None)
    empty.rotation_quaternion = Quaternion() if before is None else before.conjugated()
    report.info("bone-physics", f"/nodes/{index}", f"physics of bone {bone_name} on an Empty")
    return empty


def _v1_joint_frame(obj: bpy.types.Object, body_a: bpy.types.Object, report: Report,
                    where: str) -> bpy.types.Object:
    """The object to carry a v1 joint whose node is `obj`: `obj` itself when body A is (or is
    above) it, or when it is a plain leaf Empty that can move under body A, kept in place;
    else a new Empty under body A at `obj`'s frame (`obj` is body A's ancestor, or holds more
    than the joint), as the converter makes."""
    if body_of(obj) == body_a:
        return obj
    world = own_world(obj)
    if obj.type == "EMPTY" and not obj.children and body_of(obj) is None:
        obj.parent = body_a
        obj.matrix_parent_inverse.identity()
        obj.matrix_basis = own_world(body_a).inverted_safe() @ world
        return obj
    frame = _child(body_a, f"{obj.name}.joint", None)
    frame.matrix_basis = own_world(body_a).inverted_safe() @ world
    frame.empty_display_type = "ARROWS"
    report.info("joint-frame-node", where,
                f"the v1 joint node holds more than a joint: its joint is on {frame.name}")
    return frame


def _gravity_shape_object(gltf: Any, owner: bpy.types.Object, mesh_index: Any,
                          notes: MeshNotes, claims: MeshClaims) -> bpy.types.Object | None:
    """A collision-only child holding mesh `mesh_index`, the convex or triangle-mesh shape
    the owner's shaped gravity pulls towards (tagged as the importer's)."""
    mesh, why = read_collision_mesh(gltf, mesh_index, f"{owner.name}.gravity_shape", claims)
    notes.add(mesh_index, owner.name, mesh, why)
    if mesh is None:
        return None
    return _collision_child(owner, f"{owner.name}.gravity_shape", mesh, IMPORT_GRAVITY_SHAPE)


def _collision_child(owner: bpy.types.Object, name: str, mesh: Any, tool: str
                     ) -> bpy.types.Object:
    """A `_child` holding a collision mesh: drawn as wire, never rendered, collision only."""
    child = _child(owner, name, mesh, tool)
    child.display_type = "WIRE"
    child.hide_render = True
    child.gltf_physics.collision_only = True
    return child


def _child(owner: bpy.types.Object, name: str, data: Any, tool: str = IMPORT_CHILD
           ) -> bpy.types.Object:
    """A new object parented to `owner` at its origin, in the same collections, tagged as
    made by the import (`tool`) for `owner`."""
    child = bpy.data.objects.new(name, data)
    mark(child, tool, owner)
    for collection in owner.users_collection:
        collection.objects.link(child)
    child.parent = owner
    return child


def _mark_if_emptied(gltf: Any) -> None:
    """Tag the importer's collection for orphan nodes when removing the geometry orphans
    emptied it: the export leaves it out (it would be an empty node in every instance of a
    kit made from the import). The importer still uses it after the last hook (it excludes
    it from the view layer), so it cannot be removed here."""
    collections = getattr(gltf, "blender_collections", None)
    orphans = collections.get(None) if isinstance(collections, dict) else None
    if isinstance(orphans, bpy.types.Collection) and not orphans.all_objects \
            and not orphans.children:
        mark(orphans, IMPORT_ORPHANS)

