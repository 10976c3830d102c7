# SPDX-License-Identifier: GPL-3.0-or-later
"""Scene checks: what would export badly or differently from what the artist expects.

Each problem names its object, a stable code, a message and, where one exists, a fix. Rules
that also apply to glTF files (codes, messages, predicates) live in io/rules.py, shared with
the file checker (scripts/check_physics.py); the rest are Blender-only.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import bpy
from mathutils import Matrix, Vector

from ... import rules
from ...codecs import omi
from ...diagnostics import listing
from ...rules import MIN_SIZE
from ..bridge.fitting import apply_fit, fit_shape, local_bounds
from ..bridge.joint_bridge import body_of
from ..bridge.to_model import compound_trigger_members
from ..bridge.vehicle_bridge import NOT_DYNAMIC_VEHICLE
from ..gravity.checks import gravity_findings
from ..instances import MAX_INSTANCE_DEPTH, exported_objects, instance_counts
from ..settings.properties import FILTER_FIELDS, MESH_LIKE_TYPES, MESH_SHAPE_ITEMS

THIN = 0.01
#: A moving mesh's fix where CoACD is available: convex decomposition
#: (io/blender/tools/decomposition.py).
DECOMPOSE_FIX = "convex-decompose"
SHAPE_FIXES = {"make-convex": ("CONVEX", "Convex Hull"), "make-box": ("BOX", "Box"),
               "make-sphere": ("SPHERE", "Sphere")}


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding; `fix` is a code understood by `apply_fix`, or "" when none applies.
    `target` is the object itself (`obj` is its name, which a linked object may share)."""

    obj: str
    code: str
    message: str
    fix: str = ""
    target: bpy.types.Object | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, obj: bpy.types.Object, rule: rules.Rule, fix: str = "", **values: object
           ) -> "Problem":
        """A problem of a shared rule (its code and message)."""
        return cls(obj.name, rule.code, rule.message(**values), fix)


def validate_scene(scene: bpy.types.Scene) -> list[Problem]:
    """Every problem of what `scene`'s export writes, objects in name order, as its own view
    layer shows them (the active scene's or another's): its objects, and those of the
    collections its instances place (nested ones too), which may be in no scene at all."""
    own = set(scene.objects)
    problems = _check(scene, sorted(exported_objects(scene), key=lambda o: o.name))
    return [problem if problem.target in own else replace(
        problem, message=f"{problem.message} ({_placed_note(problem.target)})")
        for problem in problems]


def _placed_note(obj: bpy.types.Object | None) -> str:
    """Where an object only a collection instance places is found (it is in no view layer
    of the scene: the Outliner's Blender File view lists it)."""
    kits = ", ".join(sorted(c.name for c in obj.users_collection)) if obj else ""
    return f"in {kits or 'a collection'}, which this scene only instances"


def problems_of(obj: bpy.types.Object, scene: bpy.types.Scene) -> list[Problem]:
    """The problems of `obj` in `scene` as `validate_scene` finds them now (a Fix asks
    whether its problem still holds)."""
    return _check(scene, [obj])


def scene_view_layer(scene: bpy.types.Scene) -> bpy.types.ViewLayer:
    """The view layer `scene` is shown with: the context's for the active scene, a window's
    showing it, else its first."""
    if bpy.context.scene == scene and bpy.context.view_layer is not None:
        return bpy.context.view_layer
    wm = bpy.context.window_manager
    for window in wm.windows if wm is not None else ():
        if window.scene == scene:
            return window.view_layer
    return scene.view_layers[0]


