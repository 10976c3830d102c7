# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex decomposition operator: parts, re-runs, scale, triggers, bad input, the modal run's
steps and cancel, and the greyed-out operator where CoACD is missing."""

import importlib
import sys
import time
import types

import bpy
import numpy as np
import pytest

from scripts import bench_decompose as meshes
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

pytest.importorskip("coacd", reason="coacd is not installed: make setup")


@pytest.fixture
def bridge():
    """The add-on's io.blender.tools.decomposition module."""
    return importlib.import_module(f"{MODULE}.io.blender.tools.decomposition")


@pytest.fixture
def core():
    """The add-on's io.decomposition module."""
    return importlib.import_module(f"{MODULE}.io.decomposition")


def torus_object(name="Torus", segments=16, rings=8, **physics):
    obj = meshes.mesh_object(name, *meshes.torus(1.0, 0.3, segments, rings))
    return h.set_physics(obj, **physics)


def select_only(*objs):
    for other in bpy.context.view_layer.objects:
        other.select_set(other in objs)
    bpy.context.view_layer.objects.active = objs[0]


def decompose(*objs, **options):
    select_only(*objs)
    return bpy.ops.gltf_physics.convex_decompose(**options)


def parts_of(obj):
    return sorted((c for c in obj.children if c.gltf_physics.shape_type != "NONE"),
                  key=lambda c: c.name)


def problems_of(scene) -> dict[str, set[str]]:
    bpy.ops.gltf_physics.validate()
    found: dict[str, set[str]] = {}
    for item in scene.gltf_physics.problems:
        found.setdefault(item.obj, set()).add(item.code)
    return found


def test_torus_becomes_a_compound_of_at_least_four_convex_parts(clean_scene):
    torus = torus_object(segments=96, rings=48, motion_type="DYNAMIC", shape_type="TRIMESH")
    assert problems_of(clean_scene) == {"Torus": {"moving-trimesh"}}
    assert decompose(torus) == {"FINISHED"}
    parts = parts_of(torus)
    figures = meshes.part_figures(parts)
    assert figures["parts"] >= 4 and figures["max_points"] <= 255
    exact = meshes.torus_volume(1.0, 0.3)
    assert abs(figures["volume"] / exact - 1.0) <= 0.25, figures
    for part in parts:
        props = part.gltf_physics
        assert part.parent == torus and part.matrix_parent_inverse == torus.matrix_parent_inverse
        assert (props.shape_type, props.mesh_source, props.shape_role) == (
            "CONVEX", "SELF", "COLLIDER")
        assert props.collision_only and part.hide_render and part.display_type == "WIRE"
        assert props.motion_type == "NONE"
    assert torus.gltf_physics.shape_type == "NONE" and len(torus.data.vertices) == 4608
    assert problems_of(clean_scene) == {}


def test_the_moving_mesh_fix_decomposes_and_the_list_is_clean_at_once(clean_scene):
    torus = torus_object(motion_type="KINEMATIC", shape_type="TRIMESH")
    problems = clean_scene.gltf_physics.problems
    assert problems_of(clean_scene) == {"Torus": {"moving-trimesh"}}
    assert problems[0].fix == "convex-decompose"
    assert bpy.ops.gltf_physics.problem_fix("INVOKE_DEFAULT", index=0) == {"FINISHED"}
    assert len(parts_of(torus)) >= 4 and list(problems) == []  # refreshed in the same call


def test_a_new_run_replaces_the_parts_and_they_keep_material_and_filter(clean_scene):
    torus = torus_object(motion_type="DYNAMIC", shape_type="CONVEX", use_material=True,
                         dynamic_friction=0.9, restitution=0.3, use_filter=True)
    torus.gltf_physics.filter_layers[2] = True
    select_only(torus)
    bpy.ops.gltf_physics.simplify_hull()
    proxy = torus.gltf_physics.mesh_object.name
    assert decompose(torus) == {"FINISHED"}
    assert proxy not in bpy.data.objects  # the single hull's proxy went with its shape
    assert torus.gltf_physics.mesh_object is None
    first = {p.name for p in parts_of(torus)}
    assert decompose(torus, max_parts=4) == {"FINISHED"}
    parts = parts_of(torus)
    assert 1 <= len(parts) <= 4
    assert not (first - {p.name for p in parts}) & set(bpy.data.objects.keys())
    assert not [m for m in bpy.data.meshes if m.users == 0]
    for part in parts:
        props = part.gltf_physics
        assert props.use_material and props.dynamic_friction == pytest.approx(0.9)
        assert props.restitution == pytest.approx(0.3)
        assert props.use_filter and props.filter_layers[2] and not props.filter_layers[0]
    assert decompose(parts[0], max_parts=4) == {"FINISHED"}  # a selected part runs its object
    assert len(parts_of(torus)) == len(parts) and not parts_of(parts_of(torus)[0])


