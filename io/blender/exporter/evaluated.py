# SPDX-License-Identifier: GPL-3.0-or-later
"""Which depsgraph of an export evaluates an object another object's settings point to (a
shape's Mesh Object, a shaped gravity volume's mesh, a gravity line's object): read there,
its modifiers and shape keys count; an object no exported scene evaluates gives only its own
mesh."""

from collections.abc import Sequence
from itertools import chain

import bpy

from ..gravity.bridge import evaluated_objects


class Evaluated:
    """The depsgraphs of an export's scenes and the objects each evaluates (each walked once,
    when first asked about; `scenes` may grow while the export walks them, and the exporter
    makes each scene the context's in turn)."""

    def __init__(self, scenes: Sequence[bpy.types.Scene]) -> None:
        self._scenes = scenes
        self._found: dict[int, tuple[bpy.types.Depsgraph, set[int]]] = {}

    def reading(self, source: bpy.types.Object) -> bpy.types.Depsgraph | None:
        """The depsgraph that evaluates `source`: the context scene's, else one of an
        exported scene's view layers (the exporter evaluated it); None when none does."""
        here = bpy.context.evaluated_depsgraph_get()
        others = (layer.depsgraph for scene in self._scenes if scene != bpy.context.scene
                  for layer in scene.view_layers)
        for each in chain([here], others):
            if each is None:
                continue  # (a scene not evaluated since the file was opened)
            key = each.as_pointer()
            if key not in self._found:
                self._found[key] = (each, evaluated_objects(each))
            if source.session_uid in self._found[key][1]:
                return each
        return None


def loses_evaluation(source: bpy.types.Object) -> bool:
    """Whether `source` read unevaluated differs from its evaluated geometry: it has
    modifiers, or its mesh shape keys."""
    data = source.data
    return bool(source.modifiers) or getattr(data, "shape_keys", None) is not None


def written_evaluated(source: bpy.types.Object, applies_modifiers: bool) -> bool:
    """Whether the glTF exporter writes `source`'s visible mesh as evaluated: when there is
    nothing to evaluate, or when it applies modifiers and `source` has some (it then writes
    the evaluated mesh, shape keys too); a mesh with shape keys and no modifier is written
    as its basis with morph targets, Apply Modifiers or not."""
    return not loses_evaluation(source) or (applies_modifiers and bool(source.modifiers))
