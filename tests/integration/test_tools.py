# SPDX-License-Identifier: GPL-3.0-or-later
"""Artist tools: copy settings to selected, preview in Blender's rigid body world."""

import importlib

import bpy
import pytest
from mathutils import Matrix, Quaternion, Vector

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

native = importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")


def test_copy_settings_to_selected(clean_scene):
    objs = h.build_jointed()
    source = objs["DoorHinge"]
    source.gltf_physics.joint_type = "CUSTOM"
    limit = source.gltf_physics.joint_limits.add()
    limit.kind, limit.axes, limit.max_angle = "ANGULAR", (False, True, True), 0.5
    target = h.empty_object("Other", (5, 5, 0))
    for obj in bpy.data.objects:
        obj.select_set(obj in (source, target))
    bpy.context.view_layer.objects.active = source
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}
    props = target.gltf_physics
    assert props.joint_type == "CUSTOM" and len(props.joint_limits) == 1
    assert tuple(props.joint_limits[0].axes) == (False, True, True)
    assert props.joint_limits[0].max_angle == limit.max_angle
    assert props.joint_connected_body is None  # object links stay per object
    assert source.gltf_physics.joint_connected_body == objs["DoorFrame"]


def test_copy_needs_a_target(clean_scene):
    box = h.mesh_object("Box")
    for obj in bpy.data.objects:
        obj.select_set(obj == box)
    bpy.context.view_layer.objects.active = box
    assert not bpy.ops.gltf_physics.copy_settings.poll()


def test_preview_box_rests_on_floor_and_passes_a_trigger(clean_scene):
    floor = h.set_physics(h.mesh_object("Floor", location=(0, 0, -0.5)), motion_type="STATIC",
                          shape_type="BOX")
    floor.scale = (5, 5, 1)
    box = h.set_physics(h.mesh_object("Box", location=(0, 0, 3)), motion_type="DYNAMIC",
                        shape_type="BOX")
    zone = h.set_physics(h.mesh_object("Zone", location=(0, 0, 1.5)), shape_type="BOX",
                         shape_role="TRIGGER")
    zone.scale = (3, 3, 0.2)
    scene = bpy.context.scene
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    native.step(scene, 120)
    z = box.matrix_world.translation.z
    assert abs(z - 0.5) < 0.05, z  # through the trigger, resting on the floor top (z 0)
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert scene.rigidbody_world is None
    assert all(o.rigid_body is None for o in bpy.data.objects)
    assert (floor.gltf_physics.motion_type, zone.gltf_physics.shape_role) == ("STATIC", "TRIGGER")


def problems_of(scene) -> dict[str, set[str]]:
    bpy.ops.gltf_physics.validate()
    found: dict[str, set[str]] = {}
    for item in scene.gltf_physics.problems:
        found.setdefault(item.obj, set()).add(item.code)
    return found