def test_scale_is_honoured_and_the_parts_live_in_object_space(clean_scene):
    torus = torus_object(motion_type="DYNAMIC")
    torus.scale = (2.0, 1.0, 0.5)
    bpy.context.view_layer.update()
    assert decompose(torus) == {"FINISHED"}
    parts = parts_of(torus)
    bpy.context.view_layer.update()
    figures = meshes.part_figures(parts)  # world space: the volume scales by 2 × 1 × 0.5
    assert abs(figures["volume"] / meshes.torus_volume(1.0, 0.3) - 1.0) <= 0.25
    local = np.vstack([[v.co[:] for v in part.data.vertices] for part in parts])
    assert np.abs(local[:, 2]).max() <= 0.3 + 1e-3  # object space, not world
    assert np.abs(local[:, 0]).max() <= 1.3 + 1e-3


def test_a_trigger_becomes_a_compound_trigger_of_trigger_parts(clean_scene):
    zone = torus_object("Zone", shape_type="TRIMESH", shape_role="TRIGGER", use_filter=True)
    zone.gltf_physics.filter_layers[1] = True
    assert decompose(zone) == {"FINISHED"}
    props = zone.gltf_physics
    assert props.is_compound_trigger and not props.use_filter and props.shape_type == "NONE"
    for part in parts_of(zone):
        assert part.gltf_physics.shape_role == "TRIGGER"
        assert part.gltf_physics.use_filter and part.gltf_physics.filter_layers[1]
    assert problems_of(clean_scene) == {}


def _unchanged(obj, shape="TRIMESH"):
    return obj.gltf_physics.shape_type == shape and not obj.children


def test_bad_input_gives_a_message_and_leaves_the_object_as_it_was(clean_scene, monkeypatch):
    plane = meshes.mesh_object("Plane", np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0]]),
                               np.array([[0, 1, 2, 3]]), np.empty((0, 3), dtype=int))
    h.set_physics(plane, motion_type="DYNAMIC", shape_type="TRIMESH")
    with pytest.raises(RuntimeError, match="Plane has no volume"):
        decompose(plane)
    assert _unchanged(plane)
    points, quads, _ = meshes.torus(1.0, 0.3, 16, 8)
    holed = meshes.mesh_object("Holed", points, quads[1:], np.empty((0, 3), dtype=int))
    h.set_physics(holed, motion_type="DYNAMIC", shape_type="TRIMESH")
    with pytest.raises(RuntimeError, match=r"Holed is not watertight \(4 open edges\)"):
        decompose(holed, preprocess="OFF")
    assert _unchanged(holed)
    flat = torus_object("Squashed", motion_type="DYNAMIC", shape_type="TRIMESH")
    flat.scale = (1.0, 1.0, 0.0)
    bpy.context.view_layer.update()
    with pytest.raises(RuntimeError, match="Squashed has zero scale"):
        decompose(flat)
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "raise")  # CoACD raises in the child
    good = torus_object("Good", motion_type="DYNAMIC", shape_type="TRIMESH")
    with pytest.raises(RuntimeError, match="Good CoACD failed: test failure"):
        decompose(good)
    assert _unchanged(good)
    monkeypatch.undo()
    assert decompose(good, plane) == {"FINISHED"}  # one bad object does not stop the others
    assert parts_of(good) and _unchanged(plane)


def test_a_large_mesh_is_announced(clean_scene, bridge, core, monkeypatch):
    monkeypatch.setattr(core, "LARGE_TRIANGLES", 100)
    torus = torus_object()
    run = bridge.DecompositionRun.prepare([torus], core.Settings(),
                                          bpy.context.evaluated_depsgraph_get())
    assert run.warnings == ["Torus has 256 triangles: the decomposition may take minutes"]
    assert len(run.sources) == 1 and run.errors == []


def test_the_modal_run_steps_off_the_main_thread_and_cancel_changes_nothing(
        clean_scene, bridge, core):
    torus = torus_object(motion_type="DYNAMIC", shape_type="TRIMESH")
    depsgraph = bpy.context.evaluated_depsgraph_get()
    run = bridge.DecompositionRun.prepare([torus], core.Settings(), depsgraph)
    assert run.step() is False  # started: the main thread is free again at once
    job = run.job
    assert run.status().startswith("Convex decomposition of Torus (1/1)")
    run.cancel()
    job.wait(120)
    assert run.step() is True and run.apply() == {}
    assert _unchanged(torus)
    run = bridge.DecompositionRun.prepare([torus], core.Settings(), depsgraph)
    seen = []
    while not run.step():  # what the modal operator's timer does
        seen.append(run.progress)
        time.sleep(0.05)
    assert seen == sorted(seen) and run.progress == 1.0
    made = run.apply()
    assert list(made) == ["Torus"] and made["Torus"] == parts_of(torus)
    assert "UNDO" in bpy.types.GLTF_PHYSICS_OT_convex_decompose.bl_options


