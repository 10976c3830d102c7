# SPDX-License-Identifier: GPL-3.0-or-later
"""gltf_physics ↔ Blender's native Rigid Body and Rigid Body Constraint settings."""

import importlib
import math

import bpy
import pytest
from mathutils import Matrix

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

convert = importlib.import_module(f"{MODULE}.io.blender.tools.native_convert")
native_ops = importlib.import_module(f"{MODULE}.operators.native")
FROM, TO = convert.FROM_NATIVE, convert.TO_NATIVE
KHR = "KHR_physics_rigid_bodies"
RB_KEYS = ("type", "kinematic", "collision_shape", "mass", "friction", "restitution",
           "collision_collections")


def collections(*numbers: int) -> tuple[bool, ...]:
    """Blender collision collections by their 1-based UI numbers."""
    return tuple(i + 1 in numbers for i in range(20))


world = h.rigid_body_world


def native_body(obj, **values):
    world().collection.objects.link(obj)
    for key, value in values.items():
        setattr(obj.rigid_body, key, value)
    return obj


def native_constraint(obj, kind, first, second, **values):
    world().constraints.objects.link(obj)
    rbc = obj.rigid_body_constraint
    rbc.type, rbc.object1, rbc.object2 = kind, first, second
    for key, value in values.items():
        setattr(rbc, key, value)
    return obj


def state(struct, keys) -> dict:
    out = {}
    for key in keys:
        value = getattr(struct, key)
        out[key] = round(value, 5) if isinstance(value, float) else (
            tuple(value) if hasattr(value, "__len__") and not isinstance(value, str) else value)
    return out


def scramble_rb(obj):
    rb = obj.rigid_body
    rb.type = "PASSIVE" if rb.type == "ACTIVE" else "ACTIVE"
    rb.kinematic = not rb.kinematic
    rb.collision_shape = "CONVEX_HULL" if rb.collision_shape != "CONVEX_HULL" else "BOX"
    rb.mass, rb.friction, rb.restitution = 7.0, 0.9, 0.9
    rb.collision_collections = collections(20)


def reset_gltf(obj):
    props = obj.gltf_physics
    for prop in props.bl_rna.properties:
        if prop.identifier != "rna_type" and not prop.is_readonly:
            props.property_unset(prop.identifier)
    props.joint_limits.clear()
    props.joint_drives.clear()


# -- bodies: Blender → gltf_physics → Blender ---------------------------------------------


@pytest.mark.parametrize(("shape", "expected", "mesh"), [
    ("BOX", "BOX", "cube"), ("SPHERE", "SPHERE", "sphere"), ("CAPSULE", "CAPSULE", "cylinder"),
    ("CYLINDER", "CYLINDER", "cylinder"), ("CONE", "CYLINDER", "cylinder"),
    ("CONVEX_HULL", "CONVEX", "monkey"), ("MESH", "TRIMESH", "monkey"),
])
def test_native_shape_round_trip(clean_scene, shape, expected, mesh):
    obj = native_body(h.mesh_object("Body", mesh), collision_shape=shape, mass=2.5,
                      friction=0.3, restitution=0.4)
    before = state(obj.rigid_body, RB_KEYS)
    report: list[str] = []
    assert convert.from_native(obj, report)
    props = obj.gltf_physics
    assert (props.motion_type, props.shape_type, props.mass) == ("DYNAMIC", expected, 2.5)
    assert props.use_material and not props.use_filter
    assert props.static_friction == props.dynamic_friction == pytest.approx(0.3)
    assert props.restitution == pytest.approx(0.4)
    if shape == "CONE":
        assert props.size_mode == "CUSTOM"
        assert (props.radius_top, props.radius_bottom, props.height) == pytest.approx((0, .5, 1))
    elif expected in ("CONVEX", "TRIMESH"):
        assert props.mesh_source == "SELF"
    else:
        assert props.size_mode == "FIT"
    assert report == []
    scramble_rb(obj)
    assert convert.to_native(obj, report)
    assert state(obj.rigid_body, RB_KEYS) == before
    assert report == []


