# SPDX-License-Identifier: GPL-3.0-or-later
"""Production scenes and the tools (issue 23 items 3-4, issue 24 item 4): every operator of
the README's list on linked, overridden, hidden and instanced targets changes nothing Blender
would not keep and says so once; the tools recognise what they made by its stored tag, never
by a name, and leave the user's objects, meshes, rigid bodies and constraints as they were."""

import importlib
import importlib.util
import json

import bpy
import pytest
from mathutils import Matrix

from scripts import bench_decompose as meshes
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

MAKE_LOCAL = "make it local"


@pytest.fixture
def ownership():
    """The add-on's io.blender.tools.ownership module."""
    return importlib.import_module(f"{MODULE}.io.blender.tools.ownership")


# -- scenes ---------------------------------------------------------------------------------


def torus(name, segments=12, rings=6, **physics):
    obj = meshes.mesh_object(name, *meshes.torus(1.0, 0.3, segments, rings))
    return h.set_physics(obj, **physics)


def write_library(folder) -> str:
    """lib.blend: a collection "Kit" with a dynamic Crate (box, a hinge joint Empty to a
    static Post), a moving triangle-mesh Ring (a torus), a Car vehicle; all authored there."""
    bpy.ops.wm.read_homefile(use_empty=True)
    kit = bpy.data.collections.new("Kit")
    bpy.context.scene.collection.children.link(kit)
    crate = h.set_physics(h.mesh_object("Crate", location=(0, 0, 2)), motion_type="DYNAMIC",
                          shape_type="BOX", mass=3.0, use_material=True, restitution=0.25)
    post = h.set_physics(h.mesh_object("Post", location=(2, 0, 0)), motion_type="STATIC",
                         shape_type="BOX")
    hinge = h.set_physics(h.empty_object("Hinge", location=(1, 0, 1)), joint_type="HINGE",
                          joint_connected_body=post)
    hinge.parent = crate
    hinge.matrix_parent_inverse = crate.matrix_world.inverted()
    ring = torus("Ring", motion_type="DYNAMIC", shape_type="TRIMESH")
    car = h.set_physics(h.mesh_object("Car", location=(5, 0, 0)), motion_type="DYNAMIC",
                        shape_type="BOX", mass=800.0)
    h.set_physics(post, use_filter=True)
    post.gltf_physics.filter_layers[2] = True  # the library's third layer
    for obj in (crate, post, hinge, ring, car):
        bpy.context.scene.collection.objects.unlink(obj)
        kit.objects.link(obj)
    path = str(folder / "lib.blend")
    bpy.data.libraries.write(path, {kit}, fake_user=True)
    return path


def link_library(path: str) -> dict:
    """A fresh scene with the library's Kit linked: instanced twice, and its objects linked
    into the scene directly (selectable); a local object using a linked mesh."""
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(path, link=True) as (_src, dst):
        dst.collections = ["Kit"]
    kit = bpy.data.collections["Kit"]
    scene = bpy.context.scene
    for x in (0, 10):
        inst = bpy.data.objects.new(f"Kit.{x}", None)
        inst.instance_type, inst.instance_collection = "COLLECTION", kit
        inst.location.x = x
        scene.collection.objects.link(inst)
    for obj in kit.objects:
        scene.collection.objects.link(obj)
    local = h.set_physics(bpy.data.objects.new("LocalOnLinkedMesh", kit.objects["Ring"].data),
                          motion_type="DYNAMIC", shape_type="TRIMESH")
    scene.collection.objects.link(local)
    bpy.context.view_layer.update()
    return {o.name: o for o in kit.objects} | {"kit": kit, "local": local}


def props_of(group) -> dict:
    """A property group's stored values as plain data (pointers by name)."""
    out = {}
    for prop in group.bl_rna.properties:
        key = prop.identifier
        if key == "rna_type":
            continue
        value = getattr(group, key)
        if prop.type == "POINTER":
            value = getattr(value, "name", None) if isinstance(value, bpy.types.ID) \
                else (props_of(value) if value is not None else None)
        elif prop.type == "COLLECTION":
            value = [props_of(item) for item in value]
        elif hasattr(value, "__len__") and not isinstance(value, str):
            value = tuple(round(v, 6) if isinstance(v, float) else v for v in value)
        elif isinstance(value, float):
            value = round(value, 6)
        out[key] = value
    return out


def state() -> dict:
    """Everything a tool could change: objects (transform, parent, data, physics, rigid body
    and constraint, custom properties), meshes with their vertex counts, collections."""
    objects = {}
    for obj in bpy.data.objects:
        objects[(obj.name, obj.library and obj.library.name)] = (
            tuple(round(v, 5) for row in obj.matrix_world for v in row),
            obj.parent and obj.parent.name, obj.data and obj.data.name,
            props_of(obj.gltf_physics),
            props_of(obj.rigid_body) if obj.rigid_body else None,
            props_of(obj.rigid_body_constraint) if obj.rigid_body_constraint else None,
            sorted(obj.keys()), [c.name for c in obj.constraints],
        )
    return {
        "objects": objects,
        "meshes": {(m.name, m.library and m.library.name): len(m.vertices)
                   for m in bpy.data.meshes},
        "collections": {c.name: sorted(o.name for o in c.objects)
                        for c in bpy.data.collections},
        "world": bpy.context.scene.rigidbody_world is not None,
    }


def select(*objs, active=None):
    for other in bpy.context.view_layer.objects:
        other.select_set(other in objs)
    bpy.context.view_layer.objects.active = active or objs[0]


def refused(call) -> str:
    """Run an operator call that must refuse: its one message (poll's or the report's)."""
    with pytest.raises(RuntimeError) as caught:
        call()
    return str(caught.value)


# -- linked data ----------------------------------------------------------------------------


#: (operator, how to call it on the scene of `link_library`): every operator of the README's
#: list that changes objects.
def _linked_calls(scene_objects):
    crate, ring, car, hinge = (scene_objects[n] for n in ("Crate", "Ring", "Car", "Hinge"))
    ops = bpy.ops.gltf_physics
    return {
        "fit_shape": (lambda: select(crate), ops.fit_shape),
        "copy_settings": (lambda: select(crate, ring, active=scene_objects["local"]),
                          ops.copy_settings),
        "simplify_hull": (lambda: select(ring), ops.simplify_hull),
        "convex_decompose": (lambda: select(ring), ops.convex_decompose),
        "wheels_add": (lambda: select(car), ops.wheels_add),
        "joint_to_custom": (lambda: select(hinge), ops.joint_to_custom),
        "joint_item_add": (lambda: select(hinge), ops.joint_item_add),
        "joint_item_remove": (lambda: select(hinge), ops.joint_item_remove),
        "from_native": (lambda: select(crate), ops.from_native),
        "to_native": (lambda: select(crate, ring), ops.to_native),
        "preview": (lambda: select(crate), ops.preview),
    }


def test_every_operator_refuses_linked_objects_once_and_changes_nothing(clean_scene, tmp_path):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    objs = link_library(write_library(tmp_path))
    for name, (prepare, op) in _linked_calls(objs).items():
        prepare()
        before = state()
        message = refused(op)
        assert MAKE_LOCAL in message and "lib.blend" in message, (name, message)
        assert state() == before, name  # nothing changed, nothing left behind


