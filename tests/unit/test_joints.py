# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint core: presets, axis conversion, OMI/KHR/v1 decoding and encoding, corpus counts."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from gltf_physics.io.codecs import khr, omi, registry
from gltf_physics.io.codecs.joints import encode_settings
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.joints import (
    JointPreset,
    match_preset,
    normalized,
    preset_limits,
    settings_to_blender,
    settings_to_gltf,
)
from gltf_physics.io.model import (
    ZERO3,
    Joint,
    JointDrive,
    JointLimit,
    JointSettings,
    Motion,
    NodePhysics,
    PhysicsScene,
)
from tests.conftest import CORPUS
from tests.support.refs import ident
from tests.support.schemas import load_gltf

OMI_JOINT = omi.JOINT_EXT
KHR_BODIES = khr.BODIES_EXT


def all_presets() -> list[JointPreset]:
    presets = [JointPreset("fixed"), JointPreset("pin")]
    for axis in range(3):
        presets += [
            JointPreset("hinge", axis), JointPreset("hinge", axis, True, -0.5, 1.25),
            JointPreset("cone_twist", axis, cone=0.6),
            JointPreset("cone_twist", axis, True, -0.2, 0.3, cone=0.6),
        ]
        for rotates in (False, True):
            presets += [JointPreset("slider", axis, rotates=rotates),
                        JointPreset("slider", axis, True, -2.0, 0.5, rotates=rotates)]
    return presets


@pytest.mark.parametrize("preset", all_presets(), ids=repr)
def test_every_preset_is_recognised_from_its_limits(preset: JointPreset) -> None:
    assert match_preset(preset_limits(preset)) == preset


@pytest.mark.parametrize("preset", all_presets(), ids=repr)
def test_preset_survives_the_trip_through_gltf_axes(preset: JointPreset) -> None:
    settings = JointSettings(limits=preset_limits(preset))
    back = settings_to_blender(settings_to_gltf(settings))
    assert match_preset(back.limits) == preset


def test_presets_are_distinct() -> None:
    forms = [normalized(preset_limits(p)) for p in all_presets()]
    assert len(set(forms)) == len(forms)


def test_fixed_axes_compare_equal_whether_grouped_or_not() -> None:
    grouped = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),)
    single = tuple(JointLimit(linear_axes=(a,), min=0.0, max=0.0) for a in (2, 0, 1))
    assert normalized(grouped) == normalized(single)
    ranged = (JointLimit(angular_axes=(0, 1), min=-1.0, max=1.0),)
    per_axis = tuple(JointLimit(angular_axes=(a,), min=-1.0, max=1.0) for a in (0, 1))
    assert normalized(ranged) != normalized(per_axis)  # a cone is not a box of angles


def test_custom_limits_match_no_preset() -> None:
    assert match_preset((JointLimit(linear_axes=(0,), min=-1.0, max=1.0),)) is None
    soft = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0, stiffness=10.0),)
    assert match_preset(soft) is None


# -- axes -----------------------------------------------------------------------------------


def test_blender_z_hinge_hinges_about_gltf_y() -> None:
    gltf = settings_to_gltf(JointSettings(limits=preset_limits(JointPreset("hinge", 2))))
    free = {0, 1, 2} - {a for limit in gltf.limits for a in limit.angular_axes}
    assert free == {1}


def test_one_axis_limit_on_blender_y_is_reversed_on_gltf_z() -> None:
    limit = JointLimit(angular_axes=(1,), min=-0.25, max=0.5)
    (gltf,) = settings_to_gltf(JointSettings(limits=(limit,))).limits
    assert gltf.angular_axes == (2,) and (gltf.min, gltf.max) == (-0.5, 0.25)
    open_ended = JointLimit(linear_axes=(1,), min=None, max=3.0)
    (gltf,) = settings_to_gltf(JointSettings(limits=(open_ended,))).limits
    assert (gltf.min, gltf.max) == (-3.0, None)


def test_multi_axis_limits_only_relabel() -> None:
    limit = JointLimit(angular_axes=(0, 1), min=-0.5, max=0.5)
    (gltf,) = settings_to_gltf(JointSettings(limits=(limit,))).limits
    assert gltf.angular_axes == (0, 2) and (gltf.min, gltf.max) == (-0.5, 0.5)