def _check(scene: bpy.types.Scene, objects: list[bpy.types.Object]) -> list[Problem]:
    fmt = scene.gltf_physics.export_format
    view_layer = scene_view_layer(scene)
    view_layer.update()  # (objects a script just made are listed after it)
    depsgraph = view_layer.depsgraph
    # (objects, not names: a linked one may share one); a collection's objects that an
    # instancer of the view layer places are exported with each instance
    exported = set(view_layer.objects) | set(instance_counts(view_layer.objects))
    placing = _Placing(set(scene.objects))
    for obj in exported:
        if obj.instance_type == "COLLECTION" and obj.instance_collection is not None:
            placing.instancers.setdefault(obj.instance_collection, []).append(obj)
    problems: list[Problem] = []
    layers = len(scene.gltf_physics.layers)
    for obj in objects:
        problems.extend(replace(problem, target=obj) for problem in _object_problems(
            obj, fmt, obj in exported, layers, depsgraph, placing))
    return problems


@dataclass
class _Placing:
    """Where a scene's export writes objects: its own objects (each where it is, the
    default export writing excluded collections' too) and the collection instances."""

    own: set[bpy.types.Object]
    instancers: dict[bpy.types.Collection, list[bpy.types.Object]] = field(
        default_factory=dict)
    _placers: dict[bpy.types.Object, list[bpy.types.Object]] | None = None

    def placers(self, top: bpy.types.Object) -> list[bpy.types.Object]:
        """The instancers placing the collection objects with `top` among them (each kit
        read once per check)."""
        if self._placers is None:
            self._placers = {}
            for kit, found in self.instancers.items():
                for member in kit.all_objects:
                    self._placers.setdefault(member, []).extend(found)
        return self._placers.get(top, [])


def _object_problems(obj: bpy.types.Object, fmt: str, exported: bool, layers: int,
                     depsgraph: bpy.types.Depsgraph, placing: "_Placing"
                     ) -> Iterator[Problem]:
    props = obj.gltf_physics
    tagged = (props.motion_type != "NONE" or props.shape_type != "NONE"
              or props.is_compound_trigger or props.joint_type != "NONE"
              or props.vehicle_part != "NONE" or props.is_seat)
    if tagged and not exported:
        yield Problem(obj.name, "not-exported",
                      "has physics but is in a collection excluded from the view layer: an "
                      "export with Visible Objects on leaves it out (the default writes it)")
    if props.shape_type != "NONE":
        yield from _shape_problems(obj, fmt, depsgraph, placing)
    if props.is_compound_trigger and props.use_filter:  # (nowhere to move it: no Fix)
        yield Problem.of(obj, rules.COMPOUND_TRIGGER_FILTER,
                         "" if _filter_move_problem(obj) else "move-filter-to-members")
    if props.shape_type != "NONE" and props.use_filter and props.filter_mode == "ONLY" \
            and not any(props.filter_targets[:layers]):
        yield Problem(obj.name, "filter-only-none", "'Collides Only With' ticks no layer: it "
                      "is written as colliding with every layer")
    if props.joint_type != "NONE":
        yield from _joint_problems(obj, placing)
    if props.is_vehicle and props.motion_type != "DYNAMIC":
        yield Problem.of(obj, rules.VEHICLE_NOT_DYNAMIC, what=NOT_DYNAMIC_VEHICLE)
    pilot = props.vehicle_pilot_seat if props.is_vehicle else None
    if pilot is not None and not pilot.gltf_physics.is_seat:
        yield Problem(obj.name, "pilot-seat-not-a-seat", f"its pilot seat {pilot.name} is not "
                      "marked Seat: the vehicle is written without a pilot seat")
    elif pilot is not None and not _seat_written_with(obj, pilot, placing):
        yield Problem(obj.name, "pilot-seat-unresolved", f"its pilot seat {pilot.name} is not "
                      "exported with this scene: the vehicle is written without a pilot seat")
    if props.vehicle_part != "NONE" and not _placed_under_vehicle(obj, placing):
        yield Problem.of(obj, rules.PART_OUTSIDE_VEHICLE,
                         part=rules.part_label(props.vehicle_part))
    for rule, values in gravity_findings(obj):  # OMI_physics_gravity (io/blender/gravity)
        yield Problem.of(obj, rule, **values)


