# SPDX-License-Identifier: GPL-3.0-or-later
"""Joints in Blender: authoring, export in both formats, import of every corpus revision."""

import importlib
from pathlib import Path

import bpy
import pytest
from mathutils import Matrix, Vector

from tests.conftest import CORPUS
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

joints_core = importlib.import_module(f"{MODULE}.io.joints")
bridge = importlib.import_module(f"{MODULE}.io.blender.bridge.joint_bridge")
registry = importlib.import_module(f"{MODULE}.io.codecs.registry")
document = importlib.import_module(f"{MODULE}.io.document")
diagnostics = importlib.import_module(f"{MODULE}.io.diagnostics")
overlay = importlib.import_module(f"{MODULE}.panels.joint_overlay")
canon = importlib.import_module(f"{MODULE}.io.numbers").canon

KHR = "KHR_physics_rigid_bodies"
OMI_JOINT = "OMI_physics_joint"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")


def node_world(gltf: dict, index: int) -> Matrix:
    """A node's world matrix in glTF space, from the file's TRS values."""
    parents = {c: i for i, n in enumerate(gltf["nodes"]) for c in n.get("children", [])}
    matrix = Matrix.Identity(4)
    while index is not None:
        node = gltf["nodes"][index]
        x, y, z, w = node.get("rotation", [0, 0, 0, 1])
        from mathutils import Quaternion
        local = Matrix.LocRotScale(
            Vector(node.get("translation", [0, 0, 0])), Quaternion((w, x, y, z)),
            Vector(node.get("scale", [1, 1, 1])),
        )
        matrix = local @ matrix
        index = parents.get(index)
    return matrix


def named(gltf: dict, name: str) -> int:
    return next(i for i, n in enumerate(gltf["nodes"]) if n.get("name") == name)


def joint_payload(gltf: dict, fmt: str, index: int) -> dict:
    ext = gltf["nodes"][index]["extensions"]
    return ext[OMI_JOINT] if fmt == "OMI" else ext[KHR]["joint"]


