# SPDX-License-Identifier: GPL-3.0-or-later
"""Shaped gravity towards a capsule or cylinder pulls towards the nearest point of the shape
itself, tapered ones too (a capsule is the convex hull of its two spheres, a tapered
cylinder a cone's frustum): against a dense sampling of each shape's section. The pull used
the mean of the two radii."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gltf_physics.io import capsule
from gltf_physics.io.gravity import _nearest_on_shape
from gltf_physics.io.model import Shape

SHAPES = [("capsule", 0.6, 0.4, 0.25), ("capsule", 1.0, 0.0, 0.5), ("capsule", 0.2, 0.3, 1.0),
          ("capsule", 1.0, 0.5, 0.5), ("cylinder", 1.0, 0.2, 0.6), ("cylinder", 2.0, 0.0, 0.5)]


def section(kind: str, height: float, top: float, bottom: float) -> np.ndarray:
    """Points of the shape's half-section boundary, (distance from the axis, height)."""
    half = height / 2
    if kind == "capsule":  # the two circles, by angle, where no slice of the solid is wider
        angle = np.linspace(-math.pi / 2, math.pi / 2, 40001)
        points = np.concatenate([np.stack([radius * np.cos(angle), centre + radius *
                                           np.sin(angle)], axis=1)
                                 for centre, radius in ((-half, bottom), (half, top))])
        wider = capsule.radii(points[:, 1], half, bottom, top) > points[:, 0] + 1e-9
        side = np.linspace(0.0, 1.0, 20001)[:, None]
        touch = capsule.side(half, bottom, top)
        lines = [] if touch is None else [np.array(touch[0]) + side * (
            np.array(touch[1]) - np.array(touch[0]))]
        return np.concatenate([points[~wider], *lines])
    y = np.linspace(-half, half, 20001)
    side = np.stack([bottom + (top - bottom) * (y + half) / height, y], axis=1)
    caps = [np.stack([np.linspace(0, r, 5001), np.full(5001, z)], axis=1)
            for r, z in ((bottom, -half), (top, half))]
    return np.concatenate([side, *caps])


@pytest.mark.parametrize("kind, height, top, bottom", SHAPES)
@settings(max_examples=40, deadline=None)
@given(point=st.tuples(*[st.floats(-3, 3)] * 3))
@example(point=(0.0, 1.0, 1.7460478790748162e-181))  # (on a capsule's top: either answer)
def test_the_pull_goes_to_the_nearest_point_of_the_shape(kind, height, top, bottom, point):
    p = np.array(point)
    shape = Shape(kind=kind, height=height, radius_top=top, radius_bottom=bottom)
    nearest = _nearest_on_shape(shape, p)
    r, y = math.hypot(p[0], p[2]), p[1]
    boundary = section(kind, height, top, bottom)
    distance = float(np.min(np.hypot(boundary[:, 0] - r, boundary[:, 1] - y)))
    inside = inside_solid(kind, height, top, bottom, r, y)
    # (within 1e-9 of the surface either answer holds: the point is its own nearest)
    on_surface = len({inside_solid(kind, height, top, bottom, r + dr, y + dy)
                      for dr in (-1e-9, 1e-9) for dy in (-1e-9, 1e-9)}) > 1
    assert np.array_equal(nearest, p) == inside or on_surface
    assert float(np.linalg.norm(nearest - p)) == pytest.approx(0.0 if inside else distance,
                                                              abs=2e-4)
    if r > 1e-9:  # (in the plane of the axis and the point, on the point's side)
        assert nearest[0] * p[2] - nearest[2] * p[0] == pytest.approx(0.0, abs=1e-9)
        assert nearest[0] * p[0] + nearest[2] * p[2] >= -1e-12


def inside_solid(kind: str, height: float, top: float, bottom: float, r: float, y: float
                 ) -> bool:
    half = height / 2
    if kind == "capsule":
        ends = (min(-half - bottom, half - top), max(half + top, -half + bottom))
        return ends[0] <= y <= ends[1] and r <= float(capsule.radii(np.array([y]), half,
                                                                    bottom, top)[0])
    return -half <= y <= half and r <= bottom + (top - bottom) * (y + half) / height
