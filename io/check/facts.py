# SPDX-License-Identifier: GPL-3.0-or-later
"""What the checks ask of one glTF document: its nodes and tree, its extension payloads and
the physics the project's decoders read from it (every revision upgraded to one model). Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..codecs.khr_legacy import is_khr_2024
from ..codecs.registry import decode_document, decode_vehicle_document
from ..diagnostics import Report
from ..document import DocumentView
from ..json_read import as_dict, as_list
from ..model import PhysicsScene
from ..vehicle_model import VehicleScene
from .schema import pointer

Json = Any


@dataclass(slots=True)
class Facts:
    """One document as the checks see it. `decoded` holds what the decoders reported (the
    checks read its legacy notes); `parents` maps a node to its first parent."""

    gltf: Mapping[str, Json]
    view: DocumentView
    scene: PhysicsScene
    vehicles: VehicleScene
    decoded: Report
    legacy_khr: bool
    parents: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, gltf: Mapping[str, Json]) -> Facts:
        """Read a parsed document (any malformed part tolerated)."""
        view = DocumentView.from_json(gltf)
        decoded = Report()
        scene = decode_document(view, decoded)
        vehicles = decode_vehicle_document(view, decoded)
        facts = cls(gltf, view, scene, vehicles, decoded, is_khr_2024(view))
        for index, node in enumerate(view.nodes):
            for child in node.children:
                if 0 <= child < len(view.nodes) and child != index:
                    facts.parents.setdefault(child, index)
        return facts

    @property
    def node_count(self) -> int:
        """How many nodes the document has."""
        return len(self.view.nodes)

    def root(self, extension: str) -> Mapping[str, Json]:
        """A root extension's object (empty when absent or not an object)."""
        return as_dict(self.view.extensions.get(extension))

    def payloads(self, extension: str, level: str) -> Iterator[tuple[str, Json]]:
        """(JSON pointer, raw value) of the extension's root object ("doc") or of every node
        using it ("node")."""
        if level == "doc":
            if extension in self.view.extensions:
                yield pointer("/extensions", extension), self.view.extensions[extension]
            return
        for index, value in self.view.used(extension):
            yield node_pointer(index, extension), value

    def node_payload(self, index: int, extension: str) -> Mapping[str, Json]:
        """A node's object of one extension (empty when absent or not an object)."""
        return as_dict(self.view.nodes[index].extensions.get(extension))

    def ancestors(self, index: int) -> Iterator[int]:
        """The node's parent, grandparent, ... (safe against cycles)."""
        seen = {index}
        current = self.parents.get(index)
        while current is not None and current not in seen:
            seen.add(current)
            yield current
            current = self.parents.get(current)

    def motion_kind(self, index: int) -> str | None:
        """The motion kind of the body on this very node, None when it has none."""
        physics = self.scene.nodes.get(index)
        return None if physics is None or physics.motion is None else physics.motion.kind

    def body_of(self, index: int) -> int | None:
        """The node's body: itself or its nearest ancestor with a motion."""
        if self.motion_kind(index) is not None:
            return index
        return next((node for node in self.ancestors(index)
                     if self.motion_kind(node) is not None), None)

    def has_mesh_below(self, index: int) -> bool:
        """True when the node or one of its descendants has a mesh."""
        if self.view.nodes[index].mesh is not None:
            return True
        return any(self.view.nodes[node].mesh is not None for node in self.view.descendants(index))

    def count(self, owner: str | None, key: str) -> int:
        """Items in a root array: a core glTF one (`owner` None) or an extension's."""
        source = self.gltf if owner is None else self.root(owner)
        return len(as_list(source.get(key)))


def node_pointer(index: int, extension: str) -> str:
    """The JSON pointer of a node's extension object."""
    return pointer(f"/nodes/{index}/extensions", extension)
