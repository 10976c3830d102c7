# SPDX-License-Identifier: GPL-3.0-or-later
"""The neutral model (glTF space) → object properties. Data API only, never bpy.ops."""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Quaternion

from ... import axes
from ...diagnostics import Report
from ...layer_names import listed_order
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
from ..settings.field_props import write_values
from ..settings.properties import MAX_LAYERS, MOTION_ITEM, SHAPE_ITEM
from ..settings.stored_settings import defaults_of, is_untouched
from .layer_notes import LayerNotes, Loss
from .turned_nodes import TurnedBack

MeshProxy = Callable[[bpy.types.Object, int], "bpy.types.Object | None"]
EMPTY_DISPLAY = {"box": "CUBE", "cylinder": "CUBE", "plane": "CUBE", "sphere": "SPHERE",
                 "capsule": "SPHERE"}

_UNSET = object()


class _Recorder:
    """Stands in for an object's settings: collects the values written to it."""

    __slots__ = ("writes",)

    def __init__(self) -> None:
        object.__setattr__(self, "writes", {})

    def __setattr__(self, name: str, value: Any) -> None:
        self.writes[name] = value


@dataclass(frozen=True, slots=True)
class _Plan:
    """The values to write, those of them that differ from the defaults, and whether a
    filter is written (as (name, value) pairs: looped over once per object)."""

    writes: tuple[tuple[str, Any], ...]
    changed: tuple[tuple[str, Any], ...]
    filtered: bool

    @staticmethod
    def of(writes: dict[str, Any], defaults: dict[str, Any]) -> "_Plan":
        return _Plan(tuple(writes.items()),
                     tuple((name, value) for name, value in writes.items()
                           if defaults.get(name, _UNSET) != value),
                     bool(writes.get("use_filter")))


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
        self._plans: dict[tuple[int, int | None, int, tuple[float, ...] | None],
                          tuple[NodePhysics, _Plan, Loss | None]] = {}
        self._side_effects = False
        self._shape_turn: Quaternion | None = None  # (`apply`'s turn, inverted)
        self.notes = LayerNotes(report, self.one_scene)  # what to say of the layers

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
        turn: Quaternion | None = None,
    ) -> None:
        """Set every physics property of `obj` from `physics` (unset ones to their defaults).
        `turn`: the turn the importer gave `obj` from its node (a camera's or light's), whose
        frame `physics` is stated in."""
        self._shape_turn = None
        if turn is not None:
            physics = TurnedBack(turn, self.yup).body(physics)  # (a new one: never shared)
            self._shape_turn = turn.inverted()
        key = (id(physics), own_mesh, self._layers_of(obj, physics),
               None if turn is None else tuple(turn))  # (a turned shape's rotation differs)
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
    ) -> Loss | None:
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

    def _flush(self, obj: bpy.types.Object, plan: "_Plan", loss: Loss | None) -> None:
        """Set the planned values; on an object still at its defaults, only those that
        differ (every write costs an RNA update). Notes a filter for `say_layer_changes`."""
        props = obj.gltf_physics
        untouched = self.objects_untouched or is_untouched(obj)
        for name, value in plan.changed if untouched else plan.writes:
            setattr(props, name, value)
        if plan.filtered:
            self.notes.filtered(self.scene_now, obj)
        if loss is not None:
            self.notes.losses[obj.name] = loss

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
        turn = self._shape_turn  # (the node's axes, in its turned object's frame)
        props.shape_rotation = (1.0, 0.0, 0.0, 0.0) if turn is None else tuple(turn)
        if shape.kind in MESH_SHAPES:
            mesh = shape.mesh if isinstance(shape.mesh, int) else None
            if mesh is not None and mesh == own_mesh:
                props.mesh_source = "SELF"
            else:
                props.mesh_source = "OBJECT"
                self._side_effects = True
                proxy = None if mesh is None else make_proxy(obj, mesh)
                if proxy is not None and turn is not None:
                    proxy.rotation_mode = "QUATERNION"
                    proxy.rotation_quaternion = turn
                props.mesh_object = proxy
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
                ) -> Loss | None:
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
                ) -> Loss | None:
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
        return Loss(tuple(dict.fromkeys(dropped)), bool(targets) and not any(ticked),
                     bool(flt.collision_systems) and not any(members))

    def _bits(self, names: tuple[str, ...], dropped: list[str]) -> tuple[bool, ...]:
        """The ticks of the layers named (appended when new); names without one go to
        `dropped`."""
        bits = [False] * MAX_LAYERS
        used = self.notes.used_in(self.scene_now)
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
        self.notes.appended(self.scene_now, len(self.layers) - 1)
        return len(self.layers) - 1

    def add_layers(self, objects_and_physics: Iterable[tuple[Any, NodePhysics]]) -> None:
        """Give each scene the collision systems its objects' filters name that it has no
        layer for yet, in `listed_order`: the order the filters list them in (a file's node
        order would decide the slots, and the export lists systems in slot order: each round
        trip turned the lists). The object is only read for its scene: None will do when
        the writer has one scene."""
        lists: dict[int, tuple[Any, Any, list[tuple[str, ...]]]] = {}
        for obj, physics in objects_and_physics:
            key = self._layers_of(obj, physics)
            found = lists.setdefault(key, (self.layers, self.scene_now, []))[2]
            for part in (physics.collider, physics.trigger):
                flt = part.filter if part is not None else None
                if flt is not None:
                    found.extend((flt.collision_systems, flt.collide_with_systems,
                                  flt.not_collide_with_systems))
        for layers, scene, found in lists.values():
            self.layers, self.scene_now = layers, scene
            taken = {layer.name for layer in layers}
            for name in listed_order(found):
                if name not in taken:
                    self._layer_index(name)
        self.layers, self.scene_now = self.scene_layers, self.scene

    def say_layer_changes(self, imported: Callable[[], set[bpy.types.Object]],
                          level: bool = True) -> None:
        """Say, once per import, what it did to collision layers (`LayerNotes.say`; `level`:
        the scene held objects before the import)."""
        self.notes.say(imported, level)


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