def test_the_fixes_refuse_linked_objects(clean_scene, tmp_path):
    objs = link_library(write_library(tmp_path))
    select(objs["local"])
    scene = bpy.context.scene
    bpy.ops.gltf_physics.validate()
    fixes = {(p.obj, p.fix): i for i, p in enumerate(scene.gltf_physics.problems) if p.fix}
    ring_fix = next(i for (obj, fix), i in fixes.items() if obj == "Ring")
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.problem_fix(index=ring_fix))
    assert message.count(MAKE_LOCAL) == 1 and "Ring is linked from lib.blend" in message
    assert state() == before
    # the local object using the linked mesh: its physics is its own, so the Fix works
    local_fix = next(i for (obj, fix), i in fixes.items() if obj == "LocalOnLinkedMesh")
    assert bpy.ops.gltf_physics.problem_fix(index=local_fix) == {"FINISHED"}
    assert objs["Ring"].data.library is not None and len(objs["Ring"].data.vertices) == 72


def test_poll_greys_out_linked_targets_with_the_reason(clean_scene, tmp_path):
    objs = link_library(write_library(tmp_path))
    select(objs["Crate"])
    for op in (bpy.ops.gltf_physics.fit_shape, bpy.ops.gltf_physics.simplify_hull,
               bpy.ops.gltf_physics.from_native, bpy.ops.gltf_physics.to_native):
        assert not op.poll()
    message = refused(bpy.ops.gltf_physics.fit_shape)
    assert "Crate is linked from lib.blend: make it local or use a library override" in message


def test_add_joint_between_linked_bodies_makes_only_a_local_tagged_joint(
        clean_scene, tmp_path, ownership):
    objs = link_library(write_library(tmp_path))
    crate, post = objs["Crate"], objs["Post"]
    select(crate, post, active=post)
    before = state()
    assert bpy.ops.gltf_physics.joint_add() == {"FINISHED"}
    joint = bpy.context.active_object
    assert joint.library is None and ownership.made_by(joint, ownership.JOINT, crate)
    assert joint.parent == crate and joint.gltf_physics.joint_connected_body == post
    assert joint.name in bpy.context.scene.collection.objects  # not the linked Kit
    after = state()
    del after["objects"][(joint.name, None)]
    assert after == before


def test_instanced_kit_is_untouched_by_tools_on_the_instance(clean_scene, tmp_path):
    objs = link_library(write_library(tmp_path))
    instance = bpy.data.objects["Kit.0"]
    source = h.set_physics(h.mesh_object("Source"), motion_type="STATIC", shape_type="BOX")
    kit_before = {o.name: props_of(o.gltf_physics) for o in objs["kit"].objects}
    select(instance, source, active=source)
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}  # the local instance Empty
    assert instance.gltf_physics.shape_type == "BOX"
    select(instance)
    assert not bpy.ops.gltf_physics.simplify_hull.poll()  # an Empty has no mesh
    assert {o.name: props_of(o.gltf_physics) for o in objs["kit"].objects} == kit_before


def test_physics_authored_in_a_library_still_exports(clean_scene, tmp_path):
    link_library(write_library(tmp_path))
    for fmt in ("KHR", "OMI"):
        path = tmp_path / f"linked_{fmt}.gltf"
        gltf = h.export(path, fmt)
        h.assert_valid(path)
        names = [n.get("name") for n in gltf["nodes"] if n.get("extensions")]
        assert {"Crate", "Post", "Hinge"} <= set(names), (fmt, names)


# -- library overrides ----------------------------------------------------------------------


def test_overrides_keep_physics_edits_and_refuse_rigid_bodies(clean_scene, tmp_path, ownership):
    path = write_library(tmp_path)
    link_library(path)
    linked = next(o for o in bpy.data.objects if o.name == "Car" and o.library)
    car = linked.override_create(remap_local_usages=True)
    assert car.override_library is not None and car.is_editable
    select(car)
    assert bpy.ops.gltf_physics.fit_shape() == {"FINISHED"}
    assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    wheels = [c for c in car.children if ownership.made_by(c, ownership.WHEEL, car)]
    assert len(wheels) == 4
    select(car)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = car.gltf_physics.mesh_object
    assert ownership.made_by(proxy, ownership.HULL_PROXY, car) and proxy.library is None
    select(car)
    message = refused(bpy.ops.gltf_physics.to_native)
    assert "library override" in message and car.rigid_body is None
    hinge = next(o for o in bpy.data.objects if o.name == "Hinge").override_create(
        remap_local_usages=True)
    source = h.set_physics(h.mesh_object("Source"), joint_type="HINGE", restitution=0.75,
                           use_material=True)
    select(hinge, source, active=source)
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}
    select(hinge)
    assert bpy.ops.gltf_physics.joint_to_custom() == {"FINISHED"}
    assert bpy.ops.gltf_physics.joint_item_add(items="DRIVES") == {"FINISHED"}
    ring = next(o for o in bpy.data.objects if o.name == "Ring").override_create(
        remap_local_usages=True)
    select(ring)
    if importlib.util.find_spec("coacd") is not None:
        assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    blend = tmp_path / "main.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))
    bpy.ops.wm.open_mainfile(filepath=str(blend))
    hinge = next(o for o in bpy.data.objects if o.name == "Hinge" and o.override_library)
    assert hinge.gltf_physics.joint_type == "CUSTOM" and len(hinge.gltf_physics.joint_drives) == 1
    assert hinge.gltf_physics.restitution == pytest.approx(0.75)
    ring = next(o for o in bpy.data.objects if o.name == "Ring" and o.override_library)
    if importlib.util.find_spec("coacd") is not None:
        assert ring.gltf_physics.shape_type == "NONE" and len(ring.children) >= 1
        assert all(ownership.made_by(c, ownership.CONVEX_PART, ring) for c in ring.children)
    car = next(o for o in bpy.data.objects if o.name == "Car" and o.override_library)
    assert car.gltf_physics.size_mode == "CUSTOM" and car.gltf_physics.is_vehicle
    assert car.gltf_physics.shape_type == "CONVEX"
    assert car.gltf_physics.mesh_object.name == "Car.hull"
    assert sorted(c.gltf_physics.vehicle_part for c in car.children) == ["NONE"] + ["WHEEL"] * 4


def test_overrides_keep_physics_their_library_objects_never_had(clean_scene, tmp_path):
    """A library rock with no physics and a wheel with no wheel material of its own: set
    through a library override, both are kept by a save and a reload, and a second save
    after the reload (Blender recorded the override of a struct missing in the library as a
    replaced pointer and dropped it on load)."""
    rock = h.mesh_object("Rock")
    wheel = h.set_physics(h.mesh_object("Wheel", location=(3, 0, 0)), vehicle_part="WHEEL")
    h.overridden_kit([rock, wheel], tmp_path / "yard.blend", "Yard")
    overridden = h.overridden
    h.set_physics(overridden("Rock"), motion_type="DYNAMIC", shape_type="SPHERE", mass=3.5)
    material = overridden("Wheel").gltf_physics.wheel_material
    material.use_material, material.static_friction = True, 1.7
    blend = str(tmp_path / "level.blend")
    for mass in (3.5, 4.5):
        overridden("Rock").gltf_physics.mass = mass
        for name in ("Rock", "Wheel"):  # (as an undo step does: the pointer's replacement)
            overridden(name).override_library.operations_update()
        bpy.ops.wm.save_as_mainfile(filepath=blend)
        bpy.ops.wm.open_mainfile(filepath=blend)
        props = overridden("Rock").gltf_physics
        assert (props.motion_type, props.shape_type, props.mass) == ("DYNAMIC", "SPHERE", mass)
        material = overridden("Wheel").gltf_physics.wheel_material
        assert material.use_material and material.static_friction == pytest.approx(1.7)
    linked = next(o for o in bpy.data.objects if o.name == "Rock" and o.library)
    assert linked.gltf_physics.motion_type == "NONE"  # (the library is as it was)


