# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex decomposition of Blender objects into a compound of collision-only hull children.

Each object's evaluated mesh (modifiers applied, world scale applied so concavity is measured
at the size the engine sees) is read on the main thread, decomposed by CoACD in a child
process watched from a worker thread (`io.decomposition`, `io.coacd_child`,
`io.background_job`: a crash there leaves Blender running), and the parts become children
of the object, in its local space: collision-only mesh objects with a Convex Hull shape,
tagged so a later run replaces them. The object keeps its visible mesh and loses its own shape; a
trigger becomes a compound trigger of trigger parts.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

import bpy
import numpy as np
from mathutils import Matrix

from ...background_job import BackgroundJob, JobCancelledError
from ...decomposition import (
    Decomposition,
    DecompositionError,
    MeshCheck,
    Settings,
    check_mesh,
    decompose,
    input_error,
    input_warnings,
)
from ...field_table import props_of
from ..bridge.collision_mesh import evaluated_triangles
from ..settings.properties import FILTER_FIELDS
from .editable import deletion_problem, editable_problem
from .hull import hull_mesh
from .ownership import (
    CONVEX_PART,
    HULL_PROXY,
    IMPORT_PROXY,
    MADE_BY,
    TAG_PREFIX,
    link_like,
    made_by,
    mark,
    pointer_users,
    remove_made,
    still_used,
)
from .property_copy import copy_group

#: The tag of parts made before the ownership tags (the owner's name); now `tools.ownership`.
PART_TAG = TAG_PREFIX + "convex_part"
PART_SUFFIX = ".part"
#: Settings a part takes over from its object: material and collision filter.
#: What the parts take over from the object: its physics material (the table's rows, its
#: name too) and its collision filter.
SHARED_FIELDS = frozenset({"use_material", *props_of("material")}) | FILTER_FIELDS
MIN_SCALE = 1e-9
CANCEL_SECONDS = 2.0  # most a cancel waits for the CoACD child to be gone


@dataclass(frozen=True, slots=True)
class Source:
    """One object's mesh as the decomposition reads it."""

    name: str
    vertices: np.ndarray  # object space times the world scale
    triangles: np.ndarray
    scale: np.ndarray  # divided back out of the parts
    check: MeshCheck
    uid: int = 0  # the object's session_uid: its name may be a linked object's too
    shape: tuple = ()  # the object's shape settings when read (`shape_settings`)
    mesh: Hashable = None  # its mesh when read (`mesh_print`)


