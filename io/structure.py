# SPDX-License-Identifier: GPL-3.0-or-later
"""Structural rules the Blender exporter, the importer and the converter share: where a
format needs a node, a body, a motion kind or a collider's parts that the scene does not
have as it is. Pure;
each caller walks its own tree (Blender objects or glTF nodes) and asks these."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from .diagnostics import nodes_named
from .model import Collider, CollisionFilter, NodePhysics, PhysicsMaterial

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)

STATIC_IN_MOVING_CODE = "static-in-moving-body"


def kind_in_target(kind: str, target: str, moves_above: bool) -> str:
    """The motion kind a body is written with: KHR has no static motion (a motionless
    collider is static), so a static body under a moving body would join it; it is written
    as kinematic instead (report `STATIC_IN_MOVING_CODE`)."""
    if target == "KHR" and kind == "static" and moves_above:
        return "kinematic"
    return kind


def joint_needs_own_node(target: str, frame_is_plain: bool) -> bool:
    """OMI wants a joint on a node of its own: a frame node that carries anything else (a
    body, a shape, a mesh) gets a new child node for the joint."""
    return target == "OMI" and not frame_is_plain


def static_partner(chain: Sequence[T], has_colliders: Callable[[T], bool], *,
                   body_required: bool) -> T | None:
    """For a joint side without a body (`chain`: the side, its parent, … its root), the node
    that becomes its Static body: the nearest one whose own colliders are not empty
    (`has_colliders`, see `own_colliders`: a collider beside the anchor counts, as OMI puts
    it under the static body); where a body is required (OMI), else the root of its tree.
    None: the side stays anchored to the world."""
    found = next((node for node in chain if has_colliders(node)), None)
    if found is None and body_required and chain:
        return chain[-1]
    return found


def own_colliders(children: Callable[[H], Iterable[H]], has_collider: Callable[[H], bool],
                  has_motion: Callable[[H], bool]) -> Callable[[H], bool]:
    """`own(node)`: whether `node` or a descendant not under another motion has a collider
    (what a motion on `node` would take). Each node's answer is kept: the nodes of a chain,
    asked nearest first, walk each subtree once."""
    known: dict[H, bool] = {}

    def own(node: H) -> bool:
        if node not in known:
            known[node] = _any_collider(node, children, has_collider, has_motion, known)
        return known[node]

    return own


def own_colliders_of(nodes: Mapping[H, NodePhysics], children: Callable[[H], Iterable[H]]
                     ) -> Callable[[H], bool]:
    """`own_colliders` of decoded node physics: shaped colliders, and the motions the nodes
    have now (a static partner made later does not cut the walk)."""
    shaped = {index for index, physics in nodes.items()
              if physics.collider is not None and physics.collider.shape is not None}
    moving = {index for index, physics in nodes.items() if physics.motion is not None}
    return own_colliders(children, shaped.__contains__, moving.__contains__)


def _any_collider(node: H, children: Callable[[H], Iterable[H]],
                  has_collider: Callable[[H], bool], has_motion: Callable[[H], bool],
                  known: dict[H, bool]) -> bool:
    seen, stack = {node}, [node]
    while stack:
        current = stack.pop()
        if has_collider(current) or known.get(current, False):
            return True
        for child in children(current):
            if child not in seen and known.get(child) is not False and not has_motion(child):
                seen.add(child)
                stack.append(child)
    return False


COMPOUND_PASSED_CODE = "compound-parent-passed-down"
COMPOUND_DROPPED_CODE = "compound-parent-dropped"


@dataclass(slots=True)
class CompoundParts:
    """What `pass_down_compound_parts` did: the nodes whose collider changed (their new
    physics), and for each compound parent the parts of it ("physics material",
    "collision filter") that reached a child collider (`passed`) or none (`dropped`)."""

    nodes: dict[Hashable, NodePhysics]
    passed: dict[Hashable, tuple[str, ...]]
    dropped: dict[Hashable, tuple[str, ...]]


MATERIAL_PART, FILTER_PART = "physics material", "collision filter"


def compound_parts_said(parts: dict[Hashable, tuple[str, ...]]) -> str:
    """The parts of compound parents, for a message: "the physics material and collision
    filter of node 0; the collision filter of node 4"."""
    by_parts: dict[tuple[str, ...], list[str]] = {}
    for node, held in parts.items():
        by_parts.setdefault(held, []).append(str(node))
    return "; ".join(f"the {' and '.join(held)} of {nodes_named(nodes)}"
                     for held, nodes in by_parts.items())


