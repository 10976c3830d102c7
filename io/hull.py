# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex hull simplification for engines that cap hull colliders (255 points). Pure numpy.

`simplify_hull` keeps at most `max_points` of the input points: a quickhull stopped early.
It starts from the extreme points along a few dozen spread directions, then repeatedly adds
the outside point whose tetrahedron on its face adds the most volume; a kept point that the
growing hull swallows is dropped again. Every kept point is a vertex of the kept hull, whose
volume comes out of the same construction.
`discard_interior` is an exact pre-filter that thins large point sets for a hull algorithm.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

ENGINE_MAX_POINTS = 255
RELATIVE_EPS = 1e-7  # coordinates are float32 in Blender and in glTF
PREFILTER_DIRECTIONS = 48
PREFILTER_SAMPLE = 2000  # points tested before filtering all of them
PREFILTER_MIN_GAIN = 0.9  # skip the filter when this share of the sample would stay
SEED_DIRECTIONS = 48
_CHUNK = 8192


@dataclass(frozen=True, slots=True)
class HullResult:
    """Kept points (rows of the input, in input order) and the hull volumes.

    `degenerate` is True when the input has no volume (fewer than 4 distinct points, or all
    on one plane or line): its points are returned unchanged and both volumes are 0.
    """

    points: np.ndarray
    indices: np.ndarray
    volume_before: float
    volume_after: float
    degenerate: bool = False

    @property
    def volume_error(self) -> float:
        """Relative volume lost by the simplification, 0..1."""
        if self.volume_before <= 0.0:
            return 0.0
        return min(max(1.0 - self.volume_after / self.volume_before, 0.0), 1.0)


def simplify_hull(
    points: np.ndarray, max_points: int = ENGINE_MAX_POINTS, volume_before: float | None = None,
) -> HullResult:
    """At most `max_points` input points whose hull keeps as much volume as possible.

    Input already within the limit is returned unchanged. `volume_before`, the volume of the
    hull of all `points`, may be passed when known (Blender's hull computes it quickly);
    otherwise it is computed here, at about 0.1 s per 1,000 hull vertices. Raises ValueError
    for NaN or infinite coordinates, a shape other than (N, 3) or `max_points` < 4.
    """
    given = np.asarray(points)
    everything = np.arange(len(given))
    builder = _selecting_builder(_validated(given), max_points)
    if builder is None:
        return HullResult(given, everything, 0.0, 0.0, degenerate=True)
    volume_after = builder.volume()
    if len(given) <= max_points:
        return HullResult(given, everything, volume_after, volume_after)
    kept = builder.sorted_vertices()
    if not builder.has_outside_points():
        volume_before = volume_after  # the kept points span the whole hull
    elif volume_before is None:
        builder.finish()
        volume_before = builder.volume()
    return HullResult(given[kept], kept, float(volume_before), volume_after)


def select_hull_points(points: np.ndarray, max_points: int = ENGINE_MAX_POINTS) -> np.ndarray:
    """Sorted indices of the points `simplify_hull` keeps, without measuring the loss."""
    builder = _selecting_builder(_validated(points), max_points)
    if builder is None or len(points) <= max_points:
        return np.arange(len(points))
    return builder.sorted_vertices()


def _selecting_builder(data: np.ndarray, max_points: int) -> _HullBuilder | None:
    """A hull builder that has added up to `max_points` points (all if few enough)."""
    if max_points < 4:
        raise ValueError(f"max_points must be at least 4, got {max_points}")
    seeds = extreme_points(data, min(SEED_DIRECTIONS, max_points - 4))
    builder = _HullBuilder.start(data, seeds)
    if builder is None:
        return None
    if len(data) <= max_points:
        builder.finish()
        return builder
    while len(builder.vertices) < max_points and builder.add_best_point():
        pass
    return builder


def hull_volume(points: np.ndarray) -> float:
    """Volume of the convex hull of `points` (0 for flat or tiny inputs)."""
    data = _validated(points)
    builder = _HullBuilder.start(data, extreme_points(data, SEED_DIRECTIONS))
    if builder is None:
        return 0.0
    builder.finish()
    return builder.volume()


def hull_triangles(points: np.ndarray) -> np.ndarray:
    """The convex hull's faces as an (n, 3, 3) array of outward-wound triangles (empty for
    flat or tiny inputs)."""
    data = _validated(points)
    candidates = data[discard_interior(data)] if len(data) >= 4 else data
    builder = _HullBuilder.start(candidates, extreme_points(candidates, SEED_DIRECTIONS))
    if builder is None:
        return np.empty((0, 3, 3))
    builder.finish()
    corners = np.array(list(builder.faces.values()), dtype=np.intp).reshape(-1, 3)
    return candidates[corners].astype(np.float64)


