# SPDX-License-Identifier: GPL-3.0-or-later
"""The bench's export floor writes the file our export writes, without reading a property:
the floor / plain ratio is the glTF add-on's cost of carrying exactly our physics."""

import pytest

from scripts import bench


def _document(path):
    gltf, _binary = bench.load_module("asset_files").read_asset(str(path))
    return gltf


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_floor_writes_our_file(tmp_path, fmt):
    paths = {"blend": str(tmp_path / "scene.blend"), "KHR": str(tmp_path / "khr.glb"),
             "OMI": str(tmp_path / "omi.glb")}
    bench.run_worker({"kind": "build", "size": 60, **paths})  # exports ours in both formats
    floor = tmp_path / "floor.glb"
    phase = bench.Phase(f"export_floor_{fmt.lower()}", "export", True, fmt, floor=True)
    spec = bench.phase_spec(phase, 60) | {"blend": paths["blend"], "source": paths[fmt],
                                           "target": str(floor)}
    bench.run_worker(spec)
    ours, written = _document(paths[fmt]), _document(floor)
    assert any(name.endswith(".connected") for name in (n.get("name") for n in ours["nodes"]))
    assert written == ours