def test_validation_finds_each_problem_and_fixes(clean_scene):
    scene = bpy.context.scene
    scene.gltf_physics.export_format = "OMI"
    moving = h.set_physics(h.mesh_object("MovingMesh", "cylinder"), motion_type="DYNAMIC",
                           shape_type="TRIMESH")
    squashed = h.set_physics(h.mesh_object("Squashed", "sphere"), motion_type="DYNAMIC",
                             shape_type="SPHERE")
    squashed.scale = (1, 2, 1)
    mirrored = h.set_physics(h.mesh_object("Mirrored"), shape_type="BOX")
    mirrored.scale = (-1, 1, 1)
    h.set_physics(h.empty_object("Ground"), shape_type="PLANE", size_mode="CUSTOM")
    h.set_physics(h.empty_object("Flat"), shape_type="BOX", size_mode="CUSTOM",
                  box_size=(1, 0.0001, 1))
    disc = h.mesh_object("Disc", "cylinder")
    disc.scale = (1, 1, 1)
    disc.data.transform(Matrix.Diagonal((1, 1, 0.2, 1)))
    h.set_physics(disc, motion_type="DYNAMIC", shape_type="CAPSULE")
    gate = h.set_physics(h.empty_object("Gate"), is_compound_trigger=True, use_filter=True)
    post = h.set_physics(h.empty_object("Post", parent=gate), shape_type="SPHERE",
                         shape_role="TRIGGER", size_mode="CUSTOM")
    h.set_physics(h.empty_object("Loose"), joint_type="PIN")
    h.set_physics(h.empty_object("StrayWheel", parent=squashed), vehicle_part="WHEEL")
    hidden = bpy.data.collections.new("Hidden")
    scene.collection.children.link(hidden)
    ghost = h.set_physics(bpy.data.objects.new("Ghost", None), motion_type="DYNAMIC")
    hidden.objects.link(ghost)
    bpy.context.view_layer.layer_collection.children["Hidden"].exclude = True
    found = problems_of(scene)
    assert found == {
        "MovingMesh": {"moving-trimesh"}, "Squashed": {"non-uniform-scale"},
        "Mirrored": {"negative-scale"}, "Ground": {"plane-in-omi"},
        "Flat": {"degenerate-size"}, "Disc": {"short-capsule"},
        "Gate": {"compound-trigger-filter"}, "Loose": {"joint-unconnected"},
        "Ghost": {"not-exported"}, "StrayWheel": {"part-outside-vehicle"},
    }
    fixes = {item.obj: i for i, item in enumerate(scene.gltf_physics.problems) if item.fix}
    assert set(fixes) == {"MovingMesh", "Squashed", "Mirrored", "Ground", "Flat", "Disc", "Gate"}
    while scene.gltf_physics.problems and any(p.fix for p in scene.gltf_physics.problems):
        index = next(i for i, p in enumerate(scene.gltf_physics.problems) if p.fix)
        assert bpy.ops.gltf_physics.problem_fix(index=index) == {"FINISHED"}
    assert set(problems_of(scene)) == {"Loose", "Ghost", "StrayWheel"}
    # the moving mesh's fix: convex parts (CoACD; one convex hull where it is missing)
    parts = [c for c in moving.children if c.gltf_physics.shape_type == "CONVEX"]
    if importlib.import_module(f"{MODULE}.io.decomposition").missing_reason():
        assert moving.gltf_physics.shape_type == "CONVEX" and not parts
    else:
        assert moving.gltf_physics.shape_type == "NONE" and parts
    assert tuple(squashed.scale) == (1, 1, 1) and squashed.data.vertices[0].co.length > 0
    assert post.gltf_physics.use_filter and not gate.gltf_physics.use_filter
    names = [p.obj for p in scene.gltf_physics.problems]
    assert bpy.ops.gltf_physics.problem_select(index=names.index("Ghost")) == {"CANCELLED"}
    assert bpy.ops.gltf_physics.problem_select(index=names.index("Loose")) == {"FINISHED"}
    assert bpy.context.view_layer.objects.active.name == "Loose"


def test_hull_tool_makes_simplified_proxies(clean_scene, tmp_path):
    import bmesh

    mesh = bpy.data.meshes.new("Dense")
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=64, v_segments=32, radius=1.0)
    bm.to_mesh(mesh)
    bm.free()
    dense = bpy.data.objects.new("Dense", mesh)
    bpy.context.scene.collection.objects.link(dense)
    small = h.mesh_object("Small", "cube", (3, 0, 0))
    for obj in bpy.data.objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = dense
    h.set_physics(dense, motion_type="DYNAMIC")
    found = problems_of(bpy.context.scene)
    assert found == {}
    dense.gltf_physics.shape_type = "CONVEX"
    assert problems_of(bpy.context.scene) == {"Dense": {"hull-too-many-points"}}
    assert bpy.ops.gltf_physics.simplify_hull(max_points=64) == {"FINISHED"}
    proxy = dense.gltf_physics.mesh_object
    assert proxy.gltf_physics.collision_only and proxy.parent == dense
    assert 4 <= len(proxy.data.vertices) <= 64
    assert small.gltf_physics.mesh_object and len(small.gltf_physics.mesh_object.data.vertices) == 8
    bpy.ops.gltf_physics.simplify_hull(max_points=32)  # again: the proxy is reused
    assert dense.gltf_physics.mesh_object == proxy and len(proxy.data.vertices) <= 32
    assert problems_of(bpy.context.scene) == {}
    gltf = h.export(tmp_path / "hull.gltf", "KHR")
    h.assert_valid(tmp_path / "hull.gltf")
    names = [n["name"] for n in gltf["nodes"]]
    assert "Dense.hull" not in names  # collision-only proxy: not a visible node