def test_native_motions_and_collections_round_trip(clean_scene):
    scene = bpy.context.scene
    scene.gltf_physics.layers.add().name = "Walls"
    kin = native_body(h.mesh_object("Kin"), kinematic=True, collision_shape="BOX",
                      collision_collections=collections(3))
    floor = native_body(h.mesh_object("Floor"), type="PASSIVE", collision_shape="BOX",
                        collision_collections=collections(2, 5))
    ghost = native_body(h.mesh_object("Ghost"), collision_shape="BOX",
                        collision_collections=collections())
    shared = native_body(h.mesh_object("Shared"), collision_shape="BOX",
                         collision_collections=collections(1, 3))
    objs = (kin, floor, ghost, shared)
    before = {obj.name: state(obj.rigid_body, RB_KEYS) for obj in objs}
    notes = convert.convert_objects(objs, FROM)
    assert [layer.name for layer in scene.gltf_physics.layers] == [
        "Walls", "Collection 3", "Collection 2", "Collection 5", "Collection 1"]
    assert kin.gltf_physics.motion_type == "KINEMATIC"
    assert floor.gltf_physics.motion_type == "STATIC"
    floor_props = floor.gltf_physics
    assert floor_props.use_filter and floor_props.filter_mode == "ONLY"
    assert [i for i, on in enumerate(floor_props.filter_layers) if on] == [2, 3]
    assert tuple(floor_props.filter_targets) == tuple(floor_props.filter_layers)
    assert ghost.gltf_physics.use_filter and not any(ghost.gltf_physics.filter_layers)
    assert notes == [f"{shared.name}: ≈ shares Collection 1 with bodies without a filter, which "
                     "are in no layer: it no longer collides with them"]
    for obj in objs:
        scramble_rb(obj)
    assert convert.convert_objects(objs, TO) == []
    assert {obj.name: state(obj.rigid_body, RB_KEYS) for obj in objs} == before


def test_off_centre_bounds_and_compound(clean_scene):
    lopsided = h.mesh_object("Lopsided")
    lopsided.data.transform(Matrix.Translation((0.5, 0, 0)))
    native_body(lopsided, collision_shape="BOX")
    cart = native_body(h.mesh_object("Cart"), collision_shape="COMPOUND", mass=20,
                       friction=0.7)
    parts = []
    for x in (-1, 1):
        part = native_body(h.mesh_object(f"Wheel{x}", "sphere", (x, 0, 0)),
                           collision_shape="SPHERE")
        part.parent = cart
        parts.append(part)
    changed, notes = convert.convert([lopsided, parts[0]], FROM)
    assert set(changed) == {lopsided, cart, *parts} and notes == []
    props = lopsided.gltf_physics
    assert (props.size_mode, tuple(props.box_size), tuple(props.shape_offset)) == (
        "CUSTOM", pytest.approx((1, 1, 1)), (0, 0, 0))  # Blender: centred on the origin
    assert (cart.gltf_physics.motion_type, cart.gltf_physics.shape_type) == ("DYNAMIC", "NONE")
    for part in parts:
        assert (part.gltf_physics.motion_type, part.gltf_physics.shape_type) == ("NONE", "SPHERE")
        assert part.gltf_physics.dynamic_friction == pytest.approx(0.7)  # the compound's
    scramble_rb(cart)
    assert convert.convert_objects([cart], TO) == []
    assert (cart.rigid_body.collision_shape, cart.rigid_body.mass) == ("COMPOUND", 20)
    assert lopsided.rigid_body.collision_shape == "BOX"


# -- bodies: gltf_physics → Blender → gltf_physics -----------------------------------------


