# SPDX-License-Identifier: GPL-3.0-or-later
"""The triangles of a stranger's collider mesh as the checker and the converter read them
(`MeshData`): strips and fans are triangles, sparse accessors apply, and a primitive that
gives none (points or lines, Draco-compressed, a POSITION that is not VEC3, positions that
are not finite, indices past its vertices) is left out and said; a mesh of nothing else is
refused with the reasons."""

from __future__ import annotations

import base64
import math
import struct
from typing import Any

import numpy as np
import pytest

from gltf_physics.io.mesh_data import MeshData, triangle_corners

#: A unit quad's four corners (z 0), and one point above it.
QUAD = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 0.0), (0.5, 0.5, 1.0)]


def document(points: list[tuple[float, ...]], order: list[int] | None,
             **primitive: Any) -> dict[str, Any]:
    """One mesh of one primitive over `points` (its indices `order`, uint16)."""
    blob = b"".join(struct.pack("<3f", *p) for p in points)
    views = [{"buffer": 0, "byteLength": len(blob)}]
    accessors = [{"bufferView": 0, "componentType": 5126, "type": "VEC3",
                  "count": len(points)}]
    found = {"attributes": {"POSITION": 0}, **primitive}
    if order is not None:
        data = struct.pack(f"<{len(order)}H", *order)
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
        accessors.append({"bufferView": 1, "componentType": 5123, "type": "SCALAR",
                          "count": len(order)})
        found["indices"] = 1
        blob += data
    return {"buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;"
                         "base64," + base64.b64encode(blob).decode()}],
            "bufferViews": views, "accessors": accessors, "meshes": [{"primitives": [found]}]}


def test_strips_and_fans_follow_gltfs_rules() -> None:
    order = np.arange(5)
    assert triangle_corners(order, 5).tolist() == [[0, 1, 2], [1, 3, 2], [2, 3, 4]]
    assert triangle_corners(order, 6).tolist() == [[1, 2, 0], [2, 3, 0], [3, 4, 0]]
    assert triangle_corners(order[:2], 5).shape == (0, 3)


@pytest.mark.parametrize(("mode", "order"), [(4, [0, 1, 2, 0, 2, 3]), (5, [1, 2, 0, 3]),
                                             (6, [0, 1, 2, 3])])
def test_a_quad_as_triangles_a_strip_or_a_fan_has_the_same_area(mode: int,
                                                                order: list[int]) -> None:
    """A strip or a fan was read as no triangles: its collider was lost."""
    meshes = MeshData(document(QUAD[:4], order, mode=mode), None, None)
    _points, triangles = meshes.mesh(0)
    area = sum(np.linalg.norm(np.cross(t[1] - t[0], t[2] - t[0])) / 2 for t in triangles)
    assert len(triangles) == 2 and area == pytest.approx(1.0)
    assert meshes.notes[0] == []


def test_a_sparse_accessor_moves_its_points() -> None:
    """The sparse values were ignored: the checker and converter read the base points."""
    gltf = document(QUAD, [0, 1, 2, 0, 2, 3, 0, 1, 4])
    moved = struct.pack("<H", 4) + struct.pack("<3f", 0.5, 0.5, 7.0)
    blob = base64.b64decode(gltf["buffers"][0]["uri"].split(",", 1)[1])
    start = len(blob)
    blob += moved
    gltf["buffers"][0] = {"byteLength": len(blob), "uri": "data:application/octet-stream;"
                          "base64," + base64.b64encode(blob).decode()}
    gltf["bufferViews"] += [{"buffer": 0, "byteOffset": start, "byteLength": 2},
                            {"buffer": 0, "byteOffset": start + 2, "byteLength": 12}]
    gltf["accessors"][0]["sparse"] = {"count": 1,
                                      "indices": {"bufferView": 2, "componentType": 5123},
                                      "values": {"bufferView": 3}}
    points, _triangles = MeshData(gltf, None, None).mesh(0)
    assert points[4].tolist() == [0.5, 0.5, 7.0] and points[0].tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(("change", "said"), [
    ({"mode": 0}, "a primitive of points has no triangles"),
    ({"mode": 1}, "a primitive of lines has no triangles"),
    ({"draco": True}, "a primitive is Draco-compressed, which is not decoded"),
    ({"vec2": True}, "a primitive's POSITION is VEC2, not VEC3"),
    ({"nan": True}, "a primitive's positions are not all finite numbers"),
    ({"past": True}, "a primitive's indices pass its 5 vertices"),
])
def test_a_primitive_without_triangles_is_left_out_and_said(change: dict[str, Any],
                                                            said: str) -> None:
    """Beside a good primitive, the bad one is left out with its reason (it was read as
    zeros, scrambled, truncated, or the whole mesh refused); alone, the mesh is refused."""
    points = [(math.nan, 0.0, 0.0), *QUAD[1:]] if change.get("nan") else QUAD
    gltf = document(points, [0, 1, 2, 0, 2, 9 if change.get("past") else 4],
                    mode=change.get("mode", 4))
    bad = gltf["meshes"][0]["primitives"][0]
    if change.get("draco"):
        gltf["accessors"][0].pop("bufferView")
        bad["extensions"] = {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {}}}
    if change.get("vec2"):
        gltf["accessors"][0].update(type="VEC2", count=7)
    good = document(QUAD[:3], None)
    good_start = len(gltf["accessors"])
    gltf["accessors"].append({**good["accessors"][0], "bufferView": 0, "byteOffset": 12})
    gltf["meshes"].append({"primitives": [bad, {"attributes": {"POSITION": good_start}}]})
    meshes = MeshData(gltf, None, None)
    with pytest.raises(ValueError, match=said.replace("(", r"\(")):
        meshes.mesh(0)
    points_read, triangles = meshes.mesh(1)
    assert len(triangles) == 1 and meshes.notes[1] == [said]
    assert np.isfinite(points_read).all()


