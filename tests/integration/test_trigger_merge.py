# SPDX-License-Identifier: GPL-3.0-or-later
"""A node with a collider and a trigger comes back as one node: the import keeps the trigger
on a child Empty it tags (Blender holds one shape per object), and the export writes it back
beside the collider while that child is still the import's. A child moved, renamed or not
made by the import is the artist's and stays a node of its own."""

import importlib
import json

import bpy
import pytest

from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

ownership = importlib.import_module(f"{MODULE}.io.blender.tools.ownership")
Report = importlib.import_module(f"{MODULE}.io.diagnostics").Report
DocumentView = importlib.import_module(f"{MODULE}.io.document").DocumentView
decode_document = importlib.import_module(f"{MODULE}.io.codecs.registry").decode_document

GATE = {
    "KHR": {"extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
            "extensions": {"KHR_implicit_shapes": {"shapes": [
                {"type": "box", "box": {"size": [1.0, 2.0, 3.0]}},
                {"type": "sphere", "sphere": {"radius": 2.5}}]}},
            "physics": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 3.0}, "collider": {"geometry": {"shape": 0}},
                "trigger": {"geometry": {"shape": 1}}}}},
    "OMI": {"extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
            "extensions": {"OMI_physics_shape": {"shapes": [
                {"type": "box", "box": {"size": [1.0, 2.0, 3.0]}},
                {"type": "sphere", "sphere": {"radius": 2.5}}]}},
            "physics": {"OMI_physics_body": {
                "motion": {"type": "dynamic", "mass": 3.0}, "collider": {"shape": 0},
                "trigger": {"shape": 1}}}},
}


def gate_file(path, fmt: str) -> None:
    spec = GATE[fmt]
    path.write_text(json.dumps({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Gate", "translation": [1.0, 2.0, 3.0],
                   "extensions": spec["physics"]}],
        "extensionsUsed": spec["extensionsUsed"], "extensions": spec["extensions"]}))


def gate_parts(gltf: dict) -> dict:
    """Each physics node's collider and trigger, by node name (the decoder's model)."""
    nodes = decode_document(DocumentView.from_json(gltf), Report()).nodes
    return {gltf["nodes"][index]["name"]: (physics.collider, physics.trigger)
            for index, physics in nodes.items()}


@pytest.mark.parametrize("fmt", ["KHR", "OMI"])
def test_the_importers_trigger_child_goes_back_onto_its_node(clean_scene, tmp_path, fmt):
    source = tmp_path / "gate.gltf"
    gate_file(source, fmt)
    h.import_file(source)
    child = bpy.data.objects["Gate.trigger"]
    assert ownership.made_by(child, ownership.IMPORT_TRIGGER, bpy.data.objects["Gate"])
    out = tmp_path / "out.gltf"
    gltf = h.export(out, fmt)
    assert [node["name"] for node in gltf["nodes"]] == ["Gate"]
    assert gate_parts(gltf) == gate_parts(h.load_gltf(source))
    h.assert_valid(out)
    h.import_file(out)  # (and again: the same one node)
    assert [node["name"] for node in h.export(tmp_path / "again.gltf", fmt)["nodes"]] == ["Gate"]


def test_a_trigger_child_of_an_older_import_goes_back_too(clean_scene, tmp_path):
    """Files imported before the trigger child had a tag of its own carry the tag of the
    importer's other children: that child, named and placed as the import made it, is
    merged back too."""
    source = tmp_path / "gate.gltf"
    gate_file(source, "OMI")
    h.import_file(source)
    gate, child = bpy.data.objects["Gate"], bpy.data.objects["Gate.trigger"]
    ownership.mark(child, ownership.IMPORT_CHILD, gate)  # (as an older import tagged it)
    assert ownership.made_by(child, ownership.IMPORT_CHILD, gate)
    gltf = h.export(tmp_path / "out.gltf", "OMI")
    assert [node["name"] for node in gltf["nodes"]] == ["Gate"]
    assert gate_parts(gltf) == gate_parts(h.load_gltf(source))


@pytest.mark.parametrize("change", ["moved", "renamed", "renamed after", "untagged", "animated",
                                    "joint side"])
def test_a_trigger_child_the_artist_changed_stays_a_node_of_its_own(clean_scene, tmp_path,
                                                                     change):
    source = tmp_path / "gate.gltf"
    gate_file(source, "KHR")
    h.import_file(source)
    gate, child = bpy.data.objects["Gate"], bpy.data.objects["Gate.trigger"]
    if change == "moved":
        child.location = (0.0, 0.0, 1.0)
    elif change == "renamed":
        child.name = "Gate sensor"
    elif change == "renamed after":  # (the import's name kept at the front)
        child.name = "Gate.trigger_SpawnZone"
    elif change == "untagged":  # (an artist's own Empty named like the importer's)
        del child[ownership.MADE_BY], child[ownership.MADE_FOR]
    elif change == "animated":
        child.keyframe_insert("location", frame=1)
    else:
        hinge = h.set_physics(h.empty_object("Hinge", parent=gate), joint_type="HINGE")
        hinge.gltf_physics.joint_connected_body = child
    gltf = h.export(tmp_path / "out.gltf", "KHR")
    names = [node["name"] for node in gltf["nodes"]]
    assert child.name in names, names
    parts = gate_parts(gltf)
    assert parts[child.name][1] is not None and parts["Gate"][1] is None, parts


def test_each_instance_of_a_kit_gets_its_trigger_back(clean_scene, tmp_path):
    """The imported gate made a kit (a collection instanced twice): each instance's Gate
    node carries its trigger, and no instance writes the child."""
    from tests.integration.test_production_scenes_export import instancer, into_collection

    source = tmp_path / "gate.gltf"
    gate_file(source, "KHR")
    h.import_file(source)
    kit = bpy.data.collections.new("GateKit")
    into_collection([bpy.data.objects["Gate"], bpy.data.objects["Gate.trigger"]], kit)
    for number in (1, 2):
        instancer(f"Gate {number}", kit, (4.0 * number, 0.0, 0.0))
    out = tmp_path / "out.gltf"
    gltf = h.export(out, "KHR")
    names = [node["name"] for node in gltf["nodes"]]
    assert not [name for name in names if "trigger" in name], names
    triggers = [node for node in gltf["nodes"] if "trigger" in node.get("extensions", {}).get(
        "KHR_physics_rigid_bodies", {})]
    assert len(triggers) == 2 and all("collider" in node["extensions"][
        "KHR_physics_rigid_bodies"] for node in triggers), names
    h.assert_valid(out)