def test_shape_overlay_caches_batches_until_the_shape_changes(clean_scene):
    overlay = importlib.import_module(f"{MODULE}.panels.shape_overlay")
    built = []
    cache = overlay.BatchCache(lambda segments: built.append(segments) or len(built))
    crate = h.set_physics(h.mesh_object("Crate"), shape_type="BOX")
    pill = h.set_physics(h.empty_object("Pill"), shape_type="CAPSULE", size_mode="CUSTOM",
                         height=2.0, radius_top=0.5, radius_bottom=0.5, shape_role="TRIGGER")
    hull = h.set_physics(h.mesh_object("Hull", "monkey"), shape_type="CONVEX")
    plain = h.mesh_object("Plain")
    for _ in range(3):  # redraws reuse the batches
        batches = [cache.batch(o) for o in (crate, pill, hull, plain)]
    assert batches == [1, 2, 3, None] and cache.builds == 3
    crate.location.x = 5  # moving is not a shape change
    crate.select_set(True)
    assert cache.batch(crate) == 1
    assert overlay.color_of(crate) == overlay.SELECTED
    assert overlay.color_of(pill) == overlay.TRIGGER
    pill.gltf_physics.height = 3.0
    assert cache.batch(pill) == 4
    top = built[-1].reshape(-1, 3)[:, 2].max()
    assert top == pytest.approx(1.5 + 0.5)
    assert len(built[2]) == len(hull.data.edges)
    cache.prune({crate.session_uid})
    assert set(cache.entries) == {crate.session_uid}


def test_fit_to_principal_axes_orients_a_tilted_capsule(clean_scene, tmp_path):
    rod = h.mesh_object("Rod", "cylinder")
    rod.data.transform(Matrix.Diagonal((0.2, 0.2, 3.0, 1.0)))  # a long thin rod along Z
    tilt = Matrix.Rotation(0.7, 4, "X") @ Matrix.Translation((0.0, 0.0, 0.25))
    rod.data.transform(tilt)  # tilted inside the object, and off centre
    h.set_physics(rod, motion_type="DYNAMIC", shape_type="CAPSULE")
    for obj in bpy.data.objects:
        obj.select_set(obj == rod)
    bpy.context.view_layer.objects.active = rod
    assert bpy.ops.gltf_physics.fit_shape(oriented=True) == {"FINISHED"}
    props = rod.gltf_physics
    axis = Quaternion(props.shape_rotation) @ Vector((0, 0, 1))
    expected = (tilt.to_3x3() @ Vector((0, 0, 1))).normalized()
    assert abs(axis.dot(expected)) > 0.9999  # the capsule runs along the rod
    assert props.radius_top == pytest.approx(0.1, rel=0.02)
    assert props.height + 2 * props.radius_top == pytest.approx(3.0, rel=0.02)
    assert tuple(props.shape_offset) == pytest.approx(tuple(tilt.translation), abs=1e-4)
    bpy.ops.gltf_physics.fit_shape(oriented=False)  # axis-aligned again: no rotation
    assert tuple(props.shape_rotation) == (1.0, 0.0, 0.0, 0.0)
    bpy.ops.gltf_physics.fit_shape(oriented=True)
    gltf = h.export(tmp_path / "rod.gltf", "KHR")
    h.assert_valid(tmp_path / "rod.gltf")
    child = next(n for n in gltf["nodes"] if n.get("name") == "Rod.shape")
    x, y, z, w = child["rotation"]
    glb_axis = Quaternion((w, x, y, z)) @ Vector((0, 1, 0))  # KHR capsules run along +Y
    blender_axis = Vector((glb_axis.x, -glb_axis.z, glb_axis.y))
    assert abs(blender_axis.dot(expected)) > 0.9999


