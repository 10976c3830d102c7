# SPDX-License-Identifier: GPL-3.0-or-later
"""What the tools made, known by identity: a decomposition of a local object beside a linked
namesake, a hull proxy or part another object still uses, and the joint Empty of Physics
from Blender Rigid Body on a second run."""

import importlib
from pathlib import Path

import bpy
import numpy as np
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

ownership = importlib.import_module(f"{MODULE}.io.blender.tools.ownership")


@pytest.fixture
def bridge():
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    return importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")


@pytest.fixture
def settings():
    """Quick settings for a cube (watertight: no remeshing)."""
    core = importlib.import_module(f"{MODULE}.io.decomposition")
    return core.Settings(resolution=500, preprocess="off")


def select_only(*objs):
    for other in bpy.context.view_layer.objects:
        other.select_set(other in objs)
    bpy.context.view_layer.objects.active = objs[-1]


def extent(obj) -> list[float]:
    points = np.array([v.co[:] for v in obj.data.vertices])
    return (points.max(0) - points.min(0)).round(2).tolist()


def linked_big_crate(folder: Path) -> bpy.types.Object:
    """A library's 10 m "Crate" (a dynamic box) linked into an emptied file."""
    crate = h.set_physics(h.mesh_object("Crate", size=10.0), motion_type="DYNAMIC",
                          shape_type="BOX")
    kit = h.linked_kit([crate], folder / "lib.blend")
    bpy.context.scene.collection.children.link(kit)
    return kit.objects["Crate"]


# -- 1. decomposition by identity, never a linked object ----------------------------------


@pytest.mark.parametrize("linked_first", [False, True])
def test_decompose_now_gives_a_local_crate_its_own_parts_beside_a_linked_namesake(
        clean_scene, tmp_path, bridge, settings, linked_first):
    linked = linked_big_crate(tmp_path)
    local = h.set_physics(h.mesh_object("Crate", location=(3, 0, 0)), motion_type="DYNAMIC",
                          shape_type="BOX")
    assert local.name == linked.name and linked.library is not None
    run = bridge.decompose_now([linked, local] if linked_first else [local, linked], settings)
    parts = bridge.parts_of(local)
    assert parts and all(extent(p) == [1.0, 1.0, 1.0] for p in parts)  # its own 1 m parts
    assert local.gltf_physics.shape_type == "NONE" and run.made["Crate"] == parts
    assert bridge.parts_of(linked) == [] and linked.gltf_physics.shape_type == "BOX"
    assert not linked.children and all(o.library is None for o in parts)
    assert run.errors == ["Crate was left as it was: Crate is linked from lib.blend: make it "
                          "local or use a library override"]


# -- 2. what another object still uses is kept ---------------------------------------------


