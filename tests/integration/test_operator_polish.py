# SPDX-License-Identifier: GPL-3.0-or-later
"""Operator polish: Add Wheels and Add Joint refuse bodies outside the view layer, wheels are
never added twice, a drive is sized for a real mass, empty sources and lists are refused with
one message and nothing changed, polls survive a missing scene and say why they grey out, and
tooltips and redo panels show only what means something."""

import importlib
import types

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

OPERATOR_MODULES = ("vehicles", "joints", "gravity", "layers", "validation", "shapes", "hull",
                    "tools", "native")


def refused(call) -> str:
    """Run an operator call that must refuse: its one message (poll's or the report's)."""
    with pytest.raises(RuntimeError) as caught:
        call()
    return str(caught.value).strip()


def reported(capfd, call) -> tuple[set[str], list[str]]:
    """Run an operator call: its result and the lines it reported."""
    capfd.readouterr()
    result = call()
    out = capfd.readouterr()
    lines = [line for line in (out.out + out.err).splitlines()
             if line.startswith(("Info:", "Warning:", "Error:"))]
    return result, lines


def select(*objs, active=None) -> None:
    bpy.context.view_layer.update()
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in objs)
    bpy.context.view_layer.objects.active = active or (objs[0] if objs else None)


def body(name, location=(0, 0, 0), motion="DYNAMIC", **physics):
    return h.set_physics(h.mesh_object(name, location=location), motion_type=motion,
                         shape_type="BOX", **physics)


def wheels_of(car) -> list[bpy.types.Object]:
    return [c for c in car.children if c.gltf_physics.vehicle_part == "WHEEL"]


# -- 1: bodies the view layer does not hold ---------------------------------------------------


def _excluded(scene, objs) -> None:
    """Move `objs` into a collection the view layer excludes."""
    hidden = bpy.data.collections.new("Excluded")
    scene.collection.children.link(hidden)
    for obj in objs:
        scene.collection.objects.unlink(obj)
        hidden.objects.link(obj)
    bpy.context.view_layer.layer_collection.children["Excluded"].exclude = True


def _other_scene(scene, objs) -> None:
    """Move `objs` into another scene."""
    other = bpy.data.scenes.new("Other")
    for obj in objs:
        scene.collection.objects.unlink(obj)
        other.collection.objects.link(obj)


@pytest.mark.parametrize("place", [_excluded, _other_scene], ids=["excluded", "other-scene"])
@pytest.mark.parametrize("tool", ["wheels_add", "joint_add"])
def test_tools_refuse_bodies_outside_the_view_layer_and_change_nothing(clean_scene, place,
                                                                       tool):
    car, post = body("Car"), body("Post", (3, 0, 0), motion="STATIC")
    place(clean_scene, [car, post])
    bpy.context.view_layer.update()
    before = set(bpy.data.objects)
    active = car if tool == "wheels_add" else post
    with bpy.context.temp_override(selected_objects=[car, post], active_object=active,
                                   object=active):
        message = refused(getattr(bpy.ops.gltf_physics, tool))
    assert "not in this view layer" in message.lower()
    assert message.endswith("nothing was changed")
    assert set(bpy.data.objects) == before
    assert not car.gltf_physics.is_vehicle


# -- 2-4: Add Wheels ----------------------------------------------------------------------------


def test_add_wheels_twice_keeps_the_wheels_it_made(clean_scene):
    car = body("Car", mass=800.0)
    select(car)
    assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    wheels = wheels_of(car)
    wheels[0].gltf_physics.wheel_radius = 0.4  # tuned by the user
    select(car)
    message = refused(bpy.ops.gltf_physics.wheels_add)
    assert "already has 4 wheel(s)" in message and message.endswith("nothing was changed")
    select(car, *wheels, active=car)  # a box select over the car and its wheels
    assert "already has 4 wheel(s)" in refused(bpy.ops.gltf_physics.wheels_add)
    assert set(car.children) == set(wheels)
    assert wheels[0].gltf_physics.wheel_radius == pytest.approx(0.4)


def test_add_wheels_skips_instancers_and_physics_empties_as_spots(clean_scene, capfd):
    car = body("Car")
    spot = h.empty_object("Spot", (0, 1, 0))
    kit = h.empty_object("KitInstance", (5, 5, 0))
    kit.instance_type, kit.instance_collection = "COLLECTION", bpy.data.collections.new("Kit")
    hinge = h.set_physics(h.empty_object("Hinge", (2, 0, 0)), joint_type="HINGE")
    seat = h.set_physics(h.empty_object("Seat", (0, 0, 1)), is_seat=True)
    select(car, spot, kit, hinge, seat, active=car)
    result, lines = reported(capfd, bpy.ops.gltf_physics.wheels_add)
    assert result == {"FINISHED"}
    assert [tuple(w.location) for w in wheels_of(car)] == [pytest.approx((0, 1, 0))]
    assert len(lines) == 1 and "skipped 3 selected Empty(s)" in lines[0], lines


