# SPDX-License-Identifier: GPL-3.0-or-later
"""Build scenes through the add-on's properties, export and import them, read the JSON."""

import json
from pathlib import Path
from typing import Any

import bpy

from tests.support.schemas import load_gltf


def mesh_object(name: str, kind: str = "cube", location=(0, 0, 0), size: float = 1.0):
    """A mesh object built with bmesh primitives (no operators, no context needed)."""
    import bmesh

    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    if kind == "cube":
        bmesh.ops.create_cube(bm, size=size)
    elif kind == "sphere":
        bmesh.ops.create_uvsphere(bm, u_segments=16, v_segments=8, radius=size / 2)
    elif kind == "cylinder":
        bmesh.ops.create_cone(
            bm, cap_ends=True, segments=16, radius1=size / 2, radius2=size / 2, depth=size
        )
    elif kind == "monkey":
        bmesh.ops.create_monkey(bm)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    return obj


def empty_object(name: str, location=(0, 0, 0), parent=None):
    """An Empty linked to the scene."""
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    obj.parent = parent
    return obj


def armature_object(name: str, bones: list[tuple[str, tuple, tuple, str | None]]):
    """An armature linked to the scene with `bones` (name, head, tail, parent name)."""
    data = bpy.data.armatures.new(name)
    rig = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    for bone_name, head, tail, parent in bones:
        bone = data.edit_bones.new(bone_name)
        bone.head, bone.tail = head, tail
        if parent is not None:
            bone.parent = data.edit_bones[parent]
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def set_physics(obj, **values: Any):
    """Set gltf_physics properties on an object."""
    for key, value in values.items():
        setattr(obj.gltf_physics, key, value)
    return obj


def export(path: Path, fmt: str = "KHR", geometry: str = "MESH", **options: Any) -> dict:
    """Export the current scene with the given physics format and return the parsed JSON."""
    settings = bpy.context.scene.gltf_physics
    settings.export_format = fmt
    settings.khr_geometry = geometry
    file_format = "GLB" if path.suffix == ".glb" else "GLTF_SEPARATE"
    bpy.ops.export_scene.gltf(filepath=str(path), export_format=file_format, **options)
    return load_gltf(path)


def import_file(path: Path) -> None:
    """Import a glTF file into a fresh empty scene."""
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=str(path))


PHYSICS_NAMES = (
    "OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint", "KHR_implicit_shapes",
    "KHR_physics_rigid_bodies", "OMI_vehicle_body", "OMI_vehicle_wheel", "OMI_vehicle_thruster",
    "OMI_vehicle_hover_thruster", "OMI_seat",
)


def physics_subtree(gltf: dict) -> dict:
    """The physics parts of a document, with node indices replaced by node names."""
    nodes = gltf.get("nodes", [])

    def name_of(index: int) -> str:
        return nodes[index].get("name", str(index))

    per_node = {}
    for node in nodes:
        payload = {k: v for k, v in (node.get("extensions") or {}).items() if k in PHYSICS_NAMES}
        if payload:
            per_node[node.get("name")] = _rename_refs(json.loads(json.dumps(payload)), name_of)
    root = {k: v for k, v in (gltf.get("extensions") or {}).items() if k in PHYSICS_NAMES}
    return {"root": root, "nodes": per_node}


def _rename_refs(payload: Any, name_of) -> Any:
    if isinstance(payload, dict):
        out = {}
        for key, value in payload.items():
            if key == "nodes" and isinstance(value, list):
                out[key] = sorted(name_of(v) for v in value)
            elif key in ("connectedNode", "pilotSeat") and isinstance(value, int):
                out[key] = name_of(value)
            elif key in ("mesh", "node"):
                out[key] = "<mesh>"
            else:
                out[key] = _rename_refs(value, name_of)
        return out
    if isinstance(payload, list):
        return [_rename_refs(v, name_of) for v in payload]
    return payload


