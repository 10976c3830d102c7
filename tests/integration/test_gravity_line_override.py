# SPDX-License-Identifier: GPL-3.0-or-later
"""Line gravity points on a library override: the points that come from the library cannot
be removed (Blender keeps only the override's own additions), so Remove Line Point is greyed
out with the reason and refuses once, changing nothing; the override's own points can go."""

from pathlib import Path

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.test_production_scenes_tools import refused, select, state


def _overridden_line(tmp_path: Path) -> bpy.types.Object:
    """A line gravity trigger 'Snake' with 2 points, linked from a library and overridden."""
    bpy.ops.wm.read_homefile(use_empty=True)
    snake = bpy.data.objects.new("Snake", None)
    bpy.context.scene.collection.objects.link(snake)
    props = snake.gltf_physics
    props.shape_type, props.shape_role, props.gravity_type = "SPHERE", "TRIGGER", "LINE"
    for co in ((0.0, 0.0, 0.0), (0.0, 0.0, 3.0)):
        props.gravity_line_points.add().co = co
    snake = h.overridden_from_library(snake, tmp_path / "snake.blend")
    select(snake)
    return snake


def test_an_override_removes_only_the_line_points_it_added(clean_scene, tmp_path: Path) -> None:
    snake = _overridden_line(tmp_path)
    props = snake.gltf_physics
    assert snake.override_library is not None and snake.is_editable
    for index in (0, 1):  # both from the library
        props.gravity_active_point = index
        before = state()
        assert not bpy.ops.gltf_physics.gravity_point_remove.poll()
        message = refused(bpy.ops.gltf_physics.gravity_point_remove)
        assert f"Line point {index + 1} of Snake comes from the library" in message, message
        assert state() == before
        assert [tuple(p.co) for p in props.gravity_line_points] == [(0, 0, 0), (0, 0, 3)]
    props.gravity_active_point = 1
    assert bpy.ops.gltf_physics.gravity_point_add() == {"FINISHED"}
    assert len(props.gravity_line_points) == 3
    props.gravity_active_point = 2
    assert bpy.ops.gltf_physics.gravity_point_remove.poll()
    assert bpy.ops.gltf_physics.gravity_point_remove() == {"FINISHED"}  # its own point
    assert [tuple(p.co) for p in props.gravity_line_points] == [(0, 0, 0), (0, 0, 3)]


def test_copy_points_refuses_to_replace_the_library_points(clean_scene, tmp_path: Path) -> None:
    snake = _overridden_line(tmp_path)
    curve = bpy.data.curves.new("Spine", "CURVE")
    curve.splines.new("POLY").points.add(2)
    spine = bpy.data.objects.new("Spine", curve)
    bpy.context.scene.collection.objects.link(spine)
    snake.gltf_physics.gravity_line_object = spine
    before = state()
    message = refused(bpy.ops.gltf_physics.gravity_points_from_object)
    assert "Line point 1 of Snake comes from the library" in message, message
    assert "its points cannot be replaced; nothing was changed" in message
    assert state() == before


def test_a_point_added_on_an_override_goes_after_the_library_points(clean_scene,
                                                                    tmp_path: Path) -> None:
    """With a library point selected, Add Line Point places the new point after the
    library's (an override keeps its additions there): it can be removed again, and removing
    a library point still refuses, without a traceback (it raised one)."""
    snake = _overridden_line(tmp_path)
    props = snake.gltf_physics
    props.gravity_active_point = 0
    assert bpy.ops.gltf_physics.gravity_point_add() == {"FINISHED"}
    assert [tuple(p.co) for p in props.gravity_line_points] == [(0, 0, 0), (0, 0, 3),
                                                                (0, 0, 1)]
    assert props.gravity_active_point == 2
    assert bpy.ops.gltf_physics.gravity_point_remove() == {"FINISHED"}
    props.gravity_active_point = 1
    message = refused(bpy.ops.gltf_physics.gravity_point_remove)
    assert "Line point 2 of Snake comes from the library" in message
    assert [tuple(p.co) for p in props.gravity_line_points] == [(0, 0, 0), (0, 0, 3)]