def _shape_problems(obj: bpy.types.Object, fmt: str, depsgraph: bpy.types.Depsgraph,
                    placing: "_Placing") -> Iterator[Problem]:
    props = obj.gltf_physics
    kind = props.shape_type
    places = _places(obj, placing)
    if any(rules.is_moving_trimesh(kind.lower(), body) for body, _matrix, _by in places):
        yield Problem.of(obj, rules.MOVING_TRIMESH, _moving_trimesh_fix(obj))
    scaled = ((rules.scale_rule(kind.lower(), matrix.to_scale()), by)
              for _body, matrix, by in places)
    scale_rule, by = next(((rule, by) for rule, by in scaled if rule is not None),
                          (None, None))
    if scale_rule is not None:  # (the Fix only where it can work)
        from .fixes.scale import scale_fix_problem

        found = Problem.of(obj, scale_rule, "apply-scale", **(
            {} if scale_rule is rules.NEGATIVE_SCALE else {"kind": kind.lower()}))
        why = f"the scale comes from its instancer {by.name}: fix it there" if by \
            else scale_fix_problem(obj)
        yield replace(found, message=f"{found.message} (no Fix: {why})", fix="") if why \
            else found
    if kind == "PLANE" and fmt == "OMI":
        yield Problem(obj.name, "plane-in-omi", "OMI has no plane: it is written as a thin box",
                      "make-box")
    if kind == "CONVEX":
        if _exports_mesh(obj, depsgraph):
            yield from _hull_problems(obj, depsgraph)
        else:
            yield Problem(obj.name, "hull-no-mesh",
                          "the convex hull shape has no mesh: it is not exported")
    if kind == "TRIMESH" and not _exports_mesh(obj, depsgraph):
        yield Problem(obj.name, "trimesh-no-mesh",
                      "the triangle mesh shape has no mesh: it is not exported")
    yield from _size_problems(obj)


