# SPDX-License-Identifier: GPL-3.0-or-later
"""What an engine would compute for a body, from its Blender colliders, for the values an
export must spell out: an automatic centre of mass in OMI, an automatic inertia with locked
axes in KHR. Reads bpy data, writes nothing; mesh solids come from (and go to) the ones kept
between exports (`kept_solids`)."""

from collections.abc import Hashable, Iterator
from dataclasses import replace
from typing import Any

import bpy
import numpy as np

from ... import mass_properties
from ...codecs.omi import full_lock
from ...diagnostics import Report
from ...mass_properties import MassPart
from ...model import IDENTITY, INFINITE, MESH_SHAPES, ZERO3, Motion, Shape
from ...node_graph import compose
from ..bridge.collision_mesh import evaluated_triangles
from ..bridge.to_model import ShapePlacement, placement_of
from ..instances import MAX_INSTANCE_DEPTH, children_map
from ..settings.properties import MESH_LIKE_TYPES, MESH_SHAPE_ITEMS
from . import kept_solids
from .node_index import DUPLI_TYPES, NodeIndex

#: (operators/vehicles.py reads the density here)
ASSUMED_DENSITY = mass_properties.ASSUMED_DENSITY
#: The depth `BodyMass._below` gives a copy of an instancing parent's child (none deeper).
DUPLI_DEPTH = MAX_INSTANCE_DEPTH + 1
#: Blender (x, y, z) → glTF (x, z, −y), as a matrix.
TO_YUP = np.array([[1.0, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]])


