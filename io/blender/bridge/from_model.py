# SPDX-License-Identifier: GPL-3.0-or-later
"""The neutral model (glTF space) → object properties. Data API only, never bpy.ops."""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import bpy

from ... import axes
from ...diagnostics import Report, listing
from ...model import (
    MESH_SHAPES,
    Collider,
    CollisionFilter,
    Motion,
    NodePhysics,
    PhysicsMaterial,
    Shape,
    Trigger,
)
from ..instances import instance_counts
from ..settings.field_props import write_values
from ..settings.properties import MAX_LAYERS, MOTION_ITEM, SHAPE_ITEM
from ..settings.stored_settings import defaults_of, is_untouched

MeshProxy = Callable[[bpy.types.Object, int], "bpy.types.Object | None"]
Scene = bpy.types.Scene
EMPTY_DISPLAY = {"box": "CUBE", "cylinder": "CUBE", "plane": "CUBE", "sphere": "SPHERE",
                 "capsule": "SPHERE"}

_UNSET = object()
NAMED = 10  # objects named in a message about layers; the rest counted


class _Recorder:
    """Stands in for an object's settings: collects the values written to it."""

    __slots__ = ("writes",)

    def __init__(self) -> None:
        object.__setattr__(self, "writes", {})

    def __setattr__(self, name: str, value: Any) -> None:
        self.writes[name] = value


@dataclass(frozen=True, slots=True)
class _Loss:
    """What a filter lost to a full layer list: the systems dropped, and whether its
    'Collides Only/Except With' rule, or its membership, named nothing else."""

    systems: tuple[str, ...]
    rule_emptied: bool
    membership_emptied: bool


@dataclass(frozen=True, slots=True)
class _Plan:
    """The values to write, and those of them that differ from the defaults."""

    writes: dict[str, Any]
    changed: dict[str, Any]

    @staticmethod
    def of(writes: dict[str, Any], defaults: dict[str, Any]) -> "_Plan":
        return _Plan(writes, {name: value for name, value in writes.items()
                              if defaults.get(name, _UNSET) != value})


