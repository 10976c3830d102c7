# SPDX-License-Identifier: GPL-3.0-or-later
"""Fit Now on a whole selection: only analytic shapes with a mesh are fitted; wheels,
joints, seats and hulls are not its business, and an Empty's custom shape needs no mesh."""

import bpy
import pytest

from tests.integration import scene_helpers as h


def run_fit(capfd, active) -> tuple[set[str], list[str]]:
    bpy.ops.object.select_all(action="SELECT")
    bpy.context.view_layer.objects.active = active
    capfd.readouterr()
    result = bpy.ops.gltf_physics.fit_shape()
    out = capfd.readouterr()
    lines = [line for line in (out.out + out.err).splitlines()
             if line.startswith(("Info:", "Warning:", "Error:"))]
    return result, lines


def test_fit_now_on_everything_reports_only_what_concerns_shapes(clean_scene, capfd):
    crate = h.mesh_object("Crate", "cube", size=2.0)
    h.set_physics(crate, motion_type="DYNAMIC", shape_type="BOX")
    hull = h.mesh_object("Rock", "sphere", (3, 0, 0))
    h.set_physics(hull, motion_type="DYNAMIC", shape_type="CONVEX")
    wheel = h.empty_object("Crate.wheel0", (1, 1, 0), parent=crate)
    h.set_physics(wheel, vehicle_part="WHEEL")
    hinge = h.empty_object("Hinge", parent=crate)
    h.set_physics(hinge, joint_type="HINGE", joint_connected_body=hull)
    seat = h.empty_object("Seat", parent=crate)
    h.set_physics(seat, is_seat=True)
    zone = h.empty_object("Zone", (0, 6, 0))
    h.set_physics(zone, shape_type="BOX", shape_role="TRIGGER", size_mode="CUSTOM",
                  box_size=(4, 2, 1))
    result, lines = run_fit(capfd, crate)
    assert result == {"FINISHED"}
    assert lines == ["Info: Fitted 1 shape(s); custom dimensions kept (no mesh): Zone"]
    assert tuple(crate.gltf_physics.box_size) == pytest.approx((2, 2, 2))
    assert crate.gltf_physics.size_mode == "CUSTOM"
    assert tuple(zone.gltf_physics.box_size) == pytest.approx((4, 2, 1))
    assert hull.gltf_physics.size_mode == "FIT"  # a hull is not an analytic shape: untouched


def test_fit_now_warns_about_an_empty_left_to_fit_to_a_mesh(clean_scene, capfd):
    crate = h.mesh_object("Crate", "cube")
    h.set_physics(crate, shape_type="BOX")
    ball = h.empty_object("Ball")
    h.set_physics(ball, shape_type="SPHERE")  # Fit to Mesh with no mesh
    result, lines = run_fit(capfd, crate)
    assert result == {"FINISHED"}
    assert lines == ["Warning: No mesh to fit, set Custom dimensions: Ball",
                     "Info: Fitted 1 shape(s)"]
    assert ball.gltf_physics.size_mode == "FIT"
    bpy.ops.object.select_all(action="DESELECT")  # the Empty alone: nothing fitted
    ball.select_set(True)
    bpy.context.view_layer.objects.active = ball
    assert bpy.ops.gltf_physics.fit_shape() == {"CANCELLED"}
    assert capfd.readouterr().out.count("No mesh to fit, set Custom dimensions: Ball") == 1


def test_fit_now_keeps_the_custom_size_of_a_mesh_without_vertices(clean_scene, capfd):
    """A mesh emptied (no vertices) has zero bounds: Fit Now keeps the custom 4 m box and
    says so (it made it 0.1 mm and reported a fit)."""
    hollow = bpy.data.objects.new("Hollow", bpy.data.meshes.new("Hollow"))
    bpy.context.scene.collection.objects.link(hollow)
    h.set_physics(hollow, shape_type="BOX", size_mode="CUSTOM", box_size=(4, 4, 4))
    result, lines = run_fit(capfd, hollow)
    assert result == {"CANCELLED"}
    assert lines == ["Warning: No mesh to fit; custom dimensions kept: Hollow"]
    assert tuple(hollow.gltf_physics.box_size) == pytest.approx((4, 4, 4))
