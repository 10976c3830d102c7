# SPDX-License-Identifier: GPL-3.0-or-later
"""Export → import → export round trips, corpus imports, and robustness of the importer."""

import json

import addon_utils
import bpy
import pytest

from tests.conftest import CORPUS
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason=f"shared corpus not found at {CORPUS} (../shared beside the checkout)",
)


@pytest.mark.parametrize(("fmt", "geometry"), [("KHR", "MESH"), ("KHR", "NODE"), ("OMI", "MESH")])
def test_export_import_export_is_stable(clean_scene, tmp_path, fmt, geometry):
    h.build_showcase()
    first = h.export(tmp_path / "first.gltf", fmt, geometry)
    h.import_file(tmp_path / "first.gltf")
    second = h.export(tmp_path / "second.gltf", fmt, geometry)
    h.assert_valid(tmp_path / "second.gltf", geometry_node=geometry == "NODE")
    h.assert_close(h.physics_subtree(first), h.physics_subtree(second))
    assert len(second.get("meshes", [])) == len(first.get("meshes", []))


def test_imported_properties_match_authored(clean_scene, tmp_path):
    h.build_showcase()
    h.export(tmp_path / "a.glb", "OMI")
    h.assert_valid(tmp_path / "a.glb")
    h.import_file(tmp_path / "a.glb")
    box = bpy.data.objects["Box"].gltf_physics
    assert (box.motion_type, box.shape_type, box.size_mode) == ("DYNAMIC", "BOX", "CUSTOM")
    assert tuple(box.linear_velocity) == pytest.approx((1, 2, 3))
    assert tuple(box.center_of_mass) == pytest.approx((0.1, 0.2, 0.3))
    assert tuple(box.inertia_diagonal) == pytest.approx((1, 2, 3))
    assert tuple(box.inertia_orientation) == pytest.approx((0.9238795, 0.3826834, 0, 0), abs=1e-6)
    assert box.filter_mode == "ONLY"
    layers = [layer.name for layer in bpy.context.scene.gltf_physics.layers]
    assert sorted(layers) == ["Players", "Props"]
    pill = bpy.data.objects["Pill"].gltf_physics
    assert (pill.height, pill.radius_top, pill.radius_bottom) == pytest.approx((1.2, 0.3, 0.4))
    zone = bpy.data.objects["Zone.shape"]
    assert zone.type == "EMPTY" and zone.empty_display_type == "CUBE"
    assert zone.gltf_physics.shape_role == "TRIGGER"
    shell = bpy.data.objects["Shell"].gltf_physics
    assert shell.mesh_source == "OBJECT" and shell.mesh_object.gltf_physics.collision_only
    assert bpy.data.objects["Gate"].gltf_physics.is_compound_trigger


def _import_counts(path):
    h.import_file(path)
    objs = list(bpy.data.objects)
    return {
        "meshes": sum(1 for o in objs if o.type == "MESH" and not o.gltf_physics.collision_only),
        "objects": {o.name for o in objs if not o.gltf_physics.collision_only},
        # Moving bodies: KHR static joint partners also become Static bodies on import.
        "bodies": sum(1 for o in objs if o.gltf_physics.motion_type in ("DYNAMIC", "KINEMATIC")),
        "shapes": sorted(
            o.gltf_physics.shape_type for o in objs if o.gltf_physics.shape_type != "NONE"
        ),
    }


def _corpus_files():
    if not CORPUS.is_dir():
        return []
    files = CORPUS.rglob("*.gl*")  # every revision: current, legacy, samples, seeds
    return sorted(p for p in files if p.suffix in (".gltf", ".glb"))


def _expected_shapes(path):
    """Shape kinds the pure decoder finds (one per collider or shaped trigger)."""
    from gltf_physics.io.codecs.registry import decode_document
    from gltf_physics.io.diagnostics import Report
    from gltf_physics.io.document import DocumentView

    scene = decode_document(DocumentView.from_json(h.load_gltf(path)), Report())
    kinds, bodies = [], 0
    for physics in scene.nodes.values():
        bodies += physics.motion is not None and physics.motion.kind != "static"
        for part in (physics.collider, physics.trigger):
            if part is not None and part.shape is not None:
                kinds.append(part.shape.kind.upper())
    return sorted(kinds), bodies


@needs_corpus
@pytest.mark.corpus
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file_imports_with_bodies_and_shapes(clean_scene, path):
    addon_utils.disable(MODULE, default_set=True)
    try:
        h.import_file(path)
        plain_meshes = sum(1 for o in bpy.data.objects if o.type == "MESH")
        plain_names = {o.name for o in bpy.data.objects}
    finally:
        addon_utils.enable(MODULE, default_set=True)
    counts = _import_counts(path)
    kinds, bodies = _expected_shapes(path)
    assert counts["shapes"] == kinds
    assert counts["bodies"] == bodies
    names = json.dumps(h.load_gltf(path).get("extensionsUsed", []))
    has_physics = any(n in names for n in ("_physics_body", "_physics_shape", "OMI_collider",
                                           "KHR_physics_rigid_bodies"))
    assert (bodies + len(kinds) > 0) == has_physics
    # Physics never costs geometry: every mesh object of a plain import is there (KHR
    # geometry.node orphans excepted: they become collision proxies).
    orphans = plain_names - counts["objects"]
    assert all("physics" in n.lower() or "mesh" in n.lower() for n in orphans), orphans
    assert counts["meshes"] >= plain_meshes - len(orphans)


def test_required_extensions_and_malformed_blocks_import(clean_scene, tmp_path):
    h.build_showcase()
    gltf = h.export(tmp_path / "ok.gltf", "KHR")
    h.assert_valid(tmp_path / "ok.gltf")
    gltf["extensionsRequired"] = ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"]
    nodes = {n["name"]: n for n in gltf["nodes"]}
    body = nodes["Box"]["extensions"]["KHR_physics_rigid_bodies"]
    body["collider"]["geometry"]["shape"] = 999  # dangling
    nodes["Ball"]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"] = "heavy"
    nodes["Can"]["extensions"]["KHR_physics_rigid_bodies"]["motion"] = [1, 2, 3]
    gltf["extensions"]["KHR_implicit_shapes"]["shapes"][0] = {"type": "torus"}
    bad = tmp_path / "bad.gltf"
    bad.write_text(json.dumps(gltf))
    meshes_before = len(gltf["meshes"])
    h.import_file(bad)
    assert sum(1 for o in bpy.data.objects if o.type == "MESH") >= meshes_before - 1
    box = bpy.data.objects["Box"].gltf_physics
    assert box.motion_type == "DYNAMIC" and box.shape_type == "NONE"  # bad shape skipped only
    ball = bpy.data.objects["Ball"].gltf_physics
    assert ball.motion_type == "DYNAMIC" and ball.mass == 1.0
    assert bpy.data.objects["Can"].gltf_physics.motion_type == "NONE"
    assert bpy.data.objects["Pill"].gltf_physics.shape_type == "CAPSULE"
