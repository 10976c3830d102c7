# SPDX-License-Identifier: GPL-3.0-or-later
"""What the physics of a glTF document means to an engine, and how two documents differ.

`physics_meaning` decodes a document (any OMI or KHR revision) and resolves it: bodies by
node name with the engine-computed centre of mass filled in, colliders and triggers as
world-space geometry with the body they belong to, joints by the bodies they join and their
world frames. `meaning_differences` lists what differs between two documents as readable
strings; [] means the same physics. A static body with no moving ancestor is the same as no
body (KHR's only form of static). Pure numpy, no bpy.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from dataclasses import astuple, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gltf_physics.io.asset_files import read_asset
from gltf_physics.io.codecs.registry import decode_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.document_mass import body_solid
from gltf_physics.io.joints import split_limits
from gltf_physics.io.mesh_data import MeshData
from gltf_physics.io.model import Joint, JointDrive, JointLimit, PhysicsMaterial, Shape
from gltf_physics.io.node_graph import NodeGraph, compose, decompose

TOLERANCE = 1e-4  # relative and absolute, for lengths, values and rotation matrix entries
Vec3 = tuple[float, float, float]


# -- the resolved meaning ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Inertia:
    """An inertia tensor as its locked principal subspace (a projector onto the axes of
    infinite moment) and its finite part, both 3×3."""

    locked: np.ndarray
    finite: np.ndarray

    def rotated(self, rotation: np.ndarray) -> Inertia:
        """The same tensor expressed in a frame rotated by `rotation`."""
        return Inertia(rotation @ self.locked @ rotation.T, rotation @ self.finite @ rotation.T)

    def __str__(self) -> str:
        values, vectors = np.linalg.eigh(self.locked)
        locked = [v * np.sign(v[np.argmax(abs(v))]) for v, value in zip(vectors.T, values,
                                                                       strict=True) if value > 0.5]
        return f"{_fmt(self.finite)}" + (f" locked along {_fmt(locked)}" if locked else "")


@dataclass(eq=False)
class ShapeMeaning:
    """A shape's kind and its world geometry: each feature a set of rows (order-free)."""

    kind: str
    features: dict[str, np.ndarray]


@dataclass(eq=False)
class BodyMeaning:
    """A body (a node with non-static motion, or a static one under a moving body)."""

    name: str
    kind: str
    world: np.ndarray
    mass: float | None  # None computed by the engine, math.inf infinite
    center_of_mass: Vec3 | None  # body-local; computed without volume: the origin
    inertia: Inertia | None  # as written; None computed
    computed_inertia: Inertia | None  # what the engine computes, for a finite mass
    linear_velocity: Vec3
    angular_velocity: Vec3
    gravity_factor: float


@dataclass(eq=False)
class ColliderMeaning:
    """A collider or trigger on a node; `body` None is the static world."""

    node: str
    trigger: bool
    body: str | None
    shape: ShapeMeaning | None  # None for a compound trigger
    members: tuple[str, ...]  # compound trigger members (names, sorted)
    material: PhysicsMaterial | None
    filter: tuple[tuple[str, ...], ...] | None

    @property
    def label(self) -> str:
        return f"{'trigger' if self.trigger else 'collider'} {self.node!r}"


@dataclass(eq=False)
class JointMeaning:
    """A joint: the two bodies (None = world) and their world frames (rigid 4×4)."""

    node: str
    bodies: tuple[str | None, str | None]
    frames: tuple[np.ndarray, np.ndarray]
    enable_collision: bool
    limits: tuple[JointLimit, ...]
    drives: tuple[JointDrive, ...]

    @property
    def label(self) -> str:
        a, b = (name or "world" for name in self.bodies)
        return f"joint {self.node!r} ({a} to {b})"


@dataclass(eq=False)
class Meaning:
    """A document's resolved physics. Colliders are keyed by ("collider"|"trigger", node)."""

    bodies: dict[str, BodyMeaning] = field(default_factory=dict)
    colliders: dict[tuple[str, str], ColliderMeaning] = field(default_factory=dict)
    joints: list[JointMeaning] = field(default_factory=list)


# -- building it -------------------------------------------------------------------------------


