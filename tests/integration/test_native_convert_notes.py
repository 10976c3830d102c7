# SPDX-License-Identifier: GPL-3.0-or-later
"""What the native rigid body conversion changes or drops is said, once and briefly; what
it has no glTF field for is kept (io/blender/tools/native_convert.py)."""

import importlib

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

convert = importlib.import_module(f"{MODULE}.io.blender.tools.native_convert")
LIST_LIMIT = importlib.import_module(f"{MODULE}.io.diagnostics").LIST_LIMIT
FROM, TO = convert.FROM_NATIVE, convert.TO_NATIVE


def body(name: str, x: float = 0.0, **physics):
    return h.set_physics(h.mesh_object(name, location=(x, 0, 0)),
                         **{"motion_type": "DYNAMIC", "shape_type": "BOX", **physics})


def native_body(obj, **values):
    h.rigid_body_world().collection.objects.link(obj)
    for key, value in values.items():
        setattr(obj.rigid_body, key, value)
    return obj


def test_infinite_mass_becomes_an_animated_body_and_is_said(clean_scene):
    """As the preview does: Blender has no infinite mass, so the body is held still."""
    anvil = body("Anvil", mass_mode="INFINITE")
    floor = body("Floor", 3, motion_type="STATIC", mass_mode="INFINITE")
    _changed, notes = convert.convert([anvil, floor], TO)
    assert (anvil.rigid_body.type, anvil.rigid_body.kinematic) == ("ACTIVE", True)
    assert (floor.rigid_body.type, floor.rigid_body.kinematic) == ("PASSIVE", False)
    assert notes == ["Anvil: ≈ Blender has no infinite mass: the body is Animated (held "
                     "still, like a kinematic one)"]


def test_auto_mass_is_said(clean_scene):
    auto = body("Auto", mass_mode="AUTO", mass=2.5)
    notes: list[str] = []
    convert.to_native(auto, notes)
    assert (auto.rigid_body.mass, auto.rigid_body.kinematic) == (2.5, False)
    assert notes == ["Auto: ≈ Blender computes no mass: the Mass value 2.5 kg is used"]


def test_motion_settings_blender_lacks_are_said_once_per_body(clean_scene):
    moving = body("Moving", mass=2.0, linear_velocity=(0, 5, 0), angular_velocity=(0, 0, 3),
                  gravity_factor=0.0, center_of_mass_mode="CUSTOM",
                  center_of_mass=(0, 0, -0.4), inertia_mode="CUSTOM",
                  inertia_diagonal=(1, 2, 3), lock_rotation=(True, True, False))
    spinning = body("Spinning", 3, motion_type="KINEMATIC", angular_velocity=(0, 0, 1))
    plain = body("Plain", 6)
    joint = h.set_physics(h.empty_object("Joint", (1.5, 0, 0), parent=moving),
                          joint_type="FIXED", joint_connected_body=spinning)
    _changed, notes = convert.convert([moving, spinning, plain, joint], TO)
    assert notes == [
        "Moving: not kept (Blender's rigid body has none): initial linear velocity, initial "
        "angular velocity, gravity factor 0, custom centre of mass, custom inertia, Lock "
        "Rotation",
        "Spinning: not kept (Blender's rigid body has none): initial angular velocity",
    ]
    assert joint.rigid_body_constraint.type == "FIXED"


def test_the_users_damping_is_kept_and_a_new_body_has_none(clean_scene):
    """glTF has no damping: a new rigid body gets none (as glTF means), a rigid body the
    user had keeps theirs; nothing to say either way."""
    buoy = native_body(body("Buoy"), linear_damping=0.9, angular_damping=0.7)
    new = body("New", 3)
    _changed, notes = convert.convert([buoy, new], TO)
    assert (buoy.rigid_body.linear_damping, buoy.rigid_body.angular_damping) == (
        pytest.approx(0.9), pytest.approx(0.7))
    assert (new.rigid_body.linear_damping, new.rigid_body.angular_damping) == (0.0, 0.0)
    assert notes == []


def test_damping_and_margin_gltf_lacks_are_said(clean_scene):
    buoy = native_body(h.mesh_object("Buoy"), mass=4.0, linear_damping=0.9,
                       angular_damping=0.7, use_margin=True, collision_margin=0.2)
    rock = native_body(h.mesh_object("Rock", "monkey", (3, 0, 0)), type="PASSIVE",
                       collision_shape="MESH", linear_damping=0.5, collision_margin=0.1)
    plain = native_body(h.mesh_object("Plain", location=(6, 0, 0)))  # Blender's defaults
    undamped = native_body(h.mesh_object("Undamped", location=(9, 0, 0)), linear_damping=0.0,
                           angular_damping=0.0)  # as glTF means
    marginless = native_body(h.mesh_object("Marginless", location=(12, 0, 0)),
                             type="PASSIVE", collision_shape="MESH", collision_margin=0.0)
    _changed, notes = convert.convert([buoy, rock, plain, undamped, marginless], FROM)
    assert buoy.gltf_physics.mass == 4.0
    assert notes == [
        "Buoy: not kept (glTF has none): linear damping 0.9, angular damping 0.7, collision "
        "margin 0.2 m",
        "Rock: not kept (glTF has none): collision margin 0.1 m",  # (a static body: no damping)
    ]


@pytest.mark.parametrize(("direction", "one", "several"), [
    (TO, "Crate0: the preview is active: remove it first; skipped",
     "The preview is active: remove it first; {} objects skipped: {}"),
    (FROM, "Crate0: part of the preview, skipped (remove the preview first)",
     "{} objects are part of the preview, skipped (remove the preview first): {}"),
])
def test_objects_skipped_during_the_preview_are_said_once(clean_scene, direction, one,
                                                           several):
    crates = [body(f"Crate{i}", 2 * i) for i in range(LIST_LIMIT + 2)]
    assert bpy.ops.gltf_physics.preview() == {"FINISHED"}
    assert convert.convert(crates[:1], direction) == ([], [one])
    changed, notes = convert.convert(crates[:3], direction)
    assert (changed, notes) == ([], [several.format(3, "Crate0, Crate1, Crate2")])
    changed, notes = convert.convert(crates, direction)
    listed = ", ".join(f"Crate{i}" for i in range(LIST_LIMIT)) + " and 2 more"
    assert (changed, notes) == ([], [several.format(LIST_LIMIT + 2, listed)])
    for crate in crates:
        crate.select_set(True)
    assert getattr(bpy.ops.gltf_physics, "to_native" if direction == TO else "from_native")(
    ) == {"CANCELLED"}  # "Nothing to convert"
