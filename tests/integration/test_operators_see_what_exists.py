# SPDX-License-Identifier: GPL-3.0-or-later
"""Operators and what is already there: Add Collision Layer names the objects that already
tick the new layer's slot (another scene's layer, the file they came from) and keeps the
ticks; Edit as Custom on a library override keeps its library's drives (only its limits are
written afresh); Add Wheels never doubles wheels it did not make; Fit Now's tooltip says it
fits the active object too."""

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.test_operator_polish import refused, reported


def select(*objs, active=None) -> None:
    bpy.context.view_layer.update()
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in objs)
    bpy.context.view_layer.objects.active = active or (objs[0] if objs else None)


def filtered(name, parent_collection, **physics) -> bpy.types.Object:
    """A static box with a collision filter, in `parent_collection` only."""
    obj = h.set_physics(bpy.data.objects.new(name, None), motion_type="STATIC",
                        shape_type="BOX", use_filter=True, **physics)
    parent_collection.objects.link(obj)
    return obj


# -- Add Collision Layer: ticks beyond the scene's layers -------------------------------------


def _two_scenes():
    """Scene A (layers Player, Enemy, Debris) and scene B (layer Water, current) sharing the
    collection Props; B also instances the collection Kit. Crate (in Props) is in A's Debris,
    KitPost (in Kit) collides only with slot 3, Barrel (B's own) ticks slot 2, and Lone (A's
    own) slot 3."""
    a = bpy.context.scene
    a.name = "A"
    for name in ("Player", "Enemy", "Debris"):
        a.gltf_physics.layers.add().name = name
    b = bpy.data.scenes.new("B")
    b.gltf_physics.layers.add().name = "Water"
    props, kit = bpy.data.collections.new("Props"), bpy.data.collections.new("Kit")
    a.collection.children.link(props)
    b.collection.children.link(props)
    crate = filtered("Crate", props)
    crate.gltf_physics.filter_layers[2] = True
    post = filtered("KitPost", kit, filter_mode="ONLY")
    post.gltf_physics.filter_targets[2] = True
    barrel = filtered("Barrel", b.collection)
    barrel.gltf_physics.filter_layers[1] = True
    filtered("Lone", a.collection).gltf_physics.filter_layers[2] = True
    instance = bpy.data.objects.new("KitInstance", None)
    instance.instance_type, instance.instance_collection = "COLLECTION", kit
    b.collection.objects.link(instance)
    bpy.context.window.scene = b
    return b, crate, post, barrel


def test_add_layer_names_this_scenes_objects_already_ticking_its_slot(clean_scene, capfd):
    """Crate (shared with A, where slot 3 is Debris) and KitPost (instanced) silently joined
    B's new third layer; Lone is not B's and is not named. The ticks stay."""
    scene, crate, post, barrel = _two_scenes()
    result, lines = reported(capfd, bpy.ops.gltf_physics.layer_add)
    assert result == {"FINISHED"}
    assert lines == ["Warning: Barrel already ticks the slot of the new layer 'Layer 1' (the "
                     "2nd in the list), set in another scene or in the file it came from: its "
                     "collision filter now names it; untick it there if not"]
    result, lines = reported(capfd, bpy.ops.gltf_physics.layer_add)
    assert result == {"FINISHED"}
    assert lines == ["Warning: Crate, KitPost already tick the slot of the new layer 'Layer 2' "
                     "(the 3rd in the list), set in another scene or in the file they came "
                     "from: their collision filters now name it; untick it there if not"]
    assert [layer.name for layer in scene.gltf_physics.layers] == ["Water", "Layer 1",
                                                                   "Layer 2"]
    assert crate.gltf_physics.filter_layers[2] and post.gltf_physics.filter_targets[2]
    assert barrel.gltf_physics.filter_layers[1]
    result, lines = reported(capfd, bpy.ops.gltf_physics.layer_add)
    assert result == {"FINISHED"} and lines == []  # slot 4: nobody ticks it


def test_add_layer_names_an_appended_object_ticking_its_file_layer(clean_scene, capfd,
                                                                   tmp_path):
    crate = filtered("Crate", clean_scene.collection)
    crate.gltf_physics.filter_layers[2] = True
    crate = h.from_library(crate, tmp_path / "props.blend", link=False)  # appended
    for _ in range(2):
        assert reported(capfd, bpy.ops.gltf_physics.layer_add) == ({"FINISHED"}, [])
    result, lines = reported(capfd, bpy.ops.gltf_physics.layer_add)
    assert result == {"FINISHED"}
    assert lines == ["Warning: Crate already ticks the slot of the new layer 'Layer 3' (the "
                     "3rd in the list), set in another scene or in the file it came from: its "
                     "collision filter now names it; untick it there if not"]
    assert list(crate.gltf_physics.filter_layers[:4]) == [False, False, True, False]


