# SPDX-License-Identifier: GPL-3.0-or-later
"""A read-only view of the parts of a glTF document the physics decoders need. Pure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Json = Any


@dataclass(slots=True)  # not frozen: a frozen one takes 3 × as long to make, per node
class NodeView:
    """One node: its extensions, its mesh index and its children, all untrusted."""

    extensions: Mapping[str, Json]
    mesh: int | None
    children: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DocumentView:
    """Root extensions, nodes and the number of meshes."""

    extensions: Mapping[str, Json]
    nodes: Sequence[NodeView]
    mesh_count: int
    _users: dict[str, tuple[tuple[int, ...], tuple[Json, ...]]] = field(
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
        for index, node in enumerate(self.nodes):
            for name, payload in node.extensions.items():
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

    def descendants(self, index: int) -> Iterator[int]:
        """Every node below `index`, depth first; safe against cycles and bad indices."""
        seen = {index}
        stack = list(reversed(self.nodes[index].children))
        while stack:
            child = stack.pop()
            if child in seen or not 0 <= child < len(self.nodes):
                continue
            seen.add(child)
            yield child
            stack.extend(reversed(self.nodes[child].children))


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
    )


def _mapping(value: Json) -> Mapping[str, Json]:
    return value if isinstance(value, Mapping) else {}