def test_drive_on_blender_y_negates_targets() -> None:
    drive = JointDrive("angular", "force", 1, None, 0.5, -2.0, 3.0, 4.0)
    (gltf,) = settings_to_gltf(JointSettings(drives=(drive,))).drives
    assert (gltf.axis, gltf.position_target, gltf.velocity_target) == (2, -0.5, 2.0)
    assert (gltf.stiffness, gltf.damping) == (3.0, 4.0)
    (back,) = settings_to_blender(JointSettings(drives=(gltf,))).drives
    assert back == drive


def test_z_up_export_keeps_axes() -> None:
    settings = JointSettings(limits=(JointLimit(angular_axes=(1,), min=-1.0, max=2.0),))
    assert settings_to_gltf(settings, yup=False) == settings


# -- encoding -------------------------------------------------------------------------------


WELD = JointSettings(limits=(JointLimit((0, 1, 2), (0, 1, 2), 0.0, 0.0),))
MOTOR = JointSettings(
    limits=preset_limits(JointPreset("hinge", 1)),
    drives=(JointDrive("angular", "acceleration", 1, velocity_target=1.5, damping=2.0),
            JointDrive("linear", "force", 0, max_force=10.0, position_target=0.0,
                       stiffness=5.0)),
)


BODY = Motion(center_of_mass=ZERO3)  # at its origin: nothing OMI cannot say


def joint_scene(settings: JointSettings, *more: JointSettings) -> PhysicsScene:
    """Body 0 with joint children 2.. connected to body 1."""
    scene = PhysicsScene({0: NodePhysics(motion=BODY), 1: NodePhysics(motion=BODY)})
    for i, s in enumerate((settings, *more)):
        scene.nodes[2 + i] = NodePhysics(joint=Joint(s, connected_node=1))
    return scene


def assemble(encoded: Any, count: int) -> dict[str, Any]:
    nodes = [{"extensions": encoded.nodes.get(i, {})} for i in range(count)]
    nodes[0]["children"] = list(range(2, count))
    return {"asset": {"version": "2.0"}, "nodes": nodes, "extensions": encoded.root,
            "extensionsUsed": encoded.used()}


