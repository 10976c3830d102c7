# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Physics and its Fixes in the scenes artists make: a list gone stale by hand edits,
a hull shape using another object's mesh, a hull proxy a Shift+D copy shares, a compound
trigger with nowhere to move its filter, hulls with no mesh to export, another scene's
check, Select of a hidden object, an instanced kit, and Fixes offered only where they work."""

import importlib

import bmesh
import bpy
import pytest
from mathutils import Vector

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

validation = importlib.import_module(f"{MODULE}.io.blender.tools.validation")
ownership = importlib.import_module(f"{MODULE}.io.blender.tools.ownership")
fixes_scale = importlib.import_module(f"{MODULE}.io.blender.tools.fixes.scale")
STALE = "no longer a problem: run Check Physics again"


def dense_ball(name, size=1.0, location=(0, 0, 0), collection=None):
    """A 64 × 32 UV sphere: its hull has far more than 255 points."""
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=64, v_segments=32, radius=size / 2)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    (collection or bpy.context.scene.collection).objects.link(obj)
    obj.location = location
    return obj


def listed(scene=None):
    """Check Physics through its operator; the list as (object, code, fix)."""
    scene = scene or bpy.context.scene
    bpy.context.view_layer.update()
    assert bpy.ops.gltf_physics.validate() == {"FINISHED"}
    return [(p.obj, p.code, p.fix) for p in scene.gltf_physics.problems]


def index_of(name, code):
    problems = bpy.context.scene.gltf_physics.problems
    return next(i for i, p in enumerate(problems) if p.obj == name and p.code == code)


def select_only(*objs):
    bpy.context.view_layer.update()
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in objs)
    bpy.context.view_layer.objects.active = objs[0] if objs else None


def world_x_extent(obj):
    xs = [(obj.matrix_world @ v.co).x for v in obj.data.vertices]
    return min(xs), max(xs)


# -- 1. a Fix re-checks its problem ----------------------------------------------------------


def test_a_fix_whose_problem_is_gone_changes_nothing(clean_scene):
    clean_scene.gltf_physics.export_format = "OMI"
    ground = h.set_physics(h.mesh_object("Ground"), motion_type="STATIC", shape_type="PLANE")
    rock = h.set_physics(dense_ball("Rock", location=(4, 0, 0)), motion_type="DYNAMIC",
                         shape_type="CONVEX")
    assert ("Ground", "plane-in-omi", "make-box") in listed()
    assert ("Rock", "hull-too-many-points", "simplify-hull") in listed()
    # the artist changes both by hand after the check
    ground.gltf_physics.shape_type = "SPHERE"
    rock.gltf_physics.shape_type = "BOX"
    with pytest.raises(RuntimeError, match=f"Ground: {STALE}"):
        bpy.ops.gltf_physics.problem_fix(index=index_of("Ground", "plane-in-omi"))
    assert ground.gltf_physics.shape_type == "SPHERE"
    with pytest.raises(RuntimeError, match=f"Rock: {STALE}"):
        bpy.ops.gltf_physics.problem_fix(index=index_of("Rock", "hull-too-many-points"))
    assert rock.gltf_physics.shape_type == "BOX" and rock.gltf_physics.mesh_object is None
    assert sorted(o.name for o in bpy.data.objects) == ["Ground", "Rock"]  # no proxy made
    assert not clean_scene.gltf_physics.problems  # the stale entries left the list


def test_a_fix_whose_problem_still_holds_applies(clean_scene):
    clean_scene.gltf_physics.export_format = "OMI"
    ground = h.set_physics(h.mesh_object("Ground"), motion_type="STATIC", shape_type="PLANE")
    listed()
    ground.location.x = 3.0  # an edit that leaves the problem as it is
    assert bpy.ops.gltf_physics.problem_fix(index=index_of("Ground", "plane-in-omi")) \
        == {"FINISHED"}
    assert ground.gltf_physics.shape_type == "BOX"


def test_a_fix_that_changed_since_the_check_refuses(clean_scene):
    barrel = h.set_physics(h.mesh_object("Barrel"), motion_type="DYNAMIC",
                           shape_type="CYLINDER")
    barrel.scale = (1, 1, 2)
    assert ("Barrel", "non-uniform-scale", "apply-scale") in listed()
    twin = bpy.data.objects.new("Twin", barrel.data)  # the mesh now has two users
    clean_scene.collection.objects.link(twin)
    with pytest.raises(RuntimeError, match="changed since the check"):
        bpy.ops.gltf_physics.problem_fix(index=index_of("Barrel", "non-uniform-scale"))
    assert tuple(barrel.scale) == (1, 1, 2)
    entry = clean_scene.gltf_physics.problems[index_of("Barrel", "non-uniform-scale")]
    assert entry.fix == ""  # the entry says what holds now


# -- 2. the hull Fix simplifies the mesh the collider uses -----------------------------------


def test_hull_fix_simplifies_the_shapes_mesh_source(clean_scene):
    ball = dense_ball("DenseBall", location=(2, 0, 0))
    holder = h.set_physics(h.empty_object("Holder"), motion_type="DYNAMIC",
                           shape_type="CONVEX", mesh_source="OBJECT", mesh_object=ball)
    statue = h.set_physics(h.mesh_object("Statue", location=(6, 0, 0)), motion_type="DYNAMIC",
                           shape_type="CONVEX")
    collision = dense_ball("StatueCollision", size=3.0, location=(6, 0, 0))
    collision.gltf_physics.collision_only = True
    h.set_physics(statue, mesh_source="OBJECT", mesh_object=collision)
    vertices = {o.name: len(o.data.vertices) for o in (ball, collision)}
    found = listed()
    assert ("Holder", "hull-too-many-points", "simplify-hull") in found
    assert ("Statue", "hull-too-many-points", "simplify-hull") in found
    for obj, source, size in ((holder, ball, 1.0), (statue, collision, 3.0)):
        assert bpy.ops.gltf_physics.problem_fix(
            index=index_of(obj.name, "hull-too-many-points")) == {"FINISHED"}
        proxy = obj.gltf_physics.mesh_object
        assert proxy is not source and ownership.made_by(proxy, ownership.HULL_PROXY, obj)
        assert proxy.parent == obj and 4 <= len(proxy.data.vertices) <= 255
        bpy.context.view_layer.update()
        lo, hi = world_x_extent(proxy)  # where the collider's mesh is, as large
        assert hi - lo == pytest.approx(size, abs=0.02)
        assert (lo + hi) / 2 == pytest.approx(source.location.x, abs=0.02)
    assert {o.name: len(o.data.vertices) for o in (ball, collision)} == vertices
    assert not [p for p in listed() if p[1] == "hull-too-many-points"]


# -- 3. Generate Convex Hull and a proxy another object uses ---------------------------------


def rock_sharing_its_hull(scene):
    """A "Rock" given a hull proxy, and a Shift+D copy of Rock alone whose shape still uses
    that proxy: (rock, proxy, copy)."""
    rock = h.set_physics(h.mesh_object("Rock", "sphere"), motion_type="DYNAMIC")
    select_only(rock)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = rock.gltf_physics.mesh_object
    copy = rock.copy()
    scene.collection.objects.link(copy)
    assert copy.gltf_physics.mesh_object == proxy
    return rock, proxy, copy


def test_hull_again_leaves_the_proxy_a_copy_uses(clean_scene):
    rock, proxy, copy = rock_sharing_its_hull(clean_scene)
    before = world_x_extent(proxy)
    rock.data = rock.data.copy()  # the artist reshapes Rock only
    for vertex in rock.data.vertices:
        vertex.co *= 3
    select_only(rock)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    new = rock.gltf_physics.mesh_object
    assert new is not proxy and ownership.made_by(new, ownership.HULL_PROXY, rock)
    assert copy.gltf_physics.mesh_object == proxy and world_x_extent(proxy) == before
    lo, hi = world_x_extent(new)
    assert hi - lo == pytest.approx(3.0, abs=0.05)
    # the tool says so (here through its function, as the Fix reports it)
    hull_proxy = importlib.import_module(f"{MODULE}.io.blender.tools.hull_proxy")
    other = rock.copy()
    clean_scene.collection.objects.link(other)  # another copy now uses the new proxy
    notes = []
    hull_proxy.make_hull_proxy(rock, notes=notes)
    assert notes == [f"{new.name} was kept as it is: {other.name} still uses it; Rock has a "
                     f"new proxy, {rock.gltf_physics.mesh_object.name}"]


def test_generate_convex_hull_says_it_left_a_shared_proxy(clean_scene, capfd):
    rock, proxy, copy = rock_sharing_its_hull(clean_scene)
    select_only(rock)
    capfd.readouterr()
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    out = capfd.readouterr()
    warnings = [line for line in (out.out + out.err).splitlines()
                if line.startswith("Warning:")]
    assert warnings == [f"Warning: {proxy.name} was kept as it is: {copy.name} still uses it; "
                        f"Rock has a new proxy, {rock.gltf_physics.mesh_object.name}"]


# -- 4. moving a compound trigger's filter needs members -------------------------------------


def _gate(scene):
    scene.gltf_physics.layers.add().name = "Players"
    gate = h.set_physics(h.empty_object("Gate"), is_compound_trigger=True, use_filter=True,
                         filter_mode="ONLY")
    gate.gltf_physics.filter_layers[0] = gate.gltf_physics.filter_targets[0] = True
    return gate


def test_filter_fix_refuses_without_members(clean_scene):
    gate = _gate(clean_scene)
    part = h.set_physics(h.empty_object("Part", parent=gate), shape_type="SPHERE",
                         shape_role="TRIGGER", size_mode="CUSTOM", join_compound_trigger=False)
    assert ("Gate", "compound-trigger-filter", "") in listed()  # no Fix offered
    with pytest.raises(ValueError, match="no member shape"):
        validation.apply_fix(gate, "move-filter-to-members")
    assert gate.gltf_physics.use_filter and not part.gltf_physics.use_filter
    part.gltf_physics.join_compound_trigger = True  # a member: the Fix is offered and works
    assert ("Gate", "compound-trigger-filter", "move-filter-to-members") in listed()
    assert bpy.ops.gltf_physics.problem_fix(index=index_of("Gate", "compound-trigger-filter")) \
        == {"FINISHED"}
    assert not gate.gltf_physics.use_filter and part.gltf_physics.use_filter


def test_filter_fix_keeps_a_members_own_filter(clean_scene):
    """A member with a filter of its own had it overwritten by the compound's, said only as
    "filter moved to 2 member(s)": the artist's filter was gone from the scene and file."""
    gate = _gate(clean_scene)
    plain, arch = (h.set_physics(h.empty_object(name, parent=gate), shape_type="SPHERE",
                                 shape_role="TRIGGER", size_mode="CUSTOM",
                                 join_compound_trigger=True) for name in ("Post", "Arch"))
    own = arch.gltf_physics
    own.use_filter, own.filter_mode = True, "ONLY"
    own.filter_layers[1] = own.filter_targets[2] = True
    before = (tuple(own.filter_layers), tuple(own.filter_targets), own.filter_mode)
    assert validation.apply_fix(gate, "move-filter-to-members") \
        == "filter moved to 1 member(s); Arch kept a filter of their own"
    assert (tuple(own.filter_layers), tuple(own.filter_targets), own.filter_mode) == before
    assert plain.gltf_physics.use_filter and plain.gltf_physics.filter_layers[0]


