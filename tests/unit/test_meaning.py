# SPDX-License-Identifier: GPL-3.0-or-later
"""The meaning comparison helper: same meaning despite different JSON, and real differences."""

from __future__ import annotations

import base64
import copy
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import CORPUS
from tests.support.meaning import (
    file_differences,
    meaning_differences,
    node_labels,
    physics_meaning,
)

KHR_SHAPES, KHR_BODIES = "KHR_implicit_shapes", "KHR_physics_rigid_bodies"
OMI_SHAPE, OMI_BODY = "OMI_physics_shape", "OMI_physics_body"
BOX = {"type": "box", "box": {"size": [1.0, 2.0, 3.0]}}
CUBE = {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}
BIG_CUBE = {"type": "box", "box": {"size": [2.0, 2.0, 2.0]}}
BALL = {"type": "sphere", "sphere": {"radius": 5.0}}
SIN45 = math.sqrt(0.5)


# -- document builders ---------------------------------------------------------------------


def node(name: str | None, physics: dict[str, Any] | None = None, ext: str = KHR_BODIES,
         children: tuple[int, ...] = (), **transform: Any) -> dict[str, Any]:
    out: dict[str, Any] = {} if name is None else {"name": name}
    if physics is not None:
        out["extensions"] = {ext: physics}
    if children:
        out["children"] = list(children)
    return out | transform


def khr(nodes: list[dict[str, Any]], shapes: Sequence[dict[str, Any]] = (), **pools: Any
        ) -> dict[str, Any]:
    """A KHR document; `pools` are physicsMaterials, physicsJoints, ..."""
    return _document(nodes, {KHR_SHAPES: {"shapes": list(shapes)}, KHR_BODIES: pools})


def omi(nodes: list[dict[str, Any]], shapes: Sequence[dict[str, Any]] = (), **pools: Any
        ) -> dict[str, Any]:
    """An OMI document; `pools` are physicsMaterials, collisionFilters."""
    return _document(nodes, {OMI_SHAPE: {"shapes": list(shapes)}, OMI_BODY: pools})


def _document(nodes: list[dict[str, Any]], extensions: dict[str, Any]) -> dict[str, Any]:
    children = {c for n in nodes for c in n.get("children", [])}
    return {
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}],
        "nodes": nodes,
        "extensionsUsed": list(extensions),
        "extensions": extensions,
    }


def khr_collider(shape: int, **extra: Any) -> dict[str, Any]:
    return {"collider": {"geometry": {"shape": shape}, **extra}}


def omi_collider(shape: int, **extra: Any) -> dict[str, Any]:
    return {"collider": {"shape": shape, **extra}}


def khr_body(motion: dict[str, Any], shape: int = 0) -> dict[str, Any]:
    """A KHR document with one body 'Body' carrying a box collider."""
    return khr([node("Body", {"motion": motion, **khr_collider(shape)})], [BOX])


def with_mesh(doc: dict[str, Any], positions: np.ndarray,
              indices: np.ndarray | None = None) -> dict[str, Any]:
    """Add mesh 0 (positions, optional uint16 indices) with its data in a data: URI."""
    data = positions.astype("<f4").tobytes()
    accessors: list[dict[str, Any]] = [{
        "bufferView": 0, "componentType": 5126, "count": len(positions), "type": "VEC3",
        "min": positions.min(axis=0).tolist(), "max": positions.max(axis=0).tolist()}]
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": len(data)}]
    primitive: dict[str, Any] = {"attributes": {"POSITION": 0}}
    if indices is not None:
        index_bytes = indices.astype("<u2").tobytes()
        views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(index_bytes)})
        accessors.append({"bufferView": 1, "componentType": 5123, "count": len(indices),
                          "type": "SCALAR"})
        data += index_bytes
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return doc | {"buffers": [{"byteLength": len(data), "uri": uri}], "bufferViews": views,
                  "accessors": accessors, "meshes": [{"primitives": [primitive | (
                      {"indices": 1} if indices is not None else {})]}]}


CUBE_POINTS = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
CUBE_TRIANGLES = np.array([  # outward wound; corner i has bits (x, y, z) = (i>>2, i>>1, i) & 1
    0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
    2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3])


def diffs(first: dict[str, Any], second: dict[str, Any], target: str | None = None) -> list[str]:
    return meaning_differences(first, None, second, None, target)


# -- same meaning, different JSON ----------------------------------------------------------


