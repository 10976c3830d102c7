# SPDX-License-Identifier: GPL-3.0-or-later
"""Bench phase: convex decomposition (CoACD) of a torus and of a 20,000-face bowl, through
the operator as a script calls it (blocking), with parts, points and volume error.

Used by scripts/bench.py; the tests build their meshes with the same functions. The worker
side runs inside its Blender-as-a-module process.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

if __package__:  # imported as scripts.bench_decompose (by scripts.bench and the tests)
    from .convert import load_module
else:  # scripts/ is sys.path[0]
    from convert import load_module

TORUS = {"major": 1.0, "minor": 0.3, "segments": 96, "rings": 48}  # 4,608 vertices
BOWL = {"outer": 1.0, "inner": 0.9, "segments": 160, "rings": 62}  # 20,000 faces
TORUS_SECONDS_MAX = 15.0
TORUS_PARTS_MIN = 4
POINTS_MAX = 255
VOLUME_ERROR_MAX = 0.25
CHILD_COST_MAX = 0.10  # CoACD in a child process against in this process


# -- meshes (numpy; the tests use them too) ------------------------------------------------


def revolve(profile: np.ndarray, segments: int, loop: bool
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A closed surface of revolution about Z: points, quads and triangles.

    `profile` holds (radius, z) rows. A `loop` profile is a closed ring away from the axis
    (a torus); otherwise its first and last rows lie on the axis and become poles.
    """
    profile = np.asarray(profile, dtype=np.float64)
    ring = profile if loop else profile[1:-1]
    count = len(ring)
    angle = np.linspace(0.0, 2.0 * np.pi, segments, endpoint=False)
    points = np.stack([
        np.outer(np.cos(angle), ring[:, 0]), np.outer(np.sin(angle), ring[:, 0]),
        np.broadcast_to(ring[:, 1], (segments, count)),
    ], axis=-1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(segments), np.arange(count if loop else count - 1),
                       indexing="ij")
    after, up = (i + 1) % segments, (j + 1) % count
    quads = np.stack([i * count + j, after * count + j, after * count + up, i * count + up],
                     axis=-1).reshape(-1, 4)
    if loop:
        return points, quads, np.empty((0, 3), dtype=np.int64)
    low, high = len(points), len(points) + 1
    points = np.vstack([points, [[0.0, 0.0, profile[0, 1]], [0.0, 0.0, profile[-1, 1]]]])
    s = np.arange(segments)
    t = (s + 1) % segments
    triangles = np.vstack([
        np.stack([np.full(segments, low), t * count, s * count], axis=-1),
        np.stack([np.full(segments, high), s * count + count - 1, t * count + count - 1],
                 axis=-1),
    ])
    return points, quads, triangles


def torus(major: float, minor: float, segments: int, rings: int):
    """A torus about Z: `segments` around the axis, `rings` around the tube."""
    v = np.linspace(0.0, 2.0 * np.pi, rings, endpoint=False)
    return revolve(np.stack([major + minor * np.cos(v), minor * np.sin(v)], axis=1), segments,
                   True)


def torus_volume(major: float, minor: float, **_: Any) -> float:
    """The exact volume of a torus: 2 π² R r²."""
    return 2.0 * math.pi ** 2 * major * minor ** 2


def bowl(outer: float, inner: float, segments: int, rings: int):
    """A thick hemispherical bowl, open side up, rim at z = 0: segments × (2 rings + 1)
    faces (20,000 for 160 segments and 62 rings)."""
    t = np.linspace(-np.pi / 2, 0.0, rings + 1)
    outside = np.stack([outer * np.cos(t), outer * np.sin(t)], axis=1)
    inside = np.stack([inner * np.cos(t[::-1]), inner * np.sin(t[::-1])], axis=1)
    return revolve(np.vstack([outside, inside]), segments, False)


def mesh_object(name: str, points: np.ndarray, quads: np.ndarray, triangles: np.ndarray):
    """A Blender mesh object linked to the scene (foreach_set: fast at any size)."""
    import bpy

    loops = np.concatenate([quads.ravel(), triangles.ravel()]).astype(np.int32)
    sizes = np.concatenate([np.full(len(quads), 4), np.full(len(triangles), 3)])
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(points))
    mesh.vertices.foreach_set("co", points.astype(np.float32).ravel())
    mesh.loops.add(len(loops))
    mesh.loops.foreach_set("vertex_index", loops)
    mesh.polygons.add(len(sizes))
    mesh.polygons.foreach_set("loop_start", (np.cumsum(sizes) - sizes).astype(np.int32))
    mesh.update(calc_edges=True)
    mesh.validate()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def part_figures(parts: list[Any]) -> dict[str, Any]:
    """Count, largest point count and summed hull volume of parts (in world units)."""
    hull_volume = load_module("hull").hull_volume
    volumes, points = [], []
    for part in parts:
        co = np.empty(len(part.data.vertices) * 3, dtype=np.float64)
        part.data.vertices.foreach_get("co", co)
        world = np.array(part.matrix_world, dtype=np.float64)
        xyz = co.reshape(-1, 3) @ world[:3, :3].T + world[:3, 3]
        volumes.append(hull_volume(xyz))
        points.append(len(xyz))
    return {"parts": len(parts), "max_points": max(points, default=0),
            "volume": float(sum(volumes))}


# -- bench ----------------------------------------------------------------------------------


