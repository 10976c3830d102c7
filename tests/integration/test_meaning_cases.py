# SPDX-License-Identifier: GPL-3.0-or-later
"""Hand-made files for each semantic difference between OMI and KHR, through Blender in both
directions: computed and infinite mass, locked rotation, both families' centre-of-mass
defaults, combine modes left to the engine, joint limits as written, bodies on bones."""

import json
import logging
from pathlib import Path
from typing import Any

import bpy
import pytest
from mathutils import Matrix

from tests.support.meaning import file_differences

from .scene_helpers import armature_object, assert_valid, import_file, load_gltf
from .test_meaning_roundtrip import export_logged, reported_codes, unexpressible

KHR_SHAPES, KHR_BODIES = "KHR_implicit_shapes", "KHR_physics_rigid_bodies"
OMI_SHAPE, OMI_BODY = "OMI_physics_shape", "OMI_physics_body"
BOX = {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}


def document(nodes: list[dict[str, Any]], extensions: dict[str, Any]) -> dict[str, Any]:
    children = {c for node in nodes for c in node.get("children", [])}
    return {
        "asset": {"version": "2.0"}, "scene": 0,
        "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}],
        "nodes": nodes, "extensions": extensions, "extensionsUsed": sorted(
            {*extensions, *(name for node in nodes for name in node.get("extensions", {}))}),
    }


def body_nodes(extension: str, motion: dict[str, Any], collider: dict[str, Any],
               offset: tuple[float, float, float] | None) -> list[dict[str, Any]]:
    """Node "Body" with `motion`, and `collider` on it or on a child "Part" at `offset`."""
    body: dict[str, Any] = {"motion": motion}
    nodes = [{"name": "Body", "extensions": {extension: body}}]
    if offset is None:
        body["collider"] = collider
    else:
        nodes[0]["children"] = [1]
        nodes.append({"name": "Part", "translation": list(offset),
                      "extensions": {extension: {"collider": collider}}})
    return nodes


def khr_file(tmp_path: Path, motion: dict[str, Any], material: dict[str, Any] | None = None,
             offset: tuple[float, float, float] | None = None, **more: Any) -> Path:
    """A KHR body with a unit box collider, on the body or on a child at `offset`."""
    collider = {"geometry": {"shape": 0}}
    root: dict[str, Any] = {}
    if material is not None:
        collider["physicsMaterial"] = 0
        root["physicsMaterials"] = [material]
    if more.get("joints"):
        root["physicsJoints"] = more["joints"]
    nodes = body_nodes(KHR_BODIES, motion, collider, offset) + more.get("nodes", [])
    extensions: dict[str, Any] = {KHR_SHAPES: {"shapes": [BOX]}}
    if root:
        extensions[KHR_BODIES] = root
    return write(tmp_path / "source.gltf", document(nodes, extensions))


def omi_file(tmp_path: Path, motion: dict[str, Any], material: dict[str, Any] | None = None,
             offset: tuple[float, float, float] | None = None) -> Path:
    """An OMI body with a unit box collider, on the body or on a child at `offset`."""
    collider: dict[str, Any] = {"shape": 0}
    extensions: dict[str, Any] = {OMI_SHAPE: {"shapes": [BOX]}}
    if material is not None:
        collider["physicsMaterial"] = 0
        extensions[OMI_BODY] = {"physicsMaterials": [material]}
    nodes = body_nodes(OMI_BODY, {"type": "dynamic", **motion}, collider, offset)
    return write(tmp_path / "source.gltf", document(nodes, extensions))


def write(path: Path, gltf: dict[str, Any]) -> Path:
    path.write_text(json.dumps(gltf))
    return path


def through_blender(source: Path, fmt: str, tmp_path: Path, caplog) -> tuple[dict, list[str]]:
    """Import `source`, export it as `fmt`: the written JSON and the export's report codes."""
    import_file(source)
    out = tmp_path / f"out_{fmt}.gltf"
    log = export_logged(out, fmt, caplog)
    assert_valid(out)
    return load_gltf(out), sorted(reported_codes(log))


def locked_box(helpers, lock_rotation: tuple[bool, bool, bool], **settings: Any):
    """A dynamic 6 kg "Body" with a 2 m custom box, its rotation locked as given."""
    body = helpers.mesh_object("Body")
    return helpers.set_physics(body, motion_type="DYNAMIC", mass=6.0, shape_type="BOX",
                               size_mode="CUSTOM", box_size=(2.0, 2.0, 2.0),
                               lock_rotation=lock_rotation, **settings)


def body_motion(gltf: dict, fmt: str, name: str = "Body") -> dict[str, Any]:
    node = next(n for n in gltf["nodes"] if n.get("name") == name)
    return node["extensions"][KHR_BODIES if fmt == "KHR" else OMI_BODY]["motion"]