def pass_down_compound_parts(nodes: Mapping[Hashable, NodePhysics],
                             children: Callable[[Hashable], Iterable[Hashable]]
                             ) -> CompoundParts:
    """A collider without a shape combines its body's child colliders into one (OMI
    README.collider.md): its material and filter are theirs. Give them to the shaped
    colliders below it, not under another motion, that have none of their own (a nearer
    compound parent's first), for formats and tools without shapeless colliders. Equal
    nodes keep sharing one NodePhysics."""
    compounds = [index for index, physics in nodes.items() if _carries(physics.collider)]
    walk = _PassDown(nodes, children)
    for start in compounds:
        if start not in walk.walked:
            walk.run(start)
    passed: dict[Hashable, tuple[str, ...]] = {}
    dropped: dict[Hashable, tuple[str, ...]] = {}
    for index in compounds:
        for part in _held(nodes[index].collider):
            found = passed if (index, part) in walk.reached else dropped
            found[index] = (*found.get(index, ()), part)
    return CompoundParts(walk.changed, passed, dropped)


def _held(collider: Collider | None) -> tuple[str, ...]:
    """The parts a shapeless collider has to pass down."""
    if collider is None:
        return ()
    return tuple(part for part, value in ((MATERIAL_PART, collider.material),
                                          (FILTER_PART, collider.filter)) if value is not None)


def _carries(collider: Collider | None) -> bool:
    """A shapeless collider with a material or filter to pass down."""
    return collider is not None and collider.shape is None and bool(_held(collider))


@dataclass(frozen=True, slots=True)
class _Carried:
    """The material and filter on the way down, each with the compound parent it is from."""

    material: PhysicsMaterial | None = None
    material_from: Hashable = None
    filter: CollisionFilter | None = None
    filter_from: Hashable = None

    def under(self, node: Hashable, collider: Collider) -> _Carried:
        """What passes below compound parent `node`: its own parts before those above."""
        material, flt = collider.material, collider.filter
        return _Carried(
            self.material if material is None else material,
            self.material_from if material is None else node,
            self.filter if flt is None else flt, self.filter_from if flt is None else node)


class _PassDown:
    """The walks of `pass_down_compound_parts`."""

    def __init__(self, nodes: Mapping[Hashable, NodePhysics],
                 children: Callable[[Hashable], Iterable[Hashable]]) -> None:
        self.nodes, self.children = nodes, children
        self.changed: dict[Hashable, NodePhysics] = {}
        self.walked: set[Hashable] = set()  # compound parents walked through
        #: (compound parent, part) of the parts that reached a collider
        self.reached: set[tuple[Hashable, str]] = set()
        self._shared: dict[tuple[int, int, int], NodePhysics] = {}

    def run(self, start: Hashable) -> None:
        seen = set()
        stack: list[tuple[Hashable, _Carried]] = [(start, _Carried())]
        while stack:
            node, carried = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            physics = self.changed.get(node, self.nodes.get(node))
            if physics is not None:
                if node != start and physics.motion is not None:
                    continue  # another body: not part of this collider
                carried = self._meet(node, physics, carried)
            stack.extend((child, carried) for child in self.children(node))

    def _meet(self, node: Hashable, physics: NodePhysics, carried: _Carried) -> _Carried:
        """What passes below `node`: a compound parent adds its parts; a shaped collider
        takes those it has none of."""
        collider = physics.collider
        if collider is not None and collider.shape is None:
            self.walked.add(node)
            return carried.under(node, collider)
        if collider is not None:
            self._give(node, physics, collider, carried)
        return carried

    def _give(self, node: Hashable, physics: NodePhysics, collider: Collider,
              carried: _Carried) -> None:
        """A shaped collider takes the carried parts it has none of."""
        material = carried.material if collider.material is None else None
        flt = carried.filter if collider.filter is None else None
        if material is None and flt is None:
            return
        if material is not None:
            self.reached.add((carried.material_from, MATERIAL_PART))
        if flt is not None:
            self.reached.add((carried.filter_from, FILTER_PART))
        key = (id(physics), id(material), id(flt))
        if key not in self._shared:
            self._shared[key] = replace(physics, collider=replace(
                collider, material=collider.material if material is None else material,
                filter=collider.filter if flt is None else flt))
        self.changed[node] = self._shared[key]