@pytest.mark.parametrize("mode", ["AUTO", "INFINITE"])
def test_add_wheels_sizes_the_drive_for_an_assumed_mass(clean_scene, capfd, mode):
    car = body("Car", mass_mode=mode)  # the unused mass stays at 1 kg
    car.scale = (2, 4, 1)  # a 1 m cube so scaled: 8 m³, 8000 kg at water's density
    select(car)
    result, lines = reported(capfd, bpy.ops.gltf_physics.wheels_add)
    assert result == {"FINISHED"}
    rear = [w for w in wheels_of(car) if w.gltf_physics.wheel_max_propulsion_force > 0]
    assert len(rear) == 2  # 8000 kg × 5 N/kg shared by two
    assert [w.gltf_physics.wheel_max_propulsion_force for w in rear] == pytest.approx([20000] * 2)
    assert len(lines) == 1 and "assumed 8000 kg" in lines[0] and mode.title() in lines[0]


@pytest.mark.parametrize("vertices", [[], [(0.5, 0.5, 0.5)]], ids=["no-vertex", "one-vertex"])
def test_add_wheels_refuses_a_mesh_without_geometry(clean_scene, vertices):
    mesh = bpy.data.meshes.new("Car")
    mesh.from_pydata(vertices, [], [])
    car = h.set_physics(bpy.data.objects.new("Car", mesh), motion_type="DYNAMIC")
    clean_scene.collection.objects.link(car)
    select(car)
    message = refused(bpy.ops.gltf_physics.wheels_add)
    assert "Car has no geometry to place wheels on" in message
    assert message.endswith("nothing was changed")
    assert not car.children and not car.gltf_physics.is_vehicle


# -- 5: Copy Points -----------------------------------------------------------------------------


def _line_source(kind: str) -> bpy.types.Object:
    if kind == "curve":
        data = bpy.data.curves.new("Line", "CURVE")
    else:
        data = bpy.data.meshes.new("Line")
        data.from_pydata([(0, 0, 1)] if kind == "one-vertex" else [], [], [])
    line = bpy.data.objects.new("Line", data)
    bpy.context.scene.collection.objects.link(line)
    return line


@pytest.mark.parametrize("kind", ["empty-mesh", "curve", "one-vertex"])
def test_copy_points_from_an_empty_object_keeps_the_point_list(clean_scene, kind):
    well = h.set_physics(h.empty_object("Well"), gravity_type="LINE")
    for z in range(3):
        well.gltf_physics.gravity_line_points.add().co = (0, 0, z)
    well.gltf_physics.gravity_line_object = _line_source(kind)
    select(well)
    message = refused(bpy.ops.gltf_physics.gravity_points_from_object)
    assert "Line has" in message and message.endswith("nothing was changed")
    props = well.gltf_physics
    assert [p.co.z for p in props.gravity_line_points] == [0, 1, 2]
    assert props.gravity_line_source == "POINTS"


# -- 6: Preview ---------------------------------------------------------------------------------


def test_preview_without_bodies_builds_nothing(clean_scene, capfd):
    h.mesh_object("Plain")
    result, lines = reported(capfd, bpy.ops.gltf_physics.preview)
    assert result == {"CANCELLED"} and clean_scene.rigidbody_world is None
    assert lines == ["Warning: No glTF physics bodies or joints to preview; nothing was "
                     "changed"]


# -- 7: polls -----------------------------------------------------------------------------------


def _operator_classes() -> list[type]:
    return [cls for name in OPERATOR_MODULES
            for cls in importlib.import_module(f"{MODULE}.operators.{name}").CLASSES]


#: Operators whose work needs the context's scene (or its view layer or depsgraph).
NEED_A_SCENE = {"layer_add", "layer_remove", "validate", "problem_select", "problem_fix",
                "preview", "preview_remove", "wheels_add", "joint_add", "fit_shape",
                "simplify_hull", "to_native", "from_native"}


def test_polls_survive_a_context_without_a_scene(clean_scene):
    car, post = body("Car"), body("Post", (3, 0, 0), motion="STATIC")
    clean_scene.gltf_physics.layers.add()
    select(car, post, active=car)
    polled = {}
    with bpy.context.temp_override(scene=None):
        for cls in _operator_classes():
            if hasattr(cls, "poll"):
                polled[cls.bl_idname.split(".")[1]] = cls.poll(bpy.context)
    assert set(polled) >= NEED_A_SCENE
    assert not any(polled[name] for name in NEED_A_SCENE), polled


@pytest.mark.parametrize("idname", [
    "fit_shape", "simplify_hull", "joint_to_custom", "joint_item_add", "joint_item_remove",
    "gravity_point_add", "gravity_point_remove", "gravity_points_from_object", "layer_remove",
])
def test_polls_say_why_an_operator_is_greyed_out(clean_scene, idname):
    select()
    message = refused(getattr(bpy.ops.gltf_physics, idname))
    assert "context is incorrect" not in message, message


# -- 8: silent cancels --------------------------------------------------------------------------