def test_a_hierarchy_override_is_refused_until_made_editable(clean_scene, tmp_path):
    objs = link_library(write_library(tmp_path))
    instance = bpy.data.objects["Kit.0"]
    scene = bpy.context.scene
    objs["kit"].override_hierarchy_create(scene, bpy.context.view_layer, reference=instance)
    crate = next(o for o in scene.objects if o.name == "Crate" and o.override_library)
    assert crate.override_library.is_system_override
    select(crate)
    before = state()
    for op in (bpy.ops.gltf_physics.fit_shape, bpy.ops.gltf_physics.simplify_hull,
               bpy.ops.gltf_physics.wheels_add):
        assert "library override that is not editable" in refused(op)
    assert state() == before
    crate.override_library.is_system_override = False  # Library Override → Make Editable
    select(crate)
    assert bpy.ops.gltf_physics.fit_shape() == {"FINISHED"}
    assert crate.gltf_physics.size_mode == "CUSTOM"


def test_hidden_targets_get_only_their_own_tagged_helpers(clean_scene, ownership):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    hidden = bpy.data.collections.new("Hidden")
    bpy.context.scene.collection.children.link(hidden)
    ring = torus("Ring", motion_type="DYNAMIC", shape_type="TRIMESH")
    car = h.set_physics(h.mesh_object("Car"), motion_type="DYNAMIC", shape_type="BOX")
    for obj in (ring, car):
        bpy.context.scene.collection.objects.unlink(obj)
        hidden.objects.link(obj)
        obj.hide_set(True)
    hidden.hide_viewport = True
    other = h.mesh_object("Bystander", kind="sphere")
    bpy.context.view_layer.update()
    before = state()
    with bpy.context.temp_override(selected_objects=[car], active_object=car, object=car):
        assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
        assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    with bpy.context.temp_override(selected_objects=[ring], active_object=ring, object=ring):
        assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    after = state()
    made = set(after["objects"]) - set(before["objects"])
    owners = {ownership.HULL_PROXY: car, ownership.WHEEL: car, ownership.CONVEX_PART: ring}
    for name, _lib in made:
        obj = bpy.data.objects[name]
        tool = obj[ownership.MADE_BY]
        assert ownership.made_by(obj, tool, owners[tool]) and hidden in obj.users_collection
    assert after["objects"][("Bystander", None)] == before["objects"][("Bystander", None)]
    assert len(made) == 1 + 4 + len(ring.children) and other.name in bpy.data.objects


# -- ownership ------------------------------------------------------------------------------


def test_hull_never_replaces_the_users_low_poly_child(clean_scene, ownership):
    car = h.set_physics(h.mesh_object("Car", kind="monkey"), motion_type="DYNAMIC")
    low = h.mesh_object("Car_lowpoly", kind="sphere")
    low.parent = car
    h.set_physics(car, shape_type="CONVEX", mesh_source="OBJECT", mesh_object=low)
    low_mesh, low_count = low.data, len(low.data.vertices)
    select(car)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = car.gltf_physics.mesh_object
    assert proxy != low and ownership.made_by(proxy, ownership.HULL_PROXY, car)
    assert low.data == low_mesh and len(low_mesh.vertices) == low_count
    assert low.name in bpy.data.objects and low_mesh.name in bpy.data.meshes
    meshes = len(bpy.data.meshes)
    assert bpy.ops.gltf_physics.simplify_hull(max_points=8) == {"FINISHED"}  # again: reused
    assert car.gltf_physics.mesh_object == proxy and len(proxy.data.vertices) <= 8
    assert len(bpy.data.meshes) == meshes  # its own old mesh goes (the new one has its name)
    assert proxy.data.name == "Car.hull"
    hidden = h.mesh_object("Hidden", kind="sphere")
    hidden.hide_set(True)  # a hidden look-alike "Car.hull" of the user's stays as it is
    hidden.name = "Car.hull.001"
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    assert "Car.hull.001" in bpy.data.objects and len(hidden.data.vertices) > 8


def test_decomposition_keeps_the_users_look_alike_part_and_children(clean_scene, ownership):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    truck = torus("Truck", motion_type="DYNAMIC", shape_type="TRIMESH")
    look_alike = h.set_physics(h.mesh_object("Truck.part001", location=(0, 0, 3)),
                               shape_type="CONVEX", collision_only=True)
    look_alike.parent = truck
    select(truck)
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=3) == {"FINISHED"}
    parts = [c for c in truck.children if ownership.made_by(c, ownership.CONVEX_PART, truck)]
    assert 1 <= len(parts) <= 3 and look_alike not in parts
    assert look_alike.name == "Truck.part001" and len(look_alike.data.vertices) == 8
    # a user's object under a part moves to the object when the parts are replaced
    decal = h.mesh_object("Decal", location=(1, 2, 3))
    decal.parent = parts[0]
    decal.matrix_world = Matrix.Translation((1, 2, 3))
    bpy.context.view_layer.update()
    select(truck)
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    bpy.context.view_layer.update()
    assert decal.name in bpy.data.objects and decal.parent == truck
    assert tuple(decal.matrix_world.translation) == pytest.approx((1, 2, 3), abs=1e-5)
    assert look_alike.name in bpy.data.objects and look_alike.parent == truck
    parts = [c for c in truck.children if ownership.made_by(c, ownership.CONVEX_PART, truck)]
    assert 1 <= len(parts) <= 2


def test_imported_parts_are_not_ours_and_a_look_alike_survives_a_run(clean_scene, tmp_path):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    truck = torus("Truck", motion_type="DYNAMIC", shape_type="TRIMESH")
    select(truck)
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    path = tmp_path / "truck.gltf"
    h.export(path, "KHR")
    h.import_file(path)
    truck = bpy.data.objects["Truck"]
    imported = {o.name for o in truck.children_recursive}
    assert imported and all(n.startswith("Truck.part") for n in imported)
    bridge = importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")
    core = importlib.import_module(f"{MODULE}.io.decomposition")
    run = bridge.decompose_now([truck], core.Settings(max_parts=2))
    assert imported <= {o.name for o in bpy.data.objects}  # a file's objects stay
    assert run.made["Truck"] and any("did not make" in w for w in run.warnings), run.warnings


