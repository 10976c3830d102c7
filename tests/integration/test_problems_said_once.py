# SPDX-License-Identifier: GPL-3.0-or-later
"""Every import and export problem is printed once: in the glTF add-on's log, not also as a
plain line; the one summary goes to the log and the operator's report."""

import json

import bpy

from tests.integration import scene_helpers as h

BAD = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
    "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
    "extensions": {"KHR_implicit_shapes": {
        "shapes": [{"type": "sphere", "sphere": {"radius": -1}}]}},
    "nodes": [{"name": "Ball", "extensions": {"KHR_physics_rigid_bodies": {
        "collider": {"geometry": {"shape": 7}}, "motion": {"mass": 2}}}}],
}


def printed(capfd) -> list[str]:
    out = capfd.readouterr()
    return (out.out + out.err).splitlines()


def test_import_problems_are_printed_once(clean_scene, tmp_path, capfd):
    path = tmp_path / "bad.gltf"
    path.write_text(json.dumps(BAD))
    capfd.readouterr()
    bpy.ops.import_scene.gltf(filepath=str(path))
    lines = printed(capfd)
    for problem in ("shapes/0/sphere/radius: -1 is out of range", "shape: index 7 is not in 0..0"):
        said = [line for line in lines if problem in line]
        assert len(said) == 1, lines
        assert said[0].endswith("]") and "WARNING: gltf_physics: " in said[0]
    summary = [line for line in lines if "2 physics problems (out-of-range, bad-index)" in line]
    assert len(summary) == 2 and summary[1].startswith("Warning: "), lines  # log + report


def test_export_problems_are_printed_once(clean_scene, tmp_path, capfd):
    empty = h.empty_object("Lost")
    h.set_physics(empty, motion_type="DYNAMIC", shape_type="CONVEX")  # no mesh for a hull
    bpy.context.scene.gltf_physics.export_format = "KHR"
    capfd.readouterr()
    bpy.ops.export_scene.gltf(filepath=str(tmp_path / "lost.glb"), export_format="GLB")
    lines = printed(capfd)
    said = [line for line in lines if "Lost: no collision mesh; shape skipped" in line]
    assert len(said) == 1 and said[0].endswith("[shape-mesh-missing]"), lines


def test_a_problem_of_the_last_import_hook_is_said_too(clean_scene, tmp_path, capfd,
                                                      monkeypatch):
    """The log is written after the last hook: a problem found there is said once (it was
    found after the log and never said)."""
    import importlib

    from tests.integration.conftest import MODULE

    hooks = importlib.import_module(f"{MODULE}.io.blender.importer.import_hooks")

    def fail(self, gltf):
        raise RuntimeError("stand-in failure")

    monkeypatch.setattr(hooks.PhysicsImportExtension, "_remove_geometry_orphans", fail)
    path = tmp_path / "bad.gltf"
    path.write_text(json.dumps(BAD))
    capfd.readouterr()
    bpy.ops.import_scene.gltf(filepath=str(path))
    lines = printed(capfd)
    said = [line for line in lines if "orphan geometry nodes kept: stand-in failure" in line]
    assert len(said) == 1, lines