def test_removing_from_an_empty_joint_list_says_so(clean_scene):
    hinge = h.set_physics(h.empty_object("Hinge"), joint_type="CUSTOM")
    select(hinge)
    message = refused(lambda: bpy.ops.gltf_physics.joint_item_remove(items="LIMITS"))
    assert message.endswith("No limit is selected; nothing was changed")


@pytest.mark.parametrize("idname", ["problem_fix", "problem_select"])
def test_problem_operators_on_an_empty_list_say_to_check(clean_scene, idname):
    message = refused(lambda: getattr(bpy.ops.gltf_physics, idname)(index=0))
    assert "list is empty" in message and "Check Physics" in message
    assert "gone" not in message


def test_problem_fix_beyond_the_list_or_without_a_fix_says_so(clean_scene, capfd):
    item = clean_scene.gltf_physics.problems.add()
    item.obj, item.message, item.fix = "Crate", "Something odd", ""
    message = refused(lambda: bpy.ops.gltf_physics.problem_fix(index=3))
    assert "holds 1 problem(s), not 4" in message
    result, lines = reported(capfd, lambda: bpy.ops.gltf_physics.problem_fix(index=0))
    assert result == {"CANCELLED"}
    assert lines == ["Warning: This problem has no suggested fix; nothing was changed"]


# -- 9: tooltips and redo panels ----------------------------------------------------------------


def test_tooltips_are_one_line_and_indices_stay_out_of_the_redo_panel(clean_scene):
    for idname in ("joint_item_add", "joint_item_remove"):
        rna = getattr(bpy.ops.gltf_physics, idname).get_rna_type()
        assert rna.properties["items"].description
    copy = bpy.ops.gltf_physics.gravity_points_from_object.get_rna_type()
    assert "\n" not in copy.description
    for idname in ("problem_fix", "problem_select"):
        index = getattr(bpy.ops.gltf_physics, idname).get_rna_type().properties["index"]
        assert index.is_hidden and index.is_skip_save


def test_the_object_menu_offers_add_joint_and_decomposition(clean_scene):
    """The README sends artists to Object → Add Joint Between Selected Bodies."""
    menu = importlib.import_module(f"{MODULE}.panels.object_menu")

    class Layout:
        def __init__(self) -> None:
            self.entries: list[str] = []

        def separator(self) -> None:
            pass

        def operator(self, idname: str, **_options) -> None:
            self.entries.append(idname)

    drawn = types.SimpleNamespace(layout=Layout())
    menu._draw(drawn, bpy.context)
    assert drawn.layout.entries == ["gltf_physics.joint_add", "gltf_physics.convex_decompose"]
    assert bpy.ops.gltf_physics.joint_add.get_rna_type().name \
        == "Add Joint Between Selected Bodies"


@pytest.mark.parametrize("tool", ["simplify_hull", "convex_decompose"])
def test_a_hidden_active_object_beside_a_selection_is_left_alone(clean_scene, tool):
    """H hides the active object and deselects it, A selects the rest: the tools changed the
    hidden object too (its Box replaced by a hull or parts the artist could not see)."""
    hidden = h.set_physics(h.mesh_object("HiddenCrate"), motion_type="DYNAMIC",
                           shape_type="BOX")
    h.set_physics(h.mesh_object("Rock", "sphere", location=(3, 0, 0)), motion_type="STATIC")
    bpy.context.view_layer.objects.active = hidden
    hidden.hide_set(True)
    hidden.select_set(False)
    bpy.ops.object.select_all(action="SELECT")
    options = {"resolution": 300, "max_parts": 2} if tool == "convex_decompose" else {}
    assert getattr(bpy.ops.gltf_physics, tool)(**options) == {"FINISHED"}
    assert (hidden.gltf_physics.shape_type, list(hidden.children)) == ("BOX", [])
    assert bpy.data.objects["Rock"].children


@pytest.mark.parametrize(("kind", "editable"), [("EMPTY", True), ("MESH", False)])
def test_an_empty_fit_to_mesh_shows_the_sizes_it_writes_editable(clean_scene, kind, editable):
    """On an Empty (an instancer given a box by Copy Physics), Fit to Mesh has nothing to fit
    and the greyed-out 1 m sizes were written, unsaid."""
    panels = importlib.import_module(f"{MODULE}.panels.object_panels")
    obj = h.mesh_object("Thing") if kind == "MESH" else h.empty_object("Thing")
    h.set_physics(obj, shape_type="BOX", size_mode="FIT")

    class Layout:
        def __init__(self) -> None:
            self.labels: list[str] = []
            self.enabled = True

        def label(self, text: str = "", **_options) -> None:
            self.labels.append(text)

        def __getattr__(self, _name: str):
            return lambda *args, **kw: self

    layout = Layout()
    panels.GLTF_PHYSICS_PT_shape.draw(types.SimpleNamespace(layout=layout),
                                      types.SimpleNamespace(object=obj))
    assert layout.enabled is editable
    assert bool(layout.labels) is editable