def test_a_file_cannot_tag_its_objects_as_the_tools_own(clean_scene, tmp_path, ownership):
    """Extras named like the tools' tags (a decomposition part, a preview helper, the
    preview's rigid body world) are not imported: no tool deletes the file's Wheel or the
    user's rigid body world because a file said so."""
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    car = torus("Car")
    wheel = h.mesh_object("Wheel", location=(3, 0, 0))
    wheel.parent = car
    path = tmp_path / "tagged.gltf"
    h.export(path, "NONE")
    gltf = json.loads(path.read_text())
    wheel_node = next(n for n in gltf["nodes"] if n["name"] == "Wheel")
    wheel_node["extras"] = {"gltf_physics_convex_part": "Car",
                            ownership.MADE_BY: ownership.CONVEX_PART,
                            "gltf_physics_preview_helper": True, "note": "kept"}
    gltf["meshes"][wheel_node["mesh"]]["extras"] = {ownership.MADE_BY: ownership.HULL_PROXY}
    gltf["scenes"][0]["extras"] = {"gltf_physics_preview_world": True}
    path.write_text(json.dumps(gltf))
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.rigidbody.world_add()  # the user's own
    bpy.ops.import_scene.gltf(filepath=str(path))
    keys = [key for thing in [*bpy.data.objects, *bpy.data.meshes, *bpy.data.scenes]
            for key in thing.keys()]  # noqa: SIM118 (an ID is not iterable)
    assert not [key for key in keys if key.startswith(ownership.TAG_PREFIX)], keys
    assert bpy.data.objects["Wheel"]["note"] == "kept"  # other extras are the file's
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert bpy.context.scene.rigidbody_world is not None and "Wheel" in bpy.data.objects
    car = bpy.data.objects["Car"]
    select(car)
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    assert bpy.data.objects["Wheel"].parent == car


def _user_hinge(a, b):
    """A joint Empty with the user's own Blender HINGE constraint (breakable) and glTF joint."""
    joint = h.set_physics(h.empty_object("UserHinge", location=(0, 0, 1)), joint_type="HINGE",
                          joint_connected_body=b)
    joint.parent = a
    scene = bpy.context.scene
    with bpy.context.temp_override(scene=scene):
        bpy.ops.rigidbody.world_add()
    scene.rigidbody_world.constraints = bpy.data.collections.new("UserConstraints")
    scene.rigidbody_world.constraints.objects.link(joint)
    rbc = joint.rigid_body_constraint
    rbc.type, rbc.object1, rbc.object2 = "HINGE", a, b
    rbc.use_breaking, rbc.breaking_threshold = True, 12.5
    rbc.use_limit_ang_z, rbc.limit_ang_z_lower, rbc.limit_ang_z_upper = True, -0.5, 0.75
    return joint


def test_preview_gives_back_the_users_constraint_and_rigid_body_exactly(clean_scene):
    door = h.set_physics(h.mesh_object("Door", location=(0, 0, 1)), motion_type="DYNAMIC",
                         shape_type="BOX")
    frame = h.set_physics(h.mesh_object("Frame", location=(1, 0, 1)), motion_type="STATIC",
                          shape_type="BOX")
    joint = _user_hinge(door, frame)
    crate = h.set_physics(h.mesh_object("Crate", location=(3, 0, 1)), motion_type="DYNAMIC",
                          shape_type="SPHERE")
    bpy.context.scene.rigidbody_world.collection = bpy.data.collections.new("UserBodies")
    bpy.context.scene.rigidbody_world.collection.objects.link(crate)
    crate.rigid_body.mass, crate.rigid_body.friction = 42.0, 0.9
    crate.rigid_body.collision_shape = "CONE"
    bpy.context.view_layer.update()
    before = state()
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert joint.rigid_body_constraint.type == "HINGE"  # simulated as the user made it
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert state() == before
    rbc = joint.rigid_body_constraint
    assert (rbc.type, rbc.object1, rbc.object2, rbc.breaking_threshold) == \
        ("HINGE", door, frame, 12.5)


# -- decomposition leftovers (issue 24 item 4) --------------------------------------------


def test_rerunning_on_a_trigger_keeps_its_filter(clean_scene):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    bpy.ops.gltf_physics.layer_add(name="Player")
    bpy.ops.gltf_physics.layer_add(name="Enemy")
    zone = torus("Zone", shape_type="TRIMESH", shape_role="TRIGGER", use_filter=True,
                 filter_mode="ONLY")
    zone.gltf_physics.filter_layers[1] = True
    zone.gltf_physics.filter_targets[0] = True
    wanted = props_of(zone.gltf_physics)
    keys = ("use_filter", "filter_layers", "filter_mode", "filter_targets")
    for run in range(2):
        select(zone)
        assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}, run
        parts = [c for c in zone.children if c.gltf_physics.shape_type == "CONVEX"]
        assert parts and zone.gltf_physics.is_compound_trigger
        for part in parts:
            got = props_of(part.gltf_physics)
            assert {k: got[k] for k in keys} == {k: wanted[k] for k in keys}, run


def test_the_moving_mesh_fix_decomposes_the_mesh_the_collider_uses(clean_scene):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    body = h.mesh_object("Body", size=0.2)  # its own mesh: a small cube
    collision = torus("BodyCollision", segments=12, rings=6)
    collision.parent = body
    collision.location = (0, 0, 2)
    h.set_physics(collision, collision_only=True)
    h.set_physics(body, motion_type="DYNAMIC", shape_type="TRIMESH", mesh_source="OBJECT",
                  mesh_object=collision)
    bpy.context.view_layer.update()
    select(collision)  # the Fix leaves the selection alone
    bpy.ops.gltf_physics.validate()
    problems = bpy.context.scene.gltf_physics.problems
    index = next(i for i, p in enumerate(problems) if p.obj == "Body" and p.fix)
    assert problems[index].fix == "convex-decompose"
    assert bpy.ops.gltf_physics.problem_fix(index=index) == {"FINISHED"}
    parts = [c for c in body.children if c.gltf_physics.shape_type == "CONVEX"]
    assert parts
    zs = [(c.matrix_world @ v.co).z for c in parts for v in c.data.vertices]
    xs = [(c.matrix_world @ v.co).x for c in parts for v in c.data.vertices]
    assert min(zs) > 1.6 and max(xs) > 1.2  # the torus at z 2, not the 0.2 m cube
    assert collision.name in bpy.data.objects and len(collision.data.vertices) == 72
    assert [o.name for o in bpy.context.selected_objects] == ["BodyCollision"]


def test_every_operator_touched_is_undoable_in_one_step():
    for name in ("fit_shape", "copy_settings", "simplify_hull", "convex_decompose",
                 "wheels_add", "joint_add", "joint_to_custom", "joint_item_add",
                 "joint_item_remove", "from_native", "to_native", "preview", "preview_remove",
                 "problem_fix", "layer_add", "layer_remove", "validate"):
        cls = getattr(bpy.types, f"GLTF_PHYSICS_OT_{name}")
        assert {"REGISTER", "UNDO"} <= set(cls.bl_options), name


def test_the_tags_stay_out_of_files_even_with_custom_properties_on(clean_scene, tmp_path,
                                                                   ownership):
    car = h.set_physics(h.mesh_object("Car"), motion_type="DYNAMIC", shape_type="BOX")
    car["note"] = "the user's own"
    select(car)
    assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    for fmt in ("KHR", "OMI"):
        path = tmp_path / f"tags_{fmt}.gltf"
        gltf = h.export(path, fmt, export_extras=True)
        h.assert_valid(path)
        extras = {n["name"]: n.get("extras") for n in gltf["nodes"]}
        assert extras["Car"] == {"note": "the user's own"}
        assert all(extras[f"Car.wheel{i}"] is None for i in range(4)), extras
    h.import_file(tmp_path / "tags_KHR.gltf")
    wheel = bpy.data.objects["Car.wheel0"]
    assert wheel.gltf_physics.vehicle_part == "WHEEL" and ownership.MADE_BY not in wheel