def test_filter_fix_refuses_on_an_instancer_of_trigger_shapes(clean_scene):
    gate = _gate(clean_scene)
    kit = bpy.data.collections.new("ZoneKit")
    zone = h.mesh_object("ZonePart")
    clean_scene.collection.objects.unlink(zone)
    kit.objects.link(zone)
    h.set_physics(zone, shape_type="BOX", shape_role="TRIGGER")
    gate.instance_type, gate.instance_collection = "COLLECTION", kit
    assert ("Gate", "compound-trigger-filter", "") in listed()
    with pytest.raises(ValueError, match="instanced collection ZoneKit"):
        validation.apply_fix(gate, "move-filter-to-members")
    assert gate.gltf_physics.use_filter and not zone.gltf_physics.use_filter


# -- 5. a hull with no mesh to export --------------------------------------------------------


def test_hull_without_a_mesh_to_export_is_listed(clean_scene):
    h.set_physics(h.empty_object("HullEmpty"), motion_type="DYNAMIC", shape_type="CONVEX")
    curve = bpy.data.curves.new("Path", "CURVE")
    curve.dimensions = "3D"
    spline = curve.splines.new("POLY")
    spline.points.add(3)
    for point, co in zip(spline.points, [(0, 0, 0, 1), (1, 0, 0, 1), (0, 1, 0, 1),
                                         (0, 0, 1, 1)], strict=True):
        point.co = co
    path = bpy.data.objects.new("PathObj", curve)
    clean_scene.collection.objects.link(path)
    h.set_physics(h.empty_object("HullFromCurve"), motion_type="DYNAMIC", shape_type="CONVEX",
                  mesh_source="OBJECT", mesh_object=path)
    h.set_physics(h.mesh_object("Box"), motion_type="DYNAMIC", shape_type="CONVEX")
    message = "the convex hull shape has no mesh: it is not exported"
    found = {(p.obj, p.code, p.message) for p in validation.validate_scene(clean_scene)}
    assert found == {("HullEmpty", "hull-no-mesh", message),
                     ("HullFromCurve", "hull-no-mesh", message)}