def crate_with_hull_and_a_copy():
    """Generate Convex Hull on Crate, then Shift+D of Crate alone: the copy's shape still
    uses Crate's hull proxy."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC")
    select_only(crate)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = crate.gltf_physics.mesh_object
    select_only(crate)
    assert bpy.ops.object.duplicate() == {"FINISHED"}
    copy = bpy.context.active_object
    assert copy != crate and copy.gltf_physics.mesh_object == proxy
    return crate, proxy, copy


def test_decomposition_keeps_a_hull_proxy_a_copys_shape_still_uses(clean_scene, bridge):
    crate, proxy, copy = crate_with_hull_and_a_copy()
    select_only(crate)
    assert bpy.ops.gltf_physics.convex_decompose(resolution=500, preprocess="OFF") \
        == {"FINISHED"}
    assert proxy.name in bpy.data.objects and proxy.data is not None  # kept, whole
    assert copy.gltf_physics.mesh_object == proxy and copy.gltf_physics.shape_type == "CONVEX"
    assert crate.gltf_physics.mesh_object is None and crate.gltf_physics.mesh_source == "SELF"
    assert bridge.parts_of(crate) and proxy not in bridge.parts_of(crate)
    bpy.ops.gltf_physics.validate()
    assert [p.code for p in clean_scene.gltf_physics.problems] == []
    assert "UNDO" in bpy.types.GLTF_PHYSICS_OT_convex_decompose.bl_options


def test_a_kept_hull_proxy_is_said(clean_scene, bridge, settings):
    crate, proxy, copy = crate_with_hull_and_a_copy()
    run = bridge.decompose_now([crate], settings)
    assert run.errors == [] and proxy.name in bpy.data.objects
    assert f"{proxy.name} was kept: {copy.name} still uses it (Crate's shape no longer does); " \
           "delete it when nothing does" in run.warnings
    copy.gltf_physics.mesh_object = None  # now unused: a hull of the copy's own comes next
    assert not ownership.pointer_users([proxy]).get(proxy.session_uid)
    assert ownership.remove_made(proxy, ownership.HULL_PROXY, crate)


def test_a_part_another_shape_uses_is_kept_out_of_the_compound(clean_scene, bridge, settings):
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", shape_type="BOX")
    run = bridge.decompose_now([crate], settings)
    old = run.made["Crate"][0]
    other = h.set_physics(h.mesh_object("Other", location=(3, 0, 0)), motion_type="DYNAMIC",
                          shape_type="CONVEX", mesh_source="OBJECT", mesh_object=old)
    run = bridge.decompose_now([crate], settings)
    assert old.name in bpy.data.objects and other.gltf_physics.mesh_object == old
    assert old.parent == crate and old.gltf_physics.shape_type == "NONE"  # not in the compound
    new = run.made["Crate"]
    assert new and old not in new
    assert {c for c in crate.children if c.gltf_physics.shape_type != "NONE"} == set(new)
    assert any(w.startswith(f"{old.name} was kept: Other still uses it (no longer a part of "
                            "Crate)") for w in run.warnings), run.warnings
    other.gltf_physics.mesh_object = None
    uid = old.session_uid
    run = bridge.decompose_now([crate], settings)  # unused now: replaced as any other part
    assert uid not in {o.session_uid for o in bpy.data.objects}
    assert set(bridge.parts_of(crate)) == set(run.made["Crate"])


def test_a_hull_proxy_or_part_a_modifier_or_constraint_uses_is_kept(clean_scene, bridge,
                                                                    settings):
    """The user's Boolean modifier cutting with the hull proxy, a Child Of constraint on a
    part: a re-run kept only helpers physics settings pointed at, and deleted these (the
    modifier and constraint then pointed at nothing), unsaid."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC")
    select_only(crate)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = crate.gltf_physics.mesh_object
    wall = h.mesh_object("Wall", location=(4, 0, 0), size=3.0)
    cut = wall.modifiers.new("Cut", "BOOLEAN")
    cut.object = proxy
    points = len(proxy.data.vertices)
    assert bpy.ops.gltf_physics.simplify_hull(max_points=8) == {"FINISHED"}  # kept as is
    assert crate.gltf_physics.mesh_object != proxy and cut.object == proxy
    assert len(proxy.data.vertices) == points
    proxy = crate.gltf_physics.mesh_object  # (the new one)
    cut.object = proxy
    run = bridge.decompose_now([crate], settings)
    assert proxy.name in bpy.data.objects and cut.object == proxy
    assert f"{proxy.name} was kept: Wall still uses it (Crate's shape no longer does); delete it " \
        "when nothing does" in run.warnings, run.warnings
    own = h.set_physics(h.mesh_object("Own"), motion_type="DYNAMIC")  # its own modifier
    select_only(own)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    own_proxy = own.gltf_physics.mesh_object
    joined = own.modifiers.new("Join", "BOOLEAN")
    joined.operation, joined.object = "UNION", own_proxy
    run_own = bridge.decompose_now([own], settings)
    assert f"{own_proxy.name} was kept: Own still uses it (Own's shape no longer does); " \
        "delete it when nothing does" in run_own.warnings, run_own.warnings
    part = run.made["Crate"][0]
    lamp = h.mesh_object("Lamp", location=(0, 0, 3), size=0.2)
    pin = lamp.constraints.new("CHILD_OF")
    pin.target = part
    run = bridge.decompose_now([crate], settings)
    assert part.name in bpy.data.objects and pin.target == part
    assert any(w.startswith(f"{part.name} was kept: Lamp still uses it") for w in run.warnings)
    assert part not in run.made["Crate"] and part.gltf_physics.shape_type == "NONE"
    pin.target = None  # unused now: replaced as any other part
    uid = part.session_uid
    bridge.decompose_now([crate], settings)
    assert uid not in {o.session_uid for o in bpy.data.objects}


def editing(obj) -> None:
    select_only(obj)
    bpy.ops.object.mode_set(mode="EDIT")
    assert obj.mode == "EDIT"


def test_a_hull_proxy_being_edited_is_left_as_it_is_and_said(clean_scene):
    """Blender keeps an object's mesh in Edit Mode: the re-run said "1 hull(s)" and changed
    nothing (a tagged mesh left over)."""
    crate = h.set_physics(h.mesh_object("Crate", kind="sphere"), motion_type="DYNAMIC")
    select_only(crate)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = crate.gltf_physics.mesh_object
    mesh, meshes = proxy.data, set(bpy.data.meshes)
    editing(proxy)
    select_only(crate)
    with pytest.raises(RuntimeError, match=r"Crate was left as it was: Crate\.hull "
                       r"is in Edit Mode: leave Edit Mode first"):
        bpy.ops.gltf_physics.simplify_hull(max_points=8)
    assert proxy.data == mesh and set(bpy.data.meshes) == meshes
    assert crate.gltf_physics.mesh_object == proxy