@pytest.mark.parametrize(("motion", "shape"), [
    ("DYNAMIC", "BOX"), ("STATIC", "SPHERE"), ("KINEMATIC", "CAPSULE"), ("DYNAMIC", "CYLINDER"),
    ("DYNAMIC", "CONVEX"), ("STATIC", "TRIMESH"),
])
def test_gltf_body_round_trip(clean_scene, motion, shape):
    scene = bpy.context.scene
    for name in ("Props", "Collection 7", "Players"):
        scene.gltf_physics.layers.add().name = name
    layers = [False, True, True] + [False] * 29
    obj = h.set_physics(
        h.mesh_object("Body", "cylinder"), motion_type=motion, shape_type=shape, mass=3.0,
        use_material=True, static_friction=0.25, dynamic_friction=0.25, restitution=0.6,
        use_filter=True, filter_layers=layers, filter_mode="ONLY", filter_targets=layers,
    )
    report: list[str] = []
    assert convert.to_native(obj, report) and report == []
    rb = obj.rigid_body
    assert rb.type == ("PASSIVE" if motion == "STATIC" else "ACTIVE")
    assert rb.kinematic == (motion == "KINEMATIC")
    assert tuple(rb.collision_collections) == collections(3, 7)  # "Players" (2), "Collection 7"
    reset_gltf(obj)
    assert convert.from_native(obj, report) and report == []
    props = obj.gltf_physics
    assert (props.motion_type, props.shape_type, props.mass) == (motion, shape, 3.0)
    assert (props.dynamic_friction, props.restitution) == pytest.approx((0.25, 0.6))
    assert [layer.name for layer in scene.gltf_physics.layers] == [
        "Props", "Collection 7", "Players", "Collection 3"]
    assert [i for i, on in enumerate(props.filter_layers) if on] == [1, 3]


def test_unrepresentable_shapes_are_reported(clean_scene):
    offset = h.set_physics(h.mesh_object("Offset"), motion_type="DYNAMIC", shape_type="BOX",
                           size_mode="CUSTOM", shape_offset=(0, 0, 1))
    cone = h.set_physics(h.mesh_object("Cone", "cylinder"), motion_type="DYNAMIC",
                         shape_type="CYLINDER", size_mode="CUSTOM", height=1.0,
                         radius_top=0.0, radius_bottom=0.5)
    empty = h.set_physics(h.empty_object("Empty"), motion_type="DYNAMIC", shape_type="BOX")
    changed, notes = convert.convert([offset, cone, empty], TO)
    assert set(changed) == {offset, cone}  # (the Empty is skipped: not converted)
    assert cone.rigid_body.collision_shape == "CONE" and empty.rigid_body is None
    assert notes == [
        "Offset: ≈ Blender sizes the box from the mesh bounds, centred on the origin: its "
        "size, offset or rotation differ",
        "Empty: Blender rigid bodies must be meshes: skipped",
    ]


# -- constraints ------------------------------------------------------------------------------


#: What converting only a joint between two_bodies() says: its bodies keep their own.
LEFT_AB = [f"{name}: not selected, and has a Blender rigid body of its own: it is left as it "
           "was" for name in "AB"]


def two_bodies():
    a = native_body(h.mesh_object("A", location=(0, 0, 0)), collision_shape="BOX")
    b = native_body(h.mesh_object("B", location=(2, 0, 0)), collision_shape="BOX")
    return a, b


RBC_KEYS = ("type", "disable_collisions", "use_limit_ang_z", "limit_ang_z_lower",
            "limit_ang_z_upper", "use_limit_lin_x", "limit_lin_x_lower", "limit_lin_x_upper")
LIMIT_KEYS = tuple(f"{p}_{k}_{x}" for p in ("use_limit",) for k in ("lin", "ang") for x in "xyz")