# -- 6. another scene's check ----------------------------------------------------------------


def test_another_scene_is_checked_with_its_own_view_layer(clean_scene):
    first = clean_scene
    second = bpy.data.scenes.new("Second")
    bpy.context.window.scene = second
    rock = h.set_physics(h.mesh_object("Rock"), motion_type="DYNAMIC", shape_type="CONVEX")
    rock.modifiers.new("Sub", "SUBSURF").levels = 4  # >255 hull points, evaluated only
    off = bpy.data.collections.new("Off")
    second.collection.children.link(off)
    ghost = h.mesh_object("Ghost")
    second.collection.objects.unlink(ghost)
    off.objects.link(ghost)
    h.set_physics(ghost, motion_type="DYNAMIC", shape_type="BOX")
    bpy.context.view_layer.layer_collection.children["Off"].exclude = True
    expected = [("Ghost", "not-exported"), ("Rock", "hull-too-many-points")]
    assert [(p.obj, p.code) for p in validation.validate_scene(second)] == expected
    bpy.context.window.scene = first
    assert [(p.obj, p.code) for p in validation.validate_scene(second)] == expected


# -- 7. Select of what Blender would not select ----------------------------------------------


@pytest.mark.parametrize("case", ["hidden", "hide_select", "hide_viewport",
                                  "collection_hide_select", "two_collections"])