def settings_root(gltf: dict, fmt: str) -> list:
    return gltf["extensions"][OMI_JOINT if fmt == "OMI" else KHR]["physicsJoints"]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_hinge_and_pin_export(clean_scene, tmp_path, fmt):
    h.build_jointed()
    gltf = h.export(tmp_path / "j.gltf", fmt)
    h.assert_valid(tmp_path / "j.gltf")
    hinge = named(gltf, "DoorHinge")
    payload = joint_payload(gltf, fmt, hinge)
    assert gltf["nodes"][payload["connectedNode"]]["name"] == "DoorHinge.connected"
    assert payload["connectedNode"] in gltf["nodes"][named(gltf, "DoorFrame")]["children"]
    assert hinge in gltf["nodes"][named(gltf, "Door")]["children"]
    # Both frames sit at the same world pose.
    a, b = node_world(gltf, hinge), node_world(gltf, payload["connectedNode"])
    assert (a.translation - b.translation).length < 1e-5
    assert a.to_quaternion().rotation_difference(b.to_quaternion()).angle < 1e-5
    # A hinge about Blender Z turns about glTF Y (axis 1) only, its range reversed-free.
    limits = settings_root(gltf, fmt)[payload["joint"]]["limits"]
    fixed_angular = {a for lim in limits if lim.get("min") == lim.get("max") == 0
                     for a in lim.get("angularAxes", [])}
    assert fixed_angular == {0, 2}
    ranged = [lim for lim in limits if lim.get("angularAxes") == [1]]
    assert ranged == [{"angularAxes": [1], "min": -1.5, "max": 0.0}]
    pin = joint_payload(gltf, fmt, named(gltf, "PendulumPivot"))
    pin_limits = settings_root(gltf, fmt)[pin["joint"]]["limits"]
    assert pin_limits == [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_joint_round_trip_is_exact(clean_scene, tmp_path, fmt):
    h.build_jointed()
    first = h.export(tmp_path / "first.gltf", fmt)
    h.import_file(tmp_path / "first.gltf")
    door_hinge = bpy.data.objects["DoorHinge"].gltf_physics
    assert (door_hinge.joint_type, door_hinge.joint_axis) == ("HINGE", "Z")
    assert door_hinge.joint_use_limit
    assert (door_hinge.joint_angle_min, door_hinge.joint_angle_max) == pytest.approx((-1.5, 0))
    assert door_hinge.joint_connected_body == bpy.data.objects["DoorFrame"]
    assert door_hinge.joint_attachment == bpy.data.objects["DoorHinge.connected"]
    assert bpy.data.objects["PendulumPivot"].gltf_physics.joint_type == "PIN"
    second = h.export(tmp_path / "second.gltf", fmt)
    h.assert_valid(tmp_path / "second.gltf")
    assert h.physics_subtree(second) == h.physics_subtree(first)
    assert len(second["nodes"]) == len(first["nodes"])


def test_identical_joints_share_settings(clean_scene, tmp_path):
    objs = h.build_jointed()
    objs["PendulumPivot"].gltf_physics.joint_type = "HINGE"
    for name in ("joint_axis", "joint_use_limit", "joint_angle_min", "joint_angle_max"):
        setattr(objs["PendulumPivot"].gltf_physics, name,
                getattr(objs["DoorHinge"].gltf_physics, name))
    gltf = h.export(tmp_path / "j.gltf", "KHR")
    h.assert_valid(tmp_path / "j.gltf")
    assert len(settings_root(gltf, "KHR")) == 1


def test_custom_limits_drives_and_z_up(clean_scene, tmp_path):
    objs = h.build_jointed()
    props = objs["DoorHinge"].gltf_physics
    bpy.context.view_layer.objects.active = objs["DoorHinge"]
    assert bpy.ops.gltf_physics.joint_to_custom() == {"FINISHED"}
    assert props.joint_type == "CUSTOM" and len(props.joint_limits) == 3
    drive = props.joint_drives.add()
    drive.kind, drive.axis, drive.mode = "ANGULAR", "Y", "force"
    drive.use_velocity_target, drive.velocity_target, drive.damping = True, 2.0, 5.0
    gltf = h.export(tmp_path / "j.gltf", "KHR")
    h.assert_valid(tmp_path / "j.gltf")
    entry = settings_root(gltf, "KHR")[0] if len(settings_root(gltf, "KHR")[0]["limits"]) == 3 \
        else settings_root(gltf, "KHR")[1]
    # Blender Y is glTF axis 2 reversed: the velocity target changes sign.
    assert entry["drives"] == [{"type": "angular", "mode": "force", "axis": 2,
                                "velocityTarget": -2.0, "damping": 5.0}]
    z_up = h.export(tmp_path / "z.gltf", "KHR", export_yup=False)
    entry = next(e for e in settings_root(z_up, "KHR") if "drives" in e)
    assert entry["drives"][0]["axis"] == 1 and entry["drives"][0]["velocityTarget"] == 2.0


def test_bad_joints_are_reported_and_skipped(clean_scene, tmp_path):
    objs = h.build_jointed()
    objs["Bob"].gltf_physics.motion_type = "KINEMATIC"  # pin: neither side dynamic
    lonely = h.empty_object("Lonely", (0, 5, 0))
    h.set_physics(lonely, joint_type="FIXED")  # no connected body
    to_self = h.empty_object("ToSelf", (0, 0, 1), parent=objs["Door"])
    h.set_physics(to_self, joint_type="FIXED", joint_connected_body=objs["Door"])
    gltf = h.export(tmp_path / "j.gltf", "KHR")
    joints = [n["name"] for n in gltf["nodes"] if "joint" in n.get("extensions", {}).get(KHR, {})]
    assert joints == ["DoorHinge"]
    h.assert_valid(tmp_path / "j.gltf")


def test_unexported_body_skips_only_its_joint(clean_scene, tmp_path):
    objs = h.build_jointed()
    for obj in bpy.data.objects:
        obj.select_set(obj.name not in ("Ceiling",))
    gltf = h.export(tmp_path / "j.gltf", "OMI", use_selection=True)
    h.assert_valid(tmp_path / "j.gltf")
    joints = [n["name"] for n in gltf["nodes"] if OMI_JOINT in n.get("extensions", {})]
    assert joints == ["DoorHinge"]
    assert objs["PendulumPivot"].gltf_physics.joint_type == "PIN"


def test_world_anchored_joint_is_khr_only(clean_scene, tmp_path):
    objs = h.build_jointed()
    anchor = h.empty_object("Anchor", (3, 0, 2.9))
    objs["PendulumPivot"].gltf_physics.joint_attachment = anchor  # world side: no body
    khr = h.export(tmp_path / "k.gltf", "KHR")
    h.assert_valid(tmp_path / "k.gltf")
    pin = joint_payload(khr, "KHR", named(khr, "PendulumPivot"))
    assert khr["nodes"][pin["connectedNode"]]["name"] == "Anchor"
    omi = h.export(tmp_path / "o.gltf", "OMI")
    h.assert_valid(tmp_path / "o.gltf")
    assert OMI_JOINT not in omi["nodes"][named(omi, "PendulumPivot")].get("extensions", {})


def test_joint_on_a_body_object_gets_its_own_omi_node(clean_scene, tmp_path):
    objs = h.build_jointed()
    h.set_physics(objs["Bob"], joint_type="PIN", joint_connected_body=objs["Ceiling"])
    objs["PendulumPivot"].gltf_physics.joint_type = "NONE"
    omi = h.export(tmp_path / "o.gltf", "OMI")
    h.assert_valid(tmp_path / "o.gltf")
    bob = named(omi, "Bob")
    assert OMI_JOINT not in omi["nodes"][bob]["extensions"]
    child = named(omi, "Bob.joint")
    assert child in omi["nodes"][bob]["children"] and OMI_JOINT in omi["nodes"][child]["extensions"]
    khr = h.export(tmp_path / "k.gltf", "KHR")
    assert "joint" in khr["nodes"][named(khr, "Bob")]["extensions"][KHR]


def test_add_joint_operator(clean_scene):
    objs = h.build_jointed()
    for obj in bpy.data.objects:
        obj.select_set(obj.name in ("Door", "Bob", "Ceiling"))
    bpy.context.view_layer.objects.active = objs["Ceiling"]
    result = bpy.ops.gltf_physics.joint_add(joint_type="FIXED", placement="ACTIVE")
    assert result == {"FINISHED"}
    made = list(bpy.context.selected_objects)
    assert sorted(o.parent.name for o in made) == ["Bob", "Door"]
    bpy.context.view_layer.update()
    for obj in made:
        assert obj.gltf_physics.joint_type == "FIXED"
        assert obj.gltf_physics.joint_connected_body == objs["Ceiling"]
        assert (obj.matrix_world.translation - objs["Ceiling"].location).length < 1e-6
    assert bpy.context.view_layer.objects.active in made
    bpy.ops.ed.undo_push()


def test_add_joint_needs_two_bodies(clean_scene):
    objs = h.build_jointed()
    for obj in bpy.data.objects:
        obj.select_set(obj.name == "Door")
    bpy.context.view_layer.objects.active = objs["Door"]
    assert not bpy.ops.gltf_physics.joint_add.poll()


def test_overlay_segments(clean_scene):
    h.build_jointed()
    bpy.context.view_layer.update()
    segments = overlay.joint_segments(bpy.context.scene)
    assert len(segments) == 2 * (3 + 2)  # two joints: three axes and two links each
    links = [(Vector(s), Vector(e)) for s, e, c in segments if c == overlay.CONNECTED_LINK]
    ends = sorted(tuple(round(v, 3) for v in e) for _, e in links)
    assert ends == [(0.0, 0.0, 1.0), (3.0, 0.0, 3.0)]


# -- corpus imports ----------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    patterns = ("omi/current/OMI_physics_joint/*.gltf", "omi/legacy/*/OMI_physics_joint/*.gltf",
                "khr/samples/JointTypes/*.glb", "seed/*joint*.gltf")
    return sorted(p for pattern in patterns for p in CORPUS.glob(pattern)) if CORPUS.is_dir() \
        else []