def test_a_tagged_mesh_keeps_its_tags_out_of_the_files_mesh_extras(clean_scene, tmp_path):
    crate = h.set_physics(h.mesh_object("Crate"), motion_type="DYNAMIC")
    select(crate)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = crate.gltf_physics.mesh_object
    proxy.gltf_physics.collision_only = False  # the user shows the low-poly hull: its mesh
    proxy.data["note"] = "the user's own"  # is written, with the tool's tag on it
    path = tmp_path / "hull.gltf"
    gltf = h.export(path, "KHR", export_extras=True)
    h.assert_valid(path)
    [mesh] = [m for m in gltf["meshes"] if m.get("name") == proxy.data.name]
    assert mesh["extras"] == {"note": "the user's own"}


def test_parts_saved_before_the_tags_are_still_replaced(clean_scene, ownership):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    bridge = importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")
    truck = torus("Truck", motion_type="DYNAMIC", shape_type="TRIMESH")
    old = h.set_physics(h.mesh_object("Truck.part001", size=0.5), shape_type="CONVEX",
                        collision_only=True)
    old.parent = truck
    old[bridge.PART_TAG] = "Truck"  # as the add-on tagged parts before
    old["probe"] = True
    select(truck)
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
    parts = list(truck.children)
    assert parts and all(ownership.made_by(p, ownership.CONVEX_PART, truck) for p in parts)
    assert not any("probe" in p for p in parts) and len(parts) <= 2


def test_the_moving_mesh_fix_of_an_empty_decomposes_its_proxy(clean_scene):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    body = h.empty_object("Holder", location=(0, 0, 1))
    collision = torus("HolderCollision", segments=12, rings=6)
    collision.parent = body
    h.set_physics(collision, collision_only=True)
    h.set_physics(body, motion_type="DYNAMIC", shape_type="TRIMESH", mesh_source="OBJECT",
                  mesh_object=collision)
    bpy.ops.gltf_physics.validate()
    problems = bpy.context.scene.gltf_physics.problems
    index = next(i for i, p in enumerate(problems) if p.obj == "Holder" and p.fix)
    assert problems[index].fix == "convex-decompose"
    assert bpy.ops.gltf_physics.problem_fix(index=index) == {"FINISHED"}
    parts = [c for c in body.children if c.gltf_physics.shape_type == "CONVEX"]
    assert parts and body.gltf_physics.shape_type == "NONE"
    assert len(collision.data.vertices) == 72 and collision.parent == body


def test_scene_operators_refuse_what_a_linked_object_or_scene_would_lose(clean_scene, tmp_path):
    link_library(write_library(tmp_path))
    for name in ("Player", "Enemy", "Water"):
        bpy.ops.gltf_physics.layer_add(name=name)
    settings = bpy.context.scene.gltf_physics
    settings.active_layer = 1  # removing it would move the linked Post's tick on layer 3
    before = state(), [layer.name for layer in settings.layers]
    message = refused(bpy.ops.gltf_physics.layer_remove)
    assert "Post is linked from lib.blend" in message
    assert (state(), [layer.name for layer in settings.layers]) == before
    settings.active_layer = 2  # the last: nothing moves on Post... but its own tick goes
    assert "Post is linked" in refused(bpy.ops.gltf_physics.layer_remove)
    bpy.ops.gltf_physics.layer_add(name="Lava")
    settings.active_layer = 3  # after every tick of a linked object: removed
    assert bpy.ops.gltf_physics.layer_remove() == {"FINISHED"}


def test_scene_operators_are_greyed_out_in_a_linked_scene(clean_scene, tmp_path):
    bpy.context.scene.name = "LibScene"
    lib = tmp_path / "scenes.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(lib))
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(lib), link=True) as (_src, dst):
        dst.scenes = ["LibScene"]
    linked = next(s for s in bpy.data.scenes if s.library is not None)
    with bpy.context.temp_override(scene=linked):
        assert not bpy.ops.gltf_physics.layer_add.poll()
        assert not bpy.ops.gltf_physics.validate.poll()
        assert "LibScene is linked" in refused(bpy.ops.gltf_physics.layer_add)


def test_an_override_removes_only_the_joint_items_it_added(clean_scene, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    joint = h.set_physics(h.empty_object("J"), joint_type="CUSTOM")
    joint.gltf_physics.joint_limits.add()
    joint.gltf_physics.joint_limits.add()
    joint = h.overridden_from_library(joint, tmp_path / "joint.blend")
    select(joint)
    joint.gltf_physics.joint_active_limit = 0
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.joint_item_remove(items="LIMITS"))
    assert "Limit 1 of J comes from the library" in message and state() == before
    assert bpy.ops.gltf_physics.joint_item_add(items="LIMITS") == {"FINISHED"}
    assert bpy.ops.gltf_physics.joint_item_remove(items="LIMITS") == {"FINISHED"}  # its own
    assert len(joint.gltf_physics.joint_limits) == 2


# -- a problem's own object, shared objects, editable members (review of issue 23) ----------


def _ring_named_like_the_linked_one(tmp_path):
    """The library linked, and the user's own local, static triangle-mesh "Ring" (no problem
    of its own) beside the linked dynamic "Ring" (a moving triangle mesh: a Fix)."""
    objs = link_library(write_library(tmp_path))
    local = h.set_physics(torus("Ring", segments=10, rings=5), motion_type="STATIC",
                          shape_type="TRIMESH")
    assert local.name == "Ring" and local.library is None and objs["Ring"].library
    bpy.context.view_layer.update()
    return objs["Ring"], local


def test_a_fix_acts_on_its_problems_object_never_on_a_local_one_of_its_name(
        clean_scene, tmp_path):
    linked, local = _ring_named_like_the_linked_one(tmp_path)
    select(local)
    bpy.ops.gltf_physics.validate()
    problems = bpy.context.scene.gltf_physics.problems
    index = next(i for i, p in enumerate(problems) if p.obj == "Ring" and p.fix)
    assert [p.obj for p in problems].count("Ring") == 1  # the local Ring has no problem
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.problem_fix(index=index))
    assert message.count(MAKE_LOCAL) == 1 and "Ring is linked from lib.blend" in message
    assert state() == before  # the user's local Ring too
    assert problems[index].target_uid == linked.session_uid
    assert bpy.ops.gltf_physics.problem_select(index=index) == {"FINISHED"}
    assert bpy.context.active_object == linked and local not in bpy.context.selected_objects


def test_the_decomposition_of_a_fix_takes_the_objects_identity_not_its_name(
        clean_scene, tmp_path):
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    linked, local = _ring_named_like_the_linked_one(tmp_path)
    select(local)
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.convex_decompose(
        target_uid=linked.session_uid))
    assert "Ring is linked from lib.blend" in message and state() == before
    assert bpy.ops.gltf_physics.convex_decompose(
        target_uid=local.session_uid, max_parts=2) == {"FINISHED"}
    assert local.children and not linked.children
    assert linked.gltf_physics.shape_type == "TRIMESH"


