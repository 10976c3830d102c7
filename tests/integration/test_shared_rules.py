# SPDX-License-Identifier: GPL-3.0-or-later
"""The scene check asks the rules it shares with the file checker (io/rules.py): the same
codes and messages for a scene as for the glTF file it exports to."""

import importlib

import bpy
from mathutils import Matrix

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

rules = importlib.import_module(f"{MODULE}.io.rules")
checker = importlib.import_module(f"{MODULE}.io.check.checker")


def problems(scene) -> dict[str, tuple[str, str]]:
    bpy.ops.gltf_physics.validate()
    return {p.obj: (p.code, p.message) for p in scene.gltf_physics.problems}


def test_scene_check_uses_the_shared_rules(clean_scene, tmp_path):
    sheet = h.mesh_object("Sheet", "cube", (3, 0, 0))
    sheet.data.transform(Matrix.Diagonal((1, 1, 0, 1)))
    h.set_physics(sheet, motion_type="DYNAMIC", shape_type="CONVEX")
    h.set_physics(h.empty_object("Pill"), shape_type="CAPSULE", size_mode="CUSTOM", height=0.1,
                  radius_top=0.5, radius_bottom=0.1)
    h.set_physics(h.empty_object("Ball"), shape_type="SPHERE", size_mode="CUSTOM", radius=0)
    found = problems(bpy.context.scene)
    assert found == {
        "Sheet": (rules.FLAT_HULL.code, rules.FLAT_HULL.message()),
        "Pill": (rules.SHORT_CAPSULE.code, rules.SHORT_CAPSULE.message()),
        "Ball": (rules.DEGENERATE_SIZE.code, rules.DEGENERATE_SIZE.message(kind="sphere")),
    }
    for fmt in ("KHR", "OMI"):  # the exported file gets the same findings from the checker
        path = tmp_path / f"rules_{fmt}.gltf"
        h.export(path, fmt)
        check = checker.check_file(path)
        assert {i.code for i in check.issues} == {code for code, _ in found.values()}, fmt
        assert check.count("error") == 0