class PropertyWriter:
    """Writes decoded physics onto objects of one Blender scene."""

    def __init__(
        self, scene: bpy.types.Scene, report: Report, yup: bool = True,
        objects_untouched: bool = False,
    ) -> None:
        """`objects_untouched`: every object written to still has its default settings
        (true for the objects an import creates, unless the file's extras restored some)."""
        self.scene = self.scene_now = scene  # (`scene_now`: the scene `layers` are of)
        self.layers = self.scene_layers = scene.gltf_physics.layers
        self.one_scene = len(bpy.data.scenes) == 1  # (then every object is in `scene`)
        self.report = report
        self.yup = yup
        self.objects_untouched = objects_untouched
        self._plans: dict[tuple[int, int | None, int],
                          tuple[NodePhysics, _Plan, _Loss | None]] = {}
        self._side_effects = False
        self._added: dict[Scene, list[int]] = {}  # the layers appended, by scene
        self._filtered: dict[Scene, dict[bpy.types.Object, None]] = {}  # by their layers' scene
        self._used: dict[Scene, set[int]] = {}  # the layers their filters tick
        self._losses: dict[str, _Loss] = {}  # by object name

    def _layers_of(self, obj: bpy.types.Object, physics: NodePhysics) -> int:
        """Point `layers` at the collision layers of `obj`'s scene (the importer may put a
        file's other scene in a Blender scene of its own); a key for them (0: the writer's
        scene's, or no filter to write)."""
        self.layers, self.scene_now = self.scene_layers, self.scene
        if self.one_scene or not any(part is not None and part.filter is not None
                                     for part in (physics.collider, physics.trigger)):
            return 0
        scenes = obj.users_scene
        if not scenes or self.scene in scenes:
            return 0
        self.scene_now = scenes[0]
        self.layers = scenes[0].gltf_physics.layers
        return scenes[0].as_pointer()

    def apply(
        self, obj: bpy.types.Object, physics: NodePhysics, own_mesh: int | None,
        make_proxy: MeshProxy, make_child: Callable[[bpy.types.Object, str], bpy.types.Object],
    ) -> None:
        """Set every physics property of `obj` from `physics` (unset ones to their defaults)."""
        key = (id(physics), own_mesh, self._layers_of(obj, physics))
        if key in self._plans:  # an equal node met before: its writes, without side effects
            _physics, plan, loss = self._plans[key]
            self._flush(obj, plan, loss)
            return
        recorder = _Recorder()
        self._side_effects = obj.type == "EMPTY"
        loss = self._plan(recorder, obj, physics, own_mesh, make_proxy, make_child)
        plan = _Plan.of(recorder.writes, defaults_of(type(obj.gltf_physics)))
        if not self._side_effects:
            self._plans[key] = (physics, plan, loss)  # physics kept: its id stays unique
        self._flush(obj, plan, loss)

    def _plan(
        self, props: "_Recorder", obj: bpy.types.Object, physics: NodePhysics,
        own_mesh: int | None, make_proxy: MeshProxy,
        make_child: Callable[[bpy.types.Object, str], bpy.types.Object],
    ) -> _Loss | None:
        """Record `obj`'s writes in `props`; what its filter lost to a full layer list."""
        self._motion(props, physics.motion)
        props.is_compound_trigger = physics.trigger is not None and physics.trigger.shape is None
        shaped: list[tuple[Shape, Collider | Trigger]] = []
        if physics.collider is not None and physics.collider.shape is not None:
            shaped.append((physics.collider.shape, physics.collider))
        if physics.trigger is not None and physics.trigger.shape is not None:
            shaped.append((physics.trigger.shape, physics.trigger))
        props.shape_type = "NONE"
        loss = None
        for number, (shape, holder) in enumerate(shaped):
            if number == 0:
                self._shape(props, obj, shape, own_mesh, make_proxy)
                loss = self._holder(props, holder)
                continue
            # A node with both a collider and a trigger keeps the trigger on a child Empty.
            self._side_effects = True
            child = make_child(obj, f"{obj.name}.trigger")
            child_props = _Recorder()
            self._shape(child_props, child, shape, None, make_proxy)
            child_loss = self._holder(child_props, holder)
            self._flush(child, _Plan.of(child_props.writes, defaults_of(type(child.gltf_physics))),
                        child_loss)
        return loss

    def _flush(self, obj: bpy.types.Object, plan: "_Plan", loss: _Loss | None) -> None:
        """Set the planned values; on an object still at its defaults, only those that
        differ (every write costs an RNA update). Notes a filter for `say_layer_changes`."""
        props = obj.gltf_physics
        untouched = self.objects_untouched or is_untouched(obj)
        for name, value in (plan.changed if untouched else plan.writes).items():
            setattr(props, name, value)
        if plan.writes.get("use_filter"):
            self._filtered.setdefault(self.scene_now, {})[obj] = None
        if loss is not None:
            self._losses[obj.name] = loss

    def _motion(self, props: bpy.types.PropertyGroup, motion: Motion | None) -> None:
        if motion is None:
            props.motion_type = "NONE"
            return
        yup = self.yup
        props.motion_type = MOTION_ITEM[motion.kind]
        mass = motion.mass
        props.mass_mode = "AUTO" if mass is None else "INFINITE" if math.isinf(mass) else "VALUE"
        props.mass = 1.0 if mass is None or math.isinf(mass) else mass  # any finite mass
        props.center_of_mass_mode = "AUTO" if motion.center_of_mass is None else "CUSTOM"
        props.center_of_mass = axes.vector_to_blender(motion.center_of_mass or (0, 0, 0), yup)
        props.inertia_mode = "AUTO" if motion.inertia_diagonal is None else "CUSTOM"
        diagonal = axes.extent_swap(motion.inertia_diagonal or (1.0, 1.0, 1.0), yup)
        props.lock_rotation = tuple(math.isinf(d) for d in diagonal)
        if motion.inertia_diagonal is not None:
            props.inertia_diagonal = tuple(1.0 if math.isinf(d) else d for d in diagonal)
        props.inertia_orientation = axes.quat_to_blender(motion.inertia_orientation, yup)
        write_values(props, "motion", motion, yup)

    def _shape(
        self, props: "_Recorder", obj: bpy.types.Object, shape: Shape, own_mesh: int | None,
        make_proxy: MeshProxy,
    ) -> None:
        props.shape_type = SHAPE_ITEM[shape.kind]
        props.shape_name = shape.name
        props.size_mode = "CUSTOM"
        props.shape_offset = (0.0, 0.0, 0.0)
        props.shape_rotation = (1.0, 0.0, 0.0, 0.0)
        if shape.kind in MESH_SHAPES:
            mesh = shape.mesh if isinstance(shape.mesh, int) else None
            if mesh is not None and mesh == own_mesh:
                props.mesh_source = "SELF"
            else:
                props.mesh_source = "OBJECT"
                self._side_effects = True
                props.mesh_object = None if mesh is None else make_proxy(obj, mesh)
            return
        if shape.kind == "box":
            props.box_size = axes.extent_swap(shape.size, self.yup)
        props.radius = shape.radius  # the codecs repair a zero size; any positive one is kept
        props.height = shape.height
        props.radius_top = shape.radius_top
        props.radius_bottom = shape.radius_bottom
        props.plane_size = (shape.size_x or 0.0, shape.size_z or 0.0)
        props.plane_double_sided = shape.double_sided
        if obj.type == "EMPTY":
            _show_on_empty(obj, shape)

    def _holder(self, props: bpy.types.PropertyGroup, holder: Collider | Trigger
                ) -> _Loss | None:
        props.shape_role = "TRIGGER" if isinstance(holder, Trigger) else "COLLIDER"
        material = holder.material if isinstance(holder, Collider) else None
        self._material(props, material)
        return self._filter(props, holder.filter)

    def write_material(
        self, props: bpy.types.PropertyGroup, material: PhysicsMaterial | None
    ) -> None:
        """Set (or clear) the object's physics material."""
        self._material(props, material)

    @staticmethod
    def _material(props: bpy.types.PropertyGroup, material: PhysicsMaterial | None) -> None:
        props.use_material = material is not None
        if material is not None:
            write_values(props, "material", material)

    def _filter(self, props: bpy.types.PropertyGroup, flt: CollisionFilter | None
                ) -> _Loss | None:
        """Write the filter; what it lost to a full layer list (None: nothing)."""
        props.use_filter = flt is not None
        if flt is None:
            return None
        props.filter_name = flt.name
        dropped: list[str] = []
        props.filter_layers = members = self._bits(flt.collision_systems, dropped)
        if flt.collide_with_systems:
            props.filter_mode, targets = "ONLY", flt.collide_with_systems
        elif flt.not_collide_with_systems:
            props.filter_mode, targets = "EXCEPT", flt.not_collide_with_systems
        else:
            props.filter_mode, targets = "ALL", ()
        props.filter_targets = ticked = self._bits(targets, dropped)
        if not dropped:
            return None
        return _Loss(tuple(dict.fromkeys(dropped)), bool(targets) and not any(ticked),
                     bool(flt.collision_systems) and not any(members))

    def _bits(self, names: tuple[str, ...], dropped: list[str]) -> tuple[bool, ...]:
        """The ticks of the layers named (appended when new); names without one go to
        `dropped`."""
        bits = [False] * MAX_LAYERS
        used = self._used.setdefault(self.scene_now, set())
        for name in names:
            index = self._layer_index(name)
            if index is None:
                dropped.append(name)
            else:
                bits[index] = True
                used.add(index)
        return tuple(bits)

    def _layer_index(self, name: str) -> int | None:
        for index, layer in enumerate(self.layers):
            if layer.name == name:
                return index
        if len(self.layers) >= MAX_LAYERS:
            return None
        self.layers.add().name = name
        self._added.setdefault(self.scene_now, []).append(len(self.layers) - 1)
        return len(self.layers) - 1

    # -- said once per import, after every node ---------------------------------------------

    def say_layer_changes(self, imported: Callable[[], set[bpy.types.Object]]) -> None:
        """Say what the import did to collision layers: systems dropped for want of a layer
        (`too-many-layers`), imported filters also in a scene whose layers of those numbers
        differ or are missing (`layers-differ-in-scene`), and other objects whose ticks a new layer
        gives meaning to (`layer-already-ticked`). `imported`: the objects the import made.
        Scenes are scanned only when one of these may apply."""
        if self._losses:
            self._say_dropped()
        scenes = _ExportedObjects()
        if not self.one_scene and self._filtered:
            self._say_other_scenes(scenes)
        if self._added:
            self._say_ticked(scenes, imported())

    def _say_dropped(self) -> None:
        """The systems dropped for want of a layer, the objects that lost each, and what
        their filters mean now."""
        by_system: dict[str, list[str]] = {}
        for name, loss in sorted(self._losses.items()):
            for system in loss.systems:
                by_system.setdefault(system, []).append(name)
        lost = [f"{system} from {_named(names)}" for system, names in by_system.items()]
        text = f"more than {MAX_LAYERS} layers; dropped from the collision filters: " \
            f"{'; '.join(lost)}"
        rules = sorted(name for name, loss in self._losses.items() if loss.rule_emptied)
        if rules:
            text += (f". Now colliding with every layer, as their 'Collides Only/Except With' "
                     f"named only dropped systems: {_named(rules)}")
        homeless = sorted(name for name, loss in self._losses.items() if loss.membership_emptied)
        if homeless:
            text += f". Now in no layer: {_named(homeless)}"
        self.report.warn("too-many-layers", listing(list(by_system)), text)

    def _say_other_scenes(self, scenes: "_ExportedObjects") -> None:
        """Imported filters also in another scene, whose layers of those numbers differ."""
        parts: dict[str, str] = {}  # by scene name
        for home, objects in self._filtered.items():
            names = _names(home)
            used = sorted(self._used.get(home, ()))
            for other in bpy.data.scenes:
                part = self._in_other_scene(home, names, used, other, objects, scenes) \
                    if other != home and used else None
                if part:
                    parts[other.name] = part
        if parts:
            self.report.warn(
                "layers-differ-in-scene", ", ".join(parts),
                "imported objects with a collision filter are also in another scene, whose "
                "layers of the same numbers are other layers or missing (a filter ticks layers by "
                f"number): {'; '.join(parts.values())}; give the scene the same layers in "
                "the same order, or keep the objects out of it")

    def _in_other_scene(self, home: Scene, names: list[str], used: list[int], other: Scene,
                        objects: dict[bpy.types.Object, None], scenes: "_ExportedObjects"
                        ) -> str | None:
        """What to say of `home`'s filtered `objects` also in `other` (None: nothing). The
        import changes only the scene it imports into: `other`'s layers are left as they
        are, even when it only lacks some."""
        theirs = _names(other)
        differ = [i for i in used if _name_at(theirs, i) != names[i]]
        placed = scenes.of(other) if differ else set()
        shared = [obj for obj in objects if obj in placed]
        if not shared:
            return None
        named = sorted({name for names in _ticking(shared, differ).values() for name in names})
        layers = ", ".join(f"layer {i + 1} is {_there(theirs, i)} ({names[i]} in {home.name})"
                           for i in differ)
        return f"in scene {other.name}, {layers}: {_named(named)}" if named else None

    def _say_ticked(self, scenes: "_ExportedObjects", imported: set[bpy.types.Object]) -> None:
        """Other objects already ticking the slot of a layer the import appended."""
        parts: list[str] = []
        for scene, indices in self._added.items():
            made = set(self._filtered.get(scene, ()))
            names = _names(scene)
            ticking = _ticking(scenes.of(scene) - imported - made, indices)
            parts += [f"layer {i + 1} {names[i]} of scene {scene.name} by {_named(objects)}"
                      for i, objects in ticking.items()]
        if parts:
            self.report.warn(
                "layer-already-ticked", "",
                f"new layers from this import were already ticked: {'; '.join(parts)} (ticks "
                "set for another scene's layers, or in the file those objects came from): "
                "their filters now name the new layer, and so does their export; their ticks "
                "were kept: untick them where not meant")