def test_validation_fix_simplifies_a_big_hull(clean_scene):
    import bmesh

    mesh = bpy.data.meshes.new("Rock")
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=48, v_segments=24, radius=1.0)
    bm.to_mesh(mesh)
    bm.free()
    rock = bpy.data.objects.new("Rock", mesh)
    bpy.context.scene.collection.objects.link(rock)
    h.set_physics(rock, motion_type="DYNAMIC", shape_type="CONVEX")
    assert problems_of(bpy.context.scene) == {"Rock": {"hull-too-many-points"}}
    assert bpy.ops.gltf_physics.problem_fix(index=0) == {"FINISHED"}
    proxy = rock.gltf_physics.mesh_object
    assert proxy.gltf_physics.collision_only and 4 <= len(proxy.data.vertices) <= 255
    assert problems_of(bpy.context.scene) == {}


def _fix_only_problem(obj) -> None:
    problems = bpy.context.scene.gltf_physics.problems
    assert len(problems) == 1 and problems[0].fix, [(p.code, p.fix) for p in problems]
    assert bpy.ops.gltf_physics.problem_fix(index=0) == {"FINISHED"}


def test_fixes_keep_the_colliders_size(clean_scene):
    """A Fix changes the kind of shape, not its size: a 20 × 30 m custom plane becomes the
    20 × 30 m thin box OMI writes (it became a 1 m cube); a short custom capsule becomes a
    sphere of its own radius (it took the unused sphere radius); a box on a flat mesh is
    thickened, not fitted flat again. No problem is left."""
    scene = bpy.context.scene
    scene.gltf_physics.export_format = "OMI"
    floor = h.set_physics(h.empty_object("Floor"), motion_type="STATIC", shape_type="PLANE",
                          size_mode="CUSTOM", plane_size=(20.0, 30.0))
    assert problems_of(scene) == {"Floor": {"plane-in-omi"}}
    _fix_only_problem(floor)
    props = floor.gltf_physics
    assert (props.shape_type, props.size_mode) == ("BOX", "CUSTOM")
    assert tuple(props.box_size) == pytest.approx((20.0, 30.0, 0.01))
    assert problems_of(scene) == {}
    bpy.data.objects.remove(floor)
    disc = h.set_physics(h.empty_object("Disc"), motion_type="STATIC", shape_type="CAPSULE",
                         size_mode="CUSTOM", radius_top=2.0, radius_bottom=0.5, height=0.5)
    assert problems_of(scene) == {"Disc": {"short-capsule"}}
    _fix_only_problem(disc)
    assert disc.gltf_physics.shape_type == "SPHERE"
    assert disc.gltf_physics.radius == pytest.approx(2.0)
    bpy.data.objects.remove(disc)
    mesh = bpy.data.meshes.new("Tile")
    mesh.from_pydata([(0, 0, 0), (4, 0, 0), (4, 4, 0), (0, 4, 0)], [], [(0, 1, 2, 3)])
    tile = bpy.data.objects.new("Tile", mesh)
    scene.collection.objects.link(tile)
    h.set_physics(tile, motion_type="STATIC", shape_type="BOX", size_mode="CUSTOM",
                  box_size=(4.0, 4.0, 0.0))
    assert problems_of(scene) == {"Tile": {"degenerate-size"}}
    _fix_only_problem(tile)
    assert problems_of(scene) == {}