def test_a_problem_whose_object_is_gone_refuses_and_a_renamed_one_is_still_fixed(clean_scene):
    flat = h.set_physics(h.mesh_object("Flat"), motion_type="STATIC", shape_type="BOX",
                         size_mode="CUSTOM", box_size=(1, 1, 1e-7))
    gone = h.set_physics(h.mesh_object("Gone", location=(3, 0, 0)), motion_type="STATIC",
                         shape_type="BOX", size_mode="CUSTOM", box_size=(1, 1e-7, 1))
    bpy.ops.gltf_physics.validate()
    problems = bpy.context.scene.gltf_physics.problems
    fixes = {p.obj: i for i, p in enumerate(problems) if p.fix}
    assert set(fixes) == {"Flat", "Gone"}
    assert problems[fixes["Flat"]].fix == "fit" and flat.gltf_physics.size_mode == "CUSTOM"
    flat.name = "Renamed"
    newcomer = h.mesh_object("Flat", location=(6, 0, 0))  # the old name: not the one
    untouched = props_of(newcomer.gltf_physics)
    assert bpy.ops.gltf_physics.problem_fix(index=fixes["Flat"]) == {"FINISHED"}
    assert flat.gltf_physics.size_mode == "FIT"
    assert props_of(newcomer.gltf_physics) == untouched
    bpy.ops.gltf_physics.validate()
    index = next(i for i, p in enumerate(problems) if p.obj == "Gone")
    bpy.data.objects.remove(gone)
    for call in (bpy.ops.gltf_physics.problem_fix, bpy.ops.gltf_physics.problem_select):
        before = state()
        message = refused(lambda call=call: call(index=index))
        assert message.count("run Check Physics again") == 1 and state() == before


def _shared_object_scenes():
    """Scene A (Player, Enemy, Ghost) and B (Water, Lava) share the object "Shared", which
    ticks layer 2 (A's Enemy, B's Lava)."""
    a = bpy.context.scene
    a.name = "A"
    b = bpy.data.scenes.new("B")
    for scene, names in ((a, ("Player", "Enemy", "Ghost")), (b, ("Water", "Lava"))):
        for name in names:
            scene.gltf_physics.layers.add().name = name
    shared = h.set_physics(bpy.data.objects.new("Shared", None), motion_type="STATIC",
                           shape_type="BOX", use_filter=True)
    a.collection.objects.link(shared)
    b.collection.objects.link(shared)
    shared.gltf_physics.filter_layers[1] = True
    return a, b, shared


def test_removing_a_layer_refuses_to_move_the_ticks_of_an_object_of_another_scene(clean_scene):
    a, b, shared = _shared_object_scenes()
    settings = a.gltf_physics
    for index in (0, 1):  # Shared's tick would move (0) or go (1): B's Lava with it
        settings.active_layer = index
        before = state(), [layer.name for layer in settings.layers]
        message = refused(bpy.ops.gltf_physics.layer_remove)
        assert message.count("Shared is also in scene B") == 1, message
        assert (state(), [layer.name for layer in settings.layers]) == before
        assert tuple(shared.gltf_physics.filter_layers[:3]) == (False, True, False)
    settings.active_layer = 2  # after Shared's ticks: nothing of B changes
    assert bpy.ops.gltf_physics.layer_remove() == {"FINISHED"}
    assert [layer.name for layer in settings.layers] == ["Player", "Enemy"]
    assert [layer.name for i, layer in enumerate(b.gltf_physics.layers)
            if shared.gltf_physics.filter_layers[i]] == ["Lava"]


def write_zone_library(folder) -> str:
    """zones.blend: a collection "Zones" with a compound trigger "Zone" that has a filter
    (Check Physics: move it to the members) and its trigger member "ZonePart"."""
    bpy.ops.wm.read_homefile(use_empty=True)
    zones = bpy.data.collections.new("Zones")
    bpy.context.scene.collection.children.link(zones)
    zone = h.set_physics(h.empty_object("Zone"), is_compound_trigger=True, use_filter=True)
    zone.gltf_physics.filter_layers[0] = True
    part = h.set_physics(h.mesh_object("ZonePart", location=(0, 0, 1)), shape_type="BOX",
                         shape_role="TRIGGER")
    part.parent = zone
    for obj in (zone, part):
        bpy.context.scene.collection.objects.unlink(obj)
        zones.objects.link(obj)
    path = str(folder / "zones.blend")
    bpy.data.libraries.write(path, {zones}, fake_user=True)
    return path


def test_moving_a_filter_to_members_refuses_a_member_that_cannot_be_changed(
        clean_scene, tmp_path):
    path = write_zone_library(tmp_path)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(path, link=True) as (_src, dst):
        dst.collections = ["Zones"]
    scene = bpy.context.scene
    instance = bpy.data.objects.new("Zones.0", None)
    instance.instance_type, instance.instance_collection = "COLLECTION", dst.collections[0]
    scene.collection.objects.link(instance)
    dst.collections[0].override_hierarchy_create(scene, bpy.context.view_layer,
                                                 reference=instance)
    zone, part = (next(o for o in scene.objects if o.name == n and o.override_library)
                  for n in ("Zone", "ZonePart"))
    zone.override_library.is_system_override = False  # Make Editable: the trigger only
    assert part.override_library.is_system_override and part.parent == zone
    bpy.ops.gltf_physics.validate()
    problems = scene.gltf_physics.problems
    index = next(i for i, p in enumerate(problems) if p.fix == "move-filter-to-members")
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.problem_fix(index=index))
    assert message.count("ZonePart is a library override that is not editable") == 1, message
    assert state() == before and not part.gltf_physics.use_filter
    part.override_library.is_system_override = False
    assert bpy.ops.gltf_physics.problem_fix(index=index) == {"FINISHED"}
    assert part.gltf_physics.use_filter and part.gltf_physics.filter_layers[0]
    assert not zone.gltf_physics.use_filter


def test_an_old_part_tag_counts_only_when_it_names_the_parent(clean_scene):
    bridge = importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")
    truck = torus("Truck", motion_type="DYNAMIC", shape_type="TRIMESH")
    ours, other = (h.set_physics(h.mesh_object(f"Truck.part00{i}", size=0.5),
                                 shape_type="CONVEX", collision_only=True) for i in (1, 2))
    for part, owner in ((ours, "Truck"), (other, "Van")):  # as the add-on tagged parts before
        part.parent = truck
        part[bridge.PART_TAG] = owner
    assert bridge.is_part(ours) and not bridge.is_part(other)
    assert bridge.parts_of(truck) == [ours]
    if importlib.util.find_spec("coacd") is not None:
        select(truck)
        assert bpy.ops.gltf_physics.convex_decompose(max_parts=2) == {"FINISHED"}
        assert other.parent == truck and other[bridge.PART_TAG] == "Van"  # kept
        assert not any(c.get(bridge.PART_TAG) == "Truck" for c in truck.children)  # replaced


def test_the_filter_fields_are_defined_once():
    names = ("settings.properties", "tools.decomposition", "tools.validation")
    modules = [importlib.import_module(f"{MODULE}.io.blender.{n}") for n in names]
    assert all(m.FILTER_FIELDS is modules[0].FILTER_FIELDS for m in modules)
    assert not hasattr(modules[2], "_FILTER_FIELDS")
    assert modules[0].FILTER_FIELDS <= modules[1].SHARED_FIELDS


def test_a_copied_owner_and_helper_keep_the_tag_the_ownership_module_describes(
        clean_scene, ownership):
    car = h.set_physics(h.mesh_object("Car"), motion_type="DYNAMIC", shape_type="CONVEX")
    select(car)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    proxy = car.gltf_physics.mesh_object
    select(car, proxy, active=car)
    bpy.ops.object.duplicate()
    car2 = bpy.context.active_object
    proxy2 = car2.gltf_physics.mesh_object
    assert car2 != car and proxy2 != proxy
    assert ownership.made_by(proxy2, ownership.HULL_PROXY, car2)  # remapped to the copy
    select(proxy)
    bpy.ops.object.duplicate()
    alone = bpy.context.active_object
    assert alone != proxy and ownership.made_by(alone, ownership.HULL_PROXY, car)


