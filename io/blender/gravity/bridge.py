# SPDX-License-Identifier: GPL-3.0-or-later
"""Gravity settings ↔ the gravity model (glTF axes, the object's frame)."""

import math
from collections.abc import Callable, Hashable
from typing import Any

import bpy
import numpy as np
from mathutils import Vector

from ... import axes
from ...diagnostics import Report
from ...field_table import GRAVITY, WORLD_GRAVITY, Field
from ...gravity import ANALYTIC_SHAPED, Gravity, WorldGravity, unit
from ...model import Shape
from ..bridge.collision_mesh import evaluated_triangles
from ..bridge.joint_bridge import own_world
from ..settings.field_props import to_blender, to_model
from .properties import (
    GRAVITY_ITEM,
    GRAVITY_KIND,
    GRAVITY_MESH_SHAPES,
    LINE_OBJECT_TYPES,
    STORED_PRIORITY,
)

#: Shaped gravity's shape item → model kind, and back.
SHAPE_KIND = {"BOX": "box", "SPHERE": "sphere", "CAPSULE": "capsule", "CYLINDER": "cylinder",
              "CONVEX": "convex", "TRIMESH": "trimesh"}
SHAPE_ITEM = {kind: item for item, kind in SHAPE_KIND.items()}
#: (object, the file's mesh reference) → a new mesh object for a mesh shape, or None.
MakeShapeObject = Callable[[bpy.types.Object, Hashable], bpy.types.Object | None]


def has_gravity(props: bpy.types.PropertyGroup) -> bool:
    """True when the object is set to carry a gravity volume."""
    return props.gravity_type != "NONE"


def gravity_of(obj: bpy.types.Object, yup: bool = True,
               mesh_ref: Callable[[bpy.types.Object], Any] | None = None,
               depsgraph: bpy.types.Depsgraph | None = None) -> Gravity | None:
    """The object's gravity volume in glTF axes (None when it has none). A convex or
    triangle-mesh shape's `mesh` is `mesh_ref(obj)` (an export's mesh), else its mesh object;
    a line's object is read as `depsgraph` (the context's by default) evaluates it."""
    props = obj.gltf_physics
    if props.gravity_type not in GRAVITY_KIND:
        return None
    kind = GRAVITY_KIND[props.gravity_type]
    values = {row.attr: to_model(row, getattr(props, row.prop), yup) for row in GRAVITY}
    if kind == "line":
        values["points"] = tuple(axes.vector_to_gltf(tuple(p), yup)
                                 for p in line_points(obj, depsgraph))
    if kind == "shaped":
        values["shape"] = _shape_of(obj, yup, mesh_ref)
    return Gravity(kind=kind, **values)  # type: ignore[arg-type]


def shape_mesh_object(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The mesh object a shaped volume's convex or triangle-mesh shape is made from (None
    for other volumes, or when none is picked)."""
    props = obj.gltf_physics
    source = props.gravity_shape_object
    if props.gravity_type != "SHAPED" or props.gravity_shape_type not in GRAVITY_MESH_SHAPES:
        return None
    return source if source is not None and source.type == "MESH" else None


def line_points(obj: bpy.types.Object,
                depsgraph: bpy.types.Depsgraph | None = None) -> list[Vector]:
    """The line's points in the object's space: its own list, or the vertices of the picked
    curve or mesh object (see `object_line_points`)."""
    source = line_object(obj)
    if source is None:
        return [Vector(point.co) for point in obj.gltf_physics.gravity_line_points]
    return object_line_points(obj, source, depsgraph)


def line_object(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object a line takes its points from (None when it uses its own list)."""
    props = obj.gltf_physics
    return props.gravity_line_object if props.gravity_line_source == "OBJECT" else None


def evaluates(depsgraph: bpy.types.Depsgraph, source: bpy.types.Object) -> bool:
    """Whether `depsgraph` evaluates `source` (its view layer holds it, or one of its
    collection instancers places it, enabled in viewports); else Blender reads the object's
    own mesh, without its modifiers. (`evaluated_get(...).is_evaluated` does not tell: an
    object only a setting points to gets an unevaluated copy.)"""
    return source.session_uid in evaluated_objects(depsgraph)


def evaluated_objects(depsgraph: bpy.types.Depsgraph) -> set[int]:
    """The session_uid of every object `depsgraph` evaluates (one walk of its IDs: keep the
    set when asking about several objects)."""
    return {each.original.session_uid for each in depsgraph.ids
            if isinstance(each, bpy.types.Object)}


