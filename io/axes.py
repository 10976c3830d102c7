# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender (Z-up) ↔ glTF (Y-up) conversion of physics values. Pure tuple math.

The glTF exporter conjugates every node transform by the same proper rotation, so every
node-local vector, including pseudo-vectors such as angular velocity, maps the same way.
With `yup=False` every function is the identity.
"""

from __future__ import annotations

from .model import Quat, Vec3


def vector_to_gltf(v: Vec3, yup: bool = True) -> Vec3:
    """A point or direction: (x, y, z) → (x, z, −y)."""
    x, y, z = v
    return (x, z, -y) if yup else (x, y, z)


def vector_to_blender(v: Vec3, yup: bool = True) -> Vec3:
    """A point or direction: (x, y, z) → (x, −z, y)."""
    x, y, z = v
    return (x, -z, y) if yup else (x, y, z)


def extent_swap(v: Vec3, yup: bool = True) -> Vec3:
    """Unsigned per-axis values (box size, inertia diagonal): swap Y and Z; its own inverse."""
    x, y, z = v
    return (x, z, y) if yup else (x, y, z)


def quat_to_gltf(q_wxyz: tuple[float, float, float, float], yup: bool = True) -> Quat:
    """A Blender quaternion (w, x, y, z) → a glTF quaternion [x, y, z, w]."""
    w, x, y, z = q_wxyz
    return (x, z, -y, w) if yup else (x, y, z, w)


def quat_to_blender(q_xyzw: Quat, yup: bool = True) -> tuple[float, float, float, float]:
    """A glTF quaternion [x, y, z, w] → a Blender quaternion (w, x, y, z)."""
    x, y, z, w = q_xyzw
    return (w, x, -z, y) if yup else (w, x, y, z)


#: Blender joint axis → (glTF axis, sign) when converting to +Y up; the inverse table below.
_JOINT_TO_GLTF = {0: (0, 1.0), 1: (2, -1.0), 2: (1, 1.0)}
_JOINT_TO_BLENDER = {0: (0, 1.0), 1: (2, 1.0), 2: (1, -1.0)}


def joint_axis_to_gltf(axis: int, yup: bool = True) -> tuple[int, float]:
    """A joint frame axis index: X → 0, Y → 2 (reversed), Z → 1, with the direction's sign."""
    return _JOINT_TO_GLTF[axis] if yup else (axis, 1.0)


def joint_axis_to_blender(axis: int, yup: bool = True) -> tuple[int, float]:
    """A glTF joint frame axis index: 0 → X, 1 → Z, 2 → Y (reversed), with the sign."""
    return _JOINT_TO_BLENDER[axis] if yup else (axis, 1.0)