def rounded(limits) -> tuple:
    """Limits in order-free form, numbers at float32 precision (Blender stores float32)."""
    return tuple(
        tuple(canon(v) if isinstance(v, float) else v for v in entry)
        for entry in joints_core.normalized(limits)
    )


def decoded(path: Path):
    report = diagnostics.Report()
    view = document.DocumentView.from_json(h.load_gltf(path))
    return registry.decode_document(view, report)


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_joint_file_imports(clean_scene, tmp_path, path):
    scene = decoded(path)
    expected = [p.joint for p in scene.nodes.values() if p.joint is not None]
    kinds = [p.motion.kind.upper() for p in scene.nodes.values() if p.motion is not None]
    h.import_file(path)
    objs = [o for o in bpy.data.objects if o.gltf_physics.joint_type != "NONE"]
    assert len(objs) == len(expected)
    motions = [o.gltf_physics.motion_type for o in bpy.data.objects]
    for kind in ("DYNAMIC", "KINEMATIC"):
        assert motions.count(kind) == kinds.count(kind)
    # KHR static joint partners (colliders without motion) become Static bodies.
    assert motions.count("STATIC") >= kinds.count("STATIC")
    got = sorted(rounded(bridge.settings_of(o.gltf_physics).limits) for o in objs)
    want = sorted(rounded(joints_core.settings_to_blender(j.settings).limits) for j in expected)
    assert got == want
    for obj in objs:
        props = obj.gltf_physics
        assert props.joint_attachment is not None or props.joint_connected_body is not None
    fmt = "KHR" if "khr" in path.parts else "OMI"
    out = tmp_path / "again.gltf"
    again = h.export(out, fmt)
    h.assert_valid(out)
    written = [n for n in again["nodes"] if OMI_JOINT in n.get("extensions", {})
               or "joint" in n.get("extensions", {}).get(KHR, {})]
    assert len(written) == len(expected)


