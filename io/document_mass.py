# SPDX-License-Identifier: GPL-3.0-or-later
"""What engines compute for the bodies of a decoded document: the solid of each body's
colliders (triggers and planes excluded) in the body's node space. Pure numpy."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from .mass_properties import MassPart, combined, placed, shape_part
from .mesh_data import MeshData
from .model import PhysicsScene, Shape
from .node_graph import NodeGraph


def shape_solid(shape: Shape, meshes: MeshData) -> MassPart | None:
    """The solid of one shape on its node (a convex shape: the hull of its mesh)."""
    triangles = None
    if shape.kind == "trimesh":
        triangles = meshes.mesh(shape.mesh)[1]
    elif shape.kind == "convex":
        triangles = meshes.hull(shape.mesh)
    return shape_part(shape, triangles)


def body_solid(
    colliders: Iterable[tuple[np.ndarray, Shape]], to_body: np.ndarray, meshes: MeshData,
) -> MassPart | None:
    """The solid of colliders given with their world matrices, in the body's node space."""
    return combined(placed(part, to_body @ world) for world, shape in colliders
                    if (part := shape_solid(shape, meshes)) is not None)


class DocumentMass:
    """The bodies' collider solids of one document (a body: the nearest ancestor-or-self
    node with a motion)."""

    def __init__(self, scene: PhysicsScene, graph: NodeGraph, meshes: MeshData) -> None:
        self.graph, self.meshes = graph, meshes
        self._solids: dict[int, MassPart | None] = {}
        self.colliders: dict[int, list[tuple[np.ndarray, Shape]]] = defaultdict(list)
        for node, physics in scene.nodes.items():
            shape = physics.collider.shape if physics.collider is not None else None
            body = self._body_of(scene, node) if isinstance(node, int) else None
            if shape is not None and body is not None:
                self.colliders[body].append((graph.world(node), shape))

    def _body_of(self, scene: PhysicsScene, node: int) -> int | None:
        for index in self.graph.ancestors_or_self(node):
            physics = scene.nodes.get(index)
            if physics is not None and physics.motion is not None:
                return index
        return None

    def solid(self, body: int) -> MassPart | None:
        """The body's collider solid in its node space; None without collider volume
        (computed once)."""
        if body not in self._solids:
            to_body = np.linalg.pinv(self.graph.world(body))
            self._solids[body] = body_solid(self.colliders.get(body, ()), to_body, self.meshes)
        return self._solids[body]