def assert_close(a: Any, b: Any, tol: float = 1e-6, path: str = "") -> None:
    """Structural equality with a numeric tolerance."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            assert_close(a[key], b[key], tol, f"{path}/{key}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), f"{path}: lengths {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_close(x, y, tol, f"{path}/{i}")
    elif isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        assert abs(a - b) <= tol * max(1.0, abs(a)), f"{path}: {a} != {b}"
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def assert_valid(path: Path, geometry_node: bool = False) -> None:
    """The file's physics validates against the official schemas (known defects patched,
    see tests/support/schemas.py) and the Khronos glTF-Validator reports no errors."""
    from tests.conftest import ROOT, SHARED
    from tests.support import gltf_validator
    from tests.support.schemas import PhysicsSchemaValidator

    gltf = load_gltf(path)
    validator = PhysicsSchemaValidator(SHARED / "specs", node_geometry=geometry_node)
    assert validator.errors(gltf) == [], f"{path.name}: schema errors"
    if gltf_validator.is_available(ROOT):
        report = gltf_validator.validate_file(path, ROOT)
        assert gltf_validator.error_messages(report) == [], f"{path.name}: glTF-Validator errors"
    else:  # make test installs it; a bare pytest run may not have it
        import pytest

        pytest.skip("node_modules/gltf-validator missing: run make test")


def build_showcase(scene=None) -> dict:
    """A scene using every authoring feature; returns the objects by name."""
    scene = scene or bpy.context.scene
    settings = scene.gltf_physics
    for name in ("Props", "Players"):
        settings.layers.add().name = name
    objs = {}
    floor = mesh_object("Floor", "cube", (0, 0, -0.1))
    floor.scale = (10, 10, 0.2)
    objs["Floor"] = set_physics(
        floor, motion_type="STATIC", shape_type="BOX", use_material=True, static_friction=0.9,
        dynamic_friction=0.8, friction_combine="maximum",
    )
    box = mesh_object("Box", "cube", (0, 0, 3))
    box.rotation_euler = (0.3, 0.2, 0.1)
    objs["Box"] = set_physics(
        box, motion_type="DYNAMIC", shape_type="BOX", mass=2.5, linear_velocity=(1, 2, 3),
        angular_velocity=(0.1, 0.2, 0.3), gravity_factor=0.5, center_of_mass_mode="CUSTOM",
        center_of_mass=(0.1, 0.2, 0.3), inertia_mode="CUSTOM", inertia_diagonal=(1, 2, 3),
        inertia_orientation=(0.9238795, 0.3826834, 0, 0), use_material=True, restitution=0.7,
        restitution_combine="maximum", use_filter=True, filter_layers=[True] + [False] * 31,
        filter_mode="ONLY", filter_targets=[True, True] + [False] * 30,
    )
    ball = mesh_object("Ball", "sphere", (2, 0, 3))
    objs["Ball"] = set_physics(
        ball, motion_type="DYNAMIC", shape_type="SPHERE", use_material=True, restitution=0.7,
        restitution_combine="maximum",
    )
    pill = mesh_object("Pill", "cylinder", (4, 0, 3))
    objs["Pill"] = set_physics(
        pill, motion_type="KINEMATIC", shape_type="CAPSULE", size_mode="CUSTOM", height=1.2,
        radius_top=0.3, radius_bottom=0.4,
    )
    can = mesh_object("Can", "cylinder", (6, 0, 3))
    objs["Can"] = set_physics(can, motion_type="DYNAMIC", shape_type="CYLINDER", mass=0.3)
    hull = mesh_object("Hull", "monkey", (8, 0, 3))
    objs["Hull"] = set_physics(hull, motion_type="DYNAMIC", shape_type="CONVEX")
    prop = mesh_object("Prop", "monkey", (10, 0, 0))
    objs["Prop"] = set_physics(prop, shape_type="TRIMESH", use_filter=True,
                               filter_layers=[False, True] + [False] * 30,
                               filter_mode="EXCEPT", filter_targets=[True] + [False] * 31)
    proxy = mesh_object("PropProxy", "cube", (10, 0, 0))
    proxy.parent = prop
    proxy.location = (0, 0, 0)
    objs["PropProxy"] = set_physics(proxy, collision_only=True)
    shell = mesh_object("Shell", "sphere", (12, 0, 0))
    objs["Shell"] = set_physics(
        shell, motion_type="DYNAMIC", shape_type="CONVEX", mesh_source="OBJECT", mesh_object=proxy,
    )
    zone = empty_object("Zone", (0, 6, 1))
    objs["Zone"] = set_physics(
        zone, shape_type="BOX", shape_role="TRIGGER", size_mode="CUSTOM", box_size=(4, 2, 1),
        shape_offset=(0, 0, 0.5), use_filter=True, filter_layers=[False, True] + [False] * 30,
    )
    group = empty_object("Gate", (0, -6, 0))
    objs["Gate"] = set_physics(group, is_compound_trigger=True)
    for i, x in enumerate((-1, 1)):
        post = empty_object(f"GatePost{i}", (x, 0, 1), parent=group)
        objs[post.name] = set_physics(
            post, shape_type="CYLINDER", shape_role="TRIGGER", size_mode="CUSTOM", height=2,
            radius_top=0.2, radius_bottom=0.2,
        )
    cart = empty_object("Cart", (-6, 0, 1))
    objs["Cart"] = set_physics(cart, motion_type="DYNAMIC", mass=20)
    for i, x in enumerate((-0.5, 0.5)):
        part = mesh_object(f"CartPart{i}", "cube", (x, 0, 0))
        part.parent = cart
        objs[part.name] = set_physics(part, shape_type="BOX")
    return objs


def build_jointed(scene=None) -> dict:
    """A hinged door on a static frame and a pin-jointed pendulum, authored with the add-on."""
    objs = {}
    frame = mesh_object("DoorFrame", "cube", (0, 0, 1))
    frame.scale = (0.1, 0.1, 1)
    objs["DoorFrame"] = set_physics(frame, motion_type="STATIC", shape_type="BOX")
    door = mesh_object("Door", "cube", (0.6, 0, 1))
    door.scale = (0.5, 0.05, 0.9)
    objs["Door"] = set_physics(door, motion_type="DYNAMIC", shape_type="BOX", mass=10)
    bpy.context.view_layer.update()
    hinge = empty_object("DoorHinge", (0.1, 0, 1), parent=door)
    hinge.matrix_parent_inverse = door.matrix_world.inverted()
    objs["DoorHinge"] = set_physics(
        hinge, joint_type="HINGE", joint_axis="Z", joint_use_limit=True,
        joint_angle_min=-1.5, joint_angle_max=0.0, joint_connected_body=frame,
    )
    ceiling = mesh_object("Ceiling", "cube", (3, 0, 3))
    ceiling.scale = (0.5, 0.5, 0.1)
    objs["Ceiling"] = set_physics(ceiling, motion_type="STATIC", shape_type="BOX")
    bob = mesh_object("Bob", "sphere", (4, 0, 2), size=0.4)
    objs["Bob"] = set_physics(bob, motion_type="DYNAMIC", shape_type="SPHERE", mass=2)
    bpy.context.view_layer.update()
    pivot = empty_object("PendulumPivot", (3, 0, 2.9), parent=bob)
    pivot.matrix_parent_inverse = bob.matrix_world.inverted()
    objs["PendulumPivot"] = set_physics(pivot, joint_type="PIN", joint_connected_body=ceiling)
    return objs


def build_car(scene=None) -> dict:
    """A drivable car: a dynamic box body, four wheels from the operator, a pilot seat."""
    objs = {}
    car = mesh_object("Car", "cube", (0, -12, 1), size=2.0)
    car.scale = (1, 2, 0.5)
    objs["Car"] = set_physics(car, motion_type="DYNAMIC", shape_type="BOX", mass=800)
    seat = empty_object("DriverSeat", (0, 0.2, 0.6), parent=car)
    objs["DriverSeat"] = set_physics(seat, is_seat=True)
    car.gltf_physics.vehicle_pilot_seat = seat
    car.gltf_physics.vehicle_max_speed = 30.0
    car.gltf_physics.vehicle_gyro_torque = (100.0, 200.0, 300.0)
    for obj in bpy.data.objects:
        obj.select_set(obj == car)
    bpy.context.view_layer.objects.active = car
    bpy.context.view_layer.update()
    assert bpy.ops.gltf_physics.wheels_add() == {"FINISHED"}
    for wheel in car.children:
        if wheel.gltf_physics.vehicle_part == "WHEEL":
            objs[wheel.name] = set_physics(wheel, use_material=True, static_friction=1.2,
                                           dynamic_friction=1.0)
    return objs


def rigid_body_world():
    """The scene's Blender rigid body world, made (with its collections) when missing."""
    scene = bpy.context.scene
    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()
    rbw = scene.rigidbody_world
    rbw.collection = rbw.collection or bpy.data.collections.new("RigidBodyWorld")
    rbw.constraints = rbw.constraints or bpy.data.collections.new("RigidBodyConstraints")
    return rbw


