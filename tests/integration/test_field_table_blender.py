# SPDX-License-Identifier: GPL-3.0-or-later
"""The field table on the Blender side: every row is a stored property with the row's label,
tooltip, default and range, is drawn by its panel, reaches the model and back, and is part of
the export sharing key."""

import importlib
from types import SimpleNamespace
from typing import Any

import bpy
import pytest

from tests.integration.conftest import MODULE

table = importlib.import_module(f"{MODULE}.io.field_table")
field_props = importlib.import_module(f"{MODULE}.io.blender.settings.field_props")
to_model = importlib.import_module(f"{MODULE}.io.blender.bridge.to_model")
panels = importlib.import_module(f"{MODULE}.panels.object_panels")
vehicle_bridge = importlib.import_module(f"{MODULE}.io.blender.bridge.vehicle_bridge")
snapshot = importlib.import_module(f"{MODULE}.io.blender.settings.stored_settings").snapshot



def _rna() -> Any:
    """The object group's RNA properties, looked up now (re-registering the add-on, as the
    build test does, frees the old ones)."""
    return bpy.types.Object.bl_rna.properties["gltf_physics"].fixed_type.properties

GROUP_STATE = {
    "motion": {"motion_type": "DYNAMIC"},
    "material": {"shape_type": "BOX", "use_material": True},
    "vehicle_body": {"motion_type": "DYNAMIC", "is_vehicle": True},
    "wheel": {"vehicle_part": "WHEEL"},
    "thruster": {"vehicle_part": "THRUSTER"},
    "hover_thruster": {"vehicle_part": "HOVER_THRUSTER"},
    "seat": {"is_seat": True},
}
PANEL_OF = {"motion": "GLTF_PHYSICS_PT_body", "material": "GLTF_PHYSICS_PT_material",
            "vehicle_body": "GLTF_PHYSICS_PT_vehicle", "wheel": "GLTF_PHYSICS_PT_vehicle_part",
            "thruster": "GLTF_PHYSICS_PT_vehicle_part",
            "hover_thruster": "GLTF_PHYSICS_PT_vehicle_part",
            "seat": "GLTF_PHYSICS_PT_vehicle_part"}


def ids(row: Any) -> str:
    return f"{row.group}.{row.attr}"


@pytest.mark.parametrize("row", table.FIELDS, ids=ids)
def test_row_is_a_stored_property(row: Any) -> None:
    prop = _rna()[row.prop]
    assert (prop.name, prop.description) == (row.label, row.tooltip)
    default = field_props.to_blender(row, row.default)
    if row.kind == "enum":
        assert prop.default == default
        assert [item.identifier for item in prop.enum_items] == [
            *(item[0] for item in row.items), *([row.none_item[0]] if row.none_item else [])]
    elif row.size:
        assert tuple(prop.default_array) == pytest.approx(default)
    else:
        assert prop.default == pytest.approx(default)
    if row.kind == "float":
        low = row.stored_min  # the schema's bound is the hard one; the slider's is soft
        assert prop.hard_min == pytest.approx(low if low is not None else prop.hard_min)
        if row.maximum is not None:
            assert prop.hard_max == pytest.approx(row.maximum)
        for soft, value in (("soft_min", row.soft_min), ("soft_max", row.soft_max)):
            if value is not None:
                assert getattr(prop, soft) == pytest.approx(value), soft


class _Layout:
    """Records the properties a panel draws."""

    def __init__(self) -> None:
        self.drawn: list[str] = []

    def prop(self, _data: Any, name: str, **_kw: Any) -> None:
        self.drawn.append(name)

    def operator(self, *_args: Any, **_kw: Any) -> SimpleNamespace:
        return SimpleNamespace()

    def __getattr__(self, _name: str) -> Any:
        return lambda *args, **kw: self

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)


@pytest.mark.parametrize("group", table.GROUPS)
def test_panel_draws_every_row(clean_scene, helpers, group: str) -> None:
    obj = helpers.mesh_object("Thing")
    helpers.set_physics(obj, **GROUP_STATE[group])
    panel = getattr(panels, PANEL_OF[group])
    context = SimpleNamespace(object=obj, scene=clean_scene)
    assert panel.poll(context)
    layout = _Layout()
    panel.draw(SimpleNamespace(layout=layout), context)
    assert set(table.props_of(group)) <= set(layout.drawn)
    drawn = [name for name in layout.drawn if name in table.props_of(group)]
    assert drawn == list(table.props_of(group))  # in table order


def _changed(prop: Any, value: Any) -> Any:
    """Another valid value of an RNA property."""
    if prop.type == "ENUM":
        return next(i.identifier for i in prop.enum_items if i.identifier != value)
    if prop.type == "BOOLEAN":
        return [not v for v in value] if prop.array_length else not value

    step = 1 if prop.type == "INT" else 0.5

    def bump(v: float) -> float:
        target = v + step if v + step <= prop.hard_max else v - step
        return min(max(target, prop.hard_min), prop.hard_max)
    return [bump(v) for v in value] if prop.array_length else bump(value)