def _exports_mesh(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> bool:
    """Whether the export writes a mesh for the object's hull or triangle mesh shape: the
    export's rule (`export_hooks._mesh_ref`: a mesh-like source with faces)."""
    source = mesh_source_of(obj)
    return source is not None and source.type in MESH_LIKE_TYPES \
        and _makes_faces(source, depsgraph)


def _makes_faces(source: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> bool:
    """Whether `source` evaluates to a mesh with faces (a bare path or an edges-only mesh
    gives no solid to write)."""
    evaluated = source.evaluated_get(depsgraph)
    if source.type == "MESH" and source.mode != "EDIT":  # (in Edit Mode its faces are
        return len(evaluated.data.polygons) > 0          # only in the evaluated mesh made)
    try:
        mesh = evaluated.to_mesh()
        return mesh is not None and len(mesh.polygons) > 0
    except RuntimeError:
        return False
    finally:
        evaluated.to_mesh_clear()


def _size_problems(obj: bpy.types.Object) -> Iterator[Problem]:
    props = obj.gltf_physics
    kind = props.shape_type
    if props.size_mode == "FIT":
        bounds = local_bounds(obj)
        if bounds is None:
            if kind not in MESH_SHAPE_ITEMS:
                yield Problem(obj.name, "no-bounds", "Fit to Mesh on an object without a mesh")
            return
        extents = [hi - lo for lo, hi in zip(*bounds, strict=True)]
        if kind == "BOX" and rules.is_degenerate(extents):
            yield Problem.of(obj, rules.DEGENERATE_SIZE, kind="box fitted to a flat mesh")
        if kind == "CAPSULE" and rules.is_short_capsule(extents[2], max(extents[0], extents[1])):
            yield Problem.of(obj, rules.SHORT_CAPSULE, "make-sphere")
        return
    sizes = rules.critical_sizes(
        kind.lower(), size=tuple(props.box_size), radius=props.radius, height=props.height,
        radius_top=props.radius_top, radius_bottom=props.radius_bottom)
    if rules.is_degenerate(sizes):
        bounds = local_bounds(obj)
        fits = bounds is not None and not rules.is_degenerate(
            [hi - lo for lo, hi in zip(*bounds, strict=True)])  # (a flat mesh fits flat too)
        yield Problem.of(obj, rules.DEGENERATE_SIZE, "fit" if fits else "thicken",
                         kind=kind.lower())
    elif kind == "CAPSULE" and rules.is_short_capsule(
            props.height + props.radius_top + props.radius_bottom,
            2 * max(props.radius_top, props.radius_bottom)):
        yield Problem.of(obj, rules.SHORT_CAPSULE, "make-sphere")


def _hull_problems(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph
                   ) -> Iterator[Problem]:
    # bmesh only when a hull is checked
    from ..exporter.kept_solids import SOLIDS
    from .hull import evaluated_vertices, hull_of_points

    points = evaluated_vertices(mesh_source_of(obj), depsgraph)

    def figures() -> tuple[int, float]:
        hull = hull_of_points(points)
        return len(hull.points), hull.volume

    # (objects sharing a mesh, and a check run again after a fix, build its hull once)
    count, volume = SOLIDS.kept(b"hull-figures", (points,), figures)
    if rules.is_flat_hull(count, volume):
        yield Problem.of(obj, rules.FLAT_HULL)
    elif rules.has_too_many_hull_points(count):
        yield Problem(obj.name, rules.HULL_TOO_MANY_POINTS.code,
                      rules.hull_points_message(count), "simplify-hull")


def mesh_source_of(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object whose mesh the object's convex hull or triangle mesh shape uses."""
    props = obj.gltf_physics
    return obj if props.mesh_source == "SELF" else props.mesh_object


def _joint_problems(obj: bpy.types.Object, placing: "_Placing") -> Iterator[Problem]:
    props = obj.gltf_physics
    attachment = props.joint_attachment
    other = body_of(attachment) if attachment is not None else props.joint_connected_body
    if attachment is None and props.joint_connected_body is None:
        yield Problem(obj.name, "joint-unconnected", "the joint has no connected body")
        return
    # (each place the export writes it: a kit's joint joins its instancer's body there)
    for body, _matrix, _by in _places(obj, placing):
        if not rules.has_dynamic_side(kind for kind in (body, _motion_kind(other))
                                      if kind is not None):
            yield Problem.of(obj, rules.JOINT_NOT_DYNAMIC)
            return


def _motion_kind(obj: bpy.types.Object | None) -> str | None:
    """The model's motion kind of a body object ("dynamic"), None for no body."""
    if obj is None or obj.gltf_physics.motion_type == "NONE":
        return None
    return obj.gltf_physics.motion_type.lower()


def _places(obj: bpy.types.Object, placing: _Placing, depth: int = 0
            ) -> list[tuple[str | None, Matrix, bpy.types.Object | None]]:
    """Each place the export writes `obj`: (the motion kind of the body above it there,
    its world matrix there, the instancer whose scale it takes or None): where it is, and
    for an object of an instanced collection, at each instance (its body in the kit, else
    the instancer's)."""
    own_body = _motion_kind(body_of(obj))
    top = _root(obj)
    instancers = [] if depth >= MAX_INSTANCE_DEPTH else placing.placers(top)
    places = [(own_body, obj.matrix_world, None)] if top in placing.own or not instancers \
        else []
    for instancer in instancers:
        offset = Matrix.Translation(-instancer.instance_collection.instance_offset)
        for body, matrix, _by in _places(instancer, placing, depth + 1):
            world = matrix @ offset @ obj.matrix_world
            scaled = instancer if _uneven(matrix.to_scale()) else None
            places.append((own_body or body, world, scaled))
    return places


def _seat_written_with(car: bpy.types.Object, seat: bpy.types.Object,
                       placing: _Placing) -> bool:
    """Whether the export finds `car`'s pilot seat (`export_hooks._seat_node`): one of the
    scene's own objects, in the car's own instance of a kit, or in the one instance of its
    kit under the car (a kit placed twice there names no one seat)."""
    if seat in placing.own:
        return True
    placers = placing.placers(_root(seat))
    if set(placers) & set(placing.placers(_root(car))):
        return True  # (car and seat in one kit: each instance its own)
    under = [p for p in placers if p == car or car in _ancestors(p)]
    return len(under) == 1


def _root(obj: bpy.types.Object) -> bpy.types.Object:
    while obj.parent is not None:
        obj = obj.parent
    return obj


def _uneven(scale: Vector) -> bool:
    return rules.scale_rule("sphere", scale) is not None


def _placed_under_vehicle(obj: bpy.types.Object, placing: _Placing, depth: int = 0) -> bool:
    """Whether every place the export writes `obj` has a vehicle body above it: its parents,
    and for an object of an instanced collection (a wheel kit) each instancer placing it,
    itself or above it; a kit object in the scene itself is written there too."""
    ancestors = list(_ancestors(obj))
    if rules.under_vehicle(ancestors, _is_vehicle):
        return True
    top = ancestors[-1] if ancestors else obj
    if top in placing.own:  # (written where it is, with no vehicle above it)
        return False
    instancers = placing.placers(top)
    return bool(instancers) and depth < MAX_INSTANCE_DEPTH and all(
        _is_vehicle(instancer) or _placed_under_vehicle(instancer, placing, depth + 1)
        for instancer in instancers)


def _ancestors(obj: bpy.types.Object) -> Iterator[bpy.types.Object]:
    parent = obj.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _is_vehicle(obj: bpy.types.Object) -> bool:
    return rules.is_vehicle_body(obj.gltf_physics.is_vehicle, _motion_kind(obj))


def _moving_trimesh_fix(obj: bpy.types.Object) -> str:
    """Convex parts of the mesh the shape uses (a proxy's, an Empty's too) where CoACD is
    available, else one hull."""
    from ...decomposition import missing_reason  # numpy only when a moving mesh is found
    from .decomposition import targets

    return DECOMPOSE_FIX if targets([obj]) == [obj] and not missing_reason() else "make-convex"


def _plane_to_box(obj: bpy.types.Object) -> str:
    """The thin box OMI writes for the plane (`codecs.omi`), as the object's own custom box:
    the plane's size, fitted or custom (a side of 0 is infinite), the writer's thickness."""
    props = obj.gltf_physics
    bounds = local_bounds(obj) if props.size_mode == "FIT" else None
    if bounds is not None:
        apply_fit(props, fit_shape("PLANE", bounds))
    size_x, size_y = (s if s > 0.0 else omi.INFINITE_PLANE for s in props.plane_size)
    props.box_size = (size_x, size_y, omi.PLANE_THICKNESS)
    props.size_mode, props.shape_type = "CUSTOM", "BOX"
    return f"shape set to a {size_x:g} × {size_y:g} × {omi.PLANE_THICKNESS:g} m box"


def apply_fix(obj: bpy.types.Object, fix: str) -> str:
    """Apply one fix; returns what was done. ValueError when `obj` cannot be changed."""
    from .editable import edit_mode_problem, editable_problem

    problem = editable_problem(obj, mesh=fix == "apply-scale") \
        or (edit_mode_problem(obj) if fix == "apply-scale" else None)
    if problem:
        raise ValueError(problem)
    props = obj.gltf_physics
    if fix == "make-box" and props.shape_type == "PLANE":
        return _plane_to_box(obj)
    if fix == "make-sphere" and props.size_mode == "CUSTOM":
        props.radius = max(props.radius_top, props.radius_bottom)  # the capsule's own
    if fix in SHAPE_FIXES:
        props.shape_type, label = SHAPE_FIXES[fix]
        return f"shape set to {label}"
    if fix == "fit":
        props.size_mode = "FIT"
        return "dimensions fitted to the mesh"
    if fix == "thicken":
        props.box_size = tuple(max(s, THIN) for s in props.box_size)
        props.radius, props.height = max(props.radius, THIN), max(props.height, THIN)
        if max(props.radius_top, props.radius_bottom) <= MIN_SIZE:
            props.radius_top = props.radius_bottom = THIN
        return f"zero sizes raised to {THIN} m"
    if fix == "move-filter-to-members":
        return _move_filter_to_members(obj)
    if fix == "apply-scale":
        return _apply_scale(obj)
    if fix == "simplify-hull":
        return _simplify_hull(obj)
    if fix == DECOMPOSE_FIX:
        return _decompose(obj)
    raise ValueError(f"unknown fix {fix!r}")


def _decompose(obj: bpy.types.Object) -> str:
    from .decomposition import decompose_now  # numpy, and CoACD, only when needed

    run = decompose_now([obj])
    if run.errors:
        raise ValueError("; ".join(run.errors))
    kept = "".join(f"; {note}" for note in run.warnings)
    return f"decomposed into {len(run.made.get(obj.name, ()))} convex parts{kept}"


def _simplify_hull(obj: bpy.types.Object) -> str:
    """A simplified hull proxy of the mesh the shape uses (as the check counted it)."""
    from .hull_proxy import make_hull_proxy  # numpy and bmesh only when needed

    source = mesh_source_of(obj)
    if source is None:
        raise ValueError("the convex hull shape has no mesh; nothing was changed")
    notes: list[str] = []
    error = make_hull_proxy(obj, source=source, notes=notes)
    of = "" if source == obj else f" of {source.name}"
    kept = "".join(f"; {note}" for note in notes)
    return f"hull{of} simplified to a proxy ({error * 100:.2f} % of the volume lost){kept}"


def _move_filter_to_members(obj: bpy.types.Object) -> str:
    from .editable import refusal
    from .property_copy import copy_group

    nowhere = _filter_move_problem(obj)  # (the filter would only be lost)
    if nowhere:
        raise ValueError(nowhere)
    members = compound_trigger_members(obj)  # the export's rule: opted-out shapes stay
    problem = refusal(members)  # every member is written to, or none
    if problem:
        raise ValueError(f"a member cannot be changed: {problem}")
    every = frozenset(p.identifier for p in obj.gltf_physics.bl_rna.properties)
    own = [member for member in members if member.gltf_physics.use_filter]
    for member in members:
        if member not in own:  # (a member's own filter is the artist's: kept)
            copy_group(obj.gltf_physics, member.gltf_physics, skip=every - FILTER_FIELDS)
    obj.gltf_physics.use_filter = False
    done = f"filter moved to {len(members) - len(own)} member(s)"
    return done if not own else f"{done}; {listing([m.name for m in own], 3)} kept a filter " \
        "of their own"


def _filter_move_problem(obj: bpy.types.Object) -> str | None:
    """Why a compound trigger's filter cannot go to its members, or None: it has none, or
    some are an instanced collection's (objects the Fix was not run on)."""
    kit = obj.instance_collection if obj.instance_type == "COLLECTION" else None
    if kit is not None and any(o.gltf_physics.shape_type != "NONE"
                               and o.gltf_physics.shape_role == "TRIGGER"
                               for o in kit.all_objects):
        return f"its trigger shapes include those of the instanced collection {kit.name}, " \
            "which this Fix does not change: put the filter on them and turn it off here; " \
            "nothing was changed"
    if not compound_trigger_members(obj):
        return "it has no member shape to take the filter (a trigger shape under it that " \
            "joins it): add one, or turn the filter off; nothing was changed"
    return None


def _apply_scale(obj: bpy.types.Object) -> str:
    from .fixes.scale import apply_scale

    return apply_scale(obj)
