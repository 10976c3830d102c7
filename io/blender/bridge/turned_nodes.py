# SPDX-License-Identifier: GPL-3.0-or-later
"""Physics on a camera's or light's node: glTF cameras and lights look down their -Z,
Blender's down their -Y, so the glTF add-on turns such a node a quarter turn about X from
its object's frame on export (`NodeIndex.turn_of`) and back on import (its
`camera_correction`). Physics is set in the object's frame and written in the node's."""

import math
from dataclasses import replace

from mathutils import Quaternion

from ... import axes
from ...gravity import Gravity
from ...model import IDENTITY, Motion, NodePhysics, Quat, Vec3
from ...vehicle_model import VehicleNode


class TurnedBack:
    """Values of one frame (glTF axes) in a frame turned by `turn` from it (Blender axes):
    an object's in its turned node's (export), a node's in its turned object's (import).
    The turn is a quarter turn: a vector moves by a signed permutation (its matrix snapped
    to whole numbers: mathutils holds it in float32), in Python floats: a value keeps its
    digits."""

    def __init__(self, turn: Quaternion, yup: bool) -> None:
        x, y, z, w = axes.quat_to_gltf(tuple(turn.inverted()), yup)
        rotation = Quaternion((w, x, y, z))
        self._rows = tuple(tuple(_snapped(value) for value in row)
                           for row in rotation.to_matrix())
        #: the turn as a glTF quaternion [x, y, z, w], in Python floats (0, ±1 or ±√½)
        self.rotation = tuple(_snapped_part(value) for value in (x, y, z, w))

    def vector(self, value: Vec3) -> Vec3:
        x, y, z = value
        return tuple(a * x + b * y + c * z + 0.0  # (+ 0.0: no -0.0 from a sign)
                     for a, b, c in self._rows)  # type: ignore[return-value]

    def quat(self, value: Quat | None) -> Quat | None:
        """A rotation [x, y, z, w] from the object's frame, in the node's, of unit length;
        None for none (the identity)."""
        bx, by, bz, bw = value if value is not None else (0.0, 0.0, 0.0, 1.0)
        ax, ay, az, aw = self.rotation
        q = (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
             aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)
        length = math.sqrt(sum(part * part for part in q))
        if not 0.0 < length < math.inf:  # (a file's zero or huge quaternion: none)
            return None
        x, y, z, w = (part / length + 0.0 for part in q)
        if abs(abs(w) - 1.0) < 1e-12:
            return None
        return (x, y, z, w)

    def motion(self, motion: Motion) -> Motion:
        """`motion`'s node-space values (centre of mass, inertia axes, velocities) in the
        turned node's frame."""
        centre = motion.center_of_mass
        orientation = motion.inertia_orientation  # (of a stated diagonal only)
        return replace(
            motion,
            center_of_mass=None if centre is None else self.vector(centre),
            inertia_orientation=orientation if motion.inertia_diagonal is None
            else self.quat(orientation) or IDENTITY,
            linear_velocity=self.vector(motion.linear_velocity),
            angular_velocity=self.vector(motion.angular_velocity))

    def vehicle(self, node: VehicleNode) -> VehicleNode:
        """A vehicle node's node-space vectors (a vehicle body's activations and gyro
        torque, a seat's points) in the turned node's frame."""
        body, seat, turn = node.vehicle_body, node.seat, self.vector
        if body is not None:
            body = replace(body, angular_activation=turn(body.angular_activation),
                           linear_activation=turn(body.linear_activation),
                           gyro_torque=turn(body.gyro_torque))
        if seat is not None:
            seat = replace(seat, back=turn(seat.back), foot=turn(seat.foot),
                           knee=turn(seat.knee))
        return replace(node, vehicle_body=body, seat=seat)

    def gravity(self, volume: Gravity) -> Gravity:
        """A gravity volume's node-space direction and points in the turned frame, and a
        box shape's size (a quarter turn swaps two sides); a round or mesh shape's axis is
        left as it is (a shape cannot turn on its node)."""
        shape = volume.shape
        if shape is not None and shape.kind == "box" and shape.size is not None:
            size = self.vector(shape.size)
            shape = replace(shape, size=(abs(size[0]), abs(size[1]), abs(size[2])))
        direction = self.vector(volume.direction) if volume.kind == "directional" \
            else volume.direction  # (another kind's is unused: kept as it is)
        return replace(volume, direction=direction,
                       points=tuple(map(self.vector, volume.points)), shape=shape)

    def body(self, physics: NodePhysics) -> NodePhysics:
        return physics if physics.motion is None else replace(
            physics, motion=self.motion(physics.motion))


def _snapped_part(value: float) -> float:
    """A quarter turn's quaternion part as the number it stands for: 0, ±1 or ±√½."""
    for exact in (0.0, 1.0, math.sqrt(0.5)):
        if abs(abs(value) - exact) < 1e-6:
            return math.copysign(exact, value) if exact else 0.0
    return value


def _snapped(value: float) -> float:
    """A quarter turn's matrix entry as the whole number it stands for (any other kept)."""
    return float(round(value)) if abs(value - round(value)) < 1e-6 else value