def node_labels(gltf: dict[str, Any]) -> list[str]:
    """Node names as Blender imports them: the name, else Node_<index>; repeated names get
    Blender's .001, .002 suffixes in document order."""
    labels: list[str] = []
    seen: set[str] = set()
    for index, node in enumerate(gltf.get("nodes") or []):
        name = node.get("name") if isinstance(node, dict) else None
        base = name if isinstance(name, str) and name else f"Node_{index}"
        label, count = base, 0
        while label in seen:
            count += 1
            label = f"{base}.{count:03d}"
        seen.add(label)
        labels.append(label)
    return labels


def physics_meaning(
    gltf: dict[str, Any], base_dir: Path | str | None = None, binary: bytes | None = None
) -> Meaning:
    """Resolve a parsed glTF document. Mesh shapes read their buffers from `base_dir`,
    data: URIs or the GLB `binary` chunk (ValueError when unavailable)."""
    return _Resolver(gltf, base_dir, binary).meaning()


class _Resolver:
    """One document's decoded physics, node names, world matrices and meshes."""

    def __init__(self, gltf: dict[str, Any], base_dir: Path | str | None, binary: bytes | None):
        self.scene = decode_document(DocumentView.from_json(gltf), Report())
        self.graph, self.names = NodeGraph.of(gltf), node_labels(gltf)
        self.meshes = MeshData(gltf, base_dir, binary)
        self.world = functools.cache(self.graph.world)
        self.motions = {i: p.motion for i, p in self.scene.nodes.items() if p.motion is not None}
        moving = {i for i, m in self.motions.items() if m.kind != "static"}
        self.bodies = {i for i in self.motions if i in moving or any(
            a in moving for a in list(self.graph.ancestors_or_self(i))[1:])}

    def body_of(self, index: int) -> int | None:
        """The nearest body at or above a node; None for the static world."""
        return next((a for a in self.graph.ancestors_or_self(index) if a in self.bodies), None)

    def body_name(self, index: int) -> str | None:
        body = self.body_of(index)
        return None if body is None else self.names[body]

    def meaning(self) -> Meaning:
        meaning, solids = Meaning(), defaultdict(list)
        for i, physics in self.scene.nodes.items():
            for kind, item in (("collider", physics.collider), ("trigger", physics.trigger)):
                if item is None or (kind == "collider" and item.shape is None):
                    continue  # an OMI compound parent `collider: {}` adds nothing itself
                shape = item.shape and _shape_meaning(item.shape, self.world(i), self.meshes)
                flt = item.filter and tuple(tuple(sorted(s)) for s in astuple(item.filter))
                members = tuple(sorted(self.names[m] for m in getattr(item, "nodes", ())))
                meaning.colliders[(kind, self.names[i])] = ColliderMeaning(
                    self.names[i], kind == "trigger", self.body_name(i), shape, members,
                    getattr(item, "material", None), flt)
                if kind == "collider" and self.body_of(i) is not None:
                    solids[self.body_of(i)].append((i, item.shape))
        for i in sorted(self.bodies):
            meaning.bodies[self.names[i]] = self.body(i, solids[i])
        meaning.joints = [self.joint(i, p.joint) for i, p in self.scene.nodes.items()
                          if p.joint is not None]
        return meaning

    def body(self, index: int, solids: list[tuple[int, Shape]]) -> BodyMeaning:
        """A body, its computed centre and inertia from the volume of its colliders."""
        m, center, computed = self.motions[index], self.motions[index].center_of_mass, None
        finite_mass = m.mass is not None and 0 < m.mass < math.inf
        if center is None or (m.inertia_diagonal is None and finite_mass):
            to_body = np.linalg.pinv(self.world(index))
            whole = body_solid(((self.world(node), shape) for node, shape in solids), to_body,
                               self.meshes)
            if whole is not None:
                center = center or tuple(float(v) for v in whole.centroid)
                computed = Inertia(np.zeros((3, 3)), whole.inertia(m.mass)) if finite_mass \
                    else None
            center = center or (0.0, 0.0, 0.0)  # no collider volume: the body origin
        inertia = m.inertia_diagonal and _inertia(m.inertia_diagonal, m.inertia_orientation)
        return BodyMeaning(self.names[index], m.kind, self.world(index), m.mass, center,
                           inertia, computed, m.linear_velocity, m.angular_velocity,
                           m.gravity_factor)

    def joint(self, index: int, joint: Joint) -> JointMeaning:
        """A joint; a v1 joint names its two bodies and shares one frame, its node."""
        other = index if joint.connected_node is None else joint.connected_node
        sides = joint.legacy_bodies or (index, other)
        return JointMeaning(
            self.names[index], (self.body_name(sides[0]), self.body_name(sides[1])),
            (_rigid(self.world(index)), _rigid(self.world(other))),
            joint.enable_collision, split_limits(joint.settings.limits), joint.settings.drives)


