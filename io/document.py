# SPDX-License-Identifier: GPL-3.0-or-later
"""A read-only view of the parts of a glTF document the physics decoders need. Pure."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .json_read import json_key
from .node_graph import IDENTITY_TOLERANCE, TRS_KEYS, NodeGraph

Json = Any


@dataclass(slots=True)  # not frozen: a frozen one takes 3 × as long to make, per node
class NodeView:
    """One node: its extensions, its mesh index and its children, all untrusted; and where
    its own transform is read (`transform`: a mapping whose `matrix`, `translation`,
    `rotation` and `scale` are the node's as the file gives them, other keys ignored; the
    raw node itself in a JSON view; None for the identity)."""

    extensions: Mapping[str, Json]
    mesh: int | None
    children: tuple[int, ...]
    transform: Mapping[str, Json] | None = None


class LazyNodes(Sequence[NodeView]):
    """Nodes kept in another form, each made a NodeView only when asked for; what a whole
    scan needs (extensions, children) is read without making views."""

    __slots__ = ()

    @abstractmethod
    def extension_maps(self) -> Iterator[Mapping[str, Json]]:
        """Each node's extensions, in node order (an empty mapping where malformed)."""

    @abstractmethod
    def children(self, index: int) -> tuple[int, ...]:
        """Node `index`'s integer children, as its view would list them."""

    def transform(self, index: int) -> Mapping[str, Json] | None:
        """Node `index`'s own transform, as its view would give it (override to read it
        without making the view)."""
        return self[index].transform