@pytest.mark.parametrize("fmt", ["omi", "khr"])
def test_weld_limit_is_split_and_settings_are_shared(fmt: str, validator) -> None:
    encode = omi.encode_omi if fmt == "omi" else khr.encode_khr
    report = Report()
    encoded = encode(joint_scene(WELD, WELD, MOTOR), ident, ident, report)
    assert report.issues == []
    root = encoded.root[OMI_JOINT if fmt == "omi" else KHR_BODIES]
    assert len(root["physicsJoints"]) == 2
    assert root["physicsJoints"][0]["limits"] == [
        {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
        {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
    ]
    gltf = assemble(encoded, 5)
    assert validator.errors(gltf) == []
    refs = [encoded.nodes[n][OMI_JOINT] if fmt == "omi" else encoded.nodes[n][KHR_BODIES]["joint"]
            for n in (2, 3, 4)]
    assert [r["joint"] for r in refs] == [0, 0, 1]
    assert all(r["connectedNode"] == 1 and r["enableCollision"] is False for r in refs)


def test_drives_write_khr_pairs() -> None:
    drives = encode_settings(MOTOR)["drives"]
    assert drives[0] == {"type": "angular", "mode": "acceleration", "axis": 1,
                         "velocityTarget": 1.5, "damping": 2.0}
    assert drives[1] == {"type": "linear", "mode": "force", "axis": 0, "maxForce": 10.0,
                         "positionTarget": 0.0, "stiffness": 5.0}


def test_unwritable_joints_are_reported_not_raised() -> None:
    scene = joint_scene(JointSettings())
    scene.nodes[3] = NodePhysics(joint=Joint(WELD, connected_node="gone"))
    scene.nodes[4] = NodePhysics(joint=Joint(WELD, legacy_bodies=(0, 1)))
    report = Report()
    encoded = khr.encode_khr(scene, ident, ident, report)
    assert sorted(report.codes()) == ["joint-empty", "joint-legacy", "joint-unconnected"]
    assert KHR_BODIES not in encoded.nodes.get(2, {})


def test_omi_joint_beside_a_body_is_written_with_a_warning() -> None:
    scene = PhysicsScene({0: NodePhysics(motion=BODY, joint=Joint(WELD, connected_node=1)),
                          1: NodePhysics(motion=BODY)})
    report = Report()
    encoded = omi.encode_omi(scene, ident, ident, report)
    assert report.codes() == ["joint-on-body"]
    assert set(encoded.nodes[0]) == {omi.BODY_EXT, OMI_JOINT}


# -- decoding -------------------------------------------------------------------------------


def decode(gltf: dict[str, Any]) -> tuple[PhysicsScene, Report]:
    report = Report()
    return registry.decode_document(DocumentView.from_json(gltf), report), report


def v1_doc(constraints: list[Any], node_joint: dict[str, Any]) -> dict[str, Any]:
    body = {"extensions": {omi.BODY_EXT: {"motion": {"type": "dynamic"}}}}
    return {"nodes": [body, body, {"extensions": {OMI_JOINT: node_joint}}],
            "extensions": {OMI_JOINT: {"constraints": constraints}}}


def test_v1_joint_uses_v1_defaults() -> None:
    scene, report = decode(v1_doc([{"linearAxes": [0, 1, 2]}, {"angularAxes": [1],
                                                                 "upperLimit": 0.5}],
                                  {"constraints": [0, 1], "nodeA": 0, "nodeB": 1}))
    joint = scene.nodes[2].joint
    assert joint is not None and joint.legacy_bodies == (0, 1) and joint.connected_node is None
    assert joint.settings.limits == (
        JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0, damping=1.0),
        JointLimit(angular_axes=(1,), min=0.0, max=0.5, damping=1.0),
    )
    assert "legacy-joint" in report.codes()


def test_v1_inline_constraints_and_later_overrides() -> None:
    scene, _ = decode(v1_doc([], {"constraints": [
        {"linearAxes": [0], "lowerLimit": -1, "upperLimit": 1, "damping": 0},
        {"linearAxes": [0], "lowerLimit": -2, "upperLimit": 2, "damping": 0},
    ], "nodeA": 0, "nodeB": 1}))
    assert scene.nodes[2].joint.settings.limits == (JointLimit((0,), (), -2.0, 2.0),)


@pytest.mark.parametrize(("node_joint", "code"), [
    ({"joint": 0, "connectedNode": 2}, "joint-self"),
    ({"joint": 5, "connectedNode": 1}, "bad-index"),
    ({"joint": 0}, "joint-invalid"),
    ({"constraints": [0], "nodeA": 0, "nodeB": 0}, "joint-invalid"),
    ({"constraints": [7], "nodeA": 0, "nodeB": 1}, "bad-index"),
])
def test_bad_node_joints_are_skipped_and_reported(node_joint: dict[str, Any], code: str) -> None:
    gltf = v1_doc([{"linearAxes": [0]}], node_joint)
    gltf["extensions"][OMI_JOINT]["physicsJoints"] = [{"limits": [{"linearAxes": [0]}]}]
    scene, report = decode(gltf)
    assert 2 not in scene.nodes
    assert code in report.codes()
    assert all(i.where.startswith("/nodes/2/") or i.where.startswith("/extensions/")
               for i in report.issues)


def test_bad_limits_and_drives_are_skipped_one_by_one() -> None:
    settings = {"limits": [
        {"linearAxes": [], "min": 0},
        {"angularAxes": [0, 0, 5], "min": 1.0, "max": -1.0},
        {"linearAxes": [1], "stiffness": -1},
    ], "drives": [
        {"type": "spin", "mode": "force", "axis": 0},
        {"type": "linear", "mode": "force", "axis": 3},
        {"type": "linear", "mode": "force", "axis": 2, "maxForce": -4},
    ]}
    gltf = {"nodes": [{}, {}, {"extensions": {KHR_BODIES: {"joint": {"joint": 0,
                                                                     "connectedNode": 1}}}}],
            "extensions": {KHR_BODIES: {"physicsJoints": [settings]}}}
    scene, report = decode(gltf)
    joint = scene.nodes[2].joint
    assert joint.settings.limits == (
        JointLimit(angular_axes=(0,), min=-1.0, max=1.0),
        JointLimit(linear_axes=(1,)),
    )
    assert joint.settings.drives == (JointDrive("linear", "force", 2),)
    for code in ("limit-no-axes", "limit-reversed", "negative-stiffness", "drive-unknown",
                 "drive-axis", "out-of-range"):
        assert code in report.codes()


# -- corpus ---------------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    patterns = ("omi/current/OMI_physics_joint/*.gltf", "omi/legacy/*/OMI_physics_joint/*.gltf",
                "khr/samples/JointTypes/*.gl*", "seed/*joint*.gltf")
    return sorted(p for pattern in patterns for p in CORPUS.glob(pattern))


