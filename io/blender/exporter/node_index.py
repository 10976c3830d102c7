# SPDX-License-Identifier: GPL-3.0-or-later
"""Which glTF node stands for which object, in which scene and which instance.

The glTF exporter writes an object once per place it appears: once per scene, once per
collection instance (nested instances included) and once per dupli of an instancing parent.
Each of those nodes is its own identity. A *scope* names one such place: the exported scene
plus the export-tree node (vnode) that made the instance. A partner (a joint's connected
body, a vehicle's seat, a compound trigger's member) is looked up in the asking node's
scope first, then in the scopes around it: a door's hinge finds the frame of its own kit
instance, or the one frame outside the instanced collection.
"""

from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Matrix, Quaternion, Vector

Scope = tuple[int, str | None]  # (scene serial, instancing vnode uuid; None: no instance)
OBJECT, COLLECTION = bpy.types.Object, bpy.types.Collection  # (each lookup costs ~0.7 µs)
#: the turn the exporter gives a camera's or light's node beyond its object's frame, written
#: Y up (VExportTree: glTF cameras and lights look down their -Z, Blender's down their -Y)
EXPORTER_TURN = Quaternion((2 ** 0.5 / 2, -(2 ** 0.5) / 2, 0.0, 0.0))


def _instancer(vnode: Any) -> Any | None:
    """The object that instances what hangs from `vnode`'s node (a collection instance or
    an instancing parent), or None (a collection's or a bone's vnode is none)."""
    source = vnode.blender_object
    if vnode.blender_bone is None and isinstance(source, OBJECT) \
            and source.is_instancer:
        return source
    return None


def _matrix_key(matrix: Any) -> tuple[float, ...]:
    return tuple(value for row in matrix for value in row)


#: an unused level of a depsgraph instance's `persistent_id`
UNUSED_LEVEL = 2 ** 31 - 1
DUPLI_TYPES = ("VERTS", "FACES")  # (an instancing parent's Instancing)


@dataclass(frozen=True, slots=True)
class DupliCopy:
    """A copy an instancing parent makes of an object (a depsgraph instance): the parent and
    the object (originals), the copy's world matrix, and the vertex or face it is made at
    (the outermost level of its `persistent_id`, which lists the levels innermost first: a
    collection member's index, then the vertex; None when it has none)."""

    instancer: Any
    source: Any
    world: Matrix
    number: int | None


def dupli_copies() -> list[DupliCopy]:
    """Every copy the instancing parents (Instancing: Vertices or Faces) of the context's
    scene make, read once from its depsgraph: the export tree's dupli nodes carry the very
    matrices these have (VExportTree reads them there)."""
    found: list[DupliCopy] = []
    for instance in bpy.context.evaluated_depsgraph_get().object_instances:
        if not instance.is_instance:
            continue
        parent = instance.parent
        if parent is None or parent.original.instance_type not in DUPLI_TYPES:
            continue  # (a geometry nodes instance, the most numerous: no dupli node)
        levels = [level for level in instance.persistent_id if level != UNUSED_LEVEL]
        found.append(DupliCopy(parent.original, instance.object.original,
                               instance.matrix_world.copy(), levels[-1] if levels else None))
    return found


def _dupli_frame(instancer: Any, dupli: Any) -> str:
    """The instance a dupli of an instancing parent belongs to when its vertex or face is
    not known (`DupliCopy.number`): the children duplicated at one vertex or face share the
    frame that takes each object to its copy there (the dupli's world matrix over the
    object's own), to 0.1 mm; a turned face or a float's last digit can part them."""
    obj, world = dupli.blender_object, dupli.matrix_world
    if not isinstance(obj, OBJECT) or world is None:
        return dupli.uuid
    frame = world @ obj.matrix_world.inverted_safe()
    return instancer.uuid + "@" + ",".join(
        f"{round(value, 4) + 0.0:g}" for row in frame[:3] for value in row)