def object_line_points(obj: bpy.types.Object, source: bpy.types.Object,
                       depsgraph: bpy.types.Depsgraph | None = None) -> list[Vector]:
    """The vertices of the curve or mesh object `source` as `depsgraph` evaluates it (one
    that does: placed as it places it), or as the context's does (placed by its own
    transform: an object that depsgraph does not evaluate has no current world matrix), in
    vertex order, in `obj`'s space."""
    if source.type not in LINE_OBJECT_TYPES:  # (converted to another type since picked)
        return []
    placed_by_depsgraph = depsgraph is not None
    if depsgraph is None:
        depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = source.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        world = evaluated.matrix_world if placed_by_depsgraph else own_world(source)
        to_local = obj.matrix_world.inverted_safe() @ world
        return [to_local @ v.co for v in mesh.vertices] if mesh is not None else []
    finally:
        evaluated.to_mesh_clear()


def shape_triangles(obj: bpy.types.Object, yup: bool = True) -> np.ndarray | None:
    """The triangles (n×3×3, in the object's space) of the mesh a shaped volume's convex or
    triangle-mesh shape is made from, evaluated (None without one, when it is empty, or when
    a transform makes it non-finite)."""
    source = shape_mesh_object(obj)
    if source is None:
        return None
    to_local = obj.matrix_world.inverted_safe() @ source.matrix_world
    data = evaluated_triangles(source, bpy.context.evaluated_depsgraph_get(), to_local, yup)
    triangles = None if data is None else data[0][data[1]].astype(np.float64)
    if triangles is not None and not np.isfinite(triangles).all():
        return None  # a NaN or overflowing transform: no shape to pull towards
    return triangles


def shape_mesh_key(obj: bpy.types.Object) -> int | None:
    """A fingerprint of the evaluated mesh `shape_triangles` reads and its placement: it
    changes when either does (cheap: no triangulation). None without a mesh shape."""
    source = shape_mesh_object(obj)
    if source is None:
        return None
    mesh = source.evaluated_get(bpy.context.evaluated_depsgraph_get()).data
    co = np.empty(len(mesh.vertices) * 3, np.float32)
    corners = np.empty(len(mesh.loops), np.int32)
    position, corner_vert = mesh.attributes.get("position"), mesh.attributes.get(".corner_vert")
    if position is None or corner_vert is None:  # the attributes are 60× faster to read
        mesh.vertices.foreach_get("co", co)
        mesh.loops.foreach_get("vertex_index", corners)
    else:
        position.data.foreach_get("vector", co)
        corner_vert.data.foreach_get("value", corners)
    to_local = obj.matrix_world.inverted_safe() @ source.matrix_world
    return hash((co.tobytes(), corners.tobytes(), tuple(v for row in to_local for v in row)))


def _shape_of(obj: bpy.types.Object, yup: bool,
              mesh_ref: Callable[[bpy.types.Object], Any] | None) -> Shape:
    props = obj.gltf_physics
    kind = SHAPE_KIND.get(props.gravity_shape_type)
    if kind is None:  # a stored value this release does not know reads as ''
        raise ValueError(f"{obj.name}: the gravity shape type is unknown")
    if props.gravity_shape_type in GRAVITY_MESH_SHAPES:
        return Shape(kind, mesh=shape_mesh_object(obj) if mesh_ref is None  # type: ignore
                     else mesh_ref(obj), name=props.gravity_shape_name)
    sizes = (*props.gravity_shape_size, props.gravity_shape_radius, props.gravity_shape_height,
             props.gravity_shape_radius_top, props.gravity_shape_radius_bottom)
    if not all(math.isfinite(v) for v in sizes):  # (a script's NaN: the UI takes none)
        raise ValueError(f"{obj.name}: a size of the gravity shape is not a finite number")
    return Shape(
        kind,  # type: ignore[arg-type]
        size=axes.extent_swap(tuple(props.gravity_shape_size), yup),
        radius=props.gravity_shape_radius, height=props.gravity_shape_height,
        radius_top=props.gravity_shape_radius_top,
        radius_bottom=props.gravity_shape_radius_bottom,
        name=props.gravity_shape_name,
    )


def world_gravity_of(scene: bpy.types.Scene, yup: bool = True) -> WorldGravity | None:
    """The scene's world gravity in glTF axes (None when not set)."""
    props = scene.gltf_physics
    if not props.use_world_gravity:
        return None
    return WorldGravity(**{row.attr: to_model(row, getattr(props, row.prop), yup)
                           for row in WORLD_GRAVITY})