class _ExportedObjects:
    """A scene's exported objects (its own, and those its collection instances place),
    listed once per import, on first need."""

    def __init__(self) -> None:
        self._of: dict[Scene, set[bpy.types.Object]] = {}

    def of(self, scene: Scene) -> set[bpy.types.Object]:
        if scene not in self._of:
            own = list(scene.objects)
            self._of[scene] = set(own) | set(instance_counts(own))
        return self._of[scene]


def _named(names: list[str]) -> str:
    """Object names for a message: the first few, the rest counted."""
    return listing(names, NAMED)


def _names(scene: Scene) -> list[str]:
    return [layer.name for layer in scene.gltf_physics.layers]


def _there(names: list[str], index: int) -> str:
    name = _name_at(names, index)
    return "missing there" if name is None else f"{name} there"


def _name_at(names: list[str], index: int) -> str | None:
    return names[index] if index < len(names) else None


def _slots(obj: bpy.types.Object) -> list[bool]:
    """The slots `obj`'s filter names: its layers, and those of its Collides rule (none when
    the filter is off)."""
    props = obj.gltf_physics
    if not props.use_filter:
        return [False] * MAX_LAYERS
    members = props.filter_layers[:]
    if props.filter_mode == "ALL":
        return members
    return [a or b for a, b in zip(members, props.filter_targets[:], strict=True)]