@pytest.mark.parametrize(("read", "key"), [
    ("motion", to_model.MOTION_KEY), ("material", to_model.SHAPE_PART_KEY),
])
def test_sharing_key_misses_nothing_the_model_reads(clean_scene, helpers, read, key) -> None:
    """Change every stored property in turn: whatever changes the model changes the key."""
    obj = helpers.mesh_object("Thing")
    helpers.set_physics(obj, motion_type="DYNAMIC", shape_type="BOX", use_material=True,
                        mass_mode="VALUE", center_of_mass_mode="CUSTOM",
                        inertia_mode="CUSTOM")
    props = obj.gltf_physics
    model = {"motion": lambda: to_model.motion_of(props, True),
             "material": lambda: to_model.material_of(props)}[read]
    checked = 0
    for prop in props.bl_rna.properties:
        if prop.type not in ("BOOLEAN", "INT", "FLOAT", "ENUM") or prop.is_readonly:
            continue
        name = prop.identifier
        array = getattr(prop, "array_length", 0)
        before_value = list(getattr(props, name)) if array else getattr(props, name)
        before = (model(), key(snapshot(obj)))
        setattr(props, name, _changed(prop, before_value))
        after = (model(), key(snapshot(obj)))
        if before[0] != after[0]:
            checked += 1
            assert before[1] != after[1], f"{name} changes the {read} but not the key"
        setattr(props, name, before_value)
    assert checked >= len(table.props_of(read))


@pytest.mark.parametrize("group", ["vehicle_body", "wheel", "thruster", "hover_thruster",
                                   "seat"])
def test_vehicle_rows_reach_the_model_and_back(clean_scene, helpers, group: str) -> None:
    source, target = helpers.mesh_object("Source"), helpers.mesh_object("Target")
    for obj in (source, target):
        helpers.set_physics(obj, **GROUP_STATE[group])
    for row in table.rows(group):
        prop = _rna()[row.prop]
        value = getattr(source.gltf_physics, row.prop)
        setattr(source.gltf_physics, row.prop,
                _changed(prop, list(value) if prop.array_length else value))
    node = vehicle_bridge.vehicle_node_of(source, True, lambda _obj: None)
    field_props.write_values(target.gltf_physics, group, getattr(node, group), True)
    for row in table.rows(group):
        a, b = getattr(source.gltf_physics, row.prop), getattr(target.gltf_physics, row.prop)
        a, b = (tuple(a), tuple(b)) if row.size else (a, b)
        assert a == pytest.approx(b) if row.kind == "float" else a == b, row.prop


def test_enum_items_map_to_model_values() -> None:
    properties = importlib.import_module(f"{MODULE}.io.blender.settings.properties")
    model = importlib.import_module(f"{MODULE}.io.model")
    for prop, mapping, values in (("motion_type", properties.MOTION_KIND, model.MOTION_KINDS),
                                  ("shape_type", properties.SHAPE_KIND, model.SHAPE_KINDS)):
        items = [item.identifier for item in _rna()[prop].enum_items]
        assert list(mapping) == [item for item in items if item != "NONE"]
        assert set(mapping.values()) == set(values)


def test_panels_and_overlay_draw_an_enum_value_this_release_does_not_know(clean_scene,
                                                                         helpers) -> None:
    """A stored enum value no item has (a newer release's, or a script's) reads as '': the
    panels and the gravity overlay draw without raising (three places raised KeyError on
    every redraw)."""
    stored = importlib.import_module(f"{MODULE}.io.blender.settings.stored_settings")
    overlay = importlib.import_module(f"{MODULE}.panels.gravity_overlay")
    obj = helpers.mesh_object("Thing")
    helpers.set_physics(obj, shape_type="BOX", gravity_type="SHAPED")
    group = stored.stored_group(obj)
    group["shape_type"] = 99
    group["gravity_shape_type"] = 99
    assert obj.gltf_physics.shape_type == "" and obj.gltf_physics.gravity_shape_type == ""
    context = SimpleNamespace(object=obj, scene=clean_scene)
    gravity_panels = importlib.import_module(f"{MODULE}.panels.gravity_panels")
    drawn = 0
    for module in (panels, gravity_panels):
        for name in dir(module):
            panel = getattr(module, name)
            if isinstance(panel, type) and issubclass(panel, bpy.types.Panel) \
                    and panel.__module__ == module.__name__ \
                    and getattr(panel, "poll", lambda _context: True)(context):
                panel.draw(SimpleNamespace(layout=_Layout()), context)
                drawn += 1
    assert drawn >= 2  # (the shape and the gravity panels at least)
    assert overlay.GravityBatches(lambda lines: lines).batch(obj) is None