def decompose_worker(spec: dict[str, Any], user: Path, enable: Callable[[Path], None]
                     ) -> dict[str, Any]:
    """Decompose the torus and the bowl with the operator's defaults, timed."""
    import bpy

    enable(user)
    check_mesh = load_module("decomposition").check_mesh
    cases = {"torus": (torus(**TORUS), torus_volume(**TORUS)), "bowl_20k": (bowl(**BOWL), None)}
    result = {}
    for name, ((points, quads, triangles), exact) in cases.items():
        bpy.ops.wm.read_homefile(use_empty=True)
        obj = mesh_object(name, points, quads, triangles)
        bpy.context.view_layer.objects.active = obj
        obj.select_set(True)
        started = time.perf_counter()
        assert bpy.ops.gltf_physics.convex_decompose() == {"FINISHED"}
        seconds = time.perf_counter() - started
        figures = part_figures([c for c in obj.children if c.gltf_physics.shape_type != "NONE"])
        reference = exact or check_mesh(points, np.vstack([
            quads[:, [0, 1, 2]], quads[:, [0, 2, 3]], triangles])).volume
        result[name] = {"faces": len(quads) + len(triangles), "vertices": len(points),
                        "seconds": seconds, **figures, "reference_volume": reference,
                        "volume_error": figures["volume"] / reference - 1.0,
                        **child_cost(points, triangles_of(quads, triangles))}
    return result


def triangles_of(quads: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """The quads split in two, then the triangles."""
    return np.vstack([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]], triangles]).astype(np.int32)


def child_cost(points: np.ndarray, triangles: np.ndarray, rounds: int = 3) -> dict[str, float]:
    """CoACD alone, in this process (as a thread ran it before) and in the child process the
    add-on starts (`coacd_child`), alternated `rounds` times: the best wall-clock time of
    each, and the CPU time (this process's, plus the child's) of the runs, averaged. The
    child's cost is measured against the in-process run."""
    import resource

    import coacd

    decomposition = load_module("decomposition")
    settings = decomposition.Settings()
    mesh = coacd.Mesh(points.astype(np.float64), triangles)

    def in_process() -> None:
        coacd.set_log_level("error")
        coacd.run_coacd(mesh, **settings.coacd_arguments())

    def cpu() -> float:
        child = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + child.ru_utime + child.ru_stime

    runs = {"in_process": in_process,
            "child": lambda: decomposition.run_coacd(points, triangles, settings)}
    wall: dict[str, list[float]] = {kind: [] for kind in runs}
    cpu_time: dict[str, list[float]] = {kind: [] for kind in runs}
    for _round in range(rounds):
        for kind, call in runs.items():
            started, cpu_started = time.perf_counter(), cpu()
            call()
            wall[kind].append(time.perf_counter() - started)
            cpu_time[kind].append(cpu() - cpu_started)
    best = {kind: min(values) for kind, values in wall.items()}
    mean_cpu = {kind: sum(values) / len(values) for kind, values in cpu_time.items()}
    return {"coacd_in_process": best["in_process"], "coacd_child": best["child"],
            "child_cost": best["child"] / best["in_process"] - 1.0,
            "cpu_in_process": mean_cpu["in_process"], "cpu_child": mean_cpu["child"],
            "child_cpu_cost": mean_cpu["child"] / mean_cpu["in_process"] - 1.0}


def measure(run_worker: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
    """The decomposition figures; None where CoACD is not installed."""
    try:
        import coacd  # noqa: F401
    except ImportError:
        print("\nConvex decomposition: skipped (coacd is not installed: make setup)")
        return None
    return run_worker({"kind": "decompose"})


def report(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Print the figures; the targets (the torus's, from the issue)."""
    print("\nConvex decomposition (operator defaults, blocking call; volume error: summed part"
          "\nhull volumes against the exact torus volume or the bowl mesh's enclosed volume)")
    print(f"  {'mesh':<10}{'faces':>8}{'seconds':>9}{'parts':>7}{'max pts':>9}{'vol err':>9}")
    for name, row in result.items():
        print(f"  {name:<10}{row['faces']:>8}{row['seconds']:>9.2f}{row['parts']:>7}"
              f"{row['max_points']:>9}{row['volume_error'] * 100:>+8.1f}%")
    print("  CoACD alone, 3 alternated runs: in this process (as the old thread ran it) and in"
          "\n  the add-on's child process; wall clock best of 3, CPU time (with the child's) mean")
    print(f"  {'mesh':<10}{'wall: in process':>17}{'child':>9}{'cost':>8}"
          f"{'CPU: in process':>17}{'child':>9}{'cost':>8}")
    for name, row in result.items():
        print(f"  {name:<10}{row['coacd_in_process']:>16.2f}s{row['coacd_child']:>8.2f}s"
              f"{row['child_cost'] * 100:>+7.1f}%{row['cpu_in_process']:>16.2f}s"
              f"{row['cpu_child']:>8.2f}s{row['child_cpu_cost'] * 100:>+7.1f}%")
    torus_row = result["torus"]
    return [
        *({"target": f"decompose {name}: child process CPU cost <= 10 %",
           "value": row["child_cpu_cost"], "limit": CHILD_COST_MAX,
           "pass": row["child_cpu_cost"] <= CHILD_COST_MAX} for name, row in result.items()),
        {"target": "decompose torus < 15 s", "value": torus_row["seconds"],
         "limit": TORUS_SECONDS_MAX, "pass": torus_row["seconds"] < TORUS_SECONDS_MAX},
        {"target": "decompose torus parts >= 4", "value": torus_row["parts"],
         "limit": TORUS_PARTS_MIN, "pass": torus_row["parts"] >= TORUS_PARTS_MIN},
        {"target": "decompose points per part <= 255",
         "value": max(r["max_points"] for r in result.values()), "limit": POINTS_MAX,
         "pass": all(r["max_points"] <= POINTS_MAX for r in result.values())},
        {"target": "decompose torus |volume error|", "value": abs(torus_row["volume_error"]),
         "limit": VOLUME_ERROR_MAX,
         "pass": abs(torus_row["volume_error"]) <= VOLUME_ERROR_MAX},
    ]