def read_source(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> Source:
    """The evaluated mesh `obj` collides as (`collider_mesh`), in its space times its world
    scale."""
    scale = np.abs(np.array(obj.matrix_world.to_scale(), dtype=np.float64))
    data = None
    if scale.min() > MIN_SCALE:
        mesh = collider_mesh(obj)
        to_obj = obj.matrix_world.inverted_safe() @ mesh.matrix_world if mesh != obj \
            else Matrix.Identity(4)
        data = evaluated_triangles(mesh, depsgraph, Matrix.Diagonal((*scale, 1.0)) @ to_obj,
                                   False)
    if data is None:
        vertices, triangles = np.empty((0, 3)), np.empty((0, 3), dtype=np.int32)
    else:
        vertices, triangles = data[0].astype(np.float64), data[1]
    return Source(obj.name, vertices, triangles, scale, check_mesh(vertices, triangles),
                  obj.session_uid, shape_settings(obj), mesh_print(obj))


def mesh_print(obj: bpy.types.Object) -> Hashable:
    """What the mesh a decomposition of `obj` reads is made of, as stored (not evaluated:
    the same in any scene or view layer): its vertices and faces, shape key values,
    modifiers and place beside `obj`; None for a curve or text (not compared)."""
    source = collider_mesh(obj)
    if source.type != "MESH":
        return None
    if source.mode == "EDIT":  # (the edit, which Blender keeps aside until Object Mode)
        source.update_from_editmode()
    data = source.data
    points = np.empty(len(data.vertices) * 3, dtype=np.float32)
    data.vertices.foreach_get("co", points)
    corners = np.empty(len(data.loops), dtype=np.int32)
    data.loops.foreach_get("vertex_index", corners)
    keys = data.shape_keys
    place = () if source == obj else tuple(
        value for row in obj.matrix_world.inverted_safe() @ source.matrix_world for value in row)
    return (source.session_uid, hash(points.tobytes()), hash(corners.tobytes()),
            len(data.polygons), tuple(k.value for k in keys.key_blocks) if keys else (),
            tuple((m.name, m.type, m.show_viewport) for m in source.modifiers), place)


def shape_settings(obj: bpy.types.Object) -> tuple:
    """What of the object's shape a run replaces: its kind, mesh source, proxy and parts."""
    props = obj.gltf_physics
    proxy = props.mesh_object
    return (props.shape_type, props.mesh_source, proxy and proxy.session_uid,
            tuple(part.session_uid for part in parts_of(obj)))


def _left_by_a_run(obj: bpy.types.Object) -> bool:
    """Whether `obj`'s shape is as another run of this tool left it (its parts, no shape of
    its own): a run started later replaces that as any re-run does."""
    parts = parts_of(obj)
    return obj.gltf_physics.shape_type == "NONE" and bool(parts) \
        and all(made_by(part, CONVEX_PART, obj) for part in parts)


def changed_since(source: Source, obj: bpy.types.Object) -> str:
    """What the artist changed of `obj` after `source` was read ("" for nothing): the parts
    would replace newer work or be of an old mesh."""
    if shape_settings(obj) != source.shape:  # (another run's parts: replaced, as a re-run's)
        return "" if _left_by_a_run(obj) else "its shape was changed while it was decomposed"
    if mesh_print(obj) != source.mesh:
        return "its mesh or modifiers were changed while it was decomposed"
    return ""


def object_by_uid(uid: int) -> bpy.types.Object | None:
    """The object of this session_uid (a name may be both a linked and a local object's)."""
    return next((obj for obj in bpy.data.objects if obj.session_uid == uid), None)


def collider_mesh(obj: bpy.types.Object) -> bpy.types.Object:
    """The mesh object a decomposition of `obj` reads: the proxy a triangle-mesh shape
    collides as, else `obj` itself (a convex shape's proxy is a hull of it)."""
    props = obj.gltf_physics
    proxy = props.mesh_object
    if props.shape_type == "TRIMESH" and props.mesh_source == "OBJECT" and proxy is not None \
            and proxy.type == "MESH":
        return proxy
    return obj


# -- which objects ------------------------------------------------------------------------


def is_part(obj: bpy.types.Object) -> bool:
    """Whether `obj` is a part of a decomposition of its parent: tagged so when made (a
    name never counts; a file's parts are not ours after an import, see the README)."""
    parent = obj.parent
    if parent is None:
        return False
    # files saved before the ownership tags carry the owner's name in PART_TAG
    return made_by(obj, CONVEX_PART, parent) or obj.get(PART_TAG) == parent.name


def parts_of(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """The parts of an earlier decomposition of `obj`."""
    return [child for child in obj.children if is_part(child)]


def _replaced_by_a_run(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """What decomposing `obj` again deletes: its earlier parts and the hull or collision
    proxy a tool made for its single shape."""
    props = obj.gltf_physics
    proxy = props.mesh_object if props.mesh_source == "OBJECT" else None
    own_proxy = proxy is not None and (made_by(proxy, HULL_PROXY, obj)
                                       or made_by(proxy, IMPORT_PROXY, obj))
    return parts_of(obj) + ([proxy] if own_proxy else [])


def replace_problem(obj: bpy.types.Object) -> str | None:
    """Why decomposing `obj` again cannot replace what an earlier run (or the hull tool)
    made for it, or None: a linked or overridden part comes back from its library."""
    return next(filter(None, map(deletion_problem, _replaced_by_a_run(obj))), None)


def foreign_hulls(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """Convex child shapes of `obj` no decomposition made (an imported file's parts, the
    user's own): never replaced, only reported."""
    return [child for child in obj.children
            if child.gltf_physics.shape_type == "CONVEX" and not is_part(child)
            and not made_by(child, HULL_PROXY)]


def targets(objects: Iterable[bpy.types.Object]) -> list[bpy.types.Object]:
    """The objects to decompose for a selection: mesh objects that are not collision-only,
    objects whose triangle-mesh shape uses a proxy, and the object of a selected part (so a
    part's panel can run it again)."""
    found: dict[int, bpy.types.Object] = {}  # by identity: a linked object may share a name
    for obj in objects:
        owner = obj.parent if is_part(obj) else obj
        if not owner.gltf_physics.collision_only \
                and (owner.type == "MESH" or collider_mesh(owner) != owner):
            found.setdefault(owner.as_pointer(), owner)
    return list(found.values())


# -- making the parts ---------------------------------------------------------------------


def replace_parts(
    obj: bpy.types.Object, decomposition: Decomposition, scale: np.ndarray,
    notes: list[str] | None = None,
) -> list[bpy.types.Object]:
    """Make the parts children of `obj` (replacing earlier ones) and take its own shape;
    what another object still uses is kept, said in `notes`."""
    props = obj.gltf_physics
    trigger = props.shape_role == "TRIGGER" or props.is_compound_trigger
    every = frozenset(p.identifier for p in props.bl_rna.properties)
    # A compound trigger made by an earlier run keeps its filter on its parts: take it back.
    earlier = parts_of(obj)
    kept = earlier[0].gltf_physics if earlier and props.is_compound_trigger \
        and not props.use_filter else None
    shared = {name: _plain(getattr(kept, name)) for name in FILTER_FIELDS} if kept else {}
    remove_parts(obj, notes)
    _remove_own_proxy(obj, notes)
    made = []
    for number, points in enumerate(decomposition.parts, start=1):
        name = f"{obj.name}{PART_SUFFIX}{number:03d}"
        part = bpy.data.objects.new(name, hull_mesh(name, points / scale))
        link_like(part, obj, bpy.context.scene)
        part.parent = obj
        part.display_type = "WIRE"
        part.hide_render = True
        mark(part, CONVEX_PART, obj)
        copy_group(props, part.gltf_physics, skip=every - SHARED_FIELDS)
        shape = part.gltf_physics
        for key, value in shared.items():
            setattr(shape, key, value)
        shape.collision_only = True
        shape.shape_type = "CONVEX"
        shape.mesh_source = "SELF"
        shape.shape_role = "TRIGGER" if trigger else "COLLIDER"
        made.append(part)
    props.shape_type = "NONE"
    if trigger and not _joins_compound_above(obj):
        props.is_compound_trigger = True
        props.use_filter = False  # a compound trigger has none: its parts carry it
    return made


def undo_parts(obj: bpy.types.Object, notes: list[str] | None = None,
               parts: list[bpy.types.Object] | None = None) -> None:
    """Before `obj` takes a single shape again (Generate Convex Hull): its parts go (those
    another object still uses stay, said in `notes`), and the compound trigger a
    decomposition of its trigger made is a trigger again, with the filter its parts held.
    Raises ValueError (nothing changed) when a part cannot be deleted now. (`parts`:
    `parts_of(obj)`, when known.)"""
    parts = parts_of(obj) if parts is None else parts
    problem = next(filter(None, map(deletion_problem, parts)), None)
    if problem is not None:
        raise ValueError(f"{obj.name} was left as it was: {problem}")
    props = obj.gltf_physics
    triggers = [part for part in parts if part.gltf_physics.shape_role == "TRIGGER"]
    if parts and triggers == parts and props.is_compound_trigger:
        held = triggers[0].gltf_physics
        for name in FILTER_FIELDS:
            setattr(props, name, _plain(getattr(held, name)))
        props.is_compound_trigger = False
        props.shape_role = "TRIGGER"
    if parts:
        remove_parts(obj, notes, parts)


def _plain(value: object) -> object:
    """A property's value detached from its object (an array as a tuple)."""
    return value if isinstance(value, (bool, int, float, str)) else tuple(value)


def remove_parts(obj: bpy.types.Object, notes: list[str] | None = None,
                 parts: list[bpy.types.Object] | None = None) -> int:
    """Delete the parts of an earlier decomposition (and their meshes, when unused); an
    object the user parented under a part moves to `obj`, keeping its place. A part another
    object's settings point at (its shape's proxy, a joint's frame) stays, without a shape
    of its own (no longer in the compound), said in `notes`. How many were deleted.
    (`parts`: `parts_of(obj)`, when known.)"""
    parts = parts_of(obj) if parts is None else parts
    users = pointer_users(parts)
    removed = 0
    for part in parts:
        if not made_by(part, CONVEX_PART, obj):  # made before the tags (PART_TAG): ours
            mark(part, CONVEX_PART, obj)
        used = users.get(part.session_uid)
        if used:
            part.gltf_physics.shape_type = "NONE"
            _note_kept(notes, part, used, f"no longer a part of {obj.name}")
            continue
        removed += remove_made(part, CONVEX_PART, obj, users)
    return removed


def _note_kept(notes: list[str] | None, thing: bpy.types.Object,
               users: list[bpy.types.ID], what: str) -> None:
    if notes is not None:
        notes.append(f"{thing.name} was kept: {still_used(users)} ({what}); delete it when "
                     "nothing does")


def _remove_own_proxy(obj: bpy.types.Object, notes: list[str] | None = None) -> None:
    """Delete the collision-only proxy the tools made for the object's single shape (a hull
    from Generate Convex Hull, the importer's collision mesh): the parts replace that shape.
    A proxy of the user's own stays, unused; so does one anything else still points at (a
    Shift+D copy's shape, a modifier), said in `notes`."""
    props = obj.gltf_physics
    proxy = props.mesh_object if props.mesh_source == "OBJECT" else None
    if proxy is None or proxy not in _replaced_by_a_run(obj):
        return
    props.mesh_object = None
    props.mesh_source = "SELF"
    users = pointer_users([proxy])
    used = users.get(proxy.session_uid)
    if used:
        _note_kept(notes, proxy, used, f"{obj.name}'s shape no longer does")
        return
    remove_made(proxy, proxy[MADE_BY], obj, users)


def _joins_compound_above(obj: bpy.types.Object) -> bool:
    if not obj.gltf_physics.join_compound_trigger:
        return False
    parent = obj.parent
    while parent is not None:
        if parent.gltf_physics.is_compound_trigger:
            return True
        parent = parent.parent
    return False


# -- running ------------------------------------------------------------------------------


@dataclass
class DecompositionRun:
    """Decomposes objects one after another on a worker thread.

    A modal operator calls `step()` on a timer until it returns True, then `apply()`; a
    script calls `run()`, which blocks. Objects are known by their session_uid, not held:
    the user may undo or delete while the work runs.
    """

    settings: Settings
    sources: list[Source] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    results: dict[int, Decomposition] = field(default_factory=dict)  # by session_uid
    index: int = 0
    job: BackgroundJob | None = None
    #: by name: only objects that can be edited get parts, and no two local objects share one
    made: dict[str, list[bpy.types.Object]] = field(default_factory=dict)

    @classmethod
    def prepare(
        cls, objects: Iterable[bpy.types.Object], settings: Settings,
        depsgraph: bpy.types.Depsgraph,
    ) -> DecompositionRun:
        """Read every object's mesh; objects that cannot be decomposed (or changed: linked,
        a locked override) go to `errors`."""
        run = cls(settings)
        for obj in objects:
            locked = editable_problem(obj)
            if locked is not None:
                run.errors.append(f"{obj.name} was left as it was: {locked}")
                continue
            source = read_source(obj, depsgraph)
            problem = "has zero scale" if source.scale.min() <= MIN_SCALE else input_error(
                source.check, settings)
            if problem:
                run.errors.append(f"{obj.name} {problem}")
                continue
            kept = replace_problem(obj)
            if kept is not None:
                run.errors.append(f"{obj.name} was left as it was: {kept}")
                continue
            run.warnings += [f"{obj.name} {w}" for w in input_warnings(source.check, settings)]
            run.sources.append(source)
        return run

    def step(self) -> bool:
        """Collect a finished object, start the next one; True when all are done."""
        if self.job is not None:
            if not self.job.done:
                return False
            self._collect()
        if self.index >= len(self.sources):
            return True
        source = self.sources[self.index]
        work = functools.partial(decompose, source.vertices, source.triangles, self.settings)
        self.job = BackgroundJob(work, f"gltf_physics decomposition of {source.name}").start()
        return False

    def _collect(self) -> None:
        name, uid = self.sources[self.index].name, self.sources[self.index].uid
        try:
            self.results[uid] = self.job.result()
        except DecompositionError as exc:
            self.errors.append(f"{name} {exc}")
        except JobCancelledError:
            pass
        except Exception as exc:  # a bug must not take Blender down: report it
            self.errors.append(f"{name}: decomposition failed ({type(exc).__name__}: {exc})")
        self.job = None
        self.index += 1

    def run(self) -> None:
        """Decompose every object, blocking until done."""
        while not self.step():
            self.job.wait()

    def cancel(self) -> None:
        """Stop: the running object's CoACD child is killed, queued objects never start;
        nothing is applied."""
        if self.job is not None:
            self.job.cancel()
            self.job.wait(CANCEL_SECONDS)  # the worker kills the child at its next poll
        self.job = None
        self.index = len(self.sources)
        self.results.clear()

    @property
    def progress(self) -> float:
        """Share of the work done, 0..1."""
        if not self.sources:
            return 1.0
        running = self.job.fraction if self.job is not None else 0.0
        return min((self.index + running) / len(self.sources), 1.0)

    def status(self) -> str:
        """One line for the status bar."""
        if self.job is None or self.index >= len(self.sources):
            return "Convex decomposition: making the parts"
        return (f"Convex decomposition of {self.sources[self.index].name} "
                f"({self.index + 1}/{len(self.sources)}): {self.job.stage}, "
                f"{self.job.elapsed:.0f} s. Esc cancels")

    def apply(self) -> dict[str, list[bpy.types.Object]]:
        """Make the parts of every decomposed object (main thread); the parts by object
        name (also kept as `made`; each object is found by its session_uid)."""
        made = self.made = {}
        for uid, decomposition in self.results.items():
            source = next(s for s in self.sources if s.uid == uid)
            obj = object_by_uid(uid)
            if obj is None:
                self.warnings.append(f"{source.name} was deleted while it was decomposed")
                continue
            name = obj.name  # (renamed while it ran, perhaps)
            problem = editable_problem(obj) or replace_problem(obj) \
                or ("it was unlinked from every collection while it was decomposed"
                    if not obj.users_collection else "") \
                or changed_since(source, obj)
            if problem:  # (changed while it ran: newer work is never replaced)
                self.errors.append(f"{name} was left as it was: {problem} (run the "
                                   "decomposition again)")
                continue
            made[name] = replace_parts(obj, decomposition, source.scale, self.warnings)
            others = foreign_hulls(obj)
            if others:
                self.warnings.append(
                    f"{name} keeps {len(others)} convex child shape(s) this tool did not make "
                    f"(from a file, or your own: {others[0].name}…): delete those the new "
                    "parts replace")
        if made:
            bpy.context.view_layer.update()  # the new parts in the view layer, for checks
        return made


def decompose_now(objects: Iterable[bpy.types.Object], settings: Settings | None = None
                  ) -> DecompositionRun:
    """Decompose and make the parts, blocking (the validation fix, scripts); the run's
    `errors` name the objects left as they were."""
    run = DecompositionRun.prepare(list(objects), settings or Settings(),
                                   bpy.context.evaluated_depsgraph_get())
    run.run()
    run.apply()
    return run