@pytest.mark.parametrize(("kind", "values", "joint_type", "checks"), [
    ("FIXED", {}, "FIXED", {}),
    ("POINT", {"disable_collisions": False}, "PIN", {"joint_enable_collision": True}),
    ("HINGE", {"use_limit_ang_z": True, "limit_ang_z_lower": -1.0, "limit_ang_z_upper": 0.5},
     "HINGE", {"joint_axis": "Z", "joint_use_limit": True, "joint_angle_min": -1.0,
               "joint_angle_max": 0.5}),
    ("SLIDER", {"use_limit_lin_x": True, "limit_lin_x_lower": -0.2, "limit_lin_x_upper": 0.3},
     "SLIDER", {"joint_axis": "X", "joint_use_limit": True, "joint_distance_min": -0.2,
                "joint_distance_max": 0.3, "joint_slider_rotates": False}),
    ("PISTON", {}, "SLIDER", {"joint_axis": "X", "joint_slider_rotates": True}),
])
def test_native_constraint_round_trip(clean_scene, kind, values, joint_type, checks):
    a, b = two_bodies()
    joint = h.empty_object("Joint", (1, 0, 0))
    native_constraint(joint, kind, a, b, **values)
    before = state(joint.rigid_body_constraint, RBC_KEYS)
    notes = convert.convert_objects([joint], FROM)
    assert notes == ["Joint: parented to A (in place): it is body A"]
    props = joint.gltf_physics
    assert joint.parent == a and props.joint_type == joint_type
    assert props.joint_connected_body == b
    for key, value in checks.items():
        assert getattr(props, key) == pytest.approx(value), key
    bpy.context.view_layer.update()
    assert tuple(joint.matrix_world.translation) == pytest.approx((1, 0, 0))
    joint.rigid_body_constraint.type = "GENERIC"
    assert convert.convert_objects([joint], TO) == LEFT_AB
    assert state(joint.rigid_body_constraint, RBC_KEYS) == before


def test_generic_constraints_become_presets_or_custom(clean_scene):
    a, b = two_bodies()
    locked = {f"{p}_{k}_{x}{s}": value for k in ("lin", "ang") for x in "xyz"
              for p, s, value in (("use_limit", "", k + x != "angx"), ("limit", "_lower", 0.0),
                                  ("limit", "_upper", 0.0))}
    hinge_x = native_constraint(h.empty_object("HingeX", parent=a), "GENERIC", a, b, **locked)
    custom = native_constraint(
        h.empty_object("Custom", parent=a), "GENERIC_SPRING", a, b, use_limit_lin_x=True,
        limit_lin_x_lower=-0.5, limit_lin_x_upper=0.5, use_limit_ang_y=True,
        limit_ang_y_lower=-0.25, limit_ang_y_upper=0.25, use_spring_ang_z=True,
        spring_stiffness_ang_z=40.0, spring_damping_ang_z=2.0,
    )
    before = state(custom.rigid_body_constraint, (*LIMIT_KEYS, "use_spring_ang_z"))
    assert convert.convert_objects([hinge_x, custom], FROM) == []
    props = hinge_x.gltf_physics
    assert (props.joint_type, props.joint_axis, props.joint_use_limit) == ("HINGE", "X", False)
    limits = custom.gltf_physics.joint_limits
    assert custom.gltf_physics.joint_type == "CUSTOM" and len(limits) == 3
    spring = next(limit for limit in limits if limit.use_stiffness)
    assert (spring.kind, tuple(spring.axes), spring.stiffness, spring.damping) == (
        "ANGULAR", (False, False, True), 40.0, 2.0)
    assert (spring.min_angle, spring.max_angle) == (0.0, 0.0)
    assert convert.convert_objects([hinge_x, custom], TO) == LEFT_AB
    assert hinge_x.rigid_body_constraint.type == "GENERIC"
    assert state(hinge_x.rigid_body_constraint, LIMIT_KEYS) == {
        key: key != "use_limit_ang_x" for key in LIMIT_KEYS}
    rbc = custom.rigid_body_constraint
    assert rbc.type == "GENERIC_SPRING"
    assert state(rbc, (*LIMIT_KEYS, "use_spring_ang_z")) == before
    assert (rbc.spring_stiffness_ang_z, rbc.spring_damping_ang_z) == (40.0, 2.0)


def test_motor_becomes_velocity_drives(clean_scene):
    a, b = two_bodies()
    motor = native_constraint(h.empty_object("Motor", parent=a), "MOTOR", a, b,
                              use_motor_ang=True, motor_ang_target_velocity=3.0,
                              motor_ang_max_impulse=0.5)
    notes = convert.convert_objects([motor], FROM)
    assert len(notes) == 1 and "motor" in notes[0]
    props = motor.gltf_physics
    assert props.joint_type == "CUSTOM" and len(props.joint_limits) == 0
    (drive,) = props.joint_drives
    assert (drive.kind, drive.axis, drive.velocity_target) == ("ANGULAR", "X", 3.0)
    assert drive.max_force == pytest.approx(0.5 * 24 * 10)  # impulse ÷ (1 / (24 fps × 10))
    motor.rigid_body_constraint.type = "GENERIC"
    assert convert.convert_objects([motor], TO) == LEFT_AB
    rbc = motor.rigid_body_constraint
    assert (rbc.type, rbc.use_motor_ang, rbc.use_motor_lin) == ("MOTOR", True, False)
    assert rbc.motor_ang_max_impulse == pytest.approx(0.5)


