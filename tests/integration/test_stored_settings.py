# SPDX-License-Identifier: GPL-3.0-or-later
"""Settings read in one call equal RNA reads; the importer's writer skips only what a fresh
object already has."""

import importlib
import json
import random

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

stored = importlib.import_module(f"{MODULE}.io.blender.settings.stored_settings")
from_model = importlib.import_module(f"{MODULE}.io.blender.bridge.from_model")
model = importlib.import_module(f"{MODULE}.io.model")
diagnostics = importlib.import_module(f"{MODULE}.io.diagnostics")


def plain_properties():
    group = bpy.types.Object.bl_rna.properties["gltf_physics"].fixed_type
    return [p for p in group.properties
            if p.identifier != "rna_type" and p.type not in ("POINTER", "COLLECTION")]


def randomize(props, rng: random.Random, count: int) -> None:
    for prop in rng.sample(plain_properties(), count):
        name, size = prop.identifier, getattr(prop, "array_length", 0)
        if prop.type == "ENUM":
            value = rng.choice([item.identifier for item in prop.enum_items])
        elif prop.type == "BOOLEAN":
            value = [rng.random() < 0.5 for _ in range(size)] if size else rng.random() < 0.5
        elif prop.type == "STRING":
            value = f"text{rng.randint(0, 9)}"
        else:
            low, high = max(prop.hard_min, -5), min(prop.hard_max, 5)
            pick = rng.uniform if prop.type == "FLOAT" else rng.randint
            value = [pick(low, high) for _ in range(size)] if size else pick(low, high)
        setattr(props, name, value)


def as_read(value):
    return tuple(value) if hasattr(value, "__len__") and not isinstance(value, str) else value


def test_snapshot_equals_rna_reads(clean_scene):
    rng = random.Random(7)
    objects = [h.mesh_object(f"o{i}") for i in range(40)]
    for obj in objects[1:]:
        randomize(obj.gltf_physics, rng, rng.randint(1, 25))
    objects[2].gltf_physics.mesh_object = objects[3]
    for obj in objects:
        snapshot = stored.snapshot(obj)
        for prop in plain_properties():
            expected = as_read(getattr(obj.gltf_physics, prop.identifier))
            got = getattr(snapshot, prop.identifier)
            assert (got, type(got)) == (expected, type(expected)), (obj.name, prop.identifier)
        assert snapshot.mesh_object == obj.gltf_physics.mesh_object  # pointers: through RNA
        assert len(snapshot.joint_limits) == len(obj.gltf_physics.joint_limits)
    with pytest.raises(AttributeError):
        stored.snapshot(objects[0]).mass = 3.0


def test_shared_snapshots_share_equal_settings_only(clean_scene):
    rng = random.Random(11)
    objects = [h.mesh_object(f"o{i}") for i in range(30)]
    for index, obj in enumerate(objects):
        randomize(obj.gltf_physics, random.Random(index % 3), 12)  # three distinct settings
    for obj in objects[-5:]:
        randomize(obj.gltf_physics, rng, 6)  # and a few of their own
    objects[0].gltf_physics.mesh_object = objects[1]
    objects[3].gltf_physics.mesh_object = objects[2]  # same plain values, other pointer
    cache = stored.SharedSnapshots()
    shared = {obj.name: cache.of(obj) for obj in objects}
    for obj in objects:
        for prop in plain_properties():
            expected = as_read(getattr(obj.gltf_physics, prop.identifier))
            got = getattr(shared[obj.name], prop.identifier)
            assert (got, type(got)) == (expected, type(expected)), (obj.name, prop.identifier)
    plain = {prop.identifier for prop in plain_properties()}

    def items(obj):  # the plain values stored, in the order they were set
        return [item for item in stored.stored_group(obj).to_dict().items() if item[0] in plain]

    for a in objects:
        for b in objects:
            assert (shared[a.name] is shared[b.name]) == (items(a) == items(b)), (a.name, b.name)
    distinct = {json.dumps(items(obj), default=repr) for obj in objects}
    assert len({id(found) for found in shared.values()}) == len(distinct) < len(objects)
    with pytest.raises(AttributeError, match="read it from the object"):
        _ = shared["o0"].mesh_object  # a shared snapshot has no owner to read a pointer from
    assert shared["o3"] is shared["o0"]  # pointers are read from each object: not keyed
    joint = objects[6]
    joint.gltf_physics.joint_limits.add()  # a collection: read from the object too
    assert items(joint) == items(objects[9]) and cache.of(joint) is cache.of(objects[9])
    joint.gltf_physics.mass = 123.0  # a plain value: its own snapshot again
    assert cache.of(joint) is not cache.of(objects[9]) and cache.of(joint).mass == 123.0


def test_untouched_until_a_value_is_set(clean_scene):
    obj = h.mesh_object("fresh")
    assert stored.is_untouched(obj)
    obj.gltf_physics.mass = 5.0
    assert not stored.is_untouched(obj)


def test_writer_overwrites_values_a_touched_object_had(clean_scene):
    """A default in the file must replace a value the object had before (4.2/4.5 restore
    extras into the settings before any hook runs)."""
    touched, fresh = h.mesh_object("touched"), h.mesh_object("fresh")
    touched.gltf_physics.mass = 7.0
    touched.gltf_physics.gravity_factor = 0.25
    physics = model.NodePhysics(motion=model.Motion(kind="dynamic", mass=1.0))
    writer = from_model.PropertyWriter(clean_scene, diagnostics.Report())
    for obj in (touched, fresh):
        writer.apply(obj, physics, None, lambda *_: None, lambda *_: None)
        assert obj.gltf_physics.motion_type == "DYNAMIC"
        assert obj.gltf_physics.mass == 1.0 and obj.gltf_physics.gravity_factor == 1.0
    assert stored.is_untouched(fresh) is False  # motion type differs from its default


def test_import_replaces_settings_restored_from_extras(clean_scene, tmp_path):
    """4.2/4.5 copy node extras named like our settings onto the new object before any hook:
    the file's physics must still win (a default in the file included)."""
    document = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [
            {"type": "sphere", "sphere": {"radius": 0.5}}]}},
        "nodes": [
            {"name": "restored", "extras": {"gltf_physics": {"mass": 7.0, "gravity_factor": 0.5}},
             "extensions": {"KHR_physics_rigid_bodies": {
                 "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}},
            {"name": "plain", "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}},
        ],
    }
    path = tmp_path / "extras.gltf"
    path.write_text(json.dumps(document))
    h.import_file(path)
    for name in ("restored", "plain"):
        props = bpy.data.objects[name].gltf_physics
        assert (props.motion_type, props.mass, props.gravity_factor) == ("DYNAMIC", 1.0, 1.0)
        assert (props.shape_type, props.radius) == ("SPHERE", 0.5)