def _inertia(diagonal: Vec3, orientation: tuple[float, ...]) -> Inertia:
    axes = compose((0, 0, 0), orientation, (1, 1, 1))[:3, :3]  # columns: principal axes
    locked, finite = np.zeros((3, 3)), np.zeros((3, 3))
    for k, moment in enumerate(diagonal):
        outer = np.outer(axes[:, k], axes[:, k])
        if math.isinf(moment):
            locked += outer
        else:
            finite += moment * outer
    return Inertia(locked, finite)


def _rigid(matrix: np.ndarray) -> np.ndarray:
    """The matrix without its scale: rotation and translation."""
    translation, rotation, _scale, _exact = decompose(matrix)
    return compose(translation, rotation, (1.0, 1.0, 1.0))


def _shape_meaning(shape: Shape, world: np.ndarray, meshes: MeshData) -> ShapeMeaning:
    """World geometry: box corners; sphere centre and radii; capsule and cylinder axis ends
    with their radii; plane normal, offset and corners; a convex hull's bounds; a triangle
    mesh's bounds, area and area centroid."""
    linear = world[:3, :3]

    def at(points: Any) -> np.ndarray:
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        return points @ linear.T + world[:3, 3]

    kind, features = shape.kind, {}
    if kind == "box":
        signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
        features["corners"] = at(signs * np.array(shape.size) / 2)
    elif kind == "sphere":
        radii = np.sort(np.linalg.svd(linear, compute_uv=False)) * shape.radius
        features["centre and radii"] = np.concatenate([at((0, 0, 0))[0], radii])[None]
    elif kind in ("capsule", "cylinder"):
        radial = np.sort(np.linalg.svd(linear[:, [0, 2]], compute_uv=False))
        ends = at([(0, shape.height / 2, 0), (0, -shape.height / 2, 0)])
        radii = np.outer([shape.radius_top, shape.radius_bottom], radial)
        features["axis ends and radii"] = np.hstack([ends, radii])
    elif kind == "plane":
        normal = np.linalg.pinv(linear).T @ (0.0, 1.0, 0.0)
        normal /= np.linalg.norm(normal)
        row = np.append(normal, normal @ world[:3, 3])
        features["normal and offset"] = np.array([row, -row] if shape.double_sided else [row])
        if shape.size_x is not None or shape.size_z is not None:
            half = np.array([(shape.size_x or 0.0) / 2, 0.0, (shape.size_z or 0.0) / 2])
            features["corners"] = at([half * (x, 1, z) for x in (-1, 1) for z in (-1, 1)])
    elif kind in ("convex", "trimesh"):
        points, triangles = meshes.mesh(shape.mesh)
        placed_points = at(points)
        features["bounds"] = np.array([placed_points.min(axis=0), placed_points.max(axis=0)])
        if kind == "trimesh":
            tri = at(triangles).reshape(-1, 3, 3)
            areas = np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
            total = float(areas.sum()) / 2
            centre = (areas[:, None] * tri.mean(axis=1)).sum(axis=0) / max(areas.sum(), 1e-30)
            features["area and area centroid"] = np.append(total, centre)[None]
    return ShapeMeaning(kind, features)


# -- comparing ---------------------------------------------------------------------------------


def meaning_differences(
    first: dict[str, Any], first_dir: Path | str | None,
    second: dict[str, Any], second_dir: Path | str | None, target: str | None = None, *,
    first_binary: bytes | None = None, second_binary: bytes | None = None,
) -> list[str]:
    """What differs in meaning from the `first` document to the `second`; [] when nothing.

    With `target` ("KHR" or "OMI", the family `second` was written in), a difference the
    target cannot express ends with "(<target> cannot express this)"."""
    return compare_meanings(physics_meaning(first, first_dir, first_binary),
                            physics_meaning(second, second_dir, second_binary), target)


