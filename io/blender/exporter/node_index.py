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

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from mathutils import Matrix

Scope = tuple[int, str | None]  # (scene serial, instancing vnode uuid; None: no instance)


@dataclass(slots=True)
class Placed:
    """One exported node of an object: what it stands for and what encloses it."""

    obj: Any
    scope: Scope
    vnode: Any  # the export-tree node, None when the tree does not list it

    @property
    def matrix_world(self) -> Matrix:
        """The Blender world matrix the exporter placed the node at."""
        vnode = self.vnode
        if vnode is not None and vnode.blender_object == self.obj \
                and vnode.blender_bone is None and vnode.matrix_world is not None:
            return vnode.matrix_world
        return self.obj.matrix_world


class NodeIndex:
    """Exported nodes by object and scope, built from each scene's export tree."""

    def __init__(self) -> None:
        self._placed: dict[int, Placed] = {}  # id(gltf node) → its object and scope
        self._nodes: dict[tuple[int, Scope], Any] = {}  # (object pointer, scope) → node
        self._outer: dict[Scope, Scope | None] = {}
        self._members: dict[int, frozenset[int]] = {}  # collection pointer → object pointers
        self._scene_serial = 0

    # -- building -------------------------------------------------------------------------

    def add_scene(self, vtree: Any, nodes: Iterable[tuple[Any, Any]]) -> None:
        """Index `nodes` ((gltf node, object) pairs gathered in this scene) by the scene's
        export tree, whose vnodes now carry their gltf nodes."""
        serial = self._scene_serial
        self._scene_serial += 1
        root: Scope = (serial, None)
        self._outer[root] = None
        wanted = {id(node): obj for node, obj in nodes}
        tree = {} if vtree is None else vtree.nodes
        instanced: dict[str, bool] = {}  # vnode uuid → an instancer is at or above it
        memo: dict[str, Scope] = {}
        placed = self._placed
        for vnode in tree.values():
            node = vnode.node
            if node is None:
                continue
            obj = wanted.get(id(node))
            if obj is None:
                continue
            parent = vnode.parent_uuid
            if parent is None or not self._instanced(tree, parent, instanced):
                scope = root
            else:
                scope = self._scope_of(tree, vnode, obj, serial, memo)
            placed[id(node)] = Placed(obj, scope, vnode)
        index = self._nodes
        for node, obj in nodes:
            where = placed.get(id(node))
            if where is None:  # not in the tree (e.g. a bone stand-in's node under 4.x)
                where = placed[id(node)] = Placed(obj, root, None)
            index.setdefault((obj.as_pointer(), where.scope), node)

    @staticmethod
    def _instanced(tree: dict, uuid: str, memo: dict[str, bool]) -> bool:
        """True when the vnode `uuid` or one above it instances something."""
        chain = []
        found = False
        while uuid is not None and uuid not in memo:
            vnode = tree.get(uuid)
            if vnode is None:
                break
            chain.append(uuid)
            source = vnode.blender_object
            if source is not None and vnode.blender_bone is None and source.is_instancer:
                found = True
                break
            uuid = vnode.parent_uuid
        else:
            found = uuid is not None and memo.get(uuid, False)
        for seen in chain:
            memo[seen] = found
        return found

    def _scope_of(self, tree: dict, vnode: Any, obj: Any, serial: int,
                  memo: dict[str, Scope]) -> Scope:
        """The innermost instance `vnode` belongs to (`obj` is its object)."""
        below = vnode
        uuid = vnode.parent_uuid
        while uuid is not None:
            parent = tree.get(uuid)
            if parent is None:
                break
            source = parent.blender_object
            if source is not None and parent.blender_bone is None and source.is_instancer:
                if source.instance_type == "COLLECTION":
                    collection = source.instance_collection
                    if collection is not None and obj.as_pointer() in self._members_of(collection):
                        return self._scope_at(tree, parent, parent.uuid, serial, memo)
                else:  # a dupli of an instancing parent: each dupli is its own instance
                    return self._scope_at(tree, parent, below.uuid, serial, memo)
            below = parent
            uuid = parent.parent_uuid
        return (serial, None)

    def _scope_at(self, tree: dict, instancer: Any, key: str, serial: int,
                  memo: dict[str, Scope]) -> Scope:
        scope = (serial, key)
        if scope not in self._outer:
            source = instancer.blender_object
            if instancer.uuid not in memo:
                memo[instancer.uuid] = self._scope_of(tree, instancer, source, serial, memo)
            self._outer[scope] = memo[instancer.uuid]
        return scope

    def _members_of(self, collection: Any) -> frozenset[int]:
        key = collection.as_pointer()
        if key not in self._members:
            self._members[key] = frozenset(o.as_pointer() for o in collection.all_objects)
        return self._members[key]

    # -- looking up -----------------------------------------------------------------------

    def placed(self, node: Any) -> Placed | None:
        """The object, scope and world matrix of an exported node."""
        return self._placed.get(id(node))

    def node_of(self, obj: Any, near: Any) -> Any | None:
        """The node of `obj` in the scope of node `near`, else in the nearest scope around it;
        None when `obj` is not exported there."""
        placed = self._placed.get(id(near))
        if obj is None or placed is None:
            return None
        pointer = obj.as_pointer()
        scope: Scope | None = placed.scope
        while scope is not None:
            node = self._nodes.get((pointer, scope))
            if node is not None:
                return node
            scope = self._outer.get(scope)
        return None

    def world_of(self, node: Any, obj: Any) -> Matrix:
        """The Blender world matrix of `node` (the object's own one when not indexed)."""
        placed = self._placed.get(id(node))
        return placed.matrix_world.copy() if placed is not None else obj.matrix_world.copy()

    def scope_key(self, node: Any) -> Hashable:
        """A key telling apart the places nodes were exported at."""
        placed = self._placed.get(id(node))
        return None if placed is None else placed.scope