def test_gltf_joints_round_trip(clean_scene):
    objs = h.build_jointed()
    door = objs["DoorHinge"].gltf_physics
    slider = h.empty_object("Slider", (0.6, 0, 2), parent=objs["Door"])
    h.set_physics(slider, joint_type="SLIDER", joint_axis="X", joint_use_limit=True,
                  joint_distance_min=-0.1, joint_distance_max=0.4,
                  joint_connected_body=objs["DoorFrame"])
    twist = h.empty_object("Twist", (4, 0, 1), parent=objs["Bob"])
    h.set_physics(twist, joint_type="HINGE", joint_axis="Y", joint_use_limit=True,
                  joint_angle_min=-0.3, joint_angle_max=0.2, joint_connected_body=objs["Ceiling"])
    custom = h.empty_object("Custom", (4, 0, 1), parent=objs["Bob"])
    h.set_physics(custom, joint_type="CUSTOM", joint_connected_body=objs["Ceiling"],
                  joint_enable_collision=True)
    limit = custom.gltf_physics.joint_limits.add()
    limit.kind, limit.axes = "LINEAR", (False, True, False)
    limit.min_distance, limit.max_distance = -1, 2
    joints = [objs["DoorHinge"], objs["PendulumPivot"], slider, twist, custom]
    before = {j.name: (j.gltf_physics.joint_type, j.gltf_physics.joint_axis) for j in joints}
    assert convert.convert_objects(joints, TO) == []
    kinds = {j.name: j.rigid_body_constraint.type for j in joints}
    assert kinds == {"DoorHinge": "HINGE", "PendulumPivot": "POINT", "Slider": "SLIDER",
                     "Twist": "GENERIC", "Custom": "GENERIC"}
    hinge = objs["DoorHinge"].rigid_body_constraint
    assert (hinge.object1, hinge.object2) == (objs["Door"], objs["DoorFrame"])
    assert (hinge.limit_ang_z_lower, hinge.limit_ang_z_upper) == pytest.approx((-1.5, 0.0))
    assert objs["DoorFrame"].rigid_body.type == "PASSIVE"  # the bodies come along
    for joint in joints:
        reset_gltf(joint)
    assert convert.convert_objects(joints, FROM) == []
    assert {j.name: (j.gltf_physics.joint_type, j.gltf_physics.joint_axis)
            for j in joints} == before
    assert (door.joint_angle_min, door.joint_angle_max) == pytest.approx((-1.5, 0.0))
    assert twist.gltf_physics.joint_angle_min == pytest.approx(-0.3)
    (back,) = custom.gltf_physics.joint_limits
    assert (back.kind, tuple(back.axes), back.min_distance, back.max_distance) == (
        "LINEAR", (False, True, False), -1, 2)
    assert custom.gltf_physics.joint_enable_collision
    assert all(j.parent is not None for j in joints)


# -- many objects, the operators and export ------------------------------------------------


def register_operators():
    for cls in native_ops.CLASSES:
        if not hasattr(bpy.types, cls.__name__):
            bpy.utils.register_class(cls)


def native_scene():
    floor = native_body(h.mesh_object("Floor", location=(0, 0, -0.5)), type="PASSIVE",
                        collision_shape="BOX", friction=0.8)
    floor.scale = (5, 5, 1)
    ball = native_body(h.mesh_object("Ball", "sphere", (0, 0, 2)), collision_shape="SPHERE",
                       mass=2.0, friction=0.3, restitution=0.5,
                       collision_collections=collections(2))
    box = native_body(h.mesh_object("Box", location=(2, 0, 2)), collision_shape="BOX")
    hinge = native_constraint(h.empty_object("Hinge", (1, 0, 2)), "HINGE", box, ball,
                              use_limit_ang_z=True, limit_ang_z_lower=-0.5,
                              limit_ang_z_upper=0.5)
    return floor, ball, box, hinge


