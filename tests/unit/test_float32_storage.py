# SPDX-License-Identifier: GPL-3.0-or-later
"""What Blender keeps of a decoded file's numbers (float32): a number never becomes 0 or
loses its sign, one beyond float32 becomes its largest, and each change is said once."""

import math
import struct

from hypothesis import given
from hypothesis import strategies as st

from gltf_physics.io.diagnostics import Report
from gltf_physics.io.float32_storage import LARGEST, SMALLEST, Float32Storage, storable
from gltf_physics.io.model import Motion, NodePhysics


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
