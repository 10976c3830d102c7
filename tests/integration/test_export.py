# SPDX-License-Identifier: GPL-3.0-or-later
"""Scenes built through the add-on's properties, exported in both formats."""

import math

import bpy
import pytest

from tests.integration import scene_helpers as h

FORMATS = [("KHR", "MESH"), ("KHR", "NODE"), ("OMI", "MESH")]


def _nodes(gltf):
    return {n.get("name"): n for n in gltf["nodes"]}


def _body(node, fmt):
    key = "OMI_physics_body" if fmt == "OMI" else "KHR_physics_rigid_bodies"
    return (node.get("extensions") or {}).get(key)


def _shape(gltf, fmt, part):
    if fmt == "OMI":
        return gltf["extensions"]["OMI_physics_shape"]["shapes"][part["shape"]]
    return gltf["extensions"]["KHR_implicit_shapes"]["shapes"][part["geometry"]["shape"]]


@pytest.mark.parametrize(("fmt", "geometry"), FORMATS)
def test_showcase_exports_valid_physics(clean_scene, tmp_path, fmt, geometry):
    h.build_showcase()
    path = tmp_path / f"showcase_{fmt}_{geometry}.glb"
    gltf = h.export(path, fmt, geometry)
    h.assert_valid(path, geometry_node=geometry == "NODE")
    nodes = _nodes(gltf)
    assert not any("gltf_physics" in (n.get("extras") or {}) for n in gltf["nodes"])

    box = _body(nodes["Box"], fmt)
    motion = box["motion"]
    assert motion["mass"] == 2.5
    assert motion["linearVelocity"] == pytest.approx([1, 3, -2])  # Blender (x,y,z) → (x,z,−y)
    assert motion["angularVelocity"] == pytest.approx([0.1, 0.3, -0.2])
    assert motion["centerOfMass"] == pytest.approx([0.1, 0.3, -0.2])
    assert motion["inertiaDiagonal"] == pytest.approx([1, 3, 2])  # extents swap Y and Z
    assert motion["inertiaOrientation"] == pytest.approx([0.3826834, 0, 0, 0.9238795], abs=1e-6)
    assert motion["gravityFactor"] == 0.5
    assert _shape(gltf, fmt, box["collider"])["box"]["size"] == pytest.approx([1, 1, 1])
    floor_shape = _shape(gltf, fmt, _body(nodes["Floor"], fmt)["collider"])
    assert floor_shape["box"]["size"] == pytest.approx([1, 1, 1])  # unscaled; node carries scale
    assert nodes["Floor"]["scale"] == pytest.approx([10, 0.2, 10])

    if fmt == "OMI":
        assert motion["type"] == "dynamic"
        assert _body(nodes["Pill"], fmt)["motion"]["type"] == "kinematic"
        assert _body(nodes["Floor"], fmt)["motion"]["type"] == "static"
    else:
        assert "isKinematic" not in motion
        assert _body(nodes["Pill"], fmt)["motion"]["isKinematic"] is True
        assert "motion" not in _body(nodes["Floor"], fmt)

    pill = _shape(gltf, fmt, _body(nodes["Pill"], fmt)["collider"])
    assert pill == {"type": "capsule",
                    "capsule": {"height": 1.2, "radiusTop": 0.3, "radiusBottom": 0.4}}
    can = _shape(gltf, fmt, _body(nodes["Can"], fmt)["collider"])
    assert can["cylinder"] == pytest.approx({"height": 1, "radiusTop": 0.5, "radiusBottom": 0.5})

    # Ball and Box share one material (restitution 0.7, maximum): pooled once.
    root = gltf["extensions"]["OMI_physics_body" if fmt == "OMI" else "KHR_physics_rigid_bodies"]
    assert len(root["physicsMaterials"]) == 2
    ball = _body(nodes["Ball"], fmt)
    assert ball["collider"]["physicsMaterial"] == box["collider"]["physicsMaterial"]
    filters = root["collisionFilters"]
    box_filter = filters[box["collider"]["collisionFilter"]]
    assert box_filter == {"collisionSystems": ["Props"], "collideWithSystems": ["Props", "Players"]}
    prop_filter = filters[_body(nodes["Prop"], fmt)["collider"]["collisionFilter"]]
    assert prop_filter == {"collisionSystems": ["Players"], "notCollideWithSystems": ["Props"]}

    # The trigger's offset becomes a child node; the compound trigger lists its posts.
    zone_child = gltf["nodes"][nodes["Zone"]["children"][0]]
    assert zone_child["translation"] == pytest.approx([0, 0.5, 0])
    assert "trigger" in _body(zone_child, fmt)
    gate = _body(nodes["Gate"], fmt)["trigger"]
    assert sorted(gltf["nodes"][i]["name"] for i in gate["nodes"]) == ["GatePost0", "GatePost1"]

    # Compound collider: the Cart body owns its children's boxes.
    assert set(_body(nodes["Cart"], fmt)) == {"motion"}
    assert "collider" in _body(nodes["CartPart0"], fmt)

    # The collision-only proxy is not exported; the shell references a collision mesh.
    assert "PropProxy" not in nodes
    shell = _body(nodes["Shell"], fmt)["collider"]
    if fmt == "OMI":
        shell_shape = gltf["extensions"]["OMI_physics_shape"]["shapes"][shell["shape"]]
        mesh = shell_shape["convex"]["mesh"]
    elif geometry == "NODE":
        assert shell["geometry"]["convexHull"] is True
        orphan = gltf["nodes"][shell["geometry"]["node"]]
        assert orphan.get("translation") is None and "extensions" not in orphan
        mesh = orphan["mesh"]
        assert not any(shell["geometry"]["node"] in s["nodes"] for s in gltf["scenes"])
    else:
        mesh = shell["geometry"]["mesh"]
    assert mesh != nodes["Shell"]["mesh"]
    assert list(gltf["meshes"][mesh]["primitives"][0]["attributes"]) == ["POSITION"]


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_selection_only_export_leaves_no_dangling_index(clean_scene, tmp_path, fmt):
    objs = h.build_showcase()
    for obj in bpy.context.scene.objects:
        obj.select_set(obj.name in ("Gate", "GatePost0", "Box"))
    path = tmp_path / "selected.gltf"
    gltf = h.export(path, fmt, use_selection=True)
    h.assert_valid(path)
    nodes = _nodes(gltf)
    assert set(nodes) >= {"Gate", "GatePost0", "Box"} and "GatePost1" not in nodes
    gate = _body(nodes["Gate"], fmt)["trigger"]
    assert [gltf["nodes"][i]["name"] for i in gate["nodes"]] == ["GatePost0"]
    assert objs["Box"].name in nodes