def file_differences(first: Path | str, second: Path | str, target: str | None = None
                     ) -> list[str]:
    """`meaning_differences` of two .gltf or .glb files."""
    (a, a_bin), (b, b_bin) = read_asset(first), read_asset(second)
    return meaning_differences(a, Path(first).parent, b, Path(second).parent, target,
                               first_binary=a_bin, second_binary=b_bin)


def compare_meanings(a: Meaning, b: Meaning, target: str | None = None) -> list[str]:
    """The differences between two resolved documents (see `meaning_differences`)."""
    out = _Diffs(target.upper() if target else None)
    for name in sorted(a.bodies.keys() | b.bodies.keys()):
        if name not in b.bodies or name not in a.bodies:
            out.add(f"body {name!r}: only in the {'first' if name in a.bodies else 'second'}"
                    " document")
        else:
            _compare_bodies(a.bodies[name], b.bodies[name], out)
    for key in sorted(a.colliders.keys() & b.colliders.keys()):
        _compare_colliders(a.colliders[key], b.colliders[key], out)
    only_b = [b.colliders[k] for k in sorted(b.colliders.keys() - a.colliders.keys())]
    for x in (a.colliders[k] for k in sorted(a.colliders.keys() - b.colliders.keys())):
        twin = next((y for y in only_b if y.trigger == x.trigger  # on a renamed node
                     and not _compare_colliders(x, y, _Diffs(None)).lines), None)
        if twin is None:
            out.add(f"{x.label}: only in the first document")
        else:
            only_b.remove(twin)
    out.lines += [f"{y.label}: only in the second document" for y in only_b]
    unmatched = list(b.joints)
    for x in a.joints:
        candidates = [(_compare_joints(x, y, _Diffs(out.target)).lines, y) for y in unmatched
                      if y.bodies == x.bodies]
        if not candidates:
            out.add(f"{x.label}: only in the first document")
            continue
        lines, twin = min(candidates, key=lambda c: len(c[0]))
        out.lines += lines
        unmatched.remove(twin)
    out.lines += [f"{y.label}: only in the second document" for y in unmatched]
    return out.lines


@dataclass
class _Diffs:
    target: str | None
    lines: list[str] = field(default_factory=list)

    def add(self, text: str, lossy: str = "") -> None:
        """Record a difference; `lossy` names the families that cannot express the first."""
        if self.target and self.target in lossy.split():
            text += f" ({self.target} cannot express this)"
        self.lines.append(text)

    def check(self, subject: str, what: str, a: Any, b: Any, lossy: str = "",
              none: str = "auto") -> None:
        if not _same(a, b):
            self.add(f"{subject}: {what} {_fmt(a, none)} != {_fmt(b, none)}", lossy)


def _compare_bodies(x: BodyMeaning, y: BodyMeaning, out: _Diffs) -> None:
    s, rx, ry = f"body {x.name!r}", _rigid(x.world)[:3, :3], _rigid(y.world)[:3, :3]
    infinite = x.mass is not None and math.isinf(x.mass)
    out.check(s, "kind", x.kind, y.kind,
              "KHR" if x.kind == "static" else "OMI" if infinite else "")
    out.check(s, "mass", x.mass, y.mass, "OMI" if x.mass is None or math.isinf(x.mass)
              else "KHR" if x.mass <= 0 else "")  # KHR has no mass of 0 or less (OMI's)
    out.check(s, "world centre of mass", _point(x.world, x.center_of_mass),
              _point(y.world, y.center_of_mass))
    ix, iy = x.inertia, y.inertia
    if (ix is None) != (iy is None):
        ix, iy = ix or x.computed_inertia, iy or y.computed_inertia
    locked = x.inertia is not None and bool(x.inertia.locked.any())
    # A finite moment of 0 or less (OMI's) KHR cannot say: each locked axis counts as 1 here.
    unsayable = x.inertia is not None and np.linalg.eigvalsh(
        x.inertia.finite + x.inertia.locked).min() <= 0
    out.check(s, "world inertia", ix and ix.rotated(rx), iy and iy.rotated(ry),
              "OMI" if locked else "KHR" if unsayable else "")
    out.check(s, "world linear velocity", rx @ x.linear_velocity, ry @ y.linear_velocity)
    out.check(s, "world angular velocity", rx @ x.angular_velocity, ry @ y.angular_velocity)
    out.check(s, "gravity factor", x.gravity_factor, y.gravity_factor)