def test_a_listed_problem_keeps_no_deleted_object_in_the_file(clean_scene):
    """The problem list names its objects by session identity, not a pointer: a pointer
    would be a user that keeps a deleted object (and its mesh) in the saved file."""
    ring = h.set_physics(h.mesh_object("Ring", "cube"), motion_type="DYNAMIC",
                         shape_type="TRIMESH")
    assert bpy.ops.gltf_physics.validate() == {"FINISHED"}
    problems = bpy.context.scene.gltf_physics.problems
    assert any(p.target_uid == ring.session_uid for p in problems)
    users = ring.users
    bpy.data.objects.remove(ring)
    assert "Ring" not in bpy.data.objects and users == 1
    index = next(i for i, p in enumerate(problems) if p.obj == "Ring")
    with pytest.raises(RuntimeError, match="gone"):
        bpy.ops.gltf_physics.problem_select(index=index)


# -- what a conversion pulls in ---------------------------------------------------------------


def _converter():
    return importlib.import_module(f"{MODULE}.io.blender.tools.native_convert")


def _door_hinged_to(partner, location=(0, 3, 0)):
    """A local dynamic Door with a hinge Empty under it, connected to `partner`."""
    door = h.set_physics(h.mesh_object("Door", location=location), motion_type="DYNAMIC",
                         shape_type="BOX")
    hinge = h.set_physics(h.empty_object("DoorHinge", location=location), joint_type="HINGE",
                          joint_connected_body=partner)
    hinge.parent = door
    return door, hinge


def test_to_native_leaves_a_joints_linked_body_as_it_was_and_says_so(clean_scene, tmp_path):
    """The selection is local; the joint's other body is linked: Blender would drop a rigid
    body added to it when the file is opened again."""
    objs = link_library(write_library(tmp_path))
    post = objs["Post"]
    door, hinge = _door_hinged_to(post)
    linked_before = {k: v for k, v in state()["objects"].items() if k[1] is not None}
    changed, notes = _converter().convert([door, hinge], _converter().TO_NATIVE)
    assert door in changed and door.rigid_body is not None
    assert post not in changed and post.rigid_body is None
    assert hinge.rigid_body_constraint is None  # a constraint needs both rigid bodies
    assert any("Post is linked from lib.blend" in note for note in notes), notes
    assert {k: v for k, v in state()["objects"].items() if k[1] is not None} == linked_before


def test_to_native_adds_no_rigid_body_world_to_another_scene(clean_scene):
    """A joint connected to a body only in another scene: that body (and its scene) are left
    as they were; the rigid body world is the current scene's."""
    other = bpy.data.scenes.new("Other")
    wall = h.set_physics(bpy.data.objects.new("Wall", h.mesh_object("WallMesh").data),
                         motion_type="STATIC", shape_type="BOX")
    other.collection.objects.link(wall)
    door, hinge = _door_hinged_to(wall)
    bpy.context.view_layer.update()  # (the view layer's objects, after a link elsewhere)
    select(door, hinge)
    assert bpy.ops.gltf_physics.to_native() == {"FINISHED"}
    assert door.rigid_body is not None and bpy.context.scene.rigidbody_world is not None
    assert wall.rigid_body is None and other.rigidbody_world is None
    notes = _converter().convert([hinge], _converter().TO_NATIVE)[1]
    assert any("Wall is not in the scene" in note for note in notes), notes


def test_from_native_leaves_a_constraints_linked_body_as_it_was(clean_scene, tmp_path):
    """Blender rigid bodies made in a library: converting the local constraint between a
    local body and a linked one writes glTF physics on the local side only."""
    bpy.ops.wm.read_homefile(use_empty=True)
    rock = h.mesh_object("LibRock")
    with bpy.context.temp_override(object=rock, active_object=rock, selected_objects=[rock]):
        bpy.ops.rigidbody.object_add()
    linked = h.from_library(rock, tmp_path / "rigid.blend")
    local = h.mesh_object("Cart", location=(3, 0, 0))
    select(local)
    bpy.ops.rigidbody.object_add()
    tie = h.empty_object("Tie", location=(1.5, 0, 0))
    select(tie)
    bpy.ops.rigidbody.constraint_add()
    tie.rigid_body_constraint.object1, tie.rigid_body_constraint.object2 = local, linked
    select(tie)
    assert bpy.ops.gltf_physics.from_native() == {"FINISHED"}
    assert local.gltf_physics.motion_type == "DYNAMIC"
    assert linked.gltf_physics.motion_type == "NONE" and linked.gltf_physics.shape_type == "NONE"
    assert tie.gltf_physics.joint_connected_body == linked  # the joint still names it


def test_removing_the_preview_leaves_what_a_library_saved_with_its_preview(clean_scene,
                                                                           tmp_path):
    """A library saved while its preview was on: its linked bodies carry the preview's tags
    and rigid bodies. Removing the preview here changes none of them (it raised before) and
    says which it left."""
    crate = h.set_physics(h.mesh_object("LibCrate", location=(0, 0, 2)),
                          motion_type="DYNAMIC", shape_type="BOX")
    ground = h.set_physics(h.mesh_object("LibGround", location=(0, 0, -1)),
                           motion_type="STATIC", shape_type="BOX")
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert crate.rigid_body is not None
    library = tmp_path / "previewed.blend"
    bpy.data.libraries.write(str(library), {crate, ground}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_src, dst):
        dst.objects = ["LibCrate", "LibGround"]
    for obj in dst.objects:
        bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.update()
    linked_before = {k: v for k, v in state()["objects"].items() if k[1] is not None}
    assert bpy.ops.gltf_physics.preview_remove() == {"FINISHED"}
    assert {k: v for k, v in state()["objects"].items() if k[1] is not None} == linked_before
    kept = importlib.import_module(f"{MODULE}.io.blender.preview.native_rigid_body")
    assert [o.name for o in kept.kept_by_library(bpy.context.scene)] == ["LibCrate",
                                                                          "LibGround"]


def test_copying_onto_an_override_whose_library_filled_a_list_refuses(clean_scene, tmp_path):
    """A library override cannot remove the joint limits its library gave: copying another
    object's physics onto it would merge the lists, so it refuses and changes nothing. An
    override whose library left the lists empty takes the copy."""
    joint = h.set_physics(h.empty_object("J"), joint_type="CUSTOM")
    joint.gltf_physics.joint_limits.add()
    joint = h.overridden_from_library(joint, tmp_path / "joint.blend")
    source = h.set_physics(h.empty_object("Source"), joint_type="CUSTOM")
    for _ in range(3):
        source.gltf_physics.joint_limits.add()
    select(joint, source, active=source)
    before = state()
    message = refused(bpy.ops.gltf_physics.copy_settings)
    assert "J's Limits come from the library" in message, message
    assert message.strip().endswith("nothing was changed") and state() == before
    plain = h.overridden_from_library(h.set_physics(h.empty_object("K"), joint_type="CUSTOM"),
                                      tmp_path / "plain.blend")  # (a new, emptied file)
    source = h.set_physics(h.empty_object("Source"), joint_type="CUSTOM")
    for _ in range(3):
        source.gltf_physics.joint_limits.add()
    select(plain, source, active=source)
    assert bpy.ops.gltf_physics.copy_settings() == {"FINISHED"}
    assert len(plain.gltf_physics.joint_limits) == 3