def test_the_checker_and_the_converter_say_a_primitive_left_out() -> None:
    """A convex collider mesh with a lines primitive beside its triangles: the importer
    leaves the lines out and says so; the checker and the converter now say it too."""
    from gltf_physics.io.check.checker import check_document
    from gltf_physics.io.convert import convert_document
    from gltf_physics.io.diagnostics import Report

    gltf = document(QUAD, [0, 1, 2, 0, 2, 3, 0, 1, 4])
    gltf["meshes"][0]["primitives"].append({"attributes": {"POSITION": 0}, "mode": 1})
    gltf.update(asset={"version": "2.0"}, scene=0, scenes=[{"nodes": [0]}],
                extensionsUsed=["OMI_physics_shape", "OMI_physics_body"],
                nodes=[{"name": "Rock", "extensions": {"OMI_physics_body": {
                    "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}],
                extensions={"OMI_physics_shape": {"shapes": [
                    {"type": "convex", "convex": {"mesh": 0}}]}})
    checked = check_document(gltf)
    [found] = [i for i in checked.issues if i.code == "mesh-part-left-out"]
    assert "a primitive of lines has no triangles" in found.message
    report = Report()
    convert_document(gltf, "KHR", report=report)
    assert [i.where for i in report.issues if i.code == "mesh-part-left-out"] == ["/meshes/0"]


def test_a_primitive_without_position_is_said() -> None:
    """It raised KeyError('POSITION') and the checker gave no reason."""
    gltf = document(QUAD[:3], None)
    gltf["meshes"][0]["primitives"].insert(0, {"attributes": {"NORMAL": 0}})
    meshes = MeshData(gltf, None, None)
    assert len(meshes.mesh(0)[1]) == 1 and meshes.notes[0] == ["a primitive has no POSITION"]


def _bodies(gltf: dict[str, Any], kind: str, count: int) -> dict[str, Any]:
    """`count` dynamic bodies sharing one OMI `kind` shape of mesh 0."""
    gltf.update(asset={"version": "2.0"}, scene=0, scenes=[{"nodes": list(range(count))}],
                extensionsUsed=["OMI_physics_shape", "OMI_physics_body"],
                nodes=[{"name": f"Rock{n}", "extensions": {"OMI_physics_body": {
                    "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}
                    for n in range(count)],
                extensions={"OMI_physics_shape": {"shapes": [
                    {"type": kind, kind: {"mesh": 0}}]}})
    return gltf


def test_the_checker_says_a_trimesh_part_left_out_once_for_its_shapes() -> None:
    from gltf_physics.io.check.checker import check_document

    gltf = document(QUAD, [0, 1, 2, 0, 2, 3])
    gltf["meshes"][0]["primitives"].append({"attributes": {"POSITION": 0}, "mode": 3})
    checked = check_document(_bodies(gltf, "trimesh", 3))
    assert [i.message for i in checked.issues if i.code == "mesh-part-left-out"] == [
        "mesh 0: a primitive of a line strip has no triangles: readers leave it out"]


def test_the_converter_says_a_mesh_of_nothing_readable_once() -> None:
    """Each body said it unreadable, and the mesh was said 'left out' again."""
    from gltf_physics.io.convert import convert_document
    from gltf_physics.io.diagnostics import Report

    gltf = document(QUAD, [0, 1, 2, 0, 2, 3], mode=1)
    report = Report()
    convert_document(_bodies(gltf, "convex", 2), "KHR", report=report)
    codes = [i.code for i in report.issues if "mesh" in i.code]
    assert "mesh-part-left-out" not in codes and codes.count("mesh-unreadable") == 2, codes


@pytest.mark.parametrize("bad", ["primitive", "sparse"])
def test_a_malformed_primitive_or_sparse_part_never_aborts_the_converter(bad: str) -> None:
    """A primitive given as a string, or a sparse part whose indices are one, aborted the
    converter ("internal failure (AttributeError)") where it said the mesh unreadable."""
    from gltf_physics.io.convert import convert_document
    from gltf_physics.io.diagnostics import Report

    gltf = document(QUAD, [0, 1, 2, 0, 2, 3])
    if bad == "primitive":
        gltf["meshes"][0]["primitives"] = ["x"]
    else:
        gltf["accessors"][0]["sparse"] = {"count": 1, "indices": "x", "values": {}}
    report = Report()
    convert_document(_bodies(gltf, "convex", 1), "KHR", report=report)
    assert "mesh-unreadable" in {i.code for i in report.issues}