def linked_kit(objects, path: Path, name: str = "Kit"):
    """`objects` moved into a new collection written alone to the library `path`; the file
    emptied and that collection linked back (not yet into the scene), returned."""
    kit = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(kit)
    for obj in objects:
        for users in list(obj.users_collection):
            users.objects.unlink(obj)
        kit.objects.link(obj)
    bpy.data.libraries.write(str(path), {kit}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(path), link=True) as (_src, dst):
        dst.collections = [name]
    return dst.collections[0]


def overridden_kit(objects, path: Path, name: str = "Kit") -> None:
    """`linked_kit`, then linked into the scene and given a fully editable hierarchy
    override (its objects: `overridden(name)`)."""
    kit = linked_kit(objects, path, name)
    scene = bpy.context.scene
    scene.collection.children.link(kit)
    kit.override_hierarchy_create(scene, bpy.context.view_layer, do_fully_editable=True)


def overridden(name: str):
    """The library override of the object named `name`."""
    return next(o for o in bpy.data.objects if o.name == name and o.override_library)


def from_library(obj, path: Path, link: bool = True):
    """`obj` written alone to the library `path`, the file emptied, and the object linked
    (or, `link=False`, appended) back into the scene: returned."""
    name = obj.name
    bpy.data.libraries.write(str(path), {obj}, fake_user=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(path), link=link) as (_src, dst):
        dst.objects = [name]
    loaded = dst.objects[0]
    bpy.context.scene.collection.objects.link(loaded)
    return loaded


def overridden_from_library(obj, path: Path):
    """`obj` written alone to the library `path`, the file emptied, the object linked back
    into the scene and given a library override (returned)."""
    return from_library(obj, path).override_create(remap_local_usages=True)