class BodyMass:
    """The solids of bodies' colliders, in each body's glTF node space; cached per export."""

    def __init__(self, yup: bool, report: Report, index: NodeIndex | None = None,
                 exported: set[bpy.types.Object] | None = None) -> None:
        """`index`: the export's node index, which knows the collection instancers the
        export wrote the instance's objects under (Blender 4.x writes none with Full
        Collection Hierarchy) and the nodes the exporter moves by an Instance Offset.
        `exported`: the objects the export writes (its filters applied; None: every one):
        a child it leaves out is no collider of the body in the file."""
        self.yup = yup
        self.exported = exported
        self.report = report
        self.index = index or NodeIndex()
        self._shape_parts: dict[Shape, MassPart | None] = {}
        self._mesh_parts: dict[tuple[int, str], MassPart | None] = {}
        self._children: dict[bpy.types.Object, list[bpy.types.Object]] | None = None
        #: collection instancer → the objects the instance writes under it (`_instanced`)
        self._instanced_objects: dict[bpy.types.Object, list[bpy.types.Object]] = {}
        #: instancing parent → its children's copies (`_copies`)
        self._dupli_copies: dict[bpy.types.Object,
                                 list[tuple[bpy.types.Object, np.ndarray]]] | None = None
        self._resolved: dict[tuple[int, int, str], tuple[Motion, Any, Motion]] = {}
        self._bounds: dict[Hashable, Any] = {}

    def resolve(self, motion: Motion, body: bpy.types.Object, target: str,
                own: ShapePlacement | None = None) -> Motion:
        """`motion` with what `target` ("OMI"/"KHR") cannot leave to the engine computed.
        `own`: the placement of the body's own shape, when the caller has it."""
        if own is None or self.has_child_colliders(body):
            return self._resolve(motion, body, target, own)
        # A body with only its own shape: equal settings and placements resolve alike (the
        # export shares a placement between bodies whose shape comes out the same).
        # (the entry keeps both alive: ids stay theirs; a locked rotation's moments follow
        # the body's scale)
        locked = any(body.gltf_physics.lock_rotation)
        key = (id(motion), id(own), target, self._scale(body) if locked else None)
        found = self._resolved.get(key)
        if found is None:
            found = (motion, own, self._resolve(motion, body, target, own))
            self._resolved[key] = found
        return found[2]

    def _resolve(self, motion: Motion, body: bpy.types.Object, target: str,
                 own: ShapePlacement | None) -> Motion:
        centre = mass_properties.centre_in_target(motion.center_of_mass, target,
                                                  lambda: self.part_of(body, own), motion.kind,
                                                  self.report, body.name)
        if centre != motion.center_of_mass:
            motion = replace(motion, center_of_mass=centre)
        if motion.inertia_diagonal is None and any(body.gltf_physics.lock_rotation):
            motion = replace(motion, inertia_diagonal=self._locked_inertia(motion, body))
        if target == "OMI":
            motion = full_lock(motion, lambda m=motion: self._moments(m, body), body.name,
                               self.report)
        return motion

    def _locked_inertia(self, motion: Motion, body: bpy.types.Object) -> tuple[float, ...]:
        """Free moments about the body axes computed from the colliders; locked ones infinite."""
        locks = body.gltf_physics.lock_rotation
        locks = (locks[0], locks[2], locks[1]) if self.yup else tuple(locks)
        if all(locks):  # no free moment to compute
            return (INFINITE,) * 3
        moments = self._moments(motion, body)
        if moments is None:
            self.report.warn("inertia-not-computed", body.name, "rotation locked but no collider "
                             "has volume: free moments written for a 1 m cube of the mass")
            mass = motion.mass if motion.mass is not None and 0 < motion.mass < INFINITE else 1.0
            return tuple(INFINITE if lock else mass / 6.0 for lock in locks)
        return tuple(INFINITE if lock else moments[i] for i, lock in enumerate(locks))

    def _moments(self, motion: Motion, body: bpy.types.Object) -> tuple[float, ...] | None:
        """The colliders' moments about the body axes (`mass_properties.body_moments`), of
        the solid as large as the world has it: a node's scale scales its colliders, not the
        mass (a 1 m cube scaled by 2 turns as a 2 m one)."""
        part, centre = self.part_of(body), motion.center_of_mass
        scale = body_scale(body, self.yup, digits=None)
        if part is not None and scale != (1.0, 1.0, 1.0):
            part = mass_properties.placed(part, np.diag([*scale, 1.0]))
            if centre is not None:
                centre = (centre[0] * scale[0], centre[1] * scale[1], centre[2] * scale[2])
        return mass_properties.body_moments(part, motion.mass, centre, self.report, body.name)

    def _scale(self, body: bpy.types.Object) -> tuple[float, float, float]:
        return body_scale(body, self.yup)

    def part_of(self, body: bpy.types.Object, own: ShapePlacement | None = None
                ) -> MassPart | None:
        """The solid of the body's colliders (triggers excluded) in its node space."""
        if not self._children_of(body) and not self._instanced(body) \
                and body not in self.index.offsets:  # the common case: no matrices
            if not _is_collider(body):
                return None
            if own is not None and own.shape.kind not in MESH_SHAPES:
                return self._analytic_part(own, None)
            return self._placed(body, None)
        # (in the frame the exporter writes the body's node at)
        to_body = np.array(self.index.node_frame(body).inverted_safe(), dtype=float)
        parts = [part for obj, frame in self._colliders_of(body)
                 if (part := self._placed(obj, to_body if frame is None else to_body @ frame))]
        if len(parts) == 1:
            return parts[0]
        return mass_properties.combined(parts)

    def exported_more(self) -> None:
        """The export kept more objects (another scene's tree): read the children again."""
        self._children = None

    def _children_of(self, obj: bpy.types.Object) -> list[bpy.types.Object]:
        """`obj.children` from a map built once (Object.children scans every object)."""
        if self._children is None:
            self._children = children_map(self.exported)
        return self._children.get(obj, [])  # objects hash and compare by their data

    def _instanced(self, obj: bpy.types.Object) -> list[bpy.types.Object]:
        """The objects the glTF exporter writes under `obj`'s node for the collection it
        instances: the collection's objects without a parent (their children follow)."""
        if obj not in self.index.instancers:  # most objects
            return []
        found = self._instanced_objects.get(obj)
        if found is None:
            collection = obj.instance_collection
            found = self._instanced_objects[obj] = [] if collection is None else \
                [member for member in collection.all_objects if member.parent is None]
        return found

    def _below(self, obj: bpy.types.Object, frame: np.ndarray | None, depth: int
               ) -> Iterator[tuple[bpy.types.Object, np.ndarray | None, int]]:
        """What hangs from `obj`'s node in the file, each with the frame that takes its own
        world matrix to where the export places it (None: where it is) and how many
        instances deep it is (`DUPLI_DEPTH`: a copy of an instancing parent, whose children
        are copies of their own). An instanced collection's objects are placed under their
        instancer's node, which the exporter moves by the collection's offset (as deep as
        Blender draws instances); an instancing parent's children are written only as their
        copies at its vertices or faces."""
        if depth == DUPLI_DEPTH:
            return  # (its children are copies of the instancing parent's too)
        copies = self._copies(obj)
        if copies is not None:
            for source, copy_frame in copies:
                yield source, copy_frame if frame is None else frame @ copy_frame, DUPLI_DEPTH
            return
        for child in self._children_of(obj):
            yield child, frame, depth
        members = self._instanced(obj) if depth < MAX_INSTANCE_DEPTH else None
        if members:
            placed = np.array(self.index.node_frame(obj), dtype=float)
            placed = placed if frame is None else frame @ placed
            for member in members:
                yield member, placed, depth + 1

    def _copies(self, obj: bpy.types.Object) -> list[tuple[bpy.types.Object, np.ndarray]] | None:
        """For an instancing parent (Instancing: Vertices or Faces) that makes copies, the
        copies of its children (and theirs, but below another body, or left out by the
        export's filter), each with the frame that takes the original's world matrix to the
        copy's; None for any other object (its children are written as they are)."""
        if obj.instance_type not in DUPLI_TYPES or not obj.is_instancer:
            return None
        if self._dupli_copies is None:  # (read once per export, when first needed)
            self._dupli_copies = {}
            for copy in self.index.dupli_copies():
                frame = np.array(copy.world, dtype=float) \
                    @ np.linalg.inv(np.array(copy.source.matrix_world, dtype=float))
                self._dupli_copies.setdefault(copy.instancer, []).append((copy.source, frame))
        copies = self._dupli_copies.get(obj)
        if not copies:
            return None
        return [(source, frame) for source, frame in copies
                if (self.exported is None or source in self.exported)
                and not _body_between(source, obj)]

    def has_child_colliders(self, body: bpy.types.Object) -> bool:
        """True when a descendant of `body` in the file (below no other body) carries a
        collider: a child object, or an object of the collection it instances."""
        if not self._children_of(body) and body not in self.index.instancers:
            return False  # (most bodies)
        return any(obj is not body for obj, _frame in self._colliders_of(body))

    def _colliders_of(self, body: bpy.types.Object
                      ) -> Iterator[tuple[bpy.types.Object, np.ndarray | None]]:
        """The body and what hangs from it up to other bodies that carries a collider shape,
        each with its frame (`_below`)."""
        stack: list[tuple[bpy.types.Object, np.ndarray | None, int]] = [(body, None, 0)]
        while stack:
            obj, frame, depth = stack.pop()
            if _is_collider(obj):
                yield obj, frame
            stack.extend(item for item in self._below(obj, frame, depth)
                         if item[0].gltf_physics.motion_type == "NONE")

    def _placed(self, obj: bpy.types.Object, to_body: np.ndarray | None) -> MassPart | None:
        """The collider's solid in the body's node space (`to_body` None: `obj` is the body)."""
        props = obj.gltf_physics
        if props.shape_type in MESH_SHAPE_ITEMS:
            return self._mesh_part(obj, to_body)
        placement = placement_of(obj, None, self.yup, self._bounds)
        return None if placement is None else self._analytic_part(placement, obj, to_body)

    def _analytic_part(self, placement: ShapePlacement, obj: bpy.types.Object | None,
                       to_body: np.ndarray | None = None) -> MassPart | None:
        """An analytic shape's solid placed in the body's node space (`to_body` None: on the
        body itself; otherwise `obj` is the collider object)."""
        if placement.shape not in self._shape_parts:
            self._shape_parts[placement.shape] = mass_properties.shape_part(placement.shape)
        part = self._shape_parts[placement.shape]
        if part is None:
            return None
        if to_body is None and placement.rotation is None:
            if placement.translation is None:
                return part
            return replace(part, centroid=part.centroid + placement.translation)
        local = compose(placement.translation or ZERO3, placement.rotation or IDENTITY,
                        (1.0, 1.0, 1.0))
        if to_body is not None and obj is not None:
            local = self._to_gltf(to_body @ np.array(obj.matrix_world)) @ local
        return mass_properties.placed(part, local)

    def _to_gltf(self, blender: np.ndarray) -> np.ndarray:
        return TO_YUP @ blender @ TO_YUP.T if self.yup else blender

    def _mesh_part(self, obj: bpy.types.Object, to_body: np.ndarray | None) -> MassPart | None:
        """A convex or triangle-mesh collider's solid; an unmodified mesh's solid is
        computed once (in its own space) and placed."""
        props = obj.gltf_physics
        source = obj if props.mesh_source == "SELF" else props.mesh_object
        if source is None or source.type not in MESH_LIKE_TYPES:
            return None
        shared = source.type == "MESH" and not source.modifiers \
            and source.data.shape_keys is None
        key = (source.data.as_pointer(), props.shape_type) if shared else None
        if key is None or key not in self._mesh_parts:
            part = self._evaluated_part(source, props.shape_type == "CONVEX")
            if key is None:
                return None if part is None else self._place(part, obj, source, to_body)
            self._mesh_parts[key] = part
        part = self._mesh_parts[key]
        return None if part is None else self._place(part, obj, source, to_body)

    def _place(self, part: MassPart, obj: bpy.types.Object, source: bpy.types.Object,
               to_body: np.ndarray | None) -> MassPart:
        """A solid in `source`'s space placed in the body's node space."""
        if to_body is None:
            if source is obj:
                return part
            to_body = np.array(obj.matrix_world.inverted_safe(), dtype=float)
        return mass_properties.placed(part, self._to_gltf(to_body @ np.array(source.matrix_world)))

    def _evaluated_part(self, source: bpy.types.Object, convex: bool) -> MassPart | None:
        depsgraph = bpy.context.evaluated_depsgraph_get()
        data = evaluated_triangles(source, depsgraph, np.eye(4), self.yup)
        if data is None:
            return None
        points, faces = data
        solids = kept_solids.SOLIDS
        return solids.hull_solid(points) if convex else solids.mesh_solid(points, faces)


def _body_between(obj: bpy.types.Object, above: bpy.types.Object) -> bool:
    """True when a body sits between `obj` and its ancestor `above` (`obj` included): what
    hangs from it is that body's."""
    while obj is not None and obj != above:
        if obj.gltf_physics.motion_type != "NONE":
            return True
        obj = obj.parent
    return False


def body_scale(body: bpy.types.Object, yup: bool, digits: int | None = 6
               ) -> tuple[float, float, float]:
    """The body's world scale along its node's axes (glTF axes), to `digits` (a key: 6)."""
    x, y, z = (abs(value) if digits is None else round(abs(value), digits)
               for value in body.matrix_world.to_scale())
    return (x, z, y) if yup else (x, y, z)


def _is_collider(obj: bpy.types.Object) -> bool:
    props = obj.gltf_physics
    return props.shape_type != "NONE" and props.shape_role == "COLLIDER"
