# SPDX-License-Identifier: GPL-3.0-or-later
"""A capsule's solid is the convex hull of its two capping spheres (KHR_implicit_shapes; what
engines build a tapered capsule as): volume, centroid and second moments against the hull
of points on both spheres, and exactly the textbook capsule when the radii are equal."""

import math

import numpy as np
import pytest

from gltf_physics.io.hull import fibonacci_directions, hull_triangles
from gltf_physics.io.mass_properties import mesh_part, shape_part
from gltf_physics.io.model import Shape


def capsule(height: float, bottom: float, top: float):
    return shape_part(Shape(kind="capsule", height=height, radius_bottom=bottom,
                            radius_top=top))


def hull_of_spheres(height: float, bottom: float, top: float):
    directions = fibonacci_directions(1500)
    points = np.vstack([directions * bottom + (0.0, -height / 2, 0.0),
                        directions * top + (0.0, height / 2, 0.0)])
    return mesh_part(hull_triangles(points))


@pytest.mark.parametrize("height, bottom, top", [
    (0.6, 0.25, 0.4),  # the KHR sample's DynamicTaperedCapsule
    (1.0, 0.0, 0.4), (0.5, 0.3, 0.0),  # a point at one end
    (0.2, 1.0, 0.3),  # one sphere holds the other
])
def test_a_tapered_capsule_is_the_hull_of_its_spheres(height, bottom, top) -> None:
    part, hull = capsule(height, bottom, top), hull_of_spheres(height, bottom, top)
    assert part.volume == pytest.approx(hull.volume, rel=6e-3)
    assert part.centroid == pytest.approx(hull.centroid, abs=1e-3)
    assert np.diag(part.second_moment) == pytest.approx(np.diag(hull.second_moment), rel=1e-2)


def test_the_sample_capsules_centre_is_the_hulls() -> None:
    """The frustum-between-centres form put it at 0.1533 (4.5 mm off)."""
    assert capsule(0.6, 0.25, 0.4).centroid[1] == pytest.approx(0.14878, abs=2e-5)


def test_an_even_capsule_is_a_cylinder_with_two_hemispheres() -> None:
    r, h = 0.5, 1.0
    part = capsule(h, r, r)
    assert part.volume == pytest.approx(math.pi * r * r * h + 4.0 / 3.0 * math.pi * r ** 3,
                                         rel=1e-6)
    assert part.centroid == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