def _ticking(objects: Iterable[bpy.types.Object], indices: list[int]) -> dict[int, list[str]]:
    """The names of `objects` whose filter names each of slots `indices` (those named)."""
    found: dict[int, list[str]] = {index: [] for index in indices}
    for obj in objects:
        if obj.gltf_physics.use_filter:
            slots = _slots(obj)
            for index in indices:
                if slots[index]:
                    found[index].append(obj.name_full)  # (a linked one: "name [file]")
    return {index: sorted(names) for index, names in found.items() if names}


def _show_on_empty(obj: bpy.types.Object, shape: Shape) -> None:
    """Make a mesh-less collider's Empty look like its shape."""
    obj.empty_display_type = EMPTY_DISPLAY.get(shape.kind, "PLAIN_AXES")
    if shape.kind == "box":
        size = max(shape.size) / 2
    elif shape.kind == "sphere":
        size = shape.radius
    elif shape.kind == "capsule":
        size = shape.height / 2 + max(shape.radius_top, shape.radius_bottom)
    elif shape.kind == "cylinder":
        size = max(shape.height / 2, shape.radius_top, shape.radius_bottom)
    else:
        size = max(shape.size_x or 1.0, shape.size_z or 1.0) / 2
    obj.empty_display_size = max(size, 1e-3)