def _point(world: np.ndarray, local: Vec3 | None) -> np.ndarray | None:
    return None if local is None else world[:3, :3] @ local + world[:3, 3]


def _compare_colliders(x: ColliderMeaning, y: ColliderMeaning, out: _Diffs) -> _Diffs:
    s = x.label
    out.check(s, "body", x.body, y.body, none="static world")
    if x.shape is None or y.shape is None or x.shape.kind != y.shape.kind:
        out.check(s, "shape", x.shape and x.shape.kind, y.shape and y.shape.kind,
                  "OMI" if x.shape and x.shape.kind == "plane" else "", none="compound")
    else:
        for key in sorted(x.shape.features.keys() | y.shape.features.keys()):
            fx, fy = x.shape.features.get(key), y.shape.features.get(key)
            if fx is None or fy is None or not _same_rows(fx, fy):
                out.add(f"{s}: {x.shape.kind} {key} {_fmt(fx, 'none')} != {_fmt(fy, 'none')}")
    out.check(s, "members", x.members, y.members)
    if x.material is None or y.material is None:
        out.check(s, "material", x.material, y.material, none="engine default")
    else:
        for name in (f.name for f in fields(PhysicsMaterial)):
            a, b = getattr(x.material, name), getattr(y.material, name)
            lossy = "OMI" if name.endswith("_combine") and a is None else ""
            out.check(s, name.replace("_", " "), a, b, lossy, none="engine default")
    out.check(s, "filter", x.filter, y.filter, none="none")
    return out


def _compare_joints(x: JointMeaning, y: JointMeaning, out: _Diffs) -> _Diffs:
    s = x.label
    out.check(s, "joint frame", x.frames[0], y.frames[0])
    out.check(s, "connected frame", x.frames[1], y.frames[1])
    out.check(s, "enable collision", x.enable_collision, y.enable_collision)
    out.check(s, "limits", x.limits, y.limits)
    out.check(s, "drives", x.drives, y.drives)
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal within TOLERANCE, recursively (None, strings and booleans exactly)."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str | bool) or isinstance(b, str | bool):
        return type(a) is type(b) and a == b
    if is_dataclass(a) or is_dataclass(b):
        return type(a) is type(b) and _same(_values(a), _values(b))
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return len(a) == len(b) and all(_same(p, q) for p, q in zip(a, b, strict=True))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=TOLERANCE, atol=TOLERANCE))


def _values(item: Any) -> tuple[Any, ...]:
    return tuple(getattr(item, f.name) for f in fields(item))


def _same_rows(a: np.ndarray, b: np.ndarray) -> bool:
    """The same set of rows, in any order."""
    if a.shape != b.shape:
        return False
    near = np.isclose(a[:, None, :], b[None, :, :], rtol=TOLERANCE, atol=TOLERANCE).all(axis=2)
    return bool(near.any(axis=1).all() and near.any(axis=0).all())


def _fmt(value: Any, none: str = "auto") -> str:
    if value is None:
        return none
    if isinstance(value, bool | str | Inertia):
        return repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, int | float):
        return "inf" if math.isinf(value) else f"{value + 0.0:.6g}"  # no -0
    if isinstance(value, JointLimit):
        axes = (f"linear {list(value.linear_axes)}" if value.linear_axes
                else f"angular {list(value.angular_axes)}")
        text = f"{axes} {_fmt(value.min, '-inf')}..{_fmt(value.max, 'inf')}"
        if value.stiffness is not None:
            text += f" stiffness {_fmt(value.stiffness)}"
        return text + (f" damping {_fmt(value.damping)}" if value.damping else "")
    if isinstance(value, np.ndarray) and value.shape == (4, 4):
        translation, rotation, _scale, _exact = decompose(value)
        return f"at {_fmt(translation)} rotation {_fmt(rotation)}"
    if isinstance(value, tuple | list | np.ndarray):
        return "[" + ", ".join(_fmt(v, none) for v in value) + "]"
    return repr(value)
