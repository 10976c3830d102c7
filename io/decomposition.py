# SPDX-License-Identifier: GPL-3.0-or-later
"""Convex decomposition: a concave mesh becomes a compound of convex parts. Pure numpy.

The parts come from CoACD (approximate convex decomposition, PyPI `coacd`, MIT), run in a
child process (`coacd_child`), each then simplified to at most the engines' hull point limit
by `hull.simplify_hull`. CoACD is a compiled wheel shipped for some platforms only: it is
imported only by the child process, and `missing_reason` tells why it cannot be used.
"""

from __future__ import annotations

import functools
import importlib.util
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import coacd_child
from .hull import ENGINE_MAX_POINTS, simplify_hull

#: Blender platforms whose extension zip carries a CoACD wheel (see blender_manifest.toml).
PLATFORMS_WITH_WHEEL = ("linux-x64", "linux-arm64", "windows-x64", "macos-arm64")
#: Above this many triangles CoACD may take minutes: the operator asks before going on.
LARGE_TRIANGLES = 60_000
PREPROCESS_MODES = ("auto", "on", "off")
FLAT = 1e-6  # thinnest extent, relative to the largest, of a mesh with volume
#: What one CoACD child may use (time, memory); past it the child is stopped.
BUDGET = coacd_child.Budget()


class DecompositionError(Exception):
    """Bad input or a failure inside CoACD, with a message for the user."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The decomposition options (CoACD's names in brackets).

    threshold: largest concavity left in a part, relative to the mesh size (threshold).
    max_parts: most parts; CoACD merges the closest ones to stay within it; 0: no limit
        (max_convex_hull).
    resolution: surface samples used to measure concavity (resolution).
    preprocess: "auto" remeshes open or non-manifold meshes into a watertight one first,
        "on" always, "off" never (preprocess_mode).
    preprocess_resolution: voxel resolution of that remeshing (preprocess_resolution).
    seed: random seed; the same seed and mesh give the same parts (seed).
    search_iterations, search_nodes: effort of the cutting-plane tree search
        (mcts_iterations, mcts_nodes); lower than CoACD's 150 and 20, which take twice as
        long for nearly the same parts on game props.
    max_points: hull points kept per part (the engines' limit, 255).
    """

    threshold: float = 0.05
    max_parts: int = 0
    resolution: int = 2000
    preprocess: str = "auto"
    preprocess_resolution: int = 50
    seed: int = 0
    search_iterations: int = 60
    search_nodes: int = 10
    max_points: int = ENGINE_MAX_POINTS

    def coacd_arguments(self) -> dict[str, object]:
        """Keyword arguments of `coacd.run_coacd`."""
        if self.preprocess not in PREPROCESS_MODES:
            raise ValueError(f"preprocess must be one of {PREPROCESS_MODES}")
        return {
            "threshold": float(self.threshold),
            "max_convex_hull": int(self.max_parts) if self.max_parts > 0 else -1,
            "preprocess_mode": self.preprocess,
            "preprocess_resolution": int(self.preprocess_resolution),
            "resolution": int(self.resolution),
            "mcts_nodes": int(self.search_nodes),
            "mcts_iterations": int(self.search_iterations),
            "seed": int(self.seed),
        }


@dataclass(frozen=True, slots=True)
class MeshCheck:
    """What the decomposition needs to know about a triangle mesh before running."""

    triangles: int
    open_edges: int  # edges of one triangle only: holes and borders
    shared_edges: int  # edges of three or more triangles: non-manifold
    flat: bool  # no volume: every point on a plane, a line or one point
    volume: float  # enclosed volume (meaningful when closed)

    @property
    def closed(self) -> bool:
        """Watertight and manifold: every edge joins exactly two triangles."""
        return self.open_edges == 0 and self.shared_edges == 0


@dataclass(frozen=True, slots=True)
class Decomposition:
    """Convex parts (point arrays, in the input's space) and their hull volumes."""

    parts: tuple[np.ndarray, ...]
    volumes: tuple[float, ...]
    simplification_error: float  # largest relative hull volume lost to the point limit
    seconds: float

    @property
    def volume(self) -> float:
        """Sum of the parts' hull volumes (overlaps counted twice)."""
        return float(sum(self.volumes))


def check_mesh(vertices: np.ndarray, triangles: np.ndarray) -> MeshCheck:
    """Edge counts, flatness and enclosed volume of a triangle mesh."""
    points = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    tris = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    if len(tris) == 0 or len(points) < 4:
        return MeshCheck(len(tris), 0, 0, True, 0.0)
    edges = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    _, uses = np.unique(edges, axis=0, return_counts=True)
    a, b, c = points[tris[:, 0]], points[tris[:, 1]], points[tris[:, 2]]
    volume = float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)
    return MeshCheck(len(tris), int((uses == 1).sum()), int((uses > 2).sum()),
                     is_flat(points[np.unique(tris)]), abs(volume))


def is_flat(points: np.ndarray) -> bool:
    """Whether the points span no volume: their thinnest extent along the principal axes is
    at most FLAT times their largest."""
    if len(points) < 4 or not np.isfinite(points).all():
        return True
    centred = points - points.mean(axis=0)
    axes = np.linalg.svd(centred, full_matrices=False)[2]
    extents = np.ptp(centred @ axes.T, axis=0)
    return bool(extents.max() == 0.0 or extents.min() <= FLAT * extents.max())