@needs_corpus
def test_v1_joint_keeps_its_world_frame(clean_scene, tmp_path):
    path = CORPUS / "omi/legacy/2024-07_joint_constraints_v1/OMI_physics_joint/slider_ball.gltf"
    gltf = h.load_gltf(path)
    joint_index = next(i for i, n in enumerate(gltf["nodes"])
                       if OMI_JOINT in n.get("extensions", {}))
    node_a = gltf["nodes"][joint_index]["extensions"][OMI_JOINT]["nodeA"]
    node_b = gltf["nodes"][joint_index]["extensions"][OMI_JOINT]["nodeB"]
    h.import_file(path)
    joint = bpy.data.objects[gltf["nodes"][joint_index]["name"]]
    assert joint.parent.name == gltf["nodes"][node_a]["name"]
    assert joint.gltf_physics.joint_connected_body.name == gltf["nodes"][node_b]["name"]
    world = node_world(gltf, joint_index)
    expected = Vector((world.translation.x, -world.translation.z, world.translation.y))
    assert (joint.matrix_world.translation - expected).length < 1e-5
    out = h.export(tmp_path / "up.gltf", "OMI")
    h.assert_valid(tmp_path / "up.gltf")
    j = named(out, joint.name)
    payload = out["nodes"][j]["extensions"][OMI_JOINT]
    assert set(payload) == {"joint", "connectedNode", "enableCollision"}
    a, b = node_world(out, j), node_world(out, payload["connectedNode"])
    assert (a.translation - b.translation).length < 1e-5


# -- physics check: the authored joints behave as joints in Blender's rigid body world -------

native = importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")


def world_point(obj, local) -> Vector:
    return obj.matrix_world @ Vector(local)


def test_hinged_door_and_pendulum_simulate_as_jointed(clean_scene):
    objs = h.build_jointed()
    scene = bpy.context.scene
    scene.gravity = (0.0, -4.0, -9.81)  # a sideways pull swings the door about its hinge
    objs["Bob"].location.x = 3.9  # with its pivot child (now x 2.9): 1 m out, 0.9 m down
    objs["Bob"].location.z = 2.0
    bpy.context.view_layer.update()
    pivot = objs["PendulumPivot"].matrix_world.translation.copy()
    hinge = objs["DoorHinge"].matrix_world.translation.copy()
    door_top_edge = objs["Door"].matrix_world.inverted() @ (hinge + Vector((0, 0, 0.8)))
    length = (objs["Bob"].matrix_world.translation - pivot).length
    assert set(native.build_preview(scene)) >= {objs["Door"], objs["Bob"]}
    assert set(native.add_joints(scene)) == {objs["DoorHinge"], objs["PendulumPivot"]}
    door_z = objs["Door"].matrix_world.translation.z
    bob_x = []
    for _ in range(6):
        native.step(scene, 10)
        door = objs["Door"]
        assert (world_point(door, door_top_edge) - (hinge + Vector((0, 0, 0.8)))).length < 0.02
        assert abs(door.matrix_world.translation.z - door_z) < 0.02  # no sagging
        bob = objs["Bob"].matrix_world.translation
        assert abs((bob - pivot).length - length) < 0.05 * length
        bob_x.append(bob.x)
    swing = objs["Door"].matrix_world.to_euler().z
    assert -1.5 - 0.05 < swing < -0.5  # it turned about its hinge, up to its -1.5 rad limit
    assert min(bob_x) < pivot.x < max(bob_x) or max(bob_x) - min(bob_x) > 0.5
    native.remove_preview(scene)
    assert all(o.rigid_body is None and o.rigid_body_constraint is None for o in bpy.data.objects)