def materials(gltf: dict, fmt: str) -> list[dict[str, Any]]:
    return gltf["extensions"][KHR_BODIES if fmt == "KHR" else OMI_BODY]["physicsMaterials"]


# -- 1. mass the engine computes ----------------------------------------------------------------


def test_khr_computed_mass(tmp_path: Path, caplog) -> None:
    source = khr_file(tmp_path, {})
    import_file(source)
    assert bpy.data.objects["Body"].gltf_physics.mass_mode == "AUTO"
    khr, codes = through_blender(source, "KHR", tmp_path, caplog)
    assert "mass" not in body_motion(khr, "KHR") and codes == []
    omi, codes = through_blender(source, "OMI", tmp_path, caplog)
    assert body_motion(omi, "OMI")["mass"] == 1.0 and codes == ["omi-computed-mass"]


def test_omi_absent_mass_is_one_kilogram(tmp_path: Path, caplog) -> None:
    khr, codes = through_blender(omi_file(tmp_path, {}), "KHR", tmp_path, caplog)
    assert body_motion(khr, "KHR")["mass"] == 1.0 and codes == []


# -- 2. infinite mass and locked rotation -------------------------------------------------------


def test_khr_infinite_mass_and_locked_axes(tmp_path: Path, caplog) -> None:
    motion = {"mass": 0, "inertiaDiagonal": [0, 2, 0], "inertiaOrientation": [0, 0, 0, 1]}
    source = khr_file(tmp_path, motion)
    import_file(source)
    props = bpy.data.objects["Body"].gltf_physics
    assert (props.mass_mode, props.motion_type) == ("INFINITE", "DYNAMIC")
    assert tuple(props.lock_rotation) == (True, True, False)  # glTF X and Z = Blender X and Y
    khr, codes = through_blender(source, "KHR", tmp_path, caplog)
    written = body_motion(khr, "KHR")
    assert (written["mass"], written["inertiaDiagonal"]) == (0.0, [0.0, 2.0, 0.0])
    assert file_differences(source, tmp_path / "out_KHR.gltf", "KHR") == []
    omi, codes = through_blender(source, "OMI", tmp_path, caplog)
    written = body_motion(omi, "OMI")
    assert written["type"] == "kinematic" and written["inertiaDiagonal"] == [2000.0, 2.0, 2000.0]
    assert codes == ["omi-infinite-mass", "omi-locked-rotation"]


def test_locked_rotation_with_auto_inertia_is_computed(clean_scene, helpers, tmp_path: Path,
                                                       caplog) -> None:
    body = locked_box(helpers, (True, True, False))
    part = helpers.empty_object("Part", location=(0.0, 0.0, 0.0), parent=body)
    helpers.set_physics(part, shape_type="SPHERE", size_mode="CUSTOM", radius=0.1,
                        shape_role="TRIGGER")  # triggers do not count
    khr = helpers.export(tmp_path / "locked.gltf", "KHR")
    helpers.assert_valid(tmp_path / "locked.gltf")
    written = body_motion(khr, "KHR")
    # A 2 m cube of 6 kg: m(b² + c²)/12 = 4 about each axis; Blender Z is glTF Y.
    assert written["inertiaDiagonal"] == pytest.approx([0.0, 4.0, 0.0], abs=1e-6)
    assert written["inertiaOrientation"] == [0.0, 0.0, 0.0, 1.0]


# -- 3. centre of mass --------------------------------------------------------------------------


def test_khr_computed_centre_is_written_for_omi(tmp_path: Path, caplog) -> None:
    source = khr_file(tmp_path, {"mass": 2}, offset=(2.0, 0.0, 0.0))
    omi, codes = through_blender(source, "OMI", tmp_path, caplog)
    assert body_motion(omi, "OMI")["centerOfMass"] == pytest.approx([2.0, 0.0, 0.0])
    assert codes == []
    khr, _codes = through_blender(source, "KHR", tmp_path, caplog)
    assert "centerOfMass" not in body_motion(khr, "KHR")


def test_omi_centre_at_the_origin_is_written_for_khr(tmp_path: Path, caplog) -> None:
    source = omi_file(tmp_path, {"mass": 2}, offset=(0.0, 3.0, 0.0))
    khr, _codes = through_blender(source, "KHR", tmp_path, caplog)
    assert body_motion(khr, "KHR")["centerOfMass"] == [0.0, 0.0, 0.0]
    assert file_differences(source, tmp_path / "out_KHR.gltf", "KHR") == []
    omi, _codes = through_blender(source, "OMI", tmp_path, caplog)
    assert "centerOfMass" not in body_motion(omi, "OMI")  # OMI's default: the origin