def test_collision_only_object_exports_no_visible_mesh(clean_scene, tmp_path):
    rock = h.mesh_object("Rock", "monkey")
    h.set_physics(rock, shape_type="TRIMESH", collision_only=True)
    path = tmp_path / "rock.gltf"
    gltf = h.export(path, "KHR")
    h.assert_valid(path)
    node = _nodes(gltf)["Rock"]
    assert "mesh" not in node
    mesh = node["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["mesh"]
    assert gltf["accessors"][gltf["meshes"][mesh]["primitives"][0]["attributes"]["POSITION"]][
        "count"] == 507  # Suzanne's welded vertices


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_z_up_export_rotates_round_shapes_onto_local_y(clean_scene, tmp_path, fmt):
    can = h.mesh_object("Can", "cylinder", (0, 0, 0))
    h.set_physics(can, motion_type="DYNAMIC", shape_type="CYLINDER", linear_velocity=(0, 0, 5))
    path = tmp_path / "zup.gltf"
    gltf = h.export(path, fmt, export_yup=False)
    h.assert_valid(path)
    nodes = _nodes(gltf)
    assert _body(nodes["Can"], fmt)["motion"]["linearVelocity"] == [0, 0, 5]
    child = nodes["Can.shape"]
    assert child["rotation"] == pytest.approx([math.sqrt(0.5), 0, 0, math.sqrt(0.5)])
    assert "collider" in _body(child, fmt)


def test_off_writes_no_physics(clean_scene, tmp_path):
    h.build_showcase()
    gltf = h.export(tmp_path / "off.gltf", "NONE")
    h.assert_valid(tmp_path / "off.gltf")
    assert not any(name in h.PHYSICS_NAMES for name in gltf.get("extensionsUsed", []))
    assert all("extensions" not in n for n in gltf["nodes"])


def test_omi_godot4_capsule_layout_option(clean_scene, tmp_path):
    h.build_showcase()
    bpy.context.scene.gltf_physics.omi_round_layout = "GODOT4"
    gltf = h.export(tmp_path / "godot.gltf", "OMI")
    h.assert_valid(tmp_path / "godot.gltf")
    capsules = [s["capsule"] for s in gltf["extensions"]["OMI_physics_shape"]["shapes"]
                if s["type"] == "capsule"]
    # Pill: mid-height 1.2, radii 0.3/0.4 → one radius 0.4, full height 2.0 (taper reported)
    assert capsules == [{"radius": 0.4, "height": 2.0}]


def test_khr_static_body_under_a_moving_body_becomes_kinematic(clean_scene, tmp_path):
    cart = h.set_physics(h.mesh_object("Cart"), motion_type="DYNAMIC", shape_type="BOX")
    post = h.set_physics(h.mesh_object("Post", location=(0, 0, 2)), motion_type="STATIC",
                         shape_type="BOX")
    post.parent = cart
    gltf = h.export(tmp_path / "k.gltf", "KHR")
    h.assert_valid(tmp_path / "k.gltf")
    node = next(n for n in gltf["nodes"] if n["name"] == "Post")
    assert node["extensions"]["KHR_physics_rigid_bodies"]["motion"]["isKinematic"] is True
    omi = h.export(tmp_path / "o.gltf", "OMI")
    h.assert_valid(tmp_path / "o.gltf")
    node = next(n for n in omi["nodes"] if n["name"] == "Post")
    assert node["extensions"]["OMI_physics_body"]["motion"]["type"] == "static"
