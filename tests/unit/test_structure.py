# SPDX-License-Identifier: GPL-3.0-or-later
"""The structural rules shared by the exporter, the importer and the converter."""

import pytest

from gltf_physics.io.structure import joint_needs_own_node, kind_in_target, static_partner


@pytest.mark.parametrize(("kind", "target", "moves", "expected"), [
    ("static", "KHR", True, "kinematic"), ("static", "KHR", False, "static"),
    ("static", "OMI", True, "static"), ("dynamic", "KHR", True, "dynamic"),
])
def test_static_under_a_moving_body(kind: str, target: str, moves: bool, expected: str) -> None:
    assert kind_in_target(kind, target, moves) == expected


def test_omi_joints_get_their_own_node() -> None:
    assert joint_needs_own_node("OMI", frame_is_plain=False)
    assert not joint_needs_own_node("OMI", frame_is_plain=True)
    assert not joint_needs_own_node("KHR", frame_is_plain=False)


def test_static_partner_is_the_nearest_collider_or_the_root_where_required() -> None:
    chain = ["frame", "collider", "root"]
    assert static_partner(chain, lambda n: n == "collider", body_required=False) == "collider"
    assert static_partner(chain, lambda n: False, body_required=False) is None
    assert static_partner(chain, lambda n: False, body_required=True) == "root"