def _overridden_kit_with_tool_helpers(folder):
    """A library whose Owner was decomposed (its parts) and whose Owner2 got a hull proxy,
    overridden as a hierarchy: the owners made editable, the helpers left as Blender made
    them (system overrides, which cannot be changed)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    kit = bpy.data.collections.new("Kit")
    bpy.context.scene.collection.children.link(kit)
    layer = bpy.context.view_layer.layer_collection.children["Kit"]
    bpy.context.view_layer.active_layer_collection = layer
    owner = torus("Owner", motion_type="DYNAMIC")
    owner2 = torus("Owner2", motion_type="DYNAMIC")
    for obj in (owner, owner2):
        bpy.context.scene.collection.objects.unlink(obj)
        kit.objects.link(obj)
    select(owner2)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    select(owner)
    assert bpy.ops.gltf_physics.convex_decompose(max_parts=2, resolution=500,
                                                 preprocess="OFF") == {"FINISHED"}
    path = folder / "kit.blend"
    bpy.data.libraries.write(str(path), {kit}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(path), link=True) as (_src, dst):
        dst.collections = ["Kit"]
    dst.collections[0].override_hierarchy_create(bpy.context.scene, bpy.context.view_layer)
    owners = [bpy.data.objects[name, None] for name in ("Owner", "Owner2")]
    for obj in owners:
        obj.override_library.is_system_override = False
    return owners


def test_tools_never_delete_or_rewrite_helpers_an_override_cannot_change(clean_scene, tmp_path,
                                                                         ownership):
    """The tools made these helpers, but in the library: here they are overrides. Decomposing
    again refuses, locked or editable (deleting them would not last: they come back when the
    file is opened); a new hull goes to a new proxy of this file's own."""
    pytest.importorskip("coacd", reason="coacd is not installed: make setup")
    owner, owner2 = _overridden_kit_with_tool_helpers(tmp_path)
    parts = [c for c in owner.children if ownership.made_by(c, ownership.CONVEX_PART, owner)]
    assert parts and all(p.override_library is not None for p in parts)
    select(owner)
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.convex_decompose(
        max_parts=2, resolution=500, preprocess="OFF"))
    assert "is a library override that is not editable" in message and state() == before
    # made editable, a part is still the library's: deleted, it would come back on opening
    for part in parts:
        part.override_library.is_system_override = False
    before = state()
    message = refused(lambda: bpy.ops.gltf_physics.convex_decompose(
        max_parts=2, resolution=500, preprocess="OFF"))
    assert "brings it back from its library" in message and state() == before
    # the path the Check Physics Fix and scripts take refuses too, naming the object
    bridge = importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")
    core = importlib.import_module(f"{MODULE}.io.decomposition")
    run = bridge.decompose_now([owner], core.Settings(max_parts=2))
    assert run.errors and run.errors[0].startswith("Owner was left as it was")
    assert state() == before
    old_proxy = owner2.gltf_physics.mesh_object
    old_mesh = old_proxy.data
    select(owner2)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    new_proxy = owner2.gltf_physics.mesh_object
    assert new_proxy != old_proxy and new_proxy.override_library is None
    assert ownership.made_by(new_proxy, ownership.HULL_PROXY, owner2)
    assert old_proxy.data == old_mesh  # the locked proxy keeps its library's mesh


def test_edit_as_custom_refuses_an_override_whose_library_filled_the_limits(clean_scene,
                                                                           tmp_path):
    """A hinge read from a file carries its limits as a list; on an override that list is
    the library's and cannot be written afresh (the limits were doubled into a weld)."""
    joint = h.set_physics(h.empty_object("J"), joint_type="HINGE", joint_axis="Z")
    joint.gltf_physics.joint_limits.add()
    joint = h.overridden_from_library(joint, tmp_path / "hinge.blend")
    joint.gltf_physics.joint_axis = "X"
    select(joint)
    before = state()
    message = refused(bpy.ops.gltf_physics.joint_to_custom)
    assert "Limit 1 of J comes from the library" in message, message
    assert state() == before and joint.gltf_physics.joint_type == "HINGE"


def test_removing_a_layer_moves_the_ticks_of_objects_only_in_an_instanced_collection(
        clean_scene):
    """An object only in a collection an Empty instances is written with this scene's
    layers: its ticks move with the others (they did not); instanced in another scene as
    well, the removal refuses."""
    scene = bpy.context.scene
    for name in ("A", "B", "C"):
        scene.gltf_physics.layers.add().name = name
    kit = bpy.data.collections.new("Kit")
    crate = h.set_physics(bpy.data.objects.new("Crate", None), motion_type="STATIC",
                          shape_type="BOX", use_filter=True)
    kit.objects.link(crate)
    crate.gltf_physics.filter_layers[1] = True  # B
    instance = h.empty_object("KitInstance")
    instance.instance_type, instance.instance_collection = "COLLECTION", kit
    other = bpy.data.scenes.new("Other")
    other_instance = bpy.data.objects.new("KitThere", None)
    other_instance.instance_type, other_instance.instance_collection = "COLLECTION", kit
    other.collection.objects.link(other_instance)
    scene.gltf_physics.active_layer = 0
    message = refused(bpy.ops.gltf_physics.layer_remove)
    assert "Crate is also in scene Other" in message
    bpy.data.objects.remove(other_instance)
    assert bpy.ops.gltf_physics.layer_remove() == {"FINISHED"}
    assert [layer.name for layer in scene.gltf_physics.layers] == ["B", "C"]
    assert tuple(crate.gltf_physics.filter_layers[:2]) == (True, False)  # still B


def test_a_kit_objects_child_outside_the_kit_moves_its_ticks_with_the_layers(clean_scene,
                                                                             capfd):
    """A child of a kit's object that is in no collection the scene sees is written with
    each instance: removing a layer moves its ticks too (they stayed, and its filter lost
    its layer), and a new layer in its ticked slot names it (it was not said)."""
    scene = bpy.context.scene
    for name in ("A", "B", "C"):
        scene.gltf_physics.layers.add().name = name
    kit, elsewhere = bpy.data.collections.new("Kit"), bpy.data.collections.new("Elsewhere")
    door = h.set_physics(bpy.data.objects.new("Door", None), motion_type="DYNAMIC")
    handle = h.set_physics(bpy.data.objects.new("Handle", None), shape_type="BOX",
                           use_filter=True)
    kit.objects.link(door)
    elsewhere.objects.link(handle)
    handle.parent = door
    handle.gltf_physics.filter_layers[2] = True  # C
    instance = h.empty_object("KitInstance")
    instance.instance_type, instance.instance_collection = "COLLECTION", kit
    scene.gltf_physics.active_layer = 1
    assert bpy.ops.gltf_physics.layer_remove() == {"FINISHED"}  # B
    assert [layer.name for layer in scene.gltf_physics.layers] == ["A", "C"]
    assert tuple(handle.gltf_physics.filter_layers[:3]) == (False, True, False)  # still C
    handle.gltf_physics.filter_layers[2] = True  # (a slot no layer of this scene has)
    capfd.readouterr()
    assert bpy.ops.gltf_physics.layer_add() == {"FINISHED"}
    assert "Handle already ticks the slot of the new layer" in capfd.readouterr().out