@dataclass(frozen=True, slots=True)
class DocumentView:
    """Root extensions, nodes and the number of meshes."""

    extensions: Mapping[str, Json]
    nodes: Sequence[NodeView]
    mesh_count: int
    _users: dict[str, tuple[tuple[int, ...], tuple[Json, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    _keys: dict[str, tuple[bytes | None, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_json(cls, gltf: Mapping[str, Json]) -> DocumentView:
        """Build a view of a parsed glTF JSON document, tolerating any malformed part."""
        raw_nodes = gltf.get("nodes")
        nodes = [node_view(n) for n in raw_nodes] if isinstance(raw_nodes, list) else []
        meshes = gltf.get("meshes")
        return cls(
            extensions=_mapping(gltf.get("extensions")),
            nodes=nodes,
            mesh_count=len(meshes) if isinstance(meshes, list) else 0,
        )

    def extension(self, name: str) -> Json:
        """A root extension's raw value (None when absent); check it with `JsonReader.obj`."""
        return self.extensions.get(name)

    def __post_init__(self) -> None:
        # One pass serves every decoder's scan. Two tuples per extension, not a pair per
        # node: objects kept through an import make the garbage collector work harder.
        indices: dict[str, list[int]] = {}
        payloads: dict[str, list[Json]] = {}
        for index, extensions in enumerate(self._extension_maps()):
            for name, payload in extensions.items():
                indices.setdefault(name, []).append(index)
                payloads.setdefault(name, []).append(payload)
        self._users.update(
            (name, (tuple(found), tuple(payloads[name]))) for name, found in indices.items())

    def users(self, name: str) -> tuple[int, ...]:
        """Indices of the nodes whose extensions include `name`, ascending."""
        return self._users.get(name, ((), ()))[0]

    def used(self, name: str) -> Iterator[tuple[int, Json]]:
        """(node index, raw payload) of every node using extension `name`, ascending."""
        return zip(*self._users.get(name, ((), ())), strict=True)

    def payloads(self, name: str) -> tuple[Json, ...]:
        """The raw payloads of `used(name)`, in its order."""
        return self._users.get(name, ((), ()))[1]

    def payload_keys(self, name: str) -> tuple[bytes | None, ...]:
        """A key per payload of `used(name)`, in its order, equal for equal payloads
        (`json_read.json_key`; None for one nested too deeply to key); made once, for every
        reader of the view (the decoders reuse what they made of an equal payload)."""
        keys = self._keys.get(name)
        if keys is None:
            keys = self._keys[name] = tuple(map(_key_or_none, self._users.get(name, ((), ()))[1]))
        return keys

    def distinct(self, name: str) -> list[tuple[int, bytes | None]]:
        """(position in `used(name)`, key) of the first of each set of equal payloads, and
        of every payload too deep to key, in document order: what a reader that makes the
        same of equal payloads looks into (found without a Python loop per payload)."""
        keys = self.payload_keys(name)
        first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
        found = [(at, key) for key, at in first.items() if key is not None]
        if None in first:
            found.extend((at, None) for at, key in enumerate(keys) if key is None)
        found.sort()
        return found

    def descendants(self, index: int) -> Iterator[int]:
        """Every node below `index`, depth first; safe against cycles and bad indices."""
        children, count = self._children_of(), len(self.nodes)
        seen = {index}
        stack = list(reversed(children(index)))
        while stack:
            child = stack.pop()
            if child in seen or not 0 <= child < count:
                continue
            seen.add(child)
            yield child
            stack.extend(reversed(children(child)))

    def moved(self, index: int) -> bool:
        """True when node `index` has a transform of its own (`own_transform_moved`); read
        for that node only, never in a scan."""
        nodes = self.nodes
        transform = nodes.transform(index) if isinstance(nodes, LazyNodes) \
            else nodes[index].transform
        return transform is not None and own_transform_moved(transform)

    def subtrees(self, roots: Iterable[int]) -> set[int]:
        """Every valid node among `roots` or below them; safe against cycles."""
        children, count = self._children_of(), len(self.nodes)
        found: set[int] = set()
        stack = list(roots)
        while stack:
            node = stack.pop()
            if type(node) is not int or not 0 <= node < count or node in found:
                continue
            found.add(node)
            stack.extend(children(node))
        return found

    def parents(self) -> dict[int, int]:
        """Each node listed as a child → its parent: the first node listing it (never
        itself); indices outside the document are left out."""
        children, count = self._children_of(), len(self.nodes)
        found: dict[int, int] = {}
        for index in range(count):
            for child in children(index):  # (most nodes have none)
                if type(child) is int and 0 <= child < count and child != index \
                        and child not in found:
                    found[child] = index
        return found

    def _extension_maps(self) -> Iterator[Mapping[str, Json]]:
        nodes = self.nodes
        if isinstance(nodes, LazyNodes):
            return nodes.extension_maps()  # no view made per node
        return (node.extensions for node in nodes)

    def child_nodes(self) -> Callable[[int], list[int]]:
        """Node index → its children that are nodes of this document."""
        children, count = self._children_of(), len(self.nodes)
        return lambda index: [c for c in children(index) if type(c) is int and 0 <= c < count]

    def _children_of(self) -> Callable[[int], tuple[int, ...]]:
        nodes = self.nodes
        if isinstance(nodes, LazyNodes):
            return nodes.children  # no view made per node
        return lambda index: nodes[index].children


def _key_or_none(payload: Json) -> bytes | None:
    try:
        return json_key(payload)
    except ValueError:  # nested too deeply to key
        return None


def node_view(node: Json) -> NodeView:
    """A NodeView of one raw node (anything that is not a dict becomes an empty node)."""
    if not isinstance(node, Mapping):
        return NodeView({}, None, ())
    mesh = node.get("mesh")
    children = node.get("children")
    return NodeView(
        extensions=_mapping(node.get("extensions")),
        mesh=mesh if isinstance(mesh, int) and not isinstance(mesh, bool) else None,
        children=tuple(
            c for c in children if isinstance(c, int) and not isinstance(c, bool)
        ) if isinstance(children, list) else (),
        transform=node,  # (its TRS keys are read only when asked: `DocumentView.moved`)
    )


def own_transform_moved(transform: Mapping[str, Json]) -> bool:
    """True when the local matrix of a node's `matrix`/`translation`/`rotation`/`scale` (as
    `NodeView.transform` holds them) is not the identity, judged as the converter judges a
    node (io/node_graph.py: a malformed part counts as absent; the same tolerance)."""
    node = {key: transform.get(key) for key in TRS_KEYS}
    local = NodeGraph.of({"nodes": [node]}).local(0)
    return not np.allclose(local, np.identity(4), atol=IDENTITY_TOLERANCE)


def _mapping(value: Json) -> Mapping[str, Json]:
    return value if isinstance(value, Mapping) else {}