def is_stray_dupli(tree: dict, vnode: Any) -> bool:
    """True for a copy the exporter writes twice: an instancing parent (Instancing: Vertices
    or Faces) duplicates its children's children too, and the exporter writes each of those
    under its parent's copy and again directly under the instancing parent (the stray)."""
    parent = tree.get(vnode.parent_uuid)
    source = None if parent is None else _instancer(parent)
    obj = vnode.blender_object
    return source is not None and source.instance_type != "COLLECTION" \
        and obj.parent is not None and obj.parent != source


class NodeIndex:
    """Exported nodes by object and scope, built from each scene's export tree."""

    def __init__(self) -> None:
        # Per exported node (by id): its object, scope and export-tree node (absent when the
        # tree does not list it). Flat maps: an export makes no object per node for them.
        self._object: dict[int, Any] = {}
        self._scope: dict[int, Scope] = {}
        self._vnode: dict[int, Any] = {}
        self._nodes: dict[Scope, dict[Any, Any]] = {}  # scope → object → its node there
        self._outer: dict[Scope, Scope | None] = {}
        self._members: dict[int, frozenset[int]] = {}  # collection pointer → object pointers
        self._frames: dict[str, str] = {}  # a dupli's vnode uuid → its instance
        self._dupli_copies: list[DupliCopy] | None = None  # (`dupli_copies`)
        self._dupli_numbers: dict[tuple[int, int, tuple[float, ...]], int] | None = None
        self._scene_serial = 0
        self._scenes: list[Any] = []  # by scene serial
        #: every scene's export-tree nodes by uuid (as the file nests them)
        self.tree: dict[str, Any] = {}
        #: collection instancers the export wrote something under (Blender 4.x writes
        #: nothing under one with Full Collection Hierarchy)
        self.instancers: set[Any] = set()
        #: collection instancer → its collection's Instance Offset (Blender axes, nonzero
        #: only): the exporter writes the instancer's node moved by it (`node_frame`)
        self.offsets: dict[Any, Vector] = {}
        #: vnode uuid → its parent's as if the exporter had not flattened the object
        #: hierarchy (its "Flatten Object Hierarchy" leaves every object at the root: no
        #: instance to tell); empty when it does not (`remember_parents`)
        self.unflattened: dict[str, str | None] = {}
        #: scope → the scopes right inside it (built on first use by `node_below`)
        self._inner: dict[Scope, list[Scope]] | None = None
        #: the exporter's kinds of vnode it turns (`EXPORTER_TURN`): cameras and lights
        #: when it writes them Y up
        self._turned_kinds: frozenset[int] = frozenset()

    # -- building -------------------------------------------------------------------------

    def add_scene(self, vtree: Any, nodes: list[Any], objects: list[Any]) -> None:
        """Index the gltf `nodes` gathered in this scene (of `objects`, in order) by the
        scene's export tree, whose vnodes now carry their gltf nodes."""
        serial = self._scene_serial
        self._scene_serial += 1
        self._scenes.append(bpy.context.scene)  # (the scene the exporter gathers now)
        self._inner = None
        root: Scope = (serial, None)
        self._outer[root] = None
        object_of, scope_of, vnode_of = self._object, self._scope, self._vnode
        for node, obj in zip(nodes, objects, strict=True):
            object_of[id(node)] = obj
        tree = {} if vtree is None else vtree.nodes
        self.tree.update(tree)
        self._note_turned_kinds(vtree)
        instanced: dict[str, bool] = {}  # vnode uuid → an instancer is at or above it
        memo: dict[str, Scope] = {}
        unflattened = self.unflattened
        instancing = None  # (the exporter's number for a collection instancer's vnode)
        for vnode in tree.values():
            if instancing is None:
                instancing = type(vnode).INST_COLLECTION
            if vnode.blender_type == instancing:
                self._note_instancer(vnode)
            node = vnode.node
            if node is None:
                continue
            obj = object_of.get(id(node))
            if obj is None:
                continue
            parent = unflattened.get(vnode.uuid) if unflattened else vnode.parent_uuid
            if parent is None or not self._instanced(tree, parent, instanced):
                scope_of[id(node)] = root
            else:
                scope_of[id(node)] = self._scope_of(tree, vnode, serial, memo)
            vnode_of[id(node)] = vnode
        for node, obj in zip(nodes, objects, strict=True):  # objects hash by their data
            # a node the tree does not list (a bone stand-in's under 4.x) is in the scene
            scope = scope_of.setdefault(id(node), root)
            by_object = self._nodes.get(scope)
            if by_object is None:
                by_object = self._nodes[scope] = {}
            by_object.setdefault(obj, node)

    def _note_instancer(self, vnode: Any) -> None:
        source = vnode.blender_object
        if vnode.children:
            self.instancers.add(source)
        collection = source.instance_collection
        if collection is not None and any(collection.instance_offset):
            self.offsets[source] = Vector(collection.instance_offset)

    def node_frame(self, obj: Any) -> Matrix:
        """Where the exporter writes `obj`'s node (Blender world matrix): at the object, or
        for a collection instancer, moved by its collection's Instance Offset."""
        return self._moved(obj.matrix_world.copy(), obj)

    def _moved(self, world: Matrix, obj: Any) -> Matrix:
        """`world`, moved by `obj`'s Instance Offset when it is a collection instancer."""
        offset = self.offsets.get(obj)
        return world if offset is None else world @ Matrix.Translation(-offset)

    def remember_parents(self, vtree: Any) -> None:
        """Keep each vnode's nearest exported ancestor before the exporter flattens the tree
        (called once its nodes are tagged: those left out are skipped, as the exporter's
        own filtering re-parents their children)."""
        tree = vtree.nodes
        for uuid, vnode in tree.items():
            parent = vnode.parent_uuid
            while parent is not None and parent in tree and not tree[parent].keep_tag:
                parent = tree[parent].parent_uuid
            self.unflattened[uuid] = parent

    def _parent_uuid(self, vnode: Any) -> str | None:
        unflattened = self.unflattened
        return unflattened.get(vnode.uuid) if unflattened else vnode.parent_uuid

    def _instanced(self, tree: dict, uuid: str, memo: dict[str, bool]) -> bool:
        """True when the vnode `uuid` or one above it instances something."""
        chain = []
        found = False
        while uuid is not None and uuid not in memo:
            vnode = tree.get(uuid)
            if vnode is None:
                break
            chain.append(uuid)
            if _instancer(vnode) is not None:
                found = True
                break
            uuid = self._parent_uuid(vnode)
        else:
            found = uuid is not None and memo.get(uuid, False)
        for seen in chain:
            memo[seen] = found
        return found

    def _scope_of(self, tree: dict, vnode: Any, serial: int,
                  memo: dict[str, Scope]) -> Scope:
        """The innermost instance `vnode` belongs to."""
        below = vnode
        uuid = self._parent_uuid(vnode)
        while uuid is not None:
            parent = tree.get(uuid)
            if parent is None:
                break
            source = _instancer(parent)
            if source is not None:
                if source.instance_type == "COLLECTION":
                    # what hangs from the instancer's node is in the instance when the node
                    # right under it is (a child object of the instancer itself is not)
                    if self._instanced_part(source.instance_collection, below.blender_object):
                        return self._scope_at(tree, parent, parent.uuid, serial, memo)
                else:  # a dupli of an instancing parent: one instance per vertex or face
                    frame = self._frames.get(below.uuid)
                    if frame is None:
                        frame = self._frames[below.uuid] = self._dupli_instance(parent, below)
                    return self._scope_at(tree, parent, frame, serial, memo)
            below = parent
            uuid = self._parent_uuid(parent)
        return (serial, None)

    def _dupli_instance(self, instancer: Any, dupli: Any) -> str:
        """The instance (`Scope` key) a dupli of an instancing parent belongs to: its
        instancer's vnode and the vertex or face it is made at."""
        numbers = self._dupli_numbers
        if numbers is None:  # (read once per export, when a dupli is first met)
            numbers = self._dupli_numbers = {
                (copy.instancer.session_uid, copy.source.session_uid, _matrix_key(copy.world)):
                copy.number for copy in self.dupli_copies() if copy.number is not None}
        obj, world, source = dupli.blender_object, dupli.matrix_world, instancer.blender_object
        if isinstance(obj, OBJECT) and world is not None and isinstance(source, OBJECT):
            number = numbers.get((source.session_uid, obj.session_uid, _matrix_key(world)))
            if number is not None:
                return f"{instancer.uuid}@#{number}"
        return _dupli_frame(instancer, dupli)

    def dupli_copies(self) -> list[DupliCopy]:
        """`dupli_copies()`, read once per export (when first asked: most exports have no
        instancing parent)."""
        if self._dupli_copies is None:
            self._dupli_copies = dupli_copies()
        return self._dupli_copies

    def _instanced_part(self, collection: Any, part: Any) -> bool:
        """True when `part` (an object, or a collection under the instancer's node when the
        exporter writes collections as nodes) comes from instancing `collection`."""
        if collection is None or part is None:
            return False
        if isinstance(part, COLLECTION):
            return True  # only an instanced collection's node hangs from an instancer
        return part.as_pointer() in self._members_of(collection)

    def _scope_at(self, tree: dict, instancer: Any, key: str, serial: int,
                  memo: dict[str, Scope]) -> Scope:
        scope = (serial, key)
        if scope not in self._outer:
            if instancer.uuid not in memo:
                memo[instancer.uuid] = self._scope_of(tree, instancer, serial, memo)
            self._outer[scope] = memo[instancer.uuid]
        return scope

    def _members_of(self, collection: Any) -> frozenset[int]:
        key = collection.as_pointer()
        if key not in self._members:
            self._members[key] = frozenset(o.as_pointer() for o in collection.all_objects)
        return self._members[key]

    # -- looking up -----------------------------------------------------------------------

    def node_of(self, obj: Any, near: Any) -> Any | None:
        """The node of `obj` in the scope of node `near`, else in the nearest scope around it;
        None when `obj` is not exported there."""
        scope: Scope | None = self._scope.get(id(near))
        if obj is None:
            return None
        while scope is not None:
            by_object = self._nodes.get(scope)
            node = None if by_object is None else by_object.get(obj)
            if node is not None:
                return node
            scope = self._outer.get(scope)
        return None

    def node_below(self, obj: Any, near: Any) -> Any | None:
        """The node of `obj` in an instance made under node `near` (by `near` itself, a
        collection instancer, or by an instancer below it), the nearest first: for a partner
        `node_of` does not find around `near`. None when there is none, or when the nearest
        instances that have it are several (no one of them is `near`'s own)."""
        found = self.nodes_below(obj, near)
        return found[0] if len(found) == 1 else None

    def nodes_below(self, obj: Any, near: Any) -> list[Any]:
        """The nodes of `obj` in the nearest instances made under node `near` that have it
        (one per vertex or face of an instancing parent `near`), in the order they were
        gathered; empty when there is none."""
        vnode, scope = self._vnode.get(id(near)), self._scope.get(id(near))
        if obj is None or vnode is None or scope is None:
            return []
        inner = self._inner
        if inner is None:  # (rare: built once per export, when first asked)
            inner = self._inner = {}
            for each, outer in self._outer.items():
                if outer is not None:
                    inner.setdefault(outer, []).append(each)
        level = [each for each in inner.get(scope, ()) if self._made_below(each, vnode.uuid)]
        while level:
            found = {id(node): node for each in level
                     if (node := self._nodes.get(each, {}).get(obj)) is not None}
            if found:
                return list(found.values())
            level = [deeper for each in level for deeper in inner.get(each, ())]
        return []

    def _made_below(self, scope: Scope, uuid: str) -> bool:
        """True when the instance `scope` is made by the vnode `uuid` or one below it."""
        key = scope[1]
        at = None if key is None else key.split("@", 1)[0]  # (a dupli's: `_dupli_frame`)
        while at is not None:
            if at == uuid:
                return True
            vnode = self.tree.get(at)
            at = None if vnode is None else self._parent_uuid(vnode)
        return False

    def _note_turned_kinds(self, vtree: Any) -> None:
        """The kinds of vnode the exporter turns (as VExportTree does: cameras and lights,
        when the export writes them, Y up)."""
        settings = getattr(vtree, "export_settings", None) or {}
        vnodes = iter(vtree.nodes.values()) if vtree is not None else iter(())
        first = next(vnodes, None)
        if first is None or not settings.get("gltf_yup"):
            return
        kind = type(first)
        self._turned_kinds = frozenset(number for number, on in (
            (kind.CAMERA, settings.get("gltf_cameras")), (kind.LIGHT, settings.get("gltf_lights")),
        ) if on)

    def turn_of(self, node: Any) -> Quaternion | None:
        """The turn (Blender axes) the exporter gave `node` beyond its object's frame: a
        camera's or light's node (`EXPORTER_TURN`), but a dupli's of an instancing parent
        (placed by its dupli matrix alone); None for any other node."""
        if not self._turned_kinds:  # (an export without cameras and lights: the usual)
            return None
        vnode = self._vnode.get(id(node))
        if vnode is None or vnode.blender_type not in self._turned_kinds:
            return None
        parent = self.tree.get(vnode.parent_uuid)
        source = None if parent is None else _instancer(parent)
        if source is not None and source.instance_type != "COLLECTION":
            return None
        return EXPORTER_TURN

    def frame_world(self, node: Any, obj: Any) -> Matrix:
        """The world matrix of `obj`'s own frame at `node` (`world_of`, without the turn the
        exporter gives a camera's or light's node): where a joint set on it is."""
        world = self.world_of(node, obj)
        turn = self.turn_of(node)
        return world if turn is None else world @ turn.inverted().to_matrix().to_4x4()

    def scene_of(self, node: Any) -> Any | None:
        """The scene whose tree wrote `node` (None when not indexed)."""
        scope = self._scope.get(id(node))
        return None if scope is None else self._scenes[scope[0]]

    def vnode_of(self, node: Any) -> Any | None:
        """The export-tree node that made `node` (None when the tree does not list it)."""
        return self._vnode.get(id(node))

    def parent_vnode(self, vnode: Any, as_written: bool = False) -> Any | None:
        """The export-tree node above `vnode`: as the artist made the tree (`as_written`:
        as the file has it, where "Flatten Object Hierarchy" left every object at the
        root)."""
        return self.tree.get(vnode.parent_uuid if as_written else self._parent_uuid(vnode))

    def world_of(self, node: Any, obj: Any) -> Matrix:
        """The Blender world matrix of `node` (the object's own one when not indexed): where
        the exporter placed it. A bone's node is where the exporter writes the bone (its rest
        pose, unless the export writes the pose), not where the posed stand-in carrying its
        physics is."""
        placed = self._object.get(id(node))
        if placed is None:
            return obj.matrix_world.copy()
        vnode = self._vnode.get(id(node))  # the matrix the exporter placed the node at
        if vnode is not None and vnode.matrix_world is not None:
            if vnode.blender_bone is not None:
                return vnode.matrix_world.copy()
            if vnode.blender_object == placed:
                return self._moved(vnode.matrix_world.copy(), placed)
        return self.node_frame(placed)