def test_select_refuses_a_hidden_or_unselectable_object(clean_scene, case):
    collection = bpy.data.collections.new("C")
    clean_scene.collection.children.link(collection)
    other = h.mesh_object("Other", location=(3, 0, 0))
    flat = h.set_physics(h.mesh_object("Flat"), motion_type="STATIC", shape_type="BOX",
                         size_mode="CUSTOM", box_size=(1, 1, 0))
    clean_scene.collection.objects.unlink(flat)
    collection.objects.link(flat)
    bpy.context.view_layer.update()
    if case == "hidden":
        flat.hide_set(True)
    elif case == "hide_select":
        flat.hide_select = True
    elif case == "hide_viewport":
        flat.hide_viewport = True
    elif case == "collection_hide_select":
        collection.hide_select = True
    else:  # one collection disabled in viewports, the other not selectable
        second = bpy.data.collections.new("D")
        clean_scene.collection.children.link(second)
        second.objects.link(flat)
        collection.hide_viewport, second.hide_select = True, True
    select_only(other)
    assert ("Flat", "degenerate-size", "fit") in listed()
    assert bpy.ops.gltf_physics.problem_select(index=index_of("Flat", "degenerate-size")) \
        == {"CANCELLED"}
    assert other.select_get() and bpy.context.view_layer.objects.active == other
    assert not flat.select_get()


def test_select_selects_a_visible_object(clean_scene):
    other = h.mesh_object("Other", location=(3, 0, 0))
    flat = h.set_physics(h.mesh_object("Flat"), motion_type="STATIC", shape_type="BOX",
                         size_mode="CUSTOM", box_size=(1, 1, 0))
    select_only(other)
    listed()
    assert bpy.ops.gltf_physics.problem_select(index=index_of("Flat", "degenerate-size")) \
        == {"FINISHED"}
    assert flat.select_get() and not other.select_get()


# -- 8. an instanced kit in an excluded collection -------------------------------------------