def test_operators_convert_selected_objects(clean_scene):
    register_operators()
    floor, ball, box, hinge = native_scene()
    for obj in bpy.data.objects:
        obj.select_set(obj != box)  # the hinge brings its body B along
    assert bpy.ops.gltf_physics.from_native() == {"FINISHED"}
    assert [o.gltf_physics.motion_type for o in (floor, ball, box)] == [
        "STATIC", "DYNAMIC", "DYNAMIC"]
    assert hinge.parent == box and hinge.gltf_physics.joint_type == "HINGE"
    for obj in (floor, ball, box):
        scramble_rb(obj)
    assert bpy.ops.gltf_physics.to_native() == {"FINISHED"}
    # (the box is not selected: its own rigid body is left as it was)
    assert [o.rigid_body.collision_shape for o in (floor, ball, box)] == [
        "BOX", "SPHERE", "CONVEX_HULL"]
    assert ball.rigid_body.mass == 2.0
    for obj in bpy.data.objects:
        obj.select_set(False)
    assert not bpy.ops.gltf_physics.to_native.poll()


def test_converted_native_scene_exports(clean_scene, tmp_path):
    floor, ball, box, hinge = native_scene()
    convert.convert_objects([floor, ball, box, hinge], FROM)
    gltf = h.export(tmp_path / "native.gltf", "KHR")
    h.assert_valid(tmp_path / "native.gltf")
    nodes = {n["name"]: n for n in gltf["nodes"]}
    root = gltf["extensions"][KHR]
    shapes = gltf["extensions"]["KHR_implicit_shapes"]["shapes"]
    ball_body = nodes["Ball"]["extensions"][KHR]
    assert ball_body["motion"]["mass"] == 2.0
    assert shapes[ball_body["collider"]["geometry"]["shape"]]["sphere"]["radius"] == (
        pytest.approx(0.5))
    material = root["physicsMaterials"][ball_body["collider"]["physicsMaterial"]]
    assert material["staticFriction"] == material["dynamicFriction"] == pytest.approx(0.3)
    assert material["restitution"] == pytest.approx(0.5)
    assert root["collisionFilters"][ball_body["collider"]["collisionFilter"]] == {
        "collisionSystems": ["Collection 2"], "collideWithSystems": ["Collection 2"]}
    floor_body = nodes["Floor"]["extensions"][KHR]
    assert "motion" not in floor_body and "collisionFilter" not in floor_body["collider"]
    joint = nodes["Hinge"]["extensions"][KHR]["joint"]
    assert gltf["nodes"][joint["connectedNode"]]["name"].startswith("Hinge")
    ranged = [lim for lim in root["physicsJoints"][joint["joint"]]["limits"]
              if lim.get("angularAxes") == [1]]
    assert ranged == [{"angularAxes": [1], "min": -0.5, "max": 0.5}]
    assert math.isclose(nodes["Box"]["extensions"][KHR]["motion"]["mass"], 1.0)


def test_a_mass_below_blenders_least_is_said_when_converted(clean_scene):
    """OMI allows any mass; Blender's rigid body takes at least its least mass, and the
    conversion says what it changed."""
    light = h.set_physics(h.mesh_object("Light"), motion_type="DYNAMIC", shape_type="BOX",
                          mass=-2.0)
    fine = h.set_physics(h.mesh_object("Fine", location=(3, 0, 0)), motion_type="DYNAMIC",
                         shape_type="BOX", mass=3.0)
    _changed, notes = convert.convert([light, fine], TO)
    least = bpy.types.RigidBodyObject.bl_rna.properties["mass"].hard_min
    assert light.rigid_body.mass == least > 0 and fine.rigid_body.mass == 3.0
    assert [n for n in notes if "mass" in n] == [
        f"Light: ≈ Blender's rigid body mass is at least {least:g} kg: -2 kg becomes "
        f"{least:g} kg"]