def test_a_line_object_converted_to_another_type_raises_nothing(clean_scene) -> None:
    """The picked line mesh is converted to a point cloud (the pointer follows it; on 4.2 a
    script picks an Empty): Check
    Physics and export raise nothing (they did), and Copy Points refuses, keeping the list."""
    snake = h.set_physics(h.empty_object("Snake"), shape_type="SPHERE", shape_role="TRIGGER",
                          gravity_type="LINE")
    for co in ((0.0, 0.0, 0.0), (0.0, 0.0, 3.0)):
        snake.gltf_physics.gravity_line_points.add().co = co
    line = h.mesh_object("Line", location=(0, 0, 5))
    snake.gltf_physics.gravity_line_object = line
    bpy.context.view_layer.update()
    select(line)
    targets = bpy.ops.object.convert.get_rna_type().properties["target"].enum_items.keys()
    if "POINTCLOUD" in targets:
        assert bpy.ops.object.convert(target="POINTCLOUD", keep_original=False) == {"FINISHED"}
    else:  # Blender 4.2 converts a mesh to no such type: a script picks an Empty instead
        snake.gltf_physics.gravity_line_object = h.empty_object("Marker")
    converted = snake.gltf_physics.gravity_line_object
    assert converted.type not in ("MESH", "CURVE")
    snake.gltf_physics.gravity_line_source = "OBJECT"
    assert bpy.ops.gltf_physics.validate() == {"FINISHED"}
    select(snake)
    message = refused(bpy.ops.gltf_physics.gravity_points_from_object)
    assert f"{converted.name} is a {converted.type.lower()} now" in message
    assert len(snake.gltf_physics.gravity_line_points) == 2


def test_what_an_override_adds_to_its_lists_survives_a_reload(clean_scene, tmp_path: Path
                                                              ) -> None:
    """Line points and joint limits and drives added on an override are kept by a save and
    a reload, in their order, each with its values (Blender matched the items by their empty
    names: 3 points added came back 2, after the library's first point)."""
    snake, hinge = bpy.data.objects.new("Snake", None), bpy.data.objects.new("Hinge", None)
    props = snake.gltf_physics
    props.shape_type, props.shape_role, props.gravity_type = "SPHERE", "TRIGGER", "LINE"
    for co in ((0.0, 0.0, 0.0), (0.0, 0.0, 3.0)):
        props.gravity_line_points.add().co = co
    hinge.gltf_physics.joint_type = "CUSTOM"
    h.overridden_kit([snake, hinge], tmp_path / "kit.blend")
    overridden = h.overridden
    select(overridden("Snake"))
    for active in (1, 2, 3):
        overridden("Snake").gltf_physics.gravity_active_point = active
        assert bpy.ops.gltf_physics.gravity_point_add() == {"FINISHED"}
    select(overridden("Hinge"))
    for kind in ("LIMITS", "LIMITS", "LIMITS", "DRIVES", "DRIVES"):
        assert bpy.ops.gltf_physics.joint_item_add(items=kind) == {"FINISHED"}
    joint = overridden("Hinge").gltf_physics
    for index, limit in enumerate(joint.joint_limits):
        limit.min_distance = -1.0 - index
    joint.joint_drives[1].stiffness = 7.0
    points = [tuple(p.co) for p in overridden("Snake").gltf_physics.gravity_line_points]
    assert len(points) == 5
    blend = str(tmp_path / "level.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend)
    bpy.ops.wm.open_mainfile(filepath=blend)
    assert [tuple(p.co) for p in overridden("Snake").gltf_physics.gravity_line_points] \
        == points
    joint = overridden("Hinge").gltf_physics
    assert [limit.min_distance for limit in joint.joint_limits] == [-1, -2, -3]
    assert [drive.stiffness for drive in joint.joint_drives] == [pytest.approx(0.0), 7.0]
