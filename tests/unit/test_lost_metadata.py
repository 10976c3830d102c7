# SPDX-License-Identifier: GPL-3.0-or-later
"""What no reader keeps of physics data (extras, nested extensions, names other than a pooled
entry's) is said once, at its first place, with the number of places: equal node payloads,
looked into once, still count once each."""

import copy

from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.lost_metadata import report_lost_metadata

BODIES = "KHR_physics_rigid_bodies"
BOX_WITH_EXTRAS = {"motion": {"mass": 2.0},
                   "collider": {"geometry": {"shape": 0}, "extras": {"studio": "crate"}}}


def level(*payloads: dict) -> dict:
    return {
        "asset": {"version": "2.0"},
        "nodes": [{"extensions": {BODIES: payload}} for payload in payloads],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "box", "name": "Crate",
                                                "box": {"size": [1, 1, 1]}}]},
            BODIES: {"physicsMaterials": [{"staticFriction": 0.5, "name": "Ice"}]},
        },
    }


def said(gltf: dict) -> list[tuple[str, str]]:
    report = Report()
    report_lost_metadata(DocumentView.from_json(gltf), report)
    return [(issue.where, issue.message.split("are not kept ")[1]) for issue in report.issues]


def test_pooled_names_are_kept_and_nothing_is_said() -> None:
    assert said(level({"motion": {}}, {"collider": {"geometry": {"shape": 0}}})) == []


def test_equal_payloads_count_once_each_and_the_first_place_is_named() -> None:
    payloads = [copy.deepcopy(BOX_WITH_EXTRAS) for _ in range(3)]
    payloads.append({"motion": {"extensions": {"EXT_x": {}}, "extras": 1}, "name": "b"})
    assert said(level({"motion": {}}, *payloads)) == [
        (f"/nodes/1/extensions/{BODIES}/collider/extras", "(6 place(s))")]


def test_root_places_come_first_and_a_root_name_outside_a_pool_counts() -> None:
    gltf = level(BOX_WITH_EXTRAS)
    gltf["extensions"][BODIES]["name"] = "Level physics"
    gltf["extensions"][BODIES]["physicsMaterials"][0]["extras"] = {"a": 1}
    assert said(gltf) == [(f"/extensions/{BODIES}/physicsMaterials/0/extras", "(3 place(s))")]


def test_a_payload_nested_deeper_than_python_recurses_is_looked_into() -> None:
    deep: dict = {"extras": "bottom"}
    for _ in range(5000):  # (too deep to key, and to walk by recursion)
        deep = {"a": deep}
    assert said(level({"collider": {"geometry": {"shape": 0}}, "motion": deep})) == [
        (f"/nodes/0/extensions/{BODIES}/motion" + "/a" * 5000 + "/extras", "(1 place(s))")]


def test_payloads_that_are_not_objects_say_nothing_and_raise_nothing() -> None:
    gltf = level(5, "text", None, [1, {"extras": 1}], {"collider": [0] * 1000})
    assert said(gltf) == [(f"/nodes/3/extensions/{BODIES}/1/extras", "(1 place(s))")]


def test_the_first_place_is_the_first_in_the_file_whatever_the_extension() -> None:
    """Root extensions and a node's extensions are looked at in the file's order (the
    reader's own list of extensions starts with OMI's)."""
    omi_body = "OMI_physics_body"
    gltf = level({"motion": {}})
    gltf["extensions"] = {BODIES: {"extras": 1}, omi_body: {"extras": 2}}
    assert said(gltf) == [(f"/extensions/{BODIES}/extras", "(2 place(s))")]
    gltf["extensions"] = {}
    gltf["nodes"] = [{"extensions": {BODIES: {"motion": {"extras": 1}},
                                     omi_body: {"motion": {"extras": 2}}}}]
    assert said(gltf) == [(f"/nodes/0/extensions/{BODIES}/motion/extras", "(2 place(s))")]
