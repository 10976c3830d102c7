# SPDX-License-Identifier: GPL-3.0-or-later
"""A capsule as the convex hull of its two capping spheres (KHR_implicit_shapes; what
engines build a tapered capsule as): where its straight side touches them, and its radius at
any height. Along the capsule's own axis, the spheres of radius `bottom` at −`half` and
`top` at +`half`. Pure numpy."""

from __future__ import annotations

import math

import numpy as np


def side(half: float, bottom: float, top: float
         ) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """(radius, height) where the side touches the bottom and the top sphere, and the
    angle its outward normal leans towards the top by; None when one sphere holds the
    other (there is no side)."""
    lean = (bottom - top) / (2.0 * half) if half > 0 else math.inf  # sine of that angle
    if abs(lean) >= 1.0:
        return None
    along = math.sqrt(1.0 - lean * lean)
    return (bottom * along, -half + bottom * lean), (top * along, half + top * lean), \
        math.asin(lean)


def radii(heights: np.ndarray, half: float, bottom: float, top: float) -> np.ndarray:
    """The capsule's radius at each of `heights` (0 outside it)."""
    r = np.maximum(np.sqrt(np.clip(bottom ** 2 - (heights + half) ** 2, 0.0, None)),
                   np.sqrt(np.clip(top ** 2 - (heights - half) ** 2, 0.0, None)))
    touch = side(half, bottom, top)
    if touch is None:
        return r
    (r0, y0), (r1, y1), _lean = touch
    t = np.clip((heights - y0) / (y1 - y0), 0.0, 1.0)
    return np.where((heights >= y0) & (heights <= y1), np.maximum(r, r0 + (r1 - r0) * t), r)
