# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_body "type" revision with node-level shapes (digest §4.2), and flat shapes."""

from __future__ import annotations

import math
from typing import Any

import pytest

from gltf_physics.io.codecs import registry
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.model import Collider, Motion, NodePhysics, PhysicsScene, Shape, Trigger
from tests.conftest import CORPUS

BODY, SHAPE = "OMI_physics_body", "OMI_physics_shape"


def decode(gltf: dict[str, Any]) -> tuple[PhysicsScene, Report]:
    report = Report()
    return registry.decode_document(DocumentView.from_json(gltf), report), report


def doc(nodes: list[dict[str, Any]], shapes: list[Any] | None = None) -> dict[str, Any]:
    shapes = shapes if shapes is not None else [{"type": "box", "box": {"size": [1, 2, 3]}}]
    return {"nodes": nodes, "extensions": {SHAPE: {"shapes": shapes}}}


@pytest.mark.parametrize(("kind", "expected", "warned"), [
    ("static", "static", False), ("kinematic", "kinematic", False),
    ("character", "kinematic", True), ("rigid", "dynamic", False),
    ("dynamic", "dynamic", False), ("vehicle", "dynamic", True),
])
def test_body_types(kind: str, expected: str, warned: bool) -> None:
    scene, report = decode(doc([{"extensions": {BODY: {"type": kind, "mass": 3,
                                                        "linearVelocity": [1, 2, 3]}}}]))
    motion = scene.nodes[0].motion
    assert motion == Motion(kind=expected, mass=3.0, center_of_mass=(0.0, 0.0, 0.0),
                            linear_velocity=(1.0, 2.0, 3.0))
    assert ("legacy-body-type" in report.codes()) is warned
    assert "legacy-body" in report.codes()


def test_node_shapes_become_colliders_of_the_body_above() -> None:
    scene, _ = decode(doc([
        {"children": [1], "extensions": {BODY: {"type": "rigid"}}},
        {"extensions": {SHAPE: {"shape": 0}}},
    ]))
    assert scene.nodes[0].motion is not None and scene.nodes[0].collider is None
    assert scene.nodes[1].collider == Collider(Shape("box", size=(1.0, 2.0, 3.0)))


def test_trigger_body_makes_a_compound_trigger() -> None:
    scene, _ = decode(doc([
        {"children": [1, 2], "extensions": {BODY: {"type": "trigger"}}},
        {"extensions": {SHAPE: {"shape": 0}}},
        {"extensions": {SHAPE: {"shape": 0}}},
        {"extensions": {BODY: {"type": "trigger"}, SHAPE: {"shape": 0}}},
    ]))
    assert scene.nodes[0] .motion is None
    assert scene.nodes[0].trigger == Trigger(nodes=(1, 2))
    assert scene.nodes[1].trigger == Trigger(shape=Shape("box", size=(1.0, 2.0, 3.0)))
    assert scene.nodes[3].trigger is not None and scene.nodes[3].trigger.shape is not None


def test_inertia_tensor_diagonal_and_rotated() -> None:
    diagonal = {"type": "rigid", "inertiaTensor": [1, 0, 0, 0, 2, 0, 0, 0, 3]}
    c, s = math.cos(0.3), math.sin(0.3)
    # R·diag(1, 4, 9)·Rᵀ for a rotation of 0.3 rad about Z.
    rot = [[c, -s, 0], [s, c, 0], [0, 0, 1]]
    d = [1, 4, 9]
    tensor = [sum(rot[i][k] * d[k] * rot[j][k] for k in range(3)) for i in range(3)
              for j in range(3)]
    scene, _ = decode(doc([{"extensions": {BODY: diagonal}},
                           {"extensions": {BODY: {"type": "rigid", "inertiaTensor": tensor}}}]))
    assert scene.nodes[0].motion.inertia_diagonal == (1.0, 2.0, 3.0)
    motion = scene.nodes[1].motion
    assert motion.inertia_diagonal == pytest.approx((1.0, 4.0, 9.0))
    x, y, z, w = motion.inertia_orientation
    assert x * x + y * y + z * z + w * w == pytest.approx(1.0)
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    rebuilt = [sum(r[i][k] * motion.inertia_diagonal[k] * r[j][k] for k in range(3))
               for i in range(3) for j in range(3)]
    assert rebuilt == pytest.approx(tensor)  # principal axes are only defined up to sign