def test_without_joints_the_door_falls(clean_scene):
    """The same scene without the joints: the checks above would fail."""
    objs = h.build_jointed()
    scene = bpy.context.scene
    door_z = objs["Door"].matrix_world.translation.z
    native.build_preview(scene)
    native.step(scene, 40)
    assert objs["Door"].matrix_world.translation.z < door_z - 1.0


@needs_corpus
@pytest.mark.parametrize(("name", "fmt"), [
    ("khr/samples/JointTypes/JointTypes.glb", "KHR"),
    ("omi/current/OMI_physics_joint/swing_and_slide.gltf", "OMI"),
    ("omi/legacy/2024-07_joint_constraints_v1/OMI_physics_joint/pendulum_balls.gltf", "OMI"),
])
def test_corpus_joints_round_trip_exactly(clean_scene, tmp_path, name, fmt):
    h.import_file(CORPUS / name)
    first = h.export(tmp_path / "first.gltf", fmt)
    h.import_file(tmp_path / "first.gltf")
    second = h.export(tmp_path / "second.gltf", fmt)
    assert h.physics_subtree(second) == h.physics_subtree(first)
    other = "OMI" if fmt == "KHR" else "KHR"
    h.export(tmp_path / "other.gltf", other)
    h.assert_valid(tmp_path / "other.gltf")


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_a_joint_between_bodies_on_posed_bones_keeps_its_two_frames_together(
        clean_scene, tmp_path, fmt):
    """Bodies on bone nodes (the importer's stand-ins), the armature posed: the exporter
    writes the bones at rest, and the connected frame was placed from the posed stand-in
    (0.375 m off the joint's own frame); both frames are read where the file has them."""
    import json

    from tests.integration.test_import_hostile_files import bone_physics_file

    source = tmp_path / "bones.gltf"
    source.write_text(json.dumps(bone_physics_file()))
    h.import_file(source)
    stand_ins = {obj.parent_bone: obj for obj in bpy.data.objects
                 if obj.parent_type == "BONE" and obj.type == "EMPTY"}
    upper, lower = stand_ins["Upper"], stand_ins["Lower"]
    h.set_physics(lower, motion_type="DYNAMIC", shape_type="BOX", shape_role="COLLIDER")
    hinge = h.set_physics(h.empty_object("Hinge", (0.3, 0.2, 0.1), parent=lower),
                          joint_type="HINGE", joint_connected_body=upper)
    rig = upper.parent
    rig.pose.bones["Upper"].rotation_mode = rig.pose.bones["Lower"].rotation_mode = "XYZ"
    rig.pose.bones["Upper"].rotation_euler = (0.4, 0.2, 0.0)
    rig.pose.bones["Lower"].rotation_euler = (0.5, 0.0, 0.0)
    bpy.context.view_layer.update()
    gltf = h.export(tmp_path / "posed.gltf", fmt)
    h.assert_valid(tmp_path / "posed.gltf")
    joint, connected = node_world(gltf, named(gltf, "Hinge")), \
        node_world(gltf, named(gltf, "Hinge.connected"))
    assert (joint.translation - connected.translation).length < 1e-5
    assert joint.to_quaternion().rotation_difference(connected.to_quaternion()).angle < 1e-5
    assert hinge.gltf_physics.joint_connected_body == upper