def test_an_instanced_kit_is_not_said_to_be_left_out(clean_scene):
    kit = bpy.data.collections.new("Kit")
    clean_scene.collection.children.link(kit)
    bpy.context.view_layer.layer_collection.children["Kit"].exclude = True
    plank = h.mesh_object("Plank")
    clean_scene.collection.objects.unlink(plank)
    kit.objects.link(plank)
    h.set_physics(plank, motion_type="STATIC", shape_type="BOX")
    assert listed() == [("Plank", "not-exported", "")]  # nothing places it
    instance = h.empty_object("Instance", location=(3, 0, 0))
    instance.instance_type, instance.instance_collection = "COLLECTION", kit
    assert listed() == []  # written with each instance


def test_a_kit_only_an_instance_places_is_checked_and_fixed(clean_scene, capfd):
    """A kit collection in no scene, placed by instances (one nested in another kit): the
    export writes its objects, so Check Physics lists their problems, says where they are,
    and Fix works on them; Select says why it cannot select them."""
    clean_scene.gltf_physics.export_format = "OMI"
    kit, outer = bpy.data.collections.new("Kit"), bpy.data.collections.new("Outer")
    ground = h.mesh_object("Ground")
    clean_scene.collection.objects.unlink(ground)
    kit.objects.link(ground)
    h.set_physics(ground, motion_type="STATIC", shape_type="PLANE")
    assert listed() == []  # nothing places the kit: it is not exported
    nested = bpy.data.objects.new("NestedKit", None)
    nested.instance_type, nested.instance_collection = "COLLECTION", kit
    outer.objects.link(nested)
    instance = h.empty_object("Instance", location=(3, 0, 0))
    instance.instance_type, instance.instance_collection = "COLLECTION", outer
    other = h.mesh_object("Other", location=(6, 0, 0))
    select_only(other)
    assert listed() == [("Ground", "plane-in-omi", "make-box")]  # once, though nested
    message = clean_scene.gltf_physics.problems[0].message
    assert message.endswith("(in Kit, which this scene only instances)"), message
    capfd.readouterr()
    assert bpy.ops.gltf_physics.problem_select(index=0) == {"CANCELLED"}
    assert "only a collection instance places it" in capfd.readouterr().out
    assert other.select_get() and bpy.context.view_layer.objects.active == other
    assert bpy.ops.gltf_physics.problem_fix(index=0) == {"FINISHED"}
    assert ground.gltf_physics.shape_type == "BOX" and listed() == []
    assert sorted(o.name for o in bpy.data.objects) == ["Ground", "Instance", "NestedKit",
                                                        "Other"]


# -- 9. Fixes offered only where they work, objects named once -------------------------------


def test_scale_fix_is_offered_only_where_it_works(clean_scene):
    zone = h.set_physics(h.empty_object("MirroredZone"), shape_type="BOX",
                         shape_role="TRIGGER", size_mode="CUSTOM")
    zone.scale = (-1, 1, 1)
    barrel = h.set_physics(h.mesh_object("Barrel"), motion_type="DYNAMIC",
                           shape_type="CYLINDER")
    barrel.scale = (1, 1, 2)
    twin = bpy.data.objects.new("Barrel.001", barrel.data)
    clean_scene.collection.objects.link(twin)
    h.set_physics(twin, motion_type="DYNAMIC", shape_type="CYLINDER")
    twin.scale, twin.location = (1, 1, 2), (3, 0, 0)
    squash = h.empty_object("Squash", location=(6, 0, 0))
    squash.scale = (1, 1, 0.5)
    h.set_physics(h.mesh_object("Ball", "sphere"), motion_type="DYNAMIC",
                  shape_type="SPHERE").parent = squash
    egg = h.set_physics(h.mesh_object("Egg", "sphere", (9, 0, 0)), motion_type="DYNAMIC",
                        shape_type="SPHERE")
    egg.scale = (1, 1, 2)
    fixes = {p[0]: p[2] for p in listed() if p[1] in ("negative-scale", "non-uniform-scale")}
    assert fixes == {"MirroredZone": "", "Barrel": "", "Barrel.001": "", "Ball": "",
                     "Egg": "apply-scale"}
    said = {p.obj: p.message for p in clean_scene.gltf_physics.problems}  # and why not
    assert said["Ball"].endswith("(no Fix: the scale comes from its parent Squash: fix it "
                                 "there)")
    assert said["MirroredZone"] == "negative scale on a shape (no Fix: only a mesh's scale " \
        "can be applied)"
    assert "has 2 users" in said["Barrel"]
    assert bpy.ops.gltf_physics.problem_fix(index=index_of("Egg", "non-uniform-scale")) \
        == {"FINISHED"}
    assert Vector(egg.scale) == Vector((1, 1, 1))


