# SPDX-License-Identifier: GPL-3.0-or-later
"""A file's collision filters come back with the lists it had: the import gives new layers
the order the filters list them in (not the order their nodes are met in), and the export
lists a filter's systems in layer order, so a second round trip changes nothing (each one
turned the KHR samples' lists: System_2, System_0, System_1, then System_1, System_2...)."""

import pytest

from tests.conftest import CORPUS
from tests.integration import scene_helpers as h

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