def write_gravity(obj: bpy.types.Object, volume: Gravity, where: Hashable, report: Report,
                  yup: bool = True, make_shape_object: MakeShapeObject | None = None) -> None:
    """Set the object's gravity settings from a volume (glTF axes); a convex or
    triangle-mesh shape gets the mesh object `make_shape_object` makes from the file's mesh
    (without one, it pulls nowhere: as the file, said by the decoder or the mesh's reading,
    and by Check Physics). A shaped volume without a shape has no effect: none is set."""
    props = obj.gltf_physics
    props.gravity_type = GRAVITY_ITEM[volume.kind]
    low, high = STORED_PRIORITY
    for row in GRAVITY:
        value = _stored(row, getattr(volume, row.attr), yup)
        if row.attr == "priority" and not low <= value <= high:
            value = max(low, min(high, value))
            report.warn("gravity-priority-clamped", str(where),
                        f"priority {volume.priority} is beyond the {low}..{high} Blender "
                        f"stores: {value} kept (the volumes' order may change)")
        setattr(props, row.prop, value)
    if volume.kind == "line":
        props.gravity_line_source = "POINTS"
        props.gravity_line_points.clear()
        for point in volume.points:
            props.gravity_line_points.add().co = axes.vector_to_blender(point, yup)
    if volume.kind == "shaped":
        shape = volume.shape
        source = None
        if shape is not None and shape.kind not in ANALYTIC_SHAPED and shape.mesh is not None \
                and make_shape_object is not None:
            source = make_shape_object(obj, shape.mesh)
        if shape is None:  # (said by the decoder: it has no effect, nor has it here)
            props.gravity_type = "NONE"
            return
        props.gravity_shape_type = SHAPE_ITEM[shape.kind]
        props.gravity_shape_name = shape.name
        if source is not None:
            props.gravity_shape_object = source
            return
        props.gravity_shape_size = axes.extent_swap(shape.size, yup)
        props.gravity_shape_radius = shape.radius
        props.gravity_shape_height = shape.height
        props.gravity_shape_radius_top = shape.radius_top
        props.gravity_shape_radius_bottom = shape.radius_bottom


#: Where the scene's world gravity is set, as the import's reports say it.
WORLD_GRAVITY_PLACE = "Scene properties → glTF Physics → World Gravity"
#: The spec's world gravity (what a file without one means too).
DEFAULT_WORLD = WorldGravity(**{row.attr: row.default for row in WORLD_GRAVITY})


def import_world_gravity(scene: bpy.types.Scene, world: WorldGravity, where: str,
                         report: Report, yup: bool = True, level: bool = False) -> None:
    """Set the scene's world gravity from a file's, unless the scene is a level (`level`: it
    held objects before the import): a level keeps its own (the default when unset), and a
    file's that pulls otherwise is said once, with both values and where to set it. In a
    scene the import is all of, one the scene had set itself (not the default) is kept when
    the file states only the default (a note), and otherwise replaced, said once."""
    own = world_gravity_of(scene, yup)
    if own is not None and _same_pull(own, DEFAULT_WORLD):
        own = None  # the default is no setting of the user's to keep or to lose
    if level:
        kept = DEFAULT_WORLD if own is None else own
        if not _same_pull(world, kept):
            report.warn("world-gravity-not-applied", where,
                        f"the file's world gravity {_shown(world, yup)} is not applied: the "
                        "scene held objects before the import (a level) and keeps its own, "
                        f"{_shown(kept, yup)}; set the file's in {WORLD_GRAVITY_PLACE} if the "
                        "level should have it")
        return
    if own is not None and _same_pull(world, DEFAULT_WORLD):
        report.info("world-gravity-kept", where,
                    f"the file's world gravity is the default ({_shown(DEFAULT_WORLD, yup)}): "
                    f"the scene's own, {_shown(own, yup)}, kept ({WORLD_GRAVITY_PLACE})")
        return
    write_world_gravity(scene, world, yup)
    new = world_gravity_of(scene, yup)
    if new is None or own is None or _same_pull(own, new):
        return
    report.warn("world-gravity-replaced", where,
                f"the scene's world gravity {_shown(own, yup)} replaced by the file's "
                f"{_shown(new, yup)}; set it back in {WORLD_GRAVITY_PLACE}")


def _same_pull(a: WorldGravity, b: WorldGravity) -> bool:
    """True when two world gravities pull the same (amount times unit direction)."""
    pulls = (tuple(w.gravity * c for c in unit(w.direction)) for w in (a, b))
    return all(math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-6) for x, y in zip(*pulls, strict=True))


def _shown(world: WorldGravity, yup: bool) -> str:
    """A world gravity as the Scene panel shows it: the amount and the direction (Blender
    axes)."""
    direction = ", ".join(f"{c + 0.0:.4g}" for c in axes.vector_to_blender(world.direction, yup))
    return f"{world.gravity:.4g} m/s² along ({direction})"


def write_world_gravity(scene: bpy.types.Scene, world: WorldGravity, yup: bool = True) -> None:
    """Set the scene's world gravity from the model (glTF axes)."""
    props = scene.gltf_physics
    props.use_world_gravity = True
    for row in WORLD_GRAVITY:
        setattr(props, row.prop, _stored(row, getattr(world, row.attr), yup))


def _stored(row: Field, value: Any, yup: bool) -> Any:
    """A model value as the row's property stores it."""
    return axes.vector_to_blender(value, yup) if row.axes == "vector" else to_blender(row, value)