def test_a_fix_error_names_the_object_once():
    named = importlib.import_module(f"{MODULE}.operators.validation")._named
    holder = bpy.data.objects.new("Holder", None)
    try:
        assert named(holder, "Holder's mesh has no volume") == "Holder's mesh has no volume"
        assert named(holder, "Holder was left as it was") == "Holder was left as it was"
        assert named(holder, "Ball's mesh has no volume") == \
            "Holder: Ball's mesh has no volume"
        assert named(holder, "Holder.001 is linked") == "Holder: Holder.001 is linked"
    finally:
        bpy.data.objects.remove(holder)


def test_scale_fix_is_offered_for_a_mesh_whose_only_other_user_is_a_fake_one(clean_scene):
    barrel = h.set_physics(h.mesh_object("Barrel"), motion_type="DYNAMIC",
                           shape_type="CYLINDER")
    barrel.scale = (1, 1, 2)
    barrel.data.use_fake_user = True  # (kept in the file: no other object uses it)
    assert ("Barrel", "non-uniform-scale", "apply-scale") in listed()


@pytest.mark.parametrize("how", ["keys", "driver"])
def test_no_scale_fix_for_an_animated_scale(clean_scene, how):
    """The Fix applied the scale to the mesh and left the keys: at the next frame the
    already stretched mesh was scaled again (2 m → 4 m), and each Fix compounded it."""
    plank = h.set_physics(h.mesh_object("Plank"), motion_type="DYNAMIC", shape_type="SPHERE")
    plank.scale = (1, 1, 2)
    if how == "keys":
        plank.keyframe_insert("scale", frame=1)
    else:
        plank.driver_add("delta_scale", 2).driver.expression = "1"
    found = [p for p in listed() if p[0] == "Plank" and p[1] == "non-uniform-scale"]
    assert found == [("Plank", "non-uniform-scale", "")]  # listed, no Fix offered
    height = plank.dimensions.z
    with pytest.raises(ValueError, match="its scale is animated or driven"):
        validation.apply_fix(plank, "apply-scale")
    bpy.context.view_layer.update()
    assert tuple(plank.scale) == (1, 1, 2) and plank.dimensions.z == pytest.approx(height)


def test_an_overrides_scale_fix_names_its_linked_mesh(clean_scene, tmp_path):
    """It said "its mesh has 2 users" (the second: the hidden linked original)."""
    plank = h.set_physics(h.mesh_object("Plank"), motion_type="DYNAMIC", shape_type="SPHERE")
    plank.scale = (3, 1, 1)
    override = h.overridden_from_library(plank, tmp_path / "lib.blend")
    [found] = [p for p in validation.validate_scene(bpy.context.scene)
               if p.code == "non-uniform-scale"]
    assert found.obj == override.name and not found.fix
    assert "is linked from a library: make it local" in fixes_scale.scale_fix_problem(override)


@pytest.mark.skipif(bpy.app.version < (4, 4, 0), reason="action slots came in Blender 4.4")
def test_an_action_another_objects_slot_keys_does_not_refuse_the_scale_fix(clean_scene):
    """S holds T's action (which keys T's scale) with no slot of its own: nothing animates
    S, yet its scale Fix was refused as animated."""
    keyed = h.mesh_object("T", location=(4, 0, 0))
    keyed.keyframe_insert("scale", frame=1)
    squash = h.set_physics(h.mesh_object("S"), motion_type="DYNAMIC", shape_type="SPHERE")
    squash.scale = (1, 1, 2)
    squash.animation_data_create().action = keyed.animation_data.action
    assert squash.animation_data.action_slot is None
    assert fixes_scale.scale_fix_problem(squash) is None