@pytest.mark.parametrize("edited", ["part", "proxy"])
def test_a_decomposition_leaves_an_object_whose_helper_is_being_edited(clean_scene, bridge,
                                                                       settings, edited):
    """The part (or hull proxy) being edited was deleted under the user."""
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", shape_type="BOX")
    if edited == "part":
        helper = bridge.decompose_now([crate], settings).made["Crate"][0]
    else:
        select_only(crate)
        assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
        helper = crate.gltf_physics.mesh_object
    editing(helper)
    run = bridge.decompose_now([crate], settings)
    assert run.errors == [f"Crate was left as it was: {helper.name} is in Edit Mode: leave "
                          "Edit Mode first (Tab)"]
    assert helper.name in bpy.data.objects and helper.mode == "EDIT"


@pytest.mark.parametrize("role", ["COLLIDER", "TRIGGER"])
def test_a_hull_replaces_the_parts_of_an_earlier_decomposition(clean_scene, tmp_path, bridge,
                                                              settings, role):
    """The parts stayed beside the new hull: the file had both (a doubled collider)."""
    clean_scene.gltf_physics.layers.add().name = "Doors"
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC", shape_type="BOX",
                          shape_role=role, use_filter=True, filter_name="Sensor",
                          filter_layers=(True,) + (False,) * 31)
    parts = bridge.decompose_now([crate], settings).made["Crate"]
    assert parts and crate.gltf_physics.is_compound_trigger == (role == "TRIGGER")
    select_only(crate)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    assert bridge.parts_of(crate) == [] and not [o for o in bpy.data.objects
                                                  if o.name.startswith("Crate.part")]
    props = crate.gltf_physics
    assert (props.shape_type, props.shape_role, props.is_compound_trigger) \
        == ("CONVEX", role, False)
    assert props.use_filter and props.filter_name == "Sensor" and props.filter_layers[0]
    gltf = h.export(tmp_path / "out.gltf", "KHR")
    shaped = [n["name"] for n in gltf["nodes"] if "geometry" in str(
        n.get("extensions", {}).get("KHR_physics_rigid_bodies", {}))]
    assert shaped == ["Crate"], shaped


# -- 3. Physics from Blender Rigid Body reuses its joint Empty -------------------------------


def test_from_native_twice_reuses_the_joint_empty_it_made(clean_scene):
    a = h.mesh_object("A")
    b = h.mesh_object("B", location=(0, 0, 3))
    for obj in (a, b):
        select_only(obj)
        bpy.ops.rigidbody.object_add()
    a.rigid_body.type = "PASSIVE"
    h.set_physics(a, motion_type="STATIC")
    h.set_physics(b, motion_type="DYNAMIC")
    users = h.empty_object("B.joint", (5, 0, 0))  # the user's, named as the tool names its own
    h.set_physics(users, joint_type="FIXED", joint_connected_body=a)
    select_only(b)
    bpy.ops.rigidbody.constraint_add(type="HINGE")  # on body B itself
    b.rigid_body_constraint.object1, b.rigid_body_constraint.object2 = a, b
    select_only(b, a)
    assert bpy.ops.gltf_physics.joint_add() == {"FINISHED"}  # Add Joint's, made for B too
    added = bpy.context.active_object
    assert ownership.made_by(added, ownership.JOINT, b)
    made = []
    for _run in range(2):
        select_only(a, b)
        assert bpy.ops.gltf_physics.from_native() == {"FINISHED"}
        made.append([o for o in bpy.data.objects
                     if o.get(ownership.MADE_BY) and o not in (added,)])
    assert made[0] == made[1] and len(made[0]) == 1  # one Empty, the same
    holder = made[0][0]
    assert ownership.made_by(holder, ownership.NATIVE_JOINT, b) and holder.parent == a
    assert (holder.gltf_physics.joint_type, holder.gltf_physics.joint_connected_body) \
        == ("HINGE", b)
    joints = [o for o in bpy.data.objects if o.gltf_physics.joint_type != "NONE"]
    assert sorted(o.name for o in joints) == sorted([users.name, added.name, holder.name])
    assert (users.gltf_physics.joint_type, users.parent) == ("FIXED", None)  # left alone
    assert added.parent == b and added.gltf_physics.joint_connected_body == a
    b.location.x = 4.0  # a moved body: the joint Empty follows it on the next run
    select_only(a, b)
    assert bpy.ops.gltf_physics.from_native() == {"FINISHED"}
    bpy.context.view_layer.update()
    assert holder.matrix_world.translation.x == pytest.approx(4.0)
    assert [o for o in bpy.data.objects if ownership.made_by(o, ownership.NATIVE_JOINT)] \
        == [holder]
    assert "UNDO" in bpy.types.GLTF_PHYSICS_OT_from_native.bl_options


def test_a_refilled_hull_keeps_its_mesh_name_run_after_run(clean_scene):
    """The refilled proxy's mesh was named Rock.hull.001, Rock.hull, Rock.hull.001…"""
    rock = h.set_physics(h.mesh_object("Rock", "monkey"), motion_type="DYNAMIC")
    for _run in range(3):
        for obj in bpy.context.view_layer.objects:
            obj.select_set(obj == rock)
        bpy.context.view_layer.objects.active = rock
        assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
        assert rock.gltf_physics.mesh_object.data.name == "Rock.hull"