def input_error(check: MeshCheck, settings: Settings) -> str:
    """Why the mesh cannot be decomposed with these settings ("" when it can)."""
    if check.triangles == 0:
        return "has no faces"
    if check.flat:
        return "has no volume (it is flat, a line or a point): use a Box or Plane shape"
    if not check.closed and settings.preprocess == "off":
        return (f"is not watertight ({_holes(check)}): set Preprocess to Auto or On to remesh "
                "it first, or close the mesh")
    return ""


def input_warnings(check: MeshCheck, settings: Settings) -> list[str]:
    """Things the user should know before or after the run."""
    warnings = []
    if not check.closed and settings.preprocess != "off":
        warnings.append(f"is not watertight ({_holes(check)}): CoACD remeshes it at voxel "
                        f"resolution {settings.preprocess_resolution} first")
    if check.triangles > LARGE_TRIANGLES:
        warnings.append(f"has {check.triangles:,} triangles: the decomposition may take minutes")
    return warnings


def _holes(check: MeshCheck) -> str:
    found = []
    if check.open_edges:
        found.append(f"{check.open_edges} open edges")
    if check.shared_edges:
        found.append(f"{check.shared_edges} edges shared by more than two faces")
    return ", ".join(found)


def decompose(
    vertices: np.ndarray, triangles: np.ndarray, settings: Settings,
    update: Callable[[str, float], None] | None = None,
) -> Decomposition:
    """Convex parts of a triangle mesh, each with at most `settings.max_points` points.

    `update(stage, fraction)` is told the progress (it may raise to stop the work between
    steps). Raises DecompositionError for input `input_error` refuses, when CoACD is missing
    and when CoACD fails or returns nothing usable.
    """
    update = update or (lambda _stage, _fraction: None)
    points = np.ascontiguousarray(vertices, dtype=np.float64).reshape(-1, 3)
    tris = np.ascontiguousarray(triangles, dtype=np.int32).reshape(-1, 3)
    if not np.isfinite(points).all():
        raise DecompositionError("has NaN or infinite vertex coordinates")
    if len(tris) and (tris.min() < 0 or tris.max() >= len(points)):
        raise DecompositionError("has faces referring to missing vertices")
    problem = input_error(check_mesh(points, tris), settings)
    if problem:
        raise DecompositionError(problem)
    used, tris = np.unique(tris, return_inverse=True)  # loose vertices would join the hulls
    points, tris = points[used], tris.reshape(-1, 3).astype(np.int32)
    started = time.perf_counter()
    update("CoACD", 0.0)
    raw = run_coacd(points, tris, settings, lambda: update("CoACD", 0.0))
    parts, volumes, error = [], [], 0.0
    for index, part in enumerate(raw):
        update("simplifying parts", index / len(raw))
        result = simplify_hull(np.unique(part, axis=0), settings.max_points)
        if result.degenerate:
            continue  # a sliver without volume collides like nothing
        parts.append(result.points)
        volumes.append(result.volume_after)
        error = max(error, result.volume_error)
    if not parts:
        raise DecompositionError("CoACD returned no part with volume")
    update("done", 1.0)
    return Decomposition(tuple(parts), tuple(volumes), error, time.perf_counter() - started)


def run_coacd(points: np.ndarray, triangles: np.ndarray, settings: Settings,
              poll: Callable[[], None] = lambda: None) -> list[np.ndarray]:
    """CoACD's parts (vertex arrays) of the mesh, from a child process within `BUDGET`
    (`coacd_child`); `poll()` is called while it runs and may raise to kill it."""
    reason = missing_reason()
    if reason:
        raise DecompositionError(reason)
    try:
        raw = coacd_child.run_coacd(points, triangles, settings.coacd_arguments(), poll,
                                    BUDGET)
    except coacd_child.ChildError as exc:
        raise DecompositionError(str(exc)) from exc
    except OSError as exc:  # the child could not be started or its files written
        raise DecompositionError(f"CoACD could not be started: {exc}") from exc
    return [part for part in raw if len(part)]


@functools.cache
def missing_reason() -> str:
    """Why CoACD cannot be used here ("" when it can). It is found, not imported: a library
    that crashes while loading crashes the child process only, which then reports it."""
    try:
        found = importlib.util.find_spec("coacd") is not None
    except (ImportError, ValueError) as exc:  # a broken entry on sys.path or in sys.modules
        return f"Convex decomposition needs CoACD, which cannot be found: {exc}"
    if not found:
        system = platform_name()
        if system not in PLATFORMS_WITH_WHEEL:
            return (f"Convex decomposition needs CoACD, which has no build for {system} "
                    f"(available on {', '.join(PLATFORMS_WITH_WHEEL)})")
        return "Convex decomposition needs CoACD, which is not installed"
    return ""


def platform_name() -> str:
    """This machine as Blender names extension platforms, e.g. "linux-x64", "macos-arm64"."""
    system = {"darwin": "macos"}.get(platform.system().lower(), platform.system().lower())
    machine = platform.machine().lower()
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"