def test_omi_centre_on_its_colliders_needs_no_key_in_khr(tmp_path: Path, caplog) -> None:
    khr, _codes = through_blender(omi_file(tmp_path, {"mass": 2}), "KHR", tmp_path, caplog)
    assert "centerOfMass" not in body_motion(khr, "KHR")


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_explicit_centre_survives(fmt: str, tmp_path: Path, caplog) -> None:
    motion = {"mass": 2, "centerOfMass": [0.5, -0.25, 1.0]}
    source = khr_file(tmp_path, motion, offset=(2.0, 0.0, 0.0)) if fmt == "KHR" \
        else omi_file(tmp_path, motion, offset=(2.0, 0.0, 0.0))
    for target in ("KHR", "OMI"):
        gltf, _codes = through_blender(source, target, tmp_path, caplog)
        assert body_motion(gltf, target)["centerOfMass"] == pytest.approx([0.5, -0.25, 1.0])


# -- 4. combine modes ---------------------------------------------------------------------------


def test_khr_combine_left_to_the_engine(tmp_path: Path, caplog) -> None:
    material = {"staticFriction": 0.9, "dynamicFriction": 0.8, "restitution": 0.5}
    source = khr_file(tmp_path, {"mass": 1}, material)
    import_file(source)
    props = bpy.data.objects["Body"].gltf_physics
    assert (props.friction_combine, props.restitution_combine) == ("engine", "engine")
    khr, codes = through_blender(source, "KHR", tmp_path, caplog)
    assert materials(khr, "KHR") == [material] and codes == []
    omi, codes = through_blender(source, "OMI", tmp_path, caplog)
    assert materials(omi, "OMI") == [material] and codes == ["omi-engine-combine"]
    differences = unexpressible(file_differences(source, tmp_path / "out_OMI.gltf", "OMI"), "OMI")
    assert {d.split(": ")[1].split(" engine")[0] for d in differences} == {
        "friction combine", "restitution combine"}


def test_omi_combine_default_is_average(tmp_path: Path, caplog) -> None:
    material = {"staticFriction": 0.9, "dynamicFriction": 0.8, "restitution": 0.5}
    khr, codes = through_blender(omi_file(tmp_path, {}, material), "KHR", tmp_path, caplog)
    assert codes == []
    assert materials(khr, "KHR") == [
        {**material, "frictionCombine": "average", "restitutionCombine": "average"}]


# -- 5. joint limits as written -----------------------------------------------------------------


PER_AXIS = [{"linearAxes": [0], "min": 0.0, "max": 0.0}, {"linearAxes": [2], "min": 0.0,
            "max": 0.0}, {"linearAxes": [1], "min": 0.0, "max": 0.0}]
MULTI_AXIS = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
              {"angularAxes": [1, 2], "min": 0.0, "max": 0.0}]