def test_add_layer_names_only_filters_that_name_its_slot(clean_scene, capfd):
    """A tick under a filter that is off, or a Collides tick under With All (which names no
    layer), means nothing: not named (as the import says it)."""
    clean_scene.gltf_physics.layers.add().name = "Player"
    off = filtered("Off", clean_scene.collection)
    off.gltf_physics.filter_layers[1], off.gltf_physics.use_filter = True, False
    everyone = filtered("Everyone", clean_scene.collection, filter_mode="ALL")
    everyone.gltf_physics.filter_targets[1] = True
    shy = filtered("Shy", clean_scene.collection, filter_mode="EXCEPT")
    shy.gltf_physics.filter_targets[1] = True
    result, lines = reported(capfd, bpy.ops.gltf_physics.layer_add)
    assert result == {"FINISHED"}
    assert lines == ["Warning: Shy already ticks the slot of the new layer 'Layer 1' (the 2nd "
                     "in the list), set in another scene or in the file it came from: its "
                     "collision filter now names it; untick it there if not"]


# -- Edit as Custom: a library override's drives ------------------------------------------------


def test_edit_as_custom_on_an_override_keeps_the_librarys_drives(clean_scene, tmp_path):
    """Only the limits are written afresh: a drive from the library refused it."""
    motor = h.set_physics(h.empty_object("Motor"), joint_type="HINGE", joint_axis="Z")
    motor.gltf_physics.joint_drives.add().stiffness = 7.0
    motor = h.overridden_from_library(motor, tmp_path / "motor.blend")
    select(motor)
    assert bpy.ops.gltf_physics.joint_to_custom() == {"FINISHED"}
    limits = len(motor.gltf_physics.joint_limits)
    assert motor.gltf_physics.joint_type == "CUSTOM" and limits > 0
    blend = tmp_path / "main.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))
    bpy.ops.wm.open_mainfile(filepath=str(blend))
    motor = next(o for o in bpy.data.objects if o.name == "Motor" and o.override_library)
    props = motor.gltf_physics
    assert props.joint_type == "CUSTOM" and len(props.joint_limits) == limits
    assert [d.stiffness for d in props.joint_drives] == [pytest.approx(7.0)]


# -- Add Wheels: wheels it did not make ----------------------------------------------------------


def _car(**physics) -> bpy.types.Object:
    return h.set_physics(h.mesh_object("Car", size=2), motion_type="DYNAMIC",
                         shape_type="BOX", mass=800.0, **physics)


def test_add_wheels_refuses_a_vehicle_with_wheels_it_did_not_make(clean_scene):
    """Four hand-made or imported wheels (one under an axle): Add Wheels names them and adds
    none (it used to add four more)."""
    car = _car()
    axle = h.empty_object("Axle", (0, 1, -0.5), parent=car)
    for i, (x, y) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
        h.set_physics(h.empty_object(f"Tyre{i}", (x, y, -0.5), parent=axle if y > 0 else car),
                      vehicle_part="WHEEL", wheel_radius=0.5)
    before = set(bpy.data.objects)
    select(car)
    message = refused(bpy.ops.gltf_physics.wheels_add)
    assert message == "Error: Car already has 4 wheel(s) (Tyre0, Tyre1, Tyre2, Tyre3), kept " \
        "as they are (they may be tuned): delete them to add new ones; nothing was changed"
    assert set(bpy.data.objects) == before and not car.gltf_physics.is_vehicle


def test_add_wheels_leaves_a_nested_vehicles_wheels_to_it(clean_scene):
    car = _car()
    trailer = h.set_physics(h.empty_object("Trailer", (0, 3, 0), parent=car),
                            motion_type="DYNAMIC", is_vehicle=True)
    h.set_physics(h.empty_object("TrailerTyre", (0, 3, -0.5), parent=trailer),
                  vehicle_part="WHEEL")
    select(car)
    assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    assert sum(c.gltf_physics.vehicle_part == "WHEEL" for c in car.children) == 4


# -- Fit Now's tooltip ----------------------------------------------------------------------------


def test_fit_now_says_it_fits_the_active_object_too(clean_scene):
    crate = h.set_physics(h.mesh_object("Crate", size=2), shape_type="BOX")
    select(active=crate)  # active, not selected: fitted all the same
    assert bpy.ops.gltf_physics.fit_shape() == {"FINISHED"}
    assert crate.gltf_physics.size_mode == "CUSTOM"
    tooltip = bpy.ops.gltf_physics.fit_shape.get_rna_type().description
    assert "selected objects and the active one" in tooltip
