# SPDX-License-Identifier: GPL-3.0-or-later
"""Files from strangers, through a real import: a bad part of a file is said once and
skipped; the rest of its physics (and all of its geometry) is kept, and nothing a file
merely claims is allocated."""

import copy
import json
import resource

import bpy
import pytest

#: A dynamic Body whose convex shape uses mesh 1, which no node uses (the importer never
#: reads it), and a Geo mesh node with a box collider after it.
UNUSED_MESH_SHAPE = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
    "nodes": [
        {"name": "Body", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Geo", "mesh": 0, "extensions": {"OMI_physics_body": {
            "motion": {"type": "static"}, "collider": {"shape": 1}}}},
    ],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
               {"primitives": [{"attributes": {"POSITION": 2}}]}],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
         "min": [0, 0, 0], "max": [1, 1, 1]},
        {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"},
        {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
         "min": [0, 0, 0], "max": [1, 1, 1]},
    ],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48},
                    {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
    "buffers": [{"byteLength": 72, "uri": "data:application/octet-stream;base64,"
                 "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAACAAEAAAAB"
                 "AAMAAAADAAIAAQACAAMA"}],
    "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
    "extensions": {"OMI_physics_shape": {"shapes": [
        {"type": "convex", "convex": {"mesh": 1}}, {"type": "box", "box": {"size": [1, 2, 3]}}]}},
}


def import_logged(path, caplog) -> list[str]:
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("gltf_physics:")]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.parametrize("accessor, reason", [
    ({"componentType": 5126, "count": 5_000_000, "type": "VEC3"}, "claim 5,000,000 elements"),
    ({"bufferView": 0, "componentType": 5126, "count": 200_000_000, "type": "VEC3"},
     "claim 200,000,000 elements"),
    ({"bufferView": 0, "componentType": 5126, "count": 40, "type": "VEC3"},
     "buffer is smaller"),
    (None, "accessor 99 does not exist"),
], ids=["no-buffer-5M", "view-200M", "short-view", "missing"])
def test_a_shape_mesh_nobody_reads_is_checked_before_it_is_read(clean_scene, tmp_path, caplog,
                                                               accessor, reason):
    """The importer never reads a mesh only a shape uses: its claims are checked before
    anything is allocated, and a bad one costs that shape only (it aborted the rest)."""
    gltf = copy.deepcopy(UNUSED_MESH_SHAPE)
    if accessor is None:
        gltf["meshes"][1]["primitives"][0]["attributes"]["POSITION"] = 99
    else:
        gltf["accessors"][2] = accessor
    path = tmp_path / "claims.gltf"
    path.write_text(json.dumps(gltf))
    before = peak_mb()
    said = import_logged(path, caplog)
    assert peak_mb() - before < 150
    problems = [line for line in said if "[proxy-mesh]" in line]
    assert len(problems) == 1 and reason in problems[0], said
    assert not [line for line in said if "[import-failed]" in line], said
    body, geo = bpy.data.objects["Body"], bpy.data.objects["Geo"]
    assert body.gltf_physics.motion_type == "DYNAMIC"
    assert body.gltf_physics.shape_type == "CONVEX" and body.gltf_physics.mesh_object is None
    assert geo.gltf_physics.shape_type == "BOX" and len(geo.data.vertices) == 4