@pytest.mark.parametrize("limits", [PER_AXIS, MULTI_AXIS], ids=["per-axis", "multi-axis"])
@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_joint_limits_come_back_as_written(limits, fmt: str, tmp_path: Path, caplog) -> None:
    joint = {"joint": 0, "connectedNode": 3, "enableCollision": False}
    nodes = [{"name": "Frame", "extensions": {KHR_BODIES: {"joint": joint}}},
             {"name": "Other", "translation": [0, 2, 0], "children": [3],
              "extensions": {KHR_BODIES: {"motion": {"mass": 1}, "collider": {
                  "geometry": {"shape": 0}}}}},
             {"name": "Connected", "extensions": {}}]
    source = khr_file(tmp_path, {"mass": 1}, joints=[{"limits": limits}], nodes=nodes)
    gltf = json.loads(source.read_text())
    gltf["nodes"][0]["children"] = [1]
    gltf["scenes"][0]["nodes"] = [0, 2]
    write(source, gltf)
    out, _codes = through_blender(source, fmt, tmp_path, caplog)
    root = out["extensions"]["OMI_physics_joint" if fmt == "OMI" else KHR_BODIES]
    assert [j["limits"] for j in root["physicsJoints"]] == [limits]
    import_file(source)  # an edited joint is regenerated from its preset
    frame = bpy.data.objects["Frame"].gltf_physics
    assert frame.joint_type in ("PIN", "HINGE")
    frame.joint_type = "FIXED"
    out, _codes = through_blender_current(tmp_path, fmt, caplog)
    root = out["extensions"]["OMI_physics_joint" if fmt == "OMI" else KHR_BODIES]
    assert [j["limits"] for j in root["physicsJoints"]] == [[
        {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
        {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]]


def through_blender_current(tmp_path: Path, fmt: str, caplog) -> tuple[dict, list[str]]:
    out = tmp_path / f"edited_{fmt}.gltf"
    log = export_logged(out, fmt, caplog)
    assert_valid(out)
    return load_gltf(out), sorted(reported_codes(log))


# -- 6. bodies and joints on bones --------------------------------------------------------------


def _on_bone(name: str, armature: bpy.types.Object, bone: str, world: Matrix) -> bpy.types.Object:
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    obj.parent, obj.parent_type, obj.parent_bone = armature, "BONE", bone
    bpy.context.view_layer.update()
    obj.matrix_world = world
    return obj


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_ragdoll_joint_between_bodies_on_bones(clean_scene, fmt: str, tmp_path: Path,
                                               caplog) -> None:
    rig = armature_object("Rig", [("Upper", (0, 0, 2), (0, 0, 1), None),
                                  ("Lower", (0, 0, 1), (0, 0, 0), "Upper")])
    bodies = [_on_bone("UpperBody", rig, "Upper", Matrix.Translation((0, 0, 1.5))),
              _on_bone("LowerBody", rig, "Lower", Matrix.Translation((0, 0, 0.5)))]
    for body in bodies:
        props = body.gltf_physics
        props.motion_type, props.shape_type, props.size_mode = "DYNAMIC", "BOX", "CUSTOM"
        props.box_size = (0.2, 0.2, 1.0)
    knee = _on_bone("Knee", rig, "Upper", Matrix.Translation((0, 0, 1)))
    knee.gltf_physics.joint_type = "HINGE"
    knee.gltf_physics.joint_connected_body = bodies[1]
    out = tmp_path / f"ragdoll_{fmt}.gltf"
    with caplog.at_level(logging.WARNING):
        bpy.context.scene.gltf_physics.export_format = fmt
        bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLTF_SEPARATE")
    assert not [r for r in caplog.records if "joint" in r.getMessage()]
    assert_valid(out)
    import_file(out)
    knee = next(o for o in bpy.data.objects if o.gltf_physics.joint_type == "HINGE")
    from bl_ext.dev.gltf_physics.io.blender.bridge.joint_bridge import body_of

    assert body_of(knee).name == "UpperBody"
    assert knee.gltf_physics.joint_connected_body.name == "LowerBody"


def test_numbers_blender_cannot_store_keep_their_meaning(tmp_path: Path, caplog) -> None:
    """Blender stores float32: a KHR mass of 1e-50 (tiny, not 0, which KHR reads as
    infinite) and a plane's sizeX of 1e-50 (not absent, which is infinite) come back as
    float32's smallest positive number; a mass of 1e39 as float32's largest. The import
    says each once."""
    plane = {"type": "plane", "plane": {"sizeX": 1e-50, "sizeZ": 2.0}}
    nodes = [
        {"name": "Tiny", "extensions": {KHR_BODIES: {"motion": {"mass": 1e-50},
                                                     "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Huge", "extensions": {KHR_BODIES: {"motion": {"mass": 1e39},
                                                     "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Sheet", "extensions": {KHR_BODIES: {"collider": {"geometry": {"shape": 1}}}}},
    ]
    source = write(tmp_path / "source.gltf",
                   document(nodes, {KHR_SHAPES: {"shapes": [BOX, plane]}}))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        import_file(source)
    said = [r.getMessage() for r in caplog.records if "-float32]" in r.getMessage()]
    assert len(said) == 3 and "motion.mass 1e-50" in said[0], said
    out = tmp_path / "out.gltf"
    export_logged(out, "KHR", caplog)
    assert_valid(out)
    gltf = load_gltf(out)
    assert 0 < body_motion(gltf, "KHR", "Tiny")["mass"] < 1e-44
    assert body_motion(gltf, "KHR", "Huge")["mass"] == pytest.approx(3.4028235e38)
    written = gltf["extensions"][KHR_SHAPES]["shapes"]
    sheet = next(n for n in gltf["nodes"] if n["name"] == "Sheet")
    shape = written[sheet["extensions"][KHR_BODIES]["collider"]["geometry"]["shape"]]
    assert 0 < shape["plane"]["sizeX"] < 1e-44 and shape["plane"]["sizeZ"] == 2.0


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_an_inertia_orientation_stated_alone_survives(fmt: str, tmp_path: Path, caplog) -> None:
    """A file may state the inertia's orientation without its moments (computed by the
    engine): it comes back as stated."""
    turned = [0.0, 0.3826834, 0.0, 0.9238795]
    motion = {"mass": 2.0, "inertiaOrientation": turned}
    source = khr_file(tmp_path, motion) if fmt == "KHR" else omi_file(tmp_path, motion)
    gltf, _codes = through_blender(source, fmt, tmp_path, caplog)
    written = body_motion(gltf, fmt)
    assert "inertiaDiagonal" not in written
    assert written["inertiaOrientation"] == pytest.approx(turned, abs=1e-6)