# -- the CoACD child process -------------------------------------------------------------


@pytest.fixture
def children(monkeypatch):
    """The CoACD child processes the add-on starts, recorded."""
    child = importlib.import_module(f"{MODULE}.io.coacd_child")
    started = []
    real = child.subprocess.Popen

    def recording(*args, **kwargs):
        started.append(real(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(child.subprocess, "Popen", recording)
    return started


def state_of_blend():
    """What a failed or cancelled run must leave as it was."""
    return {obj.name: (obj.parent and obj.parent.name, obj.data and obj.data.name,
                       obj.gltf_physics.shape_type, obj.gltf_physics.is_compound_trigger,
                       len(obj.data.vertices) if obj.type == "MESH" else 0)
            for obj in bpy.data.objects} | {"meshes": sorted(m.name for m in bpy.data.meshes)}


def modal_operator(run, reports):
    """The operator's own modal code driven like Blender's event loop drives it."""
    cls = bpy.types.GLTF_PHYSICS_OT_convex_decompose
    wm = bpy.context.window_manager
    op = types.SimpleNamespace(_run=run, _timer=wm.event_timer_add(1.0, window=None),
                               report=lambda kind, text: reports.append((*kind, text)))
    op._stop = lambda context: cls._stop(op, context)
    op._finish = lambda context, done: cls._finish(op, context, done)
    wm.progress_begin(0, 100)
    run.step()
    return lambda kind: cls.modal(op, bpy.context, types.SimpleNamespace(type=kind,
                                                                         value="PRESS"))


def test_a_crash_in_coacd_ends_the_child_only_and_changes_nothing(
        clean_scene, bridge, core, monkeypatch, children):
    torus = torus_object(motion_type="DYNAMIC", shape_type="TRIMESH")
    torus_object("Other", shape_role="TRIGGER", shape_type="TRIMESH")
    before = state_of_blend()
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "abort")  # the child calls os.abort()
    with pytest.raises(RuntimeError, match=r"Torus CoACD crashed \(SIGABRT\)"):
        decompose(torus)
    assert [c.returncode for c in children] == [-6] and state_of_blend() == before
    reports = []
    event = modal_operator(bridge.DecompositionRun.prepare(
        [torus], core.Settings(), bpy.context.evaluated_depsgraph_get()), reports)
    while (result := event("TIMER")) == {"RUNNING_MODAL"}:
        time.sleep(0.05)
    assert result == {"CANCELLED"} and state_of_blend() == before
    assert reports == [("ERROR", "Torus CoACD crashed (SIGABRT); Blender and your data are "
                        "unharmed")]
    monkeypatch.undo()
    assert decompose(torus) == {"FINISHED"} and parts_of(torus)  # the next run works


def test_esc_kills_the_child_at_once_and_queued_objects_never_start(
        clean_scene, bridge, core, children):
    first = meshes.mesh_object("Big", *meshes.torus(**meshes.TORUS))  # ~5 s of CoACD
    h.set_physics(first, motion_type="DYNAMIC", shape_type="TRIMESH")
    queued = torus_object("Queued", motion_type="DYNAMIC", shape_type="TRIMESH")
    before = state_of_blend()
    reports = []
    event = modal_operator(bridge.DecompositionRun.prepare(
        [first, queued], core.Settings(), bpy.context.evaluated_depsgraph_get()), reports)
    assert event("MOUSEMOVE") == {"PASS_THROUGH"}
    deadline = time.monotonic() + 30
    while not children and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(children) == 1 and children[0].poll() is None  # CoACD is running
    pressed = time.monotonic()
    assert event("ESC") == {"CANCELLED"}
    assert children[0].returncode == -9 and time.monotonic() - pressed < 1.0
    assert reports == [("WARNING", "Convex decomposition cancelled: nothing was changed")]
    time.sleep(0.5)
    assert len(children) == 1 and state_of_blend() == before  # "Queued" never started


@pytest.mark.parametrize("change", ["mesh", "shape", "part in edit mode", "unlinked"])
def test_an_object_changed_while_it_runs_is_left_as_it_was(clean_scene, bridge, core, change):
    """The modal run reads the mesh when it starts and Blender stays usable: a mesh edited
    meanwhile got parts of the old mesh, a Box set meanwhile was replaced, an old part in
    Edit Mode stayed beside the new ones as a live collider, all unsaid."""
    torus = torus_object(motion_type="DYNAMIC", shape_type="TRIMESH", segments=12, rings=6)
    settings = core.Settings(threshold=0.2, resolution=300, max_parts=3)
    if change == "part in edit mode":
        assert decompose(torus, threshold=0.2, resolution=300, max_parts=3) == {"FINISHED"}
    reports = []
    event = modal_operator(bridge.DecompositionRun.prepare(
        [torus], settings, bpy.context.evaluated_depsgraph_get()), reports)
    if change == "mesh":
        for vertex in torus.data.vertices:
            vertex.co.z += 2.0
        torus.data.update()
    elif change == "shape":
        torus.gltf_physics.shape_type = "BOX"
    elif change == "unlinked":  # (its parts went to the current scene without it)
        for collection in torus.users_collection:
            collection.objects.unlink(torus)
    else:
        select_only(parts_of(torus)[0])
        bpy.ops.object.mode_set(mode="EDIT")
    before = state_of_blend()
    while (result := event("TIMER")) == {"RUNNING_MODAL"}:
        time.sleep(0.05)
    if change == "part in edit mode":
        bpy.ops.object.mode_set(mode="OBJECT")
    assert result == {"CANCELLED"} and state_of_blend() == before
    [(kind, message)] = reports
    assert kind == "ERROR" and message.startswith("Torus was left as it was: ")


@pytest.mark.parametrize("change", ["excluded", "edit mode, untouched", "disabled"])
def test_an_object_only_looked_at_while_it_runs_gets_its_parts(clean_scene, bridge, core,
                                                               change):
    """The check re-read the evaluated mesh in the context's view layer: an object excluded,
    in Edit Mode with a Decimate modifier, or disabled in viewports was "edited", and
    minutes of CoACD work were thrown away."""
    torus = torus_object(motion_type="DYNAMIC", shape_type="TRIMESH", segments=12, rings=6)
    torus.modifiers.new("Less", "DECIMATE").ratio = 0.9
    settings = core.Settings(threshold=0.2, resolution=300, max_parts=3)
    reports = []
    event = modal_operator(bridge.DecompositionRun.prepare(
        [torus], settings, bpy.context.evaluated_depsgraph_get()), reports)
    if change == "excluded":
        holder = bpy.data.collections.new("Holder")
        bpy.context.scene.collection.children.link(holder)
        holder.objects.link(torus)
        bpy.context.scene.collection.objects.unlink(torus)
        bpy.context.view_layer.layer_collection.children["Holder"].exclude = True
    elif change == "edit mode, untouched":
        select_only(torus)
        bpy.ops.object.mode_set(mode="EDIT")
    else:
        torus.hide_viewport = True
    while (result := event("TIMER")) == {"RUNNING_MODAL"}:
        time.sleep(0.05)
    if change == "edit mode, untouched":
        bpy.ops.object.mode_set(mode="OBJECT")
    assert result == {"FINISHED"}, reports
    assert parts_of(torus)


def test_greyed_out_with_the_reason_where_coacd_is_missing(clean_scene, core, monkeypatch):
    torus = torus_object()
    select_only(torus)
    assert bpy.ops.gltf_physics.convex_decompose.poll()
    core.missing_reason.cache_clear()
    monkeypatch.setitem(sys.modules, "coacd", None)
    try:
        assert core.missing_reason()
        assert not bpy.ops.gltf_physics.convex_decompose.poll()
    finally:
        monkeypatch.undo()
        core.missing_reason.cache_clear()
    assert bpy.ops.gltf_physics.convex_decompose.poll()
    select_only(h.empty_object("Empty"))
    assert not bpy.ops.gltf_physics.convex_decompose.poll()


def test_the_object_menu_offers_it(clean_scene):
    entries = [f.__module__ for f in bpy.types.VIEW3D_MT_object._dyn_ui_initialize()]
    assert f"{MODULE}.panels.object_menu" in entries


@pytest.mark.parametrize("how", ["is_repeat", "is_repeat_last"])
def test_a_redo_or_repeat_in_the_ui_is_refused_not_run_blocking(clean_scene, monkeypatch, how):
    """The Adjust Last Operation panel (or Repeat Last) called execute, which ran CoACD on
    the main thread: Blender frozen, no progress, no Esc."""
    module = importlib.import_module(f"{MODULE}.operators.decomposition")
    monkeypatch.setattr(module, "_interactive", lambda context: True)
    torus = torus_object(motion_type="DYNAMIC", shape_type="TRIMESH")
    select_only(torus)
    reports = []
    op = type("Redone", (types.SimpleNamespace,), {"dialog_target": 0})(
        target_uid=0, options=types.SimpleNamespace(is_repeat=how == "is_repeat",
                                                    is_repeat_last=how == "is_repeat_last"),
        report=lambda kind, text: reports.append((*kind, text)))
    cls = bpy.types.GLTF_PHYSICS_OT_convex_decompose
    assert cls.execute(op, bpy.context) == {"CANCELLED"}
    assert _unchanged(torus) and reports[0][0] == "WARNING" \
        and "is not redone or repeated" in reports[0][1]