def test_check_physics_finds_a_mesh_shape_without_mesh_and_tells_objects_apart(clean_scene,
                                                                               tmp_path):
    """A triangle-mesh shape on an Empty has no mesh (the export skips it; Check said
    nothing); a local "Crate" in an excluded collection is said to be left out by an export
    of visible objects even when a linked "Crate" is in the view layer (the check went by
    name)."""
    scene = bpy.context.scene
    h.set_physics(h.empty_object("Terrain"), motion_type="STATIC", shape_type="TRIMESH")
    assert problems_of(scene) == {"Terrain": {"trimesh-no-mesh"}}
    # a curve's own mesh is written as its node's mesh: no finding
    curve = bpy.data.curves.new("Road", "CURVE")
    curve.extrude = 0.5
    spline = curve.splines.new("POLY")
    spline.points.add(2)
    for point, x in zip(spline.points, (0, 1, 2), strict=True):
        point.co = (x, x * x, 0, 1)
    road = bpy.data.objects.new("Road", curve)
    scene.collection.objects.link(road)
    h.set_physics(road, motion_type="STATIC", shape_type="TRIMESH")
    assert problems_of(scene) == {"Terrain": {"trimesh-no-mesh"}}
    # its points all in one place, it has no faces: the export skips it, said here too
    for point in spline.points:
        point.co = (0, 0, 0, 1)
    bpy.context.view_layer.update()
    assert problems_of(scene) == {"Terrain": {"trimesh-no-mesh"}, "Road": {"trimesh-no-mesh"}}
    bpy.ops.wm.read_homefile(use_empty=True)
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="STATIC", shape_type="BOX")
    h.from_library(crate, tmp_path / "crate.blend")
    scene = bpy.context.scene
    hidden = bpy.data.collections.new("Hidden")
    scene.collection.children.link(hidden)
    local = h.set_physics(bpy.data.objects.new("Crate", h.mesh_object("Box").data),
                          motion_type="STATIC", shape_type="BOX")
    hidden.objects.link(local)
    bpy.context.view_layer.layer_collection.children["Hidden"].exclude = True
    assert local.library is None and local.name == "Crate"
    found = [(p.obj, p.code) for p in scene.gltf_physics.problems] \
        if bpy.ops.gltf_physics.validate() else []
    assert ("Crate", "not-exported") in found, found


def test_a_problem_list_saved_with_the_file_never_fixes_another_object(clean_scene,
                                                                       tmp_path):
    """A problem holds its object by the session's uid, which means nothing once the file
    is opened again: Select and Fix then act on the object the problem names or refuse (a
    Fix turned another object's collider into a box)."""
    scene = bpy.context.scene
    scene.gltf_physics.export_format = "OMI"
    for i in range(4):
        h.set_physics(h.mesh_object(f"Crate{i}", location=(3 * i, 0, 0)),
                      motion_type="DYNAMIC", shape_type="SPHERE")
    for i in range(2):
        h.set_physics(h.empty_object(f"Ground{i}", (3 * i, 5, 0)), motion_type="STATIC",
                      shape_type="PLANE", size_mode="CUSTOM")
    assert bpy.ops.gltf_physics.validate() == {"FINISHED"}
    path = tmp_path / "problems.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.open_mainfile(filepath=str(path))
    scene = bpy.context.scene
    # as in the next session: a stored uid now belongs to another object (here, Crate0's)
    for problem in scene.gltf_physics.problems:
        problem.target_uid = bpy.data.objects["Crate0"].session_uid
    scene.gltf_physics.problems_session = "an earlier session"
    shapes = {o.name: o.gltf_physics.shape_type for o in bpy.data.objects}
    for index, problem in enumerate(list(scene.gltf_physics.problems)):
        named = problem.obj
        try:
            bpy.ops.gltf_physics.problem_fix(index=index)
        except RuntimeError as exc:
            assert "run Check Physics again" in str(exc)
        changed = {o.name for o in bpy.data.objects
                   if o.gltf_physics.shape_type != shapes[o.name]}
        assert changed <= {named}, (named, changed)
        shapes = {o.name: o.gltf_physics.shape_type for o in bpy.data.objects}