def test_computed_mass_equals_computed_mass() -> None:
    bare = khr_body({})
    spelled = khr_body({"gravityFactor": 1.0, "linearVelocity": [0, 0, 0],
                        "inertiaOrientation": [0, 0, 0, 1]})
    assert diffs(bare, spelled) == []
    assert physics_meaning(bare).bodies["Body"].mass is None


def test_omi_without_centre_equals_khr_with_explicit_origin() -> None:
    body = omi([node("Body", {"motion": {"type": "dynamic"}, **omi_collider(0)}, OMI_BODY)],
               [BOX])
    explicit = khr_body({"mass": 1.0, "centerOfMass": [0, 0, 0]})
    assert diffs(body, explicit) == []
    assert diffs(explicit, body) == []


def off_centre_body(motion: dict[str, Any], family: str) -> dict[str, Any]:
    """Body with a unit cube at (0, 1, 0), a 2 m cube at (3, 0, 0) and a far trigger ball."""
    build, ext = (khr, KHR_BODIES) if family == "khr" else (omi, OMI_BODY)
    shape = (lambda i: {"geometry": {"shape": i}}) if family == "khr" else (
        lambda i: {"shape": i})
    return build([
        node("Body", {"motion": motion}, ext, children=(1, 2, 3)),
        node("Small", {"collider": shape(0)}, ext, translation=[0.0, 1.0, 0.0]),
        node("Big", {"collider": shape(1)}, ext, translation=[3.0, 0.0, 0.0]),
        node("Sensor", {"trigger": shape(2)}, ext, translation=[-10.0, 0.0, 0.0]),
    ], [CUBE, BIG_CUBE, BALL])


CENTROID = (24 / 9, 1 / 9, 0.0)  # volume-weighted: (1·(0,1,0) + 8·(3,0,0)) / 9


def test_computed_centre_equals_explicit_centroid() -> None:
    computed = off_centre_body({"mass": 2.0}, "khr")
    explicit = off_centre_body({"type": "dynamic", "mass": 2.0,
                                "centerOfMass": list(CENTROID)}, "omi")
    assert physics_meaning(computed).bodies["Body"].center_of_mass == pytest.approx(CENTROID)
    assert diffs(computed, explicit) == []


def test_explicit_origin_differs_from_off_centre_centroid() -> None:
    computed = off_centre_body({"mass": 2.0}, "khr")
    at_origin = off_centre_body({"mass": 2.0, "centerOfMass": [0, 0, 0]}, "khr")
    assert diffs(computed, at_origin) == [
        "body 'Body': world centre of mass [2.66667, 0.111111, 0] != [0, 0, 0]"]


