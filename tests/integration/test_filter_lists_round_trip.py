# SPDX-License-Identifier: GPL-3.0-or-later
"""A file's collision filters come back with the lists it had: the import gives new layers
the order the filters list them in (not the order their nodes are met in), and the export
lists a filter's systems in layer order, so a second round trip changes nothing (each one
turned the KHR samples' lists: System_2, System_0, System_1, then System_1, System_2...)."""

import bpy
import pytest

from tests.conftest import CORPUS
from tests.integration import scene_helpers as h
from tests.integration.test_export_filters import export_logged, said

SAMPLES = ["khr/samples/WaterWheel/WaterWheel.gltf", "khr/samples/Filtering/Filtering.gltf"]


def filters(gltf: dict) -> list[dict]:
    return gltf["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"]


def by_systems(entries: list[dict]) -> list[tuple]:
    """The filters' lists, whatever the pool's order (the export pools them as met)."""
    return sorted(tuple(tuple(entry.get(key, ())) for key in (
        "collisionSystems", "collideWithSystems", "notCollideWithSystems"))
        for entry in entries)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"shared corpus not found at {CORPUS} "
                    "(../shared beside the checkout)")
@pytest.mark.parametrize("sample", SAMPLES)
def test_filter_lists_come_back_as_the_file_had_them(clean_scene, tmp_path, sample):
    source = CORPUS / sample
    h.import_file(source)
    first = h.export(tmp_path / "first.gltf", "KHR")
    assert by_systems(filters(first)) == by_systems(filters(h.load_gltf(source)))
    h.import_file(tmp_path / "first.gltf")
    second = h.export(tmp_path / "second.gltf", "KHR")
    assert filters(second) == filters(first)


def test_a_filter_ticking_layers_a_second_scene_lacks_is_said(clean_scene, tmp_path, caplog):
    """Scene B (no layers) shares a box whose filter ticks A's layers 1 and 2 by number: B's
    copy of the filter was written empty, unsaid."""
    clean_scene.name = "A"
    for name in ("Props", "Players"):
        clean_scene.gltf_physics.layers.add().name = name
    box = h.set_physics(h.mesh_object("Box"), motion_type="DYNAMIC", shape_type="BOX",
                        use_filter=True, filter_layers=(True,) + (False,) * 31,
                        filter_mode="EXCEPT", filter_targets=(False, True) + (False,) * 30)
    bpy.data.scenes.new("B").collection.objects.link(box)
    _gltf, log = export_logged(tmp_path / "out.gltf", "KHR", caplog, use_active_scene=False)
    assert said(log, "filter-layer-missing") == [
        "gltf_physics: a collision filter ticks layer 1, 2, which scene B does not have (it "
        "has 0): left out of the filter written for it (give the scene those layers, or "
        "untick them) [filter-layer-missing]"], log