def raw_joint_counts(gltf: dict[str, Any]) -> tuple[int, int]:
    """Joints and limits counted straight from the JSON (an independent tally)."""
    root = gltf.get("extensions", {})
    joints = limits = 0
    for node in gltf.get("nodes", []):
        ext = node.get("extensions", {})
        if OMI_JOINT in ext:
            joints += 1
            entry = ext[OMI_JOINT]
            if "nodeA" in entry:
                limits += len(entry["constraints"])
            else:
                limits += len(root[OMI_JOINT]["physicsJoints"][entry["joint"]]["limits"])
        elif "joint" in ext.get(KHR_BODIES, {}):
            joints += 1
            index = ext[KHR_BODIES]["joint"]["joint"]
            limits += len(root[KHR_BODIES]["physicsJoints"][index]["limits"])
    return joints, limits


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent (needs ../shared)")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_joints_decode(path: Path) -> None:
    gltf = load_gltf(path)
    scene, report = decode(gltf)
    joints = [p.joint for p in scene.nodes.values() if p.joint is not None]
    expected_joints, expected_limits = raw_joint_counts(gltf)
    assert len(joints) == expected_joints > 0
    # The only reading change: a limit with both axis kinds stays one limit here.
    assert sum(len(j.settings.limits) for j in joints) == expected_limits
    assert report.of("warning") == []
    for joint in joints:
        refs = joint.legacy_bodies or (joint.connected_node,)
        assert all(0 <= r < len(gltf["nodes"]) for r in refs)


def test_corpus_listing_is_complete() -> None:
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is absent (needs ../shared)")
    assert len(corpus_files()) == 7 * 3 + 2 + 1


def test_every_preset_combination_is_json_stable() -> None:
    """Encoding a preset twice gives byte-identical JSON (deduplication relies on it)."""
    for a, b in itertools.combinations(all_presets(), 2):
        sa = json.dumps(encode_settings(settings_to_gltf(JointSettings(preset_limits(a)))))
        sb = json.dumps(encode_settings(settings_to_gltf(JointSettings(preset_limits(b)))))
        assert sa != sb


def test_per_axis_limits() -> None:
    from gltf_physics.io.joints import ANGULAR_SPAN, LINEAR_SPAN, per_axis_limits

    hinge = JointSettings(preset_limits(JointPreset("hinge", 2, True, -0.5, 1.0)))
    assert per_axis_limits(hinge) == {
        **{("linear", a): (0.0, 0.0) for a in range(3)},
        ("angular", 0): (0.0, 0.0), ("angular", 1): (0.0, 0.0), ("angular", 2): (-0.5, 1.0),
    }
    cone = JointSettings((JointLimit(angular_axes=(0, 1), min=0.0, max=0.4),
                          JointLimit(linear_axes=(2,), max=2.0),
                          JointLimit(linear_axes=(2,), min=-1.0, max=3.0)))
    assert per_axis_limits(cone) == {("angular", 0): (-0.4, 0.4), ("angular", 1): (-0.4, 0.4),
                                     ("linear", 2): (-1.0, 2.0)}
    open_twist = JointSettings((JointLimit(angular_axes=(1,)),))
    assert per_axis_limits(open_twist) == {("angular", 1): (-ANGULAR_SPAN, ANGULAR_SPAN)}
    assert LINEAR_SPAN > 100
