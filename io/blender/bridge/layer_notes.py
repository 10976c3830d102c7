# SPDX-License-Identifier: GPL-3.0-or-later
"""What an import did to collision layers, said once after every node is written: systems
dropped for want of a layer, imported filters in another scene whose layers differ, and the
user's objects whose ticks a new layer gives meaning to. Scenes are scanned only when one of
these may apply."""

from collections.abc import Callable
from dataclasses import dataclass

import bpy

from ...diagnostics import Report, listing
from ..instances import exported_objects
from ..layer_ticks import name_at, ticking
from ..settings.properties import MAX_LAYERS

Scene = bpy.types.Scene
NAMED = 10  # objects named in a message about layers; the rest counted


@dataclass(frozen=True, slots=True)
class Loss:
    """What a filter lost to a full layer list: the systems dropped, and whether its
    'Collides Only/Except With' rule, or its membership, named nothing else."""

    systems: tuple[str, ...]
    rule_emptied: bool
    membership_emptied: bool


class LayerNotes:
    """The layer changes of one import (`PropertyWriter` notes them as it writes)."""

    def __init__(self, report: Report, one_scene: bool) -> None:
        self.report = report
        self.one_scene = one_scene
        self.losses: dict[str, Loss] = {}  # what a filter lost, by object name
        self._added: dict[Scene, list[int]] = {}  # the layers appended, by scene
        self._filtered: dict[Scene, dict[bpy.types.Object, None]] = {}  # by their layers' scene
        self._used: dict[Scene, set[int]] = {}  # the layers their filters tick

    def filtered(self, scene: Scene, obj: bpy.types.Object) -> None:
        """`obj` got a filter, ticking `scene`'s layers."""
        self._filtered.setdefault(scene, {})[obj] = None

    def used_in(self, scene: Scene) -> set[int]:
        """The layer numbers of `scene` the import's filters tick (to add to)."""
        return self._used.setdefault(scene, set())

    def appended(self, scene: Scene, index: int) -> None:
        """The import appended layer `index` to `scene`."""
        self._added.setdefault(scene, []).append(index)

    def say(self, imported: Callable[[], set[bpy.types.Object]], level: bool = True) -> None:
        """Say what the import did to collision layers: systems dropped for want of a layer
        (`too-many-layers`), imported filters also in a scene whose layers of those
        numbers differ or are missing (`layers-differ-in-scene`), and other objects whose
        ticks a new layer gives meaning to (`layer-already-ticked`; only when the scene
        held objects before the import: `level`). `imported`: the objects the import made."""
        if self.losses:
            self._say_dropped()
        scenes = _ExportedObjects()
        if not self.one_scene and self._filtered:
            self._say_other_scenes(scenes)
        if self._added and level:  # (an empty scene holds no one else's ticks)
            self._say_ticked(scenes, imported())

    def _say_dropped(self) -> None:
        """The systems dropped for want of a layer, the objects that lost each, and what
        their filters mean now."""
        by_system: dict[str, list[str]] = {}
        for name, loss in sorted(self.losses.items()):
            for system in loss.systems:
                by_system.setdefault(system, []).append(name)
        lost = [f"{system} from {_named(names)}" for system, names in by_system.items()]
        text = f"more than {MAX_LAYERS} layers; dropped from the collision filters: " \
            f"{'; '.join(lost)}"
        rules = sorted(name for name, loss in self.losses.items() if loss.rule_emptied)
        if rules:
            text += (f". Now colliding with every layer, as their 'Collides Only/Except With' "
                     f"named only dropped systems: {_named(rules)}")
        homeless = sorted(name for name, loss in self.losses.items() if loss.membership_emptied)
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
            one = len(parts) == 1
            where, scene = ("another scene", "the scene") if one else ("other scenes", "each")
            self.report.warn(
                "layers-differ-in-scene", ", ".join(parts),
                f"imported objects with a collision filter are also in {where}, whose layers "
                "of the same numbers are other layers or missing (a filter ticks layers by "
                f"number): {'; '.join(parts.values())}; give {scene} the same layers in the "
                "same order, or keep the objects out of it")

    def _in_other_scene(self, home: Scene, names: list[str], used: list[int], other: Scene,
                        objects: dict[bpy.types.Object, None], scenes: "_ExportedObjects"
                        ) -> str | None:
        """What to say of `home`'s filtered `objects` also in `other` (None: nothing). The
        import changes only the scene it imports into: `other`'s layers are left as they
        are, even when it only lacks some."""
        theirs = _names(other)
        differ = [i for i in used if name_at(theirs, i) != names[i]]
        placed = scenes.of(other) if differ else set()
        shared = [obj for obj in objects if obj in placed]
        if not shared:
            return None
        named = sorted({name for names in ticking(shared, differ).values() for name in names})
        layers = ", ".join(f"layer {i + 1} is {_there(theirs, i)} ({names[i]} in {home.name})"
                           for i in differ)
        return f"in scene {other.name}, {layers}: {_named(named)}" if named else None

    def _say_ticked(self, scenes: "_ExportedObjects", imported: set[bpy.types.Object]) -> None:
        """Other objects already ticking the slot of a layer the import appended."""
        parts: list[str] = []
        for scene, indices in self._added.items():
            made = set(self._filtered.get(scene, ()))
            names = _names(scene)
            found = ticking(scenes.of(scene) - imported - made, indices)
            parts += [f"layer {i + 1} {names[i]} of scene {scene.name} by {_named(objects)}"
                      for i, objects in found.items()]
        if parts:
            self.report.warn(
                "layer-already-ticked", "",
                f"new layers from this import were already ticked: {'; '.join(parts)} (ticks "
                "set for another scene's layers, or in the file those objects came from): "
                "their filters now name the new layer, and so does their export; their ticks "
                "were kept: untick them where not meant")


class _ExportedObjects:
    """A scene's exported objects (io/blender/instances.py), listed once per import, on
    first need."""

    def __init__(self) -> None:
        self._of: dict[Scene, set[bpy.types.Object]] = {}

    def of(self, scene: Scene) -> set[bpy.types.Object]:
        if scene not in self._of:
            self._of[scene] = set(exported_objects(scene))
        return self._of[scene]


def _named(names: list[str]) -> str:
    """Object names for a message: the first few, the rest counted."""
    return listing(names, NAMED)


def _names(scene: Scene) -> list[str]:
    return [layer.name for layer in scene.gltf_physics.layers]


def _there(names: list[str], index: int) -> str:
    name = name_at(names, index)
    return "missing there" if name is None else f"{name} there"