def test_scale_fix_while_another_object_is_in_edit_mode_says_what_to_do(clean_scene):
    plank = h.set_physics(h.mesh_object("Plank"), motion_type="DYNAMIC", shape_type="SPHERE")
    plank.scale = (3, 1, 1)
    other = h.mesh_object("Other", location=(4, 0, 0))
    select_only(other)
    bpy.ops.object.mode_set(mode="EDIT")
    with pytest.raises(ValueError, match="Other is in Edit Mode: leave it first"):
        validation.apply_fix(plank, "apply-scale")
    bpy.ops.object.mode_set(mode="OBJECT")
    assert tuple(plank.scale) == (3, 1, 1)


def test_a_fix_named_by_its_problem_is_never_another_rows(clean_scene):
    """A Fix repeated (Repeat Last) after the list changed applied the scale of whichever
    problem took its row; the list's buttons name their problem by object and code."""
    clean_scene.gltf_physics.export_format = "OMI"  # (OMI has no plane: a box Fix)
    h.set_physics(h.mesh_object("A_Ground"), motion_type="STATIC", shape_type="PLANE")
    squash = h.set_physics(h.mesh_object("C_Squash", "sphere", location=(6, 0, 0)),
                           motion_type="DYNAMIC", shape_type="SPHERE")
    squash.scale = (1, 1, 2)
    listed()
    problems = bpy.context.scene.gltf_physics.problems
    first = problems[0]
    named = {"index": 0, "problem_uid": first.target_uid, "problem_code": first.code}
    assert first.obj == "A_Ground" and bpy.ops.gltf_physics.problem_fix(**named) \
        == {"FINISHED"}
    assert problems[0].obj == "C_Squash"  # (the list moved up)
    with pytest.raises(RuntimeError, match="That problem is no longer listed"):
        bpy.ops.gltf_physics.problem_fix(**named)
    assert tuple(squash.scale) == (1, 1, 2)
    row = {"index": 5, "problem_uid": problems[0].target_uid, "problem_code": problems[0].code}
    assert bpy.ops.gltf_physics.problem_fix(**row) == {"FINISHED"}  # found by identity
    assert tuple(squash.scale) == (1, 1, 1)


def test_a_fix_found_on_another_row_takes_its_own_entry_off(clean_scene):
    """Found by identity on row 0 but called with row 1, the Fix of a problem fixed by hand
    took row 1 (B's entry) off the list and left its own."""
    a = h.set_physics(h.mesh_object("A"), motion_type="DYNAMIC", shape_type="SPHERE")
    b = h.set_physics(h.mesh_object("B", location=(3, 0, 0)), motion_type="DYNAMIC",
                      shape_type="SPHERE")
    a.scale, b.scale = (1, 1, 2), (1, 2, 1)
    listed()
    problems = bpy.context.scene.gltf_physics.problems
    first = problems[0]
    a.scale = (1, 1, 1)  # (fixed by hand)
    with pytest.raises(RuntimeError, match="no longer a problem"):
        bpy.ops.gltf_physics.problem_fix(index=1, problem_uid=first.target_uid,
                                         problem_code=first.code)
    assert [(p.obj, p.code) for p in problems] == [("B", "non-uniform-scale")]


def test_the_lists_buttons_name_their_problem(clean_scene):
    import types

    squash = h.set_physics(h.mesh_object("Squash", "sphere"), motion_type="DYNAMIC",
                           shape_type="SPHERE")
    squash.scale = (1, 1, 2)
    listed()
    item = bpy.context.scene.gltf_physics.problems[0]
    made = []

    class Row:
        def operator(self, idname: str, **_options):
            made.append((idname, types.SimpleNamespace()))
            return made[-1][1]

        def __getattr__(self, _name: str):
            return lambda *args, **kw: self

    layout = types.SimpleNamespace(row=lambda **_kw: Row())
    bpy.types.GLTF_PHYSICS_UL_problems.draw_item(None, None, layout, None, item, 0, None,
                                                 None, index=0)
    assert [(idname, vars(op)) for idname, op in made] == [
        (name, {"index": 0, "problem_uid": squash.session_uid,
                "problem_code": "non-uniform-scale"})
        for name in ("gltf_physics.problem_select", "gltf_physics.problem_fix")]


