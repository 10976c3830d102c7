# SPDX-License-Identifier: GPL-3.0-or-later
"""What Blender keeps of a decoded file's numbers (float32): a number never becomes 0 or
loses its sign, one beyond float32 becomes its largest, and each change is said once per field
and value, however many nodes state it, giving exactly the number stored."""

import math
import re
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gltf_physics.io.diagnostics import Report
from gltf_physics.io.float32_storage import LARGEST, SMALLEST, Float32Storage, storable
from gltf_physics.io.gravity import WorldGravity
from gltf_physics.io.model import Collider, Motion, NodePhysics, Shape


def as_float32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_storable_number_keeps_its_sign_and_being_nonzero(value: float) -> None:
    stored = storable(value)
    single = as_float32(stored)  # (never overflows)
    assert math.copysign(1.0, single) == math.copysign(1.0, value)
    assert (single == 0.0) == (value == 0.0)
    assert stored == value or abs(single) in (SMALLEST, LARGEST)


def test_values_blender_stores_as_they_are_are_kept() -> None:
    for value in (0.0, -0.0, 1.0, 1e-40, -3e38, math.inf, -math.inf):
        assert storable(value) == value
    assert math.isnan(storable(math.nan))


def test_a_model_is_fixed_once_and_said_once_per_field() -> None:
    report = Report()
    shared = NodePhysics(motion=Motion(kind="dynamic", mass=1e-60,
                                       linear_velocity=(1e40, 0.0, 0.0)))
    nodes = {0: shared, 1: shared, 2: NodePhysics(motion=Motion(kind="dynamic", mass=2.0))}
    untouched = nodes[2]
    Float32Storage(report).fix_nodes(nodes)
    assert nodes[0] is nodes[1] and nodes[2] is untouched
    assert nodes[0].motion.mass == SMALLEST
    assert nodes[0].motion.linear_velocity == (LARGEST, 0.0, 0.0)
    assert sorted(report.codes()) == ["number-below-float32", "number-beyond-float32"]
    assert report.issues[0].where == "/nodes/0"
    assert all(issue.message.endswith("(2 nodes: /nodes/0, /nodes/1)") for issue in report.issues)


def test_one_value_many_nodes_state_is_said_once() -> None:
    """300 bodies, each its own motion, stating one huge velocity: one line giving the count
    and the first nodes (not 100 lines and "200 more not listed"); another value, its own."""
    report = Report()
    nodes = {i: NodePhysics(motion=Motion(kind="dynamic", mass=1.0 + i,
                                          linear_velocity=(1e300, 0.0, 0.0)))
             for i in range(300)}
    nodes[300] = NodePhysics(motion=Motion(kind="dynamic", linear_velocity=(-1e300, 0.0, 0.0)))
    Float32Storage(report).fix_nodes(nodes)
    assert all(node.motion.linear_velocity[0] in (LARGEST, -LARGEST) for node in nodes.values())
    assert report.unlisted == {} and len(report.issues) == 2
    many, one = report.issues
    assert (many.where, one.where) == ("/nodes/0", "/nodes/300")
    assert many.message.endswith("(300 nodes: /nodes/0, /nodes/1, /nodes/2 and 297 more)")
    assert "nodes" not in one.message


@pytest.mark.parametrize("value", [1e300, -3.5e38, 1e-300, -7.006492321624085e-46, 5e-324])
def test_the_report_gives_exactly_the_number_stored(value: float) -> None:
    """The number a report says is stored is the same float32 Blender stores (and an export
    writes): 3.4028235e+38, not 3.40282e+38, which is another float32."""
    report = Report()
    nodes = {0: NodePhysics(motion=Motion(kind="dynamic", gravity_factor=value))}
    Float32Storage(report).fix_nodes(nodes)
    stored = nodes[0].motion.gravity_factor
    (said,) = re.findall(r"stored as (\S+)", report.issues[0].message)
    assert as_float32(float(said)) == as_float32(stored) != 0.0
    assert repr(value) in report.issues[0].message


def test_a_value_outside_the_nodes_is_said_where_it_is() -> None:
    report = Report()
    fixed = Float32Storage(report).of(WorldGravity(gravity=1e-300), "world gravity")
    assert fixed.gravity == SMALLEST
    assert [issue.where for issue in report.issues] == ["world gravity"]


def test_a_node_stating_a_value_twice_is_counted_once() -> None:
    report = Report()
    Float32Storage(report).fix_nodes({0: Shape(kind="box", size=(1e-50, 1e-50, 1.0)),
                                      1: Shape(kind="box", size=(1e-50, 1.0, 1.0))})
    [issue] = report.issues
    assert issue.message.endswith("(2 nodes: /nodes/0, /nodes/1)")


def test_one_number_filling_two_fields_is_said_once() -> None:
    """A pre-2025 cylinder's one `radius` of 1e39 fills both radii: it was said twice, as
    Blender's radius_top and radius_bottom."""
    report = Report()
    cylinder = Shape("cylinder", height=1.0, radius_top=1e39, radius_bottom=1e39)
    Float32Storage(report).fix_nodes({0: NodePhysics(collider=Collider(cylinder))})
    [issue] = report.issues
    assert "radius_top and collider.shape.radius_bottom 1e+39" in issue.message