def test_bad_type_and_tensor_are_reported() -> None:
    scene, report = decode(doc([
        {"extensions": {BODY: {"type": "ghost"}}},
        {"extensions": {BODY: {"type": "rigid", "inertiaTensor": [-1, 0, 0, 0, 1, 0, 0, 0, 1]}}},
    ]))
    assert 0 not in scene.nodes and "bad-enum" in report.codes()
    assert scene.nodes[1].motion.inertia_diagonal is None and "bad-value" in report.codes()


def test_flat_shapes_and_hull() -> None:
    scene, report = decode(doc(
        [{"extensions": {BODY: {"type": "static"}, SHAPE: {"shape": 0}}},
         {"extensions": {BODY: {"type": "static"}, SHAPE: {"shape": 1}}}],
        shapes=[{"type": "capsule", "radius": 0.5, "height": 3.0}, {"type": "hull", "mesh": 0}],
    ) | {"meshes": [{"primitives": []}]})
    assert scene.nodes[0].collider.shape == Shape("capsule", height=2.0, radius_top=0.5,
                                                  radius_bottom=0.5)
    assert scene.nodes[1].collider.shape == Shape("convex", mesh=0)
    assert "flat-shape" in report.codes()


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent (needs ../shared)")
def test_2023_joint_files_match_their_2024_twins() -> None:
    from tests.support.schemas import load_gltf

    old_dir = CORPUS / "omi/legacy/2023-08_body_type_and_node_shape/OMI_physics_joint"
    new_dir = CORPUS / "omi/legacy/2024-07_joint_constraints_v1/OMI_physics_joint"
    for old in sorted(old_dir.glob("*.gltf")):
        a, _ = decode(load_gltf(old))
        b, _ = decode(load_gltf(new_dir / old.name))
        kinds = [sorted(p.motion.kind for p in s.nodes.values() if p.motion) for s in (a, b)]
        assert kinds[0] == kinds[1], old.name
        shapes = [sorted(str(p.collider.shape) for p in s.nodes.values() if p.collider)
                  for s in (a, b)]
        assert shapes[0] == shapes[1], old.name


def test_godot_capsule_layout_is_read_back_by_the_legacy_rule() -> None:
    from gltf_physics.io.codecs import omi

    scene = PhysicsScene({
        0: NodePhysics(collider=Collider(Shape("capsule", height=1.0, radius_top=0.5,
                                               radius_bottom=0.5))),
        1: NodePhysics(collider=Collider(Shape("cylinder", height=2.0, radius_top=0.3,
                                               radius_bottom=0.2))),
    })
    report = Report()
    encoded = omi.encode_omi(scene, lambda r: r, lambda r: r, report, legacy_round=True)
    shapes = encoded.root[SHAPE]["shapes"]
    assert shapes[0] == {"type": "capsule", "capsule": {"radius": 0.5, "height": 2.0}}
    assert shapes[1] == {"type": "cylinder", "cylinder": {"radius": 0.3, "height": 2.0}}
    assert report.codes() == ["legacy-round-tapered"]
    gltf = {"nodes": [{"extensions": encoded.nodes[i]} for i in (0, 1)],
            "extensions": encoded.root}
    back, _ = decode(gltf)
    assert back.nodes[0].collider.shape == Shape("capsule", height=1.0, radius_top=0.5,
                                                 radius_bottom=0.5)


def test_current_layout_stays_the_default() -> None:
    from gltf_physics.io.codecs import omi

    scene = PhysicsScene({0: NodePhysics(collider=Collider(Shape("capsule")))})
    encoded = omi.encode_omi(scene, lambda r: r, lambda r: r, Report())
    assert "radiusTop" in encoded.root[SHAPE]["shapes"][0]["capsule"]