def spans_volume(points: np.ndarray) -> bool:
    """False when the points lie on one plane, line or point (within the tolerance their
    size sets): the inputs whose hull has no faces here."""
    builder = _HullBuilder.centred(_validated(points))
    return builder is not None and builder._initial_simplex(None) is not None


def discard_interior(points: np.ndarray, directions: int = PREFILTER_DIRECTIONS) -> np.ndarray:
    """Indices of the points not strictly inside the hull of extreme points (exact).

    The extreme points along `directions` well spread directions are hull vertices; any
    point strictly inside their hull cannot be one, so the result still holds every hull
    vertex. Removes most of a typical mesh's vertices; when a sample shows that almost all
    points lie on the hull (a sphere), every index is returned without testing the rest.
    """
    data = _validated(points)
    everything = np.arange(len(data))
    if len(data) <= 4 * directions:
        return everything
    builder = _HullBuilder.start(data[extreme_points(data, directions)])
    if builder is None:
        return everything
    builder.finish()
    normals, offsets = builder.face_planes()
    margin = builder.eps * 10.0
    sample = data[:: max(len(data) // PREFILTER_SAMPLE, 1)]
    if _not_inside(sample, normals, offsets, margin).mean() > PREFILTER_MIN_GAIN:
        return everything
    return everything[_not_inside(data, normals, offsets, margin)]


def _not_inside(
    points: np.ndarray, normals: np.ndarray, offsets: np.ndarray, margin: float
) -> np.ndarray:
    """Mask of the points not deeper than `margin` below all the planes (maybe on the hull)."""
    mask = np.empty(len(points), dtype=bool)
    step = max(_CHUNK * 16 // len(offsets), 1)
    for begin in range(0, len(points), step):
        above = points[begin:begin + step] @ normals.T - offsets
        mask[begin:begin + step] = above.max(axis=1) > -margin
    return mask


def extreme_points(points: np.ndarray, directions: int) -> np.ndarray:
    """Sorted unique indices of the points farthest along `directions` spread directions."""
    if directions <= 0 or len(points) == 0:
        return np.empty(0, dtype=np.intp)
    axes = fibonacci_directions(directions)
    best = np.full(directions, -np.inf)
    index = np.zeros(directions, dtype=np.intp)
    for begin in range(0, len(points), _CHUNK * 4):
        reach = axes @ points[begin:begin + _CHUNK * 4].T  # rows: contiguous argmax
        rows = reach.argmax(axis=1)
        value = reach[np.arange(directions), rows]
        better = value > best
        best[better], index[better] = value[better], rows[better] + begin
    return np.unique(index)


def fibonacci_directions(count: int) -> np.ndarray:
    """`count` unit vectors spread evenly over the sphere (a Fibonacci lattice)."""
    k = np.arange(count) + 0.5
    z = 1.0 - 2.0 * k / count
    ring = np.sqrt(np.maximum(1.0 - z * z, 0.0))
    angle = k * np.pi * (3.0 - np.sqrt(5.0))
    return np.stack([ring * np.cos(angle), ring * np.sin(angle), z], axis=1)


def _validated(points: np.ndarray) -> np.ndarray:
    data = np.asarray(points, dtype=np.float64)
    if data.ndim != 2 or data.shape[1] != 3:
        raise ValueError(f"points must be an (N, 3) array, got shape {data.shape}")
    if not np.isfinite(data).all():
        raise ValueError("points contain NaN or infinite coordinates")
    return data


class _HullBuilder:
    """Incremental quickhull with per-face lists of the points outside each face.

    Faces are counter-clockwise seen from outside; `edge_face` maps each directed edge to
    its face, so a face's neighbour across (a, b) is `edge_face[(b, a)]`. Face ids are never
    reused, which lets the priority queue skip stale entries by checking `farthest`. Planes
    are plain floats: the per-step work is on a handful of faces, where numpy is slower.
    """

    def __init__(self, points: np.ndarray, center: np.ndarray, eps: float) -> None:
        self.points = points
        self.center = center
        self.eps = eps
        self.vertices: set[int] = set()
        self.faces: dict[int, tuple[int, int, int]] = {}
        self.planes: dict[int, tuple[float, float, float, float]] = {}
        self.twice_area: dict[int, float] = {}
        self.edge_face: dict[tuple[int, int], int] = {}
        self.outside: dict[int, np.ndarray] = {}
        self.farthest: dict[int, int] = {}
        self.queue: list[tuple[float, int]] = []  # (-distance, face)
        self.next_face = 0

    @classmethod
    def start(cls, points: np.ndarray, seeds: np.ndarray | None = None) -> _HullBuilder | None:
        """A builder holding the hull of a first tetrahedron and the `seeds` (point indices),
        every other point waiting outside it; None if the points have no volume."""
        builder = cls.centred(points)
        if builder is None:
            return None
        seeds = np.empty(0, dtype=np.intp) if seeds is None else seeds
        likely = np.union1d(seeds, np.concatenate([points.argmin(0), points.argmax(0)]))
        simplex = builder._initial_simplex(likely) or builder._initial_simplex(None)
        if simplex is None:
            return None
        builder._add_simplex(simplex)
        builder._assign_outside(np.setdiff1d(seeds, simplex), list(builder.faces))
        builder.finish()
        waiting = np.ones(len(points), dtype=bool)
        waiting[list(builder.vertices)] = False
        builder._assign_outside(np.flatnonzero(waiting), list(builder.faces))
        return builder

    @classmethod
    def centred(cls, points: np.ndarray) -> _HullBuilder | None:
        """An empty builder of `points` moved to their centre (for precision), with the
        tolerance their size sets; None for fewer than 4 points or all points equal."""
        if len(points) < 4:
            return None
        center = (points.min(axis=0) + points.max(axis=0)) / 2
        scale = float(np.abs(points - center).max())
        if scale == 0.0:
            return None
        return cls(points - center, center, scale * RELATIVE_EPS)

    def _initial_simplex(self, subset: np.ndarray | None) -> list[int] | None:
        """Four points spanning a volume, from `subset` (all points if None)."""
        index = np.arange(len(self.points)) if subset is None else subset
        pts = self.points[index]
        lo, hi = pts.argmin(axis=0), pts.argmax(axis=0)
        axis = int(np.argmax(pts[hi, range(3)] - pts[lo, range(3)]))
        a, b = int(lo[axis]), int(hi[axis])
        line = pts[b] - pts[a]
        if np.linalg.norm(line) <= self.eps:
            return None
        off_line = np.linalg.norm(np.cross(pts - pts[a], line), axis=1) / np.linalg.norm(line)
        c = int(np.argmax(off_line))
        if off_line[c] <= self.eps:
            return None
        normal = np.cross(line, pts[c] - pts[a])
        off_plane = (pts - pts[a]) @ (normal / np.linalg.norm(normal))
        d = int(np.argmax(np.abs(off_plane)))
        if abs(off_plane[d]) <= self.eps * 10.0:
            return None
        order = [a, b, c, d] if off_plane[d] < 0 else [a, c, b, d]
        return [int(index[k]) for k in order]

    def _add_simplex(self, simplex: list[int]) -> None:
        a, b, c, d = simplex  # d lies below the counter-clockwise face (a, b, c)
        self.vertices.update(simplex)
        self._new_faces([(a, b, c), (a, d, b), (b, d, c), (c, d, a)])

    def _new_faces(self, triangles: list[tuple[int, int, int]]) -> list[int]:
        coords = {v: self.points[v].tolist() for tri in triangles for v in tri}
        faces = []
        for a, b, c in triangles:
            (ax, ay, az), (bx, by, bz), (cx, cy, cz) = coords[a], coords[b], coords[c]
            ux, uy, uz, vx, vy, vz = bx - ax, by - ay, bz - az, cx - ax, cy - ay, cz - az
            nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
            length = (nx * nx + ny * ny + nz * nz) ** 0.5 or 1.0
            nx, ny, nz = nx / length, ny / length, nz / length
            face = self.next_face
            self.next_face += 1
            self.faces[face] = (a, b, c)
            self.twice_area[face] = length
            self.planes[face] = (nx, ny, nz, nx * ax + ny * ay + nz * az)
            self.edge_face[(a, b)] = self.edge_face[(b, c)] = self.edge_face[(c, a)] = face
            faces.append(face)
        return faces

    def _remove_face(self, face: int) -> None:
        a, b, c = self.faces.pop(face)
        del self.planes[face]
        del self.twice_area[face]
        self.outside.pop(face, None)
        self.farthest.pop(face, None)
        for edge in ((a, b), (b, c), (c, a)):
            if self.edge_face.get(edge) == face:
                del self.edge_face[edge]

    def _assign_outside(self, candidates: np.ndarray, faces: list[int]) -> None:
        """Give each candidate to the face it is farthest outside of; drop the others."""
        if len(candidates) == 0 or not faces:
            return
        best, distance = self._farthest_faces(candidates, faces)
        keep = distance > self.eps
        candidates, best, distance = candidates[keep], best[keep], distance[keep]
        order = np.argsort(best, kind="stable")
        bounds = np.bincount(best, minlength=len(faces)).cumsum().tolist()
        begin = 0
        for face, end in zip(faces, bounds, strict=True):
            if end > begin:
                group = order[begin:end]
                top = int(group[distance[group].argmax()])
                self.outside[face] = candidates[group]
                self.farthest[face] = int(candidates[top])
                gain = float(distance[top]) * self.twice_area[face]  # 6 × tetrahedron volume
                heapq.heappush(self.queue, (-gain, face))
            begin = end

    def _farthest_faces(
        self, candidates: np.ndarray, faces: list[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each candidate, the position in `faces` of the face it is farthest above."""
        planes = np.array([self.planes[f] for f in faces])
        normals_t, offsets = planes[:, :3].T.copy(), planes[:, 3]
        step = max(_CHUNK * 16 // len(faces), 1)
        if len(candidates) <= step:
            above = self.points[candidates] @ normals_t - offsets
            return above.argmax(axis=1), above.max(axis=1)
        best = np.empty(len(candidates), dtype=np.intp)
        distance = np.empty(len(candidates))
        for begin in range(0, len(candidates), step):
            above = self.points[candidates[begin:begin + step]] @ normals_t - offsets
            best[begin:begin + step] = above.argmax(axis=1)
            distance[begin:begin + step] = above.max(axis=1)
        return best, distance

    def sorted_vertices(self) -> np.ndarray:
        """Indices of the current hull's vertices, ascending."""
        return np.array(sorted(self.vertices), dtype=np.intp)

    def has_outside_points(self) -> bool:
        """Whether any input point is still outside the hull built so far."""
        return bool(self.farthest)

    def add_best_point(self) -> bool:
        """Add the outside point adding the most volume (estimated by the tetrahedron on the
        face it is farthest above); False when none is left."""
        while self.queue and self.queue[0][1] not in self.farthest:
            heapq.heappop(self.queue)
        if not self.queue:
            return False
        face = heapq.heappop(self.queue)[1]
        point = self.farthest[face]
        visible, horizon = self._visible_region(face, self.points[point].tolist())
        pools = [self.outside[f] for f in visible if f in self.outside]
        rim = {v for edge in horizon for v in edge}
        self.vertices.difference_update(  # vertices inside the visible region are buried
            v for f in visible for v in self.faces[f] if v not in rim)
        for f in visible:
            self._remove_face(f)
        new_faces = self._new_faces([(a, b, point) for a, b in horizon])
        self.vertices.add(point)
        pool = np.concatenate(pools)
        self._assign_outside(pool[pool != point], new_faces)
        return True

    def _visible_region(
        self, seed: int, point: list[float]
    ) -> tuple[list[int], list[tuple[int, int]]]:
        """Faces seen from `point` (connected to `seed`) and the directed horizon edges."""
        x, y, z = point
        visible = {seed}
        stack = [seed]
        horizon: list[tuple[int, int]] = []
        while stack:
            a, b, c = self.faces[stack.pop()]
            for edge in ((a, b), (b, c), (c, a)):
                neighbour = self.edge_face.get((edge[1], edge[0]))
                if neighbour is None or neighbour in visible:
                    continue
                nx, ny, nz, offset = self.planes[neighbour]
                if nx * x + ny * y + nz * z - offset > self.eps:
                    visible.add(neighbour)
                    stack.append(neighbour)
                else:
                    horizon.append(edge)
        return list(visible), horizon

    def finish(self) -> None:
        """Add every remaining outside point: the hull of all the points."""
        while self.add_best_point():
            pass

    def volume(self) -> float:
        """Volume enclosed by the current faces."""
        if not self.faces:
            return 0.0
        tri = self.points[np.array(list(self.faces.values()))]
        return float(np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum() / 6)

    def face_planes(self) -> tuple[np.ndarray, np.ndarray]:
        """Unit normals and offsets of the current faces, in the caller's coordinates."""
        planes = np.array(list(self.planes.values()))
        normals = planes[:, :3]
        return normals, planes[:, 3] + normals @ self.center