@pytest.mark.parametrize("shape", ["CONVEX", "TRIMESH"])
def test_a_mesh_shape_in_edit_mode_is_checked_as_exported(clean_scene, shape):
    """In Edit Mode the mesh was listed as having no mesh ("it is not exported", though the
    export writes it) and a real hull problem went unlisted."""
    bust = h.set_physics(h.mesh_object("Bust", "monkey"), motion_type="STATIC",
                         shape_type=shape)
    before = sorted(listed())
    select_only(bust)
    bpy.ops.object.mode_set(mode="EDIT")
    during = sorted(listed())
    bpy.ops.object.mode_set(mode="OBJECT")
    assert during == before and not [p for p in during if p[1].endswith("-no-mesh")]


def test_a_kits_shapes_and_joints_are_checked_where_its_instancer_places_them(clean_scene):
    """A kit in no scene, instanced by a dynamic Empty scaled (1, 1, 3): its triangle mesh
    moves with that body and its sphere is stretched (the file checker says both), and its
    joint to a static kit post joins the instancer's dynamic body; Check Physics said "no
    physics problems" for the first two and "neither body is dynamic" for the joint."""
    kit = bpy.data.collections.new("Kit")
    for obj in (mesh := h.mesh_object("KitMesh"), ball := h.mesh_object("KitBall", "sphere"),
                post := h.mesh_object("Post", location=(2, 0, 0)),
                hinge := h.empty_object("Hinge")):
        clean_scene.collection.objects.unlink(obj)
        kit.objects.link(obj)
    h.set_physics(mesh, shape_type="TRIMESH")
    h.set_physics(ball, shape_type="SPHERE")
    h.set_physics(post, motion_type="STATIC", shape_type="BOX")
    h.set_physics(hinge, joint_type="HINGE", joint_connected_body=post)
    crate = h.set_physics(h.empty_object("Crate"), motion_type="DYNAMIC")
    crate.instance_type, crate.instance_collection, crate.scale = "COLLECTION", kit, (1, 1, 3)
    found = {(p[0], p[1]): p[2] for p in listed()}
    assert found.get(("KitMesh", "moving-trimesh")) is not None
    assert found.get(("KitBall", "non-uniform-scale")) == ""  # (no Fix: the instancer's)
    assert ("Hinge", "joint-not-dynamic") not in found
    [ball_problem] = [p for p in bpy.context.scene.gltf_physics.problems
                      if p.obj == "KitBall"]
    assert "the scale comes from its instancer Crate" in ball_problem.message


def test_scale_fix_in_edit_mode_says_what_to_do(clean_scene):
    """It failed with Blender's "transform_apply.poll() failed, context is incorrect"."""
    plank = h.set_physics(h.mesh_object("Plank"), motion_type="DYNAMIC", shape_type="SPHERE")
    plank.scale = (3, 1, 1)
    assert ("Plank", "non-uniform-scale", "apply-scale") in listed()
    select_only(plank)
    bpy.ops.object.mode_set(mode="EDIT")
    with pytest.raises(RuntimeError, match="Plank is in Edit Mode: leave Edit Mode first"):
        bpy.ops.gltf_physics.problem_fix(index=index_of("Plank", "non-uniform-scale"))
    bpy.ops.object.mode_set(mode="OBJECT")
    assert tuple(plank.scale) == (3, 1, 1)


def test_hull_fix_keeps_a_moved_proxy_where_its_mesh_is(clean_scene):
    """The user moved the hull proxy and gave it detail past the point limit: the Fix
    simplifies it where it is (the points were moved by the proxy's offset twice)."""
    rock = h.set_physics(h.mesh_object("Rock", "cube"), motion_type="DYNAMIC")
    select_only(rock)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = rock.gltf_physics.mesh_object
    proxy.location.x += 1.0
    mesh = bpy.data.meshes.new("Detail")
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=32, v_segments=16, radius=1.0)
    bm.to_mesh(mesh)
    bm.free()
    proxy.data = mesh
    bpy.context.view_layer.update()
    before = world_x_extent(proxy)
    assert ("Rock", "hull-too-many-points", "simplify-hull") in listed()
    assert bpy.ops.gltf_physics.problem_fix(index=index_of("Rock", "hull-too-many-points")) \
        == {"FINISHED"}
    assert rock.gltf_physics.mesh_object == proxy
    bpy.context.view_layer.update()
    assert world_x_extent(proxy) == pytest.approx(before, abs=0.05)