def test_omi_material_without_combine_equals_khr_average() -> None:
    material = {"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1}
    average = material | {"frictionCombine": "average", "restitutionCombine": "average"}
    body = {"motion": {"type": "dynamic"}, **omi_collider(0, physicsMaterial=0)}
    first = omi([node("Body", body, OMI_BODY)], [BOX], physicsMaterials=[material])
    second = khr([node("Body", {"motion": {"mass": 1}, **khr_collider(0, physicsMaterial=0)})],
                 [BOX], physicsMaterials=[average])
    assert diffs(first, second) == []


def test_static_body_equals_colliders_without_body() -> None:
    static = omi([node("Floor", {"motion": {"type": "static"}, **omi_collider(0)}, OMI_BODY)],
                 [BOX])
    bare = khr([node("Floor", khr_collider(0))], [BOX])
    assert diffs(static, bare) == []
    assert physics_meaning(static).bodies == {}


def test_rotated_box_with_swapped_sizes_is_the_same_box() -> None:
    turned = khr([node("Box", khr_collider(0), rotation=[0, 0, SIN45, SIN45])], [BOX])
    swapped = khr([node("Box", khr_collider(0))], [{"type": "box", "box": {"size": [2, 1, 3]}}])
    assert diffs(turned, swapped) == []


def test_flipped_tapered_capsule_is_the_same_capsule() -> None:
    capsule = {"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.2, "radiusBottom": 0.4}}
    reverse = {"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.4, "radiusBottom": 0.2}}
    up = khr([node("Pill", khr_collider(0))], [capsule])
    down = khr([node("Pill", khr_collider(0), rotation=[1, 0, 0, 0])], [reverse])
    assert diffs(up, down) == []
    assert diffs(up, khr([node("Pill", khr_collider(0))], [reverse]))


def test_locked_axes_compare_by_direction() -> None:
    x_locked = khr_body({"mass": 1, "inertiaDiagonal": [0, 2, 3]})  # KHR 0: infinite
    turned = khr_body({"mass": 1, "inertiaDiagonal": [2, 0, 3],
                       "inertiaOrientation": [0, 0, SIN45, SIN45]})  # axis 1 → world -x
    y_locked = khr_body({"mass": 1, "inertiaDiagonal": [2, 0, 3]})
    assert diffs(x_locked, turned) == []
    assert diffs(x_locked, y_locked) == [
        "body 'Body': world inertia [[0, 0, 0], [0, 2, 0], [0, 0, 3]] locked along [[1, 0, 0]] "
        "!= [[2, 0, 0], [0, 0, 0], [0, 0, 3]] locked along [[0, 1, 0]]"]


def test_explicit_inertia_equals_the_computed_one() -> None:
    computed = khr_body({"mass": 2})
    moments = [2 / 12 * (2 * 2 + 3 * 3), 2 / 12 * (1 + 3 * 3), 2 / 12 * (1 + 2 * 2)]
    assert diffs(computed, khr_body({"mass": 2, "inertiaDiagonal": moments})) == []
    assert diffs(khr_body({"mass": 2, "inertiaDiagonal": moments}), computed) == []
    assert len(diffs(computed, khr_body({"mass": 2, "inertiaDiagonal": [1, 1, 1]}))) == 1


def test_split_vertices_keep_a_triangle_mesh() -> None:
    trimesh = {"collider": {"geometry": {"mesh": 0, "convexHull": False}}}
    doc = khr([node("Mesh", trimesh, translation=[1, 2, 3])])
    indexed = with_mesh(doc, CUBE_POINTS, CUBE_TRIANGLES)
    split = with_mesh(doc, CUBE_POINTS[CUBE_TRIANGLES])
    assert diffs(indexed, split) == []
    moved = copy.deepcopy(indexed)
    moved["nodes"][0]["translation"] = [1, 2, 4]
    assert [d.split(":")[0] for d in diffs(indexed, moved)] == ["collider 'Mesh'"] * 2


def test_convex_body_centre_is_its_hull_centroid() -> None:
    hull = {"collider": {"geometry": {"mesh": 0, "convexHull": True}}}
    doc = with_mesh(khr([node("Body", {"motion": {"mass": 1}}, children=(1,)),
                         node("Hull", hull, translation=[0, 0, 2])]),
                    CUBE_POINTS + 1.0, CUBE_TRIANGLES)
    assert physics_meaning(doc).bodies["Body"].center_of_mass == pytest.approx((1, 1, 3))


def test_a_static_collider_on_a_renamed_node_is_the_same_collider() -> None:
    first = khr([node("Box", khr_collider(0))], [BOX])
    assert diffs(first, khr([node("Box.001", khr_collider(0))], [BOX])) == []
    assert diffs(first, khr([node("Box.001", {"trigger": {"geometry": {"shape": 0}}})], [BOX])
                 ) == ["collider 'Box': only in the first document",
                       "trigger 'Box.001': only in the second document"]


def test_unnamed_and_repeated_names_follow_blender() -> None:
    doc = khr([node(None), node("Cube"), node("Cube"), node("")])
    assert node_labels(doc) == ["Node_0", "Cube", "Cube.001", "Node_3"]


# -- differences that are found ------------------------------------------------------------


def test_mass_one_differs_from_computed() -> None:
    one, auto = khr_body({"mass": 1}), khr_body({})
    assert diffs(one, auto) == ["body 'Body': mass 1 != auto"]
    assert diffs(auto, one, target="OMI") == [
        "body 'Body': mass auto != 1 (OMI cannot express this)"]
    assert diffs(auto, one, target="KHR") == ["body 'Body': mass auto != 1"]


def test_combine_left_to_engine_differs_from_average() -> None:
    material = {"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 0}
    average = material | {"frictionCombine": "average"}
    docs = [khr([node("Box", khr_collider(0, physicsMaterial=0))], [BOX], physicsMaterials=[m])
            for m in (material, average)]
    assert diffs(*docs, target="OMI") == ["collider 'Box': friction combine engine default "
                                          "!= 'average' (OMI cannot express this)"]


def joint_doc(limits: list[dict[str, Any]] | None, frame: tuple[float, ...] = (0, 1, 0)
              ) -> dict[str, Any]:
    """Bodies A and B, joined at A's child 'Frame' unless `limits` is None."""
    joint = {} if limits is None else {
        "joint": {"joint": 0, "connectedNode": 2, "enableCollision": False}}
    return khr([
        node("A", {"motion": {"mass": 1}, **khr_collider(0)}, children=(1,)),
        node("Frame", joint or None, translation=list(frame)),
        node("B", {"motion": {"mass": 1}, **khr_collider(0)}, translation=[0, 2, 0]),
    ], [BOX], **({} if limits is None else {"physicsJoints": [{"limits": limits}]}))


FIXED = {"min": 0.0, "max": 0.0}


def test_joint_limits_must_keep_their_axis_grouping() -> None:
    together = joint_doc([{"linearAxes": [0, 1, 2], **FIXED}])
    apart = joint_doc([{"linearAxes": [axis], **FIXED} for axis in (0, 1, 2)])
    assert diffs(together, together) == []
    assert diffs(together, apart) == [
        "joint 'Frame' (A to B): limits [linear [0, 1, 2] 0..0] != "
        "[linear [0] 0..0, linear [1] 0..0, linear [2] 0..0]"]


def test_joint_frames_compare_in_world_space() -> None:
    limits = [{"linearAxes": [0, 1, 2], **FIXED}]
    moved = diffs(joint_doc(limits), joint_doc(limits, frame=(0, 1.5, 0)))
    assert len(moved) == 1 and moved[0].startswith("joint 'Frame' (A to B): joint frame at")


def test_joint_frames_match_by_place_not_by_node_name() -> None:
    limits = [{"linearAxes": [0, 1, 2], **FIXED}]
    exported = joint_doc(limits)
    exported["nodes"][1]["name"] = "A.joint"  # a frame node the exporter added
    assert diffs(joint_doc(limits), exported) == []


def test_missing_joint_is_found() -> None:
    limits = [{"angularAxes": [0, 1, 2], **FIXED}]
    assert diffs(joint_doc(limits), joint_doc(None)) == [
        "joint 'Frame' (A to B): only in the first document"]
    assert diffs(joint_doc(None), joint_doc(limits)) == [
        "joint 'Frame' (A to B): only in the second document"]


def test_moved_collider_is_found() -> None:
    here = khr([node("Box", khr_collider(0))], [BOX])
    there = khr([node("Box", khr_collider(0), translation=[0, 0, 0.01])], [BOX])
    found = diffs(here, there)
    assert len(found) == 1 and found[0].startswith("collider 'Box': box corners")


def test_static_body_under_a_moving_body_is_a_body() -> None:
    def car(wall: dict[str, Any]) -> dict[str, Any]:
        return omi([node("Car", {"motion": {"type": "dynamic"}}, OMI_BODY, children=(1,)),
                    node("Wall", wall, OMI_BODY)], [BOX])

    separate = car({"motion": {"type": "static"}, **omi_collider(0)})
    merged = car(omi_collider(0))
    assert diffs(separate, merged) == [
        "body 'Wall': only in the first document", "collider 'Wall': body 'Wall' != 'Car'"]


def test_a_plane_written_as_a_box_is_flagged_for_omi() -> None:
    plane = khr([node("Ground", khr_collider(0))], [{"type": "plane", "plane": {}}])
    box = omi([node("Ground", omi_collider(0), OMI_BODY)],
              [{"type": "box", "box": {"size": [1000, 0.01, 1000]}}])
    assert diffs(plane, box, target="OMI") == [
        "collider 'Ground': shape 'plane' != 'box' (OMI cannot express this)"]


def test_external_buffers_need_a_folder() -> None:
    doc = with_mesh(khr([node("Mesh", {"collider": {"geometry": {"mesh": 0}}})]), CUBE_POINTS)
    doc["buffers"][0]["uri"] = "cube.bin"
    with pytest.raises(ValueError, match="no folder"):
        physics_meaning(doc)


# -- files ---------------------------------------------------------------------------------


def corpus_files(*suffixes: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for suffix in suffixes for p in CORPUS.rglob(f"*{suffix}"))


needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(".gltf", ".glb"),
                         ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_corpus_file_means_what_it_means(path: Path) -> None:
    assert file_differences(path, path) == []


@needs_corpus
@pytest.mark.parametrize("path", [p for p in corpus_files(".glb") if p.with_suffix(".gltf")
                                  .is_file()], ids=lambda p: str(p.relative_to(CORPUS)))
def test_glb_means_what_its_gltf_twin_means(path: Path) -> None:
    assert file_differences(path.with_suffix(".gltf"), path) == []
