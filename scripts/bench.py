# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: glTF export/import with and without physics, hull tool, convex decomposition.

`make bench` runs `python scripts/bench.py`. Every measurement runs in a fresh
Blender-as-a-module process (plain runs never enable the add-on), so each phase has its own
peak memory; only the `export_scene.gltf` / `import_scene.gltf` call is timed, best of
`--repeat` runs, phases interleaved. Prints tables and PASS/FAIL per target, writes
out/bench.json; exits 1 on a failed target only with `--strict`.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__:  # imported as scripts.bench (the tests share its mesh builders)
    from . import bench_decompose, bench_repeat
    from .convert import load_module
else:  # run as a script: scripts/ is sys.path[0]
    import bench_decompose
    import bench_repeat
    from convert import load_module

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "out"
CACHE = OUT / "bench"
RESULT_TAG = "BENCH_RESULT "
MODULE = "bl_ext.bench.gltf_physics"
PHYSICS_EXTENSIONS = frozenset({
    "KHR_physics_rigid_bodies", "KHR_implicit_shapes", "OMI_physics_body", "OMI_physics_shape",
})
FORMAT_EXTENSION = {"KHR": "KHR_physics_rigid_bodies", "OMI": "OMI_physics_body"}

EXPORT_RATIO_MAX = 1.05
IMPORT_RATIO_MAX = 1.10
GROWTH_SLACK = 1.10  # ours / plain at 10,000 bodies may be 10 % above ours / plain at 1,000
HULL_SECONDS_MAX = 0.5
#: Generate Convex Hull on this many selected objects, run twice, within this time (each new
#: proxy made the next object's read evaluate the whole scene: 360 s for 1,000)
HULL_TOOL_OBJECTS = 1000
HULL_TOOL_SECONDS_MAX = 10.0
OVERLAY_COLLIDERS = 1000
OVERLAY_FRAMES = 20
HULL_ERROR_MAX = 0.05
HULL_POINTS_MAX = 255

LAYERS = ("World", "Props", "Players", "Debris")
SHAPE_MIX = ("box",) * 6 + ("sphere",) * 4 + ("capsule",) * 3 + ("hull",) * 3 + ("trimesh",) * 4
SHAPE_TYPE = {"box": "BOX", "sphere": "SPHERE", "capsule": "CAPSULE", "hull": "CONVEX",
              "trimesh": "TRIMESH"}
FRICTIONS = (0.2, 0.5, 0.8, 1.1)
HOOK_FILES = ("export_hooks.py", "import_hooks.py")


JOINT_EVERY = 25  # one hinge joint (on its own Empty) per this many bodies


@dataclass(frozen=True)
class Phase:
    """One timed operation: export or import, with or without the add-on."""

    name: str
    action: str  # "export" or "import"
    physics: bool
    fmt: str  # export: the physics format written; import: the file's format
    floor: bool = False  # export through a stand-in that only attaches finished payloads


PHASES = (
    Phase("export_plain", "export", False, "KHR"),
    Phase("export_floor_khr", "export", True, "KHR", floor=True),
    Phase("export_khr", "export", True, "KHR"),
    Phase("export_floor_omi", "export", True, "OMI", floor=True),
    Phase("export_omi", "export", True, "OMI"),
    Phase("import_plain_khr", "import", False, "KHR"),
    Phase("import_khr", "import", True, "KHR"),
    Phase("import_plain_omi", "import", False, "OMI"),
    Phase("import_omi", "import", True, "OMI"),
)
#: Targets: our export against the floor (what any extension writing the same payloads
#: pays), our import against the plain import.
RATIOS = (
    ("export_khr", "export_floor_khr", EXPORT_RATIO_MAX),
    ("export_omi", "export_floor_omi", EXPORT_RATIO_MAX),
    ("import_khr", "import_plain_khr", IMPORT_RATIO_MAX),
    ("import_omi", "import_plain_omi", IMPORT_RATIO_MAX),
)
#: Shown, not targets: what the glTF add-on itself charges for carrying the payloads
#: (floor / plain), and our export against the plain one.
FLOOR_RATIOS = (
    ("export_floor_khr", "export_plain"), ("export_floor_omi", "export_plain"),
    ("export_khr", "export_plain"), ("export_omi", "export_plain"),
)


# -- orchestration (no bpy in this process) --------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,10000", help="body counts, comma separated")
    parser.add_argument("--repeat", type=int, default=None, help="runs per phase (default 5)")
    parser.add_argument("--quick", action="store_true", help="sizes 200,400, one run: a smoke test")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target fails")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile each phase at the largest size; list our hot spots")
    parser.add_argument("--skip-hull", action="store_true", help="leave out the hull benchmark")
    parser.add_argument("--skip-repeat", action="store_true",
                        help="leave out the repeated imports of a file with a bad array")
    parser.add_argument("--skip-decompose", action="store_true",
                        help="leave out the convex decomposition figures")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes = "200,400"
    args.size_list = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    args.repeat = args.repeat or (1 if args.quick else 5)
    return args


def run_worker(spec: dict[str, Any], timeout: float = 1800) -> dict[str, Any]:
    """Run this script as a worker process on `spec`; its JSON result."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          check=False)
    for line in reversed(done.stdout.splitlines()):
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG):])
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-25:])
    raise RuntimeError(f"worker {spec['kind']} failed (exit {done.returncode}):\n{tail}")


def scene_paths(size: int) -> dict[str, str]:
    return {"blend": str(CACHE / f"scene_{size}.blend"),
            "KHR": str(CACHE / f"scene_{size}_khr.glb"),
            "OMI": str(CACHE / f"scene_{size}_omi.glb")}


def build_scenes(sizes: list[int]) -> dict[int, dict[str, Any]]:
    built = {}
    for size in sizes:
        started = time.perf_counter()
        built[size] = run_worker({"kind": "build", "size": size, **scene_paths(size)})
        print(f"  built {size:>6} bodies in {time.perf_counter() - started:5.1f} s: "
              f"{built[size]['objects']} objects, {built[size]['meshes']} meshes")
    return built


def measure_phases(sizes: list[int], repeat: int) -> dict[int, dict[str, list[dict]]]:
    """Every phase at every size, `repeat` rounds; odd rounds run the phases backwards."""
    runs: dict[int, dict[str, list[dict]]] = {s: {p.name: [] for p in PHASES} for s in sizes}
    for round_index in range(repeat):
        order = PHASES if round_index % 2 == 0 else tuple(reversed(PHASES))
        for size in sizes:
            for phase in order:
                result = run_worker(phase_spec(phase, size))
                runs[size][phase.name].append(result)
                print(f"  round {round_index + 1}/{repeat} {size:>6} {phase.name:<17}"
                      f"{result['seconds']:8.3f} s {result['peak_mb']:8.0f} MB")
    return runs


def phase_spec(phase: Phase, size: int, profile: str | None = None) -> dict[str, Any]:
    paths = scene_paths(size)
    return {
        "kind": "phase", "name": phase.name, "action": phase.action, "physics": phase.physics,
        "fmt": phase.fmt, "size": size, "blend": paths["blend"], "source": paths[phase.fmt],
        "target": str(CACHE / f"out_{phase.name}_{size}.glb"), "profile": profile,
        "floor": phase.floor,
    }


def summarize(runs: dict[int, dict[str, list[dict]]]) -> dict[int, dict[str, dict]]:
    table: dict[int, dict[str, dict]] = {}
    for size, phases in runs.items():
        table[size] = {}
        for name, results in phases.items():
            seconds = [r["seconds"] for r in results]
            table[size][name] = {
                "best": min(seconds), "median": statistics.median(seconds), "runs": seconds,
                "peak_mb": max(r["peak_mb"] for r in results),
                "op_peak_mb": max(r["op_peak_mb"] for r in results),
                "physics_objects": results[-1].get("physics_objects"),
            }
    return table


def round_ratios(row: dict[str, dict], top: str, base: str) -> list[float]:
    """`top` / `base` of each round (the two phases ran back to back in the same round)."""
    return [a / b for a, b in zip(row[top]["runs"], row[base]["runs"], strict=True)]


def ratio_summary(row: dict[str, dict], top: str, base: str) -> dict[str, float]:
    """Ratio of the best times, and the median and spread of the per-round ratios."""
    rounds = round_ratios(row, top, base)
    return {"best": row[top]["best"] / row[base]["best"], "median": statistics.median(rounds),
            "low": min(rounds), "high": max(rounds)}


def evaluate_targets(table: dict[int, dict[str, dict]]) -> list[dict[str, Any]]:
    largest, smallest = max(table), min(table)
    targets = []
    for physics, plain, limit in RATIOS:
        ratio = ratio_summary(table[largest], physics, plain)["median"]
        targets.append({"target": f"{physics}/{plain} at {largest} (median round)",
                        "value": ratio, "limit": limit, "pass": ratio <= limit})
    if largest != smallest:  # against the plain phase's own growth: the glTF add-on's
        for phase in PHASES:  # plain export and import are not linear in the scene's size
            if not phase.physics or phase.floor:
                continue
            growth = relative_growth(table, phase, largest, smallest)
            targets.append({"target": f"{phase.name} growth {largest} vs {smallest} / plain's "
                            "(our share)",
                            "value": growth, "limit": GROWTH_SLACK,
                            "pass": growth <= GROWTH_SLACK})
    return targets


def relative_growth(table: dict[int, dict[str, dict]], phase: Phase, largest: int,
                    smallest: int) -> float:
    """How much more `phase`'s best time grows from `smallest` to `largest` bodies than
    the plain phase's it compares to, which is also `phase` / plain at `largest` over the
    same at `smallest`: 1.0 when the share we add stays the same. (It does not tell that
    our own work grows linearly: a small share at `smallest` may grow several times.)"""
    growth = table[largest][phase.name]["best"] / table[smallest][phase.name]["best"]
    plain = plain_baseline(phase)
    return growth / (table[largest][plain]["best"] / table[smallest][plain]["best"])


def print_tables(table: dict[int, dict[str, dict]], targets: list[dict[str, Any]]) -> None:
    sizes = sorted(table)
    print("\nBest time per phase (s), peak memory of the process (MB)")
    print(f"  {'phase':<18}" + "".join(f"{s:>10}" for s in sizes)
          + "".join(f"{str(s) + ' MB':>11}" for s in sizes))
    for phase in PHASES:
        times = "".join(f"{table[s][phase.name]['best']:>10.3f}" for s in sizes)
        peaks = "".join(f"{table[s][phase.name]['peak_mb']:>11.0f}" for s in sizes)
        print(f"  {phase.name:<18}{times}{peaks}")
    print("\nRatios: our export / the export floor (a stand-in extension that only attaches "
          "the\nfinished payloads), our import / plain import; then the floor / plain export. "
          "Per size:\nthe median of the per-round ratios [lowest-highest round], and the ratio "
          "of best times")
    print(f"  {'ratio':<36}" + "".join(f"{s:>27}" for s in sizes))
    for physics, plain, *_ in RATIOS + FLOOR_RATIOS:
        cells = []
        for s in sizes:
            r = ratio_summary(table[s], physics, plain)
            cells.append(f"{r['median']:.3f} [{r['low']:.3f}-{r['high']:.3f}] {r['best']:.3f}")
        print(f"  {physics + ' / ' + plain:<36}" + "".join(f"{c:>27}" for c in cells))
    print_growth(table)
    print("\nTargets")
    print_verdicts(targets)


def plain_baseline(phase: Phase) -> str:
    """The phase without the add-on that `phase` compares to."""
    return "export_plain" if phase.action == "export" else f"import_plain_{phase.fmt.lower()}"


def print_growth(table: dict[int, dict[str, dict]]) -> None:
    largest, smallest = max(table), min(table)
    if largest == smallest:
        return
    print(f"\nGrowth {largest} vs {smallest} bodies, and relative to the plain phase's growth")
    for phase in PHASES:
        growth = table[largest][phase.name]["best"] / table[smallest][phase.name]["best"]
        relative = relative_growth(table, phase, largest, smallest)
        print(f"  {phase.name:<18}{growth:8.2f} ×   / {plain_baseline(phase)} growth: "
              f"{relative:5.2f}")


def print_hull(hull: dict[str, Any]) -> list[dict[str, Any]]:
    print("\nHull simplification (best of runs; Blender hull includes reading the mesh)")
    print(f"  {'mesh':<18}{'vertices':>9}{'hull pts':>9}{'kept':>6}{'blender':>9}"
          f"{'simplify':>9}{'total':>8}{'fast':>8}{'vol err':>9}")
    for name, row in hull.items():
        print(f"  {name:<18}{row['vertices']:>9}{row['hull_points']:>9}{row['kept']:>6}"
              f"{row['blender_hull_s']:>9.3f}{row['simplify_s']:>9.3f}{row['total_s']:>8.3f}"
              f"{row['fast_path_s']:>8.3f}{row['volume_error'] * 100:>8.2f}%")
    print("  total = convex_hull_points + simplify_hull (the volume needs Blender's full hull);"
          "\n  fast = simplified_hull_points (same selection from the pre-filtered vertices)")
    sphere = hull["uv_sphere"]
    return [
        {"target": "hull 100k sphere total < 0.5 s", "value": sphere["total_s"],
         "limit": HULL_SECONDS_MAX, "pass": sphere["total_s"] < HULL_SECONDS_MAX},
        {"target": "hull 100k sphere fast path < 0.5 s", "value": sphere["fast_path_s"],
         "limit": HULL_SECONDS_MAX, "pass": sphere["fast_path_s"] < HULL_SECONDS_MAX},
        {"target": "hull 100k sphere volume error", "value": sphere["volume_error"],
         "limit": HULL_ERROR_MAX, "pass": sphere["volume_error"] <= HULL_ERROR_MAX},
        {"target": "hull 100k sphere kept points", "value": sphere["kept"],
         "limit": HULL_POINTS_MAX, "pass": sphere["kept"] <= HULL_POINTS_MAX},
    ]


def print_hull_tool(tool: dict[str, Any]) -> list[dict[str, Any]]:
    total = tool["first_s"] + tool["again_s"]
    print(f"\nGenerate Convex Hull on {tool['objects']} selected objects: {tool['first_s']:.2f} s, "
          f"run again {tool['again_s']:.2f} s")
    return [{"target": f"hull tool, {tool['objects']} objects, twice < {HULL_TOOL_SECONDS_MAX:g} s",
             "value": total, "limit": HULL_TOOL_SECONDS_MAX,
             "pass": total < HULL_TOOL_SECONDS_MAX}]


def print_verdicts(targets: list[dict[str, Any]]) -> None:
    for target in targets:
        verdict = "PASS" if target["pass"] else "FAIL"
        print(f"  {verdict}  {target['target']:<40} {target['value']:8.3f} "
              f"(limit {target['limit']:.3g})")


def profile_phases(size: int) -> dict[str, Any]:
    print(f"\nProfiles at {size} bodies (cProfile; times inflated by the profiler)")
    found = {}
    for phase in PHASES:
        path = str(CACHE / f"profile_{phase.name}_{size}.prof")
        result = run_worker(phase_spec(phase, size, profile=path))
        found[phase.name] = result["profile"]
        print(f"\n  {phase.name}: {result['profile']['total_s']:.3f} s under the profiler; "
              f"inside gltf_physics hooks {result['profile']['hooks_s']:.3f} s")
        for row in result["profile"]["ours"][:12]:
            print(f"    {row['cumtime']:8.3f} s cum {row['tottime']:8.3f} s own "
                  f"{row['ncalls']:>8} calls  {row['where']}")
    return found


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker(json.loads(args.worker))
    CACHE.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    print(f"Scenes: {args.size_list} bodies; {args.repeat} run(s) per phase")
    build = build_scenes(args.size_list)
    table = summarize(measure_phases(args.size_list, args.repeat))
    targets = evaluate_targets(table)
    print_tables(table, targets)
    report: dict[str, Any] = {"sizes": args.size_list, "repeat": args.repeat, "build": build,
                              "phases": table}
    if not args.skip_hull:
        report["hull"] = run_worker({"kind": "hull", "repeat": max(args.repeat, 3)})
        hull_targets = print_hull(report["hull"])
        report["hull_tool"] = run_worker({"kind": "hull_tool", "count": HULL_TOOL_OBJECTS})
        hull_targets += print_hull_tool(report["hull_tool"])
        print_verdicts(hull_targets)
        targets += hull_targets
    report["overlay"] = run_worker({"kind": "overlay", "count": OVERLAY_COLLIDERS})
    print_overlay(report["overlay"])
    if not args.skip_repeat:
        report["repeat"] = bench_repeat.measure(run_worker, CACHE / "repeat")
        if report["repeat"] is not None:
            repeat_targets = bench_repeat.report(report["repeat"])
            print_verdicts(repeat_targets)
            targets += repeat_targets
    if not args.skip_decompose:
        report["decompose"] = bench_decompose.measure(run_worker)
        if report["decompose"] is not None:
            decompose_targets = bench_decompose.report(report["decompose"])
            print_verdicts(decompose_targets)
            targets += decompose_targets
    if args.profile:
        report["profiles"] = profile_phases(max(args.size_list))
    report["targets"] = targets
    report["seconds"] = time.perf_counter() - started
    (OUT / "bench.json").write_text(json.dumps(report, indent=1))
    failed = [t["target"] for t in targets if not t["pass"]]
    print(f"\n{len(targets) - len(failed)}/{len(targets)} targets met; wrote out/bench.json "
          f"({report['seconds']:.0f} s)")
    return 1 if failed and args.strict else 0


# -- worker side (bpy) -----------------------------------------------------------------------


def worker(spec: dict[str, Any]) -> int:
    user = tempfile.mkdtemp(prefix="gltf_physics_bench_")
    os.environ["BLENDER_USER_RESOURCES"] = user  # before bpy: never touch real config
    try:
        workers = {"build": build_worker, "phase": phase_worker, "hull": hull_worker,
                   "hull_tool": hull_tool_worker, "overlay": overlay_worker,
                   "repeat": lambda s, u: bench_repeat.repeat_worker(s, u, enable_addon),
                   "decompose": lambda s, u: bench_decompose.decompose_worker(s, u, enable_addon)}
        result = workers[spec["kind"]](spec, Path(user))
    finally:
        shutil.rmtree(user, ignore_errors=True)
    print(RESULT_TAG + json.dumps(result), flush=True)
    return 0


def enable_addon(user: Path) -> None:
    """Enable the checkout as the extension `bl_ext.bench.gltf_physics`."""
    import bpy  # noqa: I001 - bpy first: it puts addon_utils on the path
    import addon_utils

    repo_dir = user / "bench_repo"
    repo_dir.mkdir(exist_ok=True)
    (repo_dir / "gltf_physics").symlink_to(ROOT, target_is_directory=True)
    bpy.context.preferences.extensions.repos.new(
        name="bench", module="bench", custom_directory=str(repo_dir), source="USER"
    )
    if addon_utils.enable(MODULE, default_set=True) is None:
        raise RuntimeError("could not enable the add-on")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def glb_extensions(path: str) -> set[str]:
    """extensionsUsed of a glTF or GLB file."""
    gltf, _binary = load_module("asset_files").read_asset(path)
    return set(gltf.get("extensionsUsed", []))


def build_worker(spec: dict[str, Any], user: Path) -> dict[str, Any]:
    import bpy

    enable_addon(user)
    build_scene(spec["size"])
    bpy.ops.wm.save_as_mainfile(filepath=spec["blend"])
    for fmt in ("KHR", "OMI"):
        bpy.context.scene.gltf_physics.export_format = fmt
        bpy.ops.export_scene.gltf(filepath=spec[fmt], export_format="GLB")
        if FORMAT_EXTENSION[fmt] not in glb_extensions(spec[fmt]):
            raise RuntimeError(f"{fmt} export wrote no physics")
    return {"objects": len(bpy.data.objects), "meshes": len(bpy.data.meshes)}


class FloorExtension:
    """Stand-in export hook that does only what any physics extension must: attach finished
    payloads where and how ours attaches its own (plain dicts, per extension name, in
    `gather_gltf_extensions_hook`, after the exporter's traversal), and add the nodes a
    physics export adds (joint frames, shape offsets) under their parent's node before the
    traversal gives nodes their indices (in `gather_gltf_hook`; ours adds joint frames there
    and shape offsets in `gather_scene_hook`). Payloads and nodes come from an earlier
    export of the same scene and are prepared (parsed, equal payloads shared as our encoder
    shares them) before the timer starts; the nodes are made in the hook, as ours are (the
    glTF add-on of Blender 4.2 reloads its classes when an export starts); no property is
    read. The file it writes is ours (`tests/integration/test_bench_floor.py`); what it
    costs over the plain export is the glTF add-on's own cost of carrying the physics.
    Nodes are found by name: the bench scene's names are unique (checked)."""

    by_name: dict[str, dict[str, Any]] = {}
    added: list[tuple[str, dict[str, Any]]] = []  # (parent node name, node to add under it)
    root: dict[str, Any] = {}
    used: list[str] = []

    @classmethod
    def prepare(cls, document: dict[str, Any], object_names: set[str]) -> None:
        """Payloads by node name, equal payloads one object; the nodes no object stands for,
        built, with their parent's name (before the timer)."""
        shared: dict[str, Any] = {}
        cls.by_name = {}
        nodes = document["nodes"]
        names = [node.get("name") for node in nodes]
        if len(set(names)) != len(names):
            raise RuntimeError("floor: node names repeat, so payloads cannot be placed by name")
        for node in nodes:
            if node.get("extensions") and node.get("name"):
                payloads = {}
                for name, value in node["extensions"].items():
                    key = name + json.dumps(value, sort_keys=True)
                    payloads[name] = shared.setdefault(key, value)
                cls.by_name[node["name"]] = payloads
        parent_of = {child: index for index, node in enumerate(nodes)
                     for child in node.get("children", ())}
        cls.added = []
        for index, node in enumerate(nodes):
            if node.get("name") in object_names:
                continue
            if node.get("children") or node.get("mesh") is not None or index not in parent_of:
                raise RuntimeError(f"floor: cannot add node {node.get('name')!r}")
            cls.added.append((nodes[parent_of[index]]["name"], node))
        cls.root = document.get("extensions", {})
        cls.used = document.get("extensionsUsed", [])

    def gather_gltf_hook(self, active_scene_idx: Any, scenes: list, animations: Any,
                         export_settings: dict) -> None:
        parents = {parent for parent, _node in FloorExtension.added}
        found: dict[str, Any] = {}
        stack = [node for scene in scenes for node in scene.nodes]
        while stack:
            node = stack.pop()
            if node.name in parents:
                found[node.name] = node
            stack.extend(node.children)
        gltf_io = importlib.import_module("io_scene_gltf2.io.com.gltf2_io")
        for parent, node in FloorExtension.added:
            found[parent].children.append(gltf_io.Node(
                camera=None, children=[], extensions=None, extras=None, matrix=None, mesh=None,
                name=node["name"], rotation=_floats(node.get("rotation")), scale=None,
                skin=None, translation=_floats(node.get("translation")), weights=None))

    def gather_gltf_extensions_hook(self, gltf: Any, export_settings: dict) -> None:
        by_name = FloorExtension.by_name
        attached = 0
        for node in gltf.nodes:
            payloads = by_name.get(node.name)
            if payloads:
                node.extensions = node.extensions or {}
                for name, value in payloads.items():
                    node.extensions[name] = value
                attached += 1
        if attached < 0.95 * len(by_name):
            raise RuntimeError(f"floor: only {attached} of {len(by_name)} payloads attached")
        gltf.extensions = gltf.extensions or {}
        gltf.extensions.update(FloorExtension.root)
        used = gltf.extensions_used if gltf.extensions_used is not None else []
        used.extend(name for name in FloorExtension.used if name not in used)
        gltf.extensions_used = used


def _floats(values: list | None) -> list[float] | None:
    """JSON numbers as the floats the glTF add-on's classes hold (4.2 asserts the type)."""
    return None if values is None else [float(v) for v in values]


def phase_worker(spec: dict[str, Any], user: Path) -> dict[str, Any]:
    import bpy

    if spec["physics"]:
        enable_addon(user)
    if spec["action"] == "export":
        bpy.ops.wm.open_mainfile(filepath=spec["blend"])
        if spec.get("floor"):
            gltf, _binary = load_module("asset_files").read_asset(spec["source"])
            FloorExtension.prepare(gltf, {obj.name for obj in bpy.data.objects})
            del gltf, _binary  # only the prepared payloads stay alive (the collector's work)
            sys.modules[MODULE].glTF2ExportUserExtension = FloorExtension
        if spec["physics"]:
            bpy.context.scene.gltf_physics.export_format = spec["fmt"]
        call = lambda: bpy.ops.export_scene.gltf(  # noqa: E731
            filepath=spec["target"], export_format="GLB")
    else:
        bpy.ops.wm.read_homefile(use_empty=True)
        call = lambda: bpy.ops.import_scene.gltf(filepath=spec["source"])  # noqa: E731
    before = peak_mb()
    seconds, profile = timed(call, spec.get("profile"))
    result = {"seconds": seconds, "peak_mb": peak_mb(), "op_peak_mb": peak_mb() - before}
    result.update(check_phase(spec))
    if profile is not None:
        result["profile"] = profile
    return result


def timed(call, profile_path: str | None) -> tuple[float, dict[str, Any] | None]:
    """Seconds taken by `call()`, and a profile summary when a path is given.

    A full garbage collection first: every phase starts from the same collector state,
    whatever its setup (enabling the add-on, opening the scene) left behind. Otherwise
    where the collector's periodic full passes fall inside the call depends on that setup.
    """
    gc.collect()
    if profile_path is None:
        started = time.perf_counter()
        call()
        return time.perf_counter() - started, None
    import cProfile

    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.runcall(call)
    seconds = time.perf_counter() - started
    profiler.dump_stats(profile_path)
    return seconds, profile_summary(profile_path, seconds)


def profile_summary(path: str, seconds: float) -> dict[str, Any]:
    """Our functions by cumulative time; `hooks_s` sums the entry points the glTF add-on
    calls (hook methods and the extension constructors), which never nest."""
    import pstats

    stats = pstats.Stats(path).stats  # type: ignore[attr-defined]
    ours = []
    hooks_s = 0.0
    for (filename, line, function), (_, ncalls, tottime, cumtime, _) in stats.items():
        if not filename.endswith(".py"):
            continue  # built-ins ("~") and frozen modules
        resolved = Path(filename).resolve()
        if not resolved.is_relative_to(ROOT) or resolved.is_relative_to(ROOT / ".venv"):
            continue
        where = resolved.relative_to(ROOT)
        if where.parts[0] == "scripts":
            continue
        ours.append({"where": f"{where}:{line} {function}", "ncalls": ncalls,
                     "tottime": tottime, "cumtime": cumtime})
        if where.name in HOOK_FILES and (function.endswith("_hook") or function == "__init__"):
            hooks_s += cumtime
    ours.sort(key=lambda row: row["cumtime"], reverse=True)
    return {"total_s": seconds, "hooks_s": hooks_s, "ours": ours[:25]}


def check_phase(spec: dict[str, Any]) -> dict[str, Any]:
    """Fail loudly if a plain run wrote physics or a physics run lost it."""
    import bpy

    if spec["action"] == "export":
        found = glb_extensions(spec["target"]) & PHYSICS_EXTENSIONS
        if spec["physics"] != bool(found):
            raise RuntimeError(f"{spec['name']}: physics extensions in the file: {found}")
        return {}
    if not spec["physics"]:
        if hasattr(bpy.types.Object, "gltf_physics"):
            raise RuntimeError("the add-on is registered in a plain run")
        return {}
    count = sum(1 for obj in bpy.data.objects if obj.gltf_physics.shape_type != "NONE")
    if count < spec["size"]:
        raise RuntimeError(f"{spec['name']}: only {count} of {spec['size']} shapes imported")
    return {"physics_objects": count}


# -- scene building ---------------------------------------------------------------------------


def build_scene(size: int) -> list[Any]:
    """`size` bodies on a grid: shared meshes, every shape kind, materials and filters, and
    a hinge joint (on an Empty under the body) every JOINT_EVERY bodies. Returns the bodies."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    for name in LAYERS:
        scene.gltf_physics.layers.add().name = name
    level = bpy.data.collections.new("Level")
    scene.collection.children.link(level)
    meshes = shared_meshes()
    side = math.ceil(math.sqrt(size))
    bodies = []
    for index in range(size):
        kind = SHAPE_MIX[index % len(SHAPE_MIX)]
        variants = meshes[kind]
        obj = bpy.data.objects.new(f"{kind}.{index:05d}", variants[index % len(variants)])
        obj.location = (3.0 * (index % side), 3.0 * (index // side), 0.0)
        obj.rotation_euler = (0.0, 0.0, 0.1 * (index % 7))
        level.objects.link(obj)
        configure_body(obj.gltf_physics, kind, index)
        bodies.append(obj)
    for index in range(1, size, JOINT_EVERY):
        add_hinge(level, bodies[index], bodies[index - 1])
    return bodies


def add_hinge(collection: Any, body: Any, partner: Any) -> None:
    """A limited hinge between `body` and `partner`, on an Empty at the body."""
    import bpy

    hinge = bpy.data.objects.new(f"{body.name}.hinge", None)
    collection.objects.link(hinge)
    hinge.parent = body
    props = hinge.gltf_physics
    props.joint_type = "HINGE"
    props.joint_axis = "Z"
    props.joint_use_limit = True
    props.joint_angle_min, props.joint_angle_max = -0.5, 0.5
    props.joint_connected_body = partner


def configure_body(props: Any, kind: str, index: int) -> None:
    """Physics settings varied by index, as in a level made by hand."""
    props.shape_type = SHAPE_TYPE[kind]
    if kind == "trimesh":
        props.motion_type = "STATIC"
    else:
        props.motion_type = "KINEMATIC" if index % 10 == 0 else "DYNAMIC"
        props.mass = 1.0 + index % 5
    if kind in ("hull", "trimesh"):
        props.mesh_source = "SELF"
    elif index % 4 == 0:
        props.size_mode = "CUSTOM"
    if index % 2 == 0:
        props.use_material = True
        props.static_friction = props.dynamic_friction = FRICTIONS[index % len(FRICTIONS)]
        props.restitution = 0.1 * (index % 3)
    if index % 3 == 0:
        props.use_filter = True
        props.filter_layers = [i == index % len(LAYERS) for i in range(32)]
        props.filter_mode = "EXCEPT"
        props.filter_targets = [i == (index + 1) % len(LAYERS) for i in range(32)]


def shared_meshes() -> dict[str, list[Any]]:
    """A few meshes per kind, each shared by many objects (linked duplicates)."""
    import bmesh

    def cube(bm):
        bmesh.ops.create_cube(bm, size=1.0)

    def ball(bm):
        bmesh.ops.create_uvsphere(bm, u_segments=16, v_segments=8, radius=0.5)

    def pill(bm):
        bmesh.ops.create_cone(bm, cap_ends=True, segments=16, radius1=0.3, radius2=0.3, depth=1.4)

    def rock(detail):
        return lambda bm: bmesh.ops.create_icosphere(bm, subdivisions=detail, radius=0.6)

    def monkey(bm):
        bmesh.ops.create_monkey(bm)

    def terrain(seed):
        def build(bm):
            bmesh.ops.create_grid(bm, x_segments=12, y_segments=12, size=1.4)
            for i, vert in enumerate(bm.verts):
                vert.co.z = 0.1 * math.sin(i * 0.7 + seed)
        return build

    builders = {"box": [cube], "sphere": [ball], "capsule": [pill],
                "hull": [rock(1), rock(2), monkey], "trimesh": [terrain(s) for s in range(3)]}
    return {kind: [new_mesh(f"{kind}{i}", b) for i, b in enumerate(makers)]
            for kind, makers in builders.items()}


def new_mesh(name: str, build) -> Any:
    import bmesh
    import bpy

    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    build(bm)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


# -- hull benchmark ---------------------------------------------------------------------------


def print_overlay(overlay: dict[str, Any]) -> None:
    print(f"\nShape overlay, {overlay['colliders']} colliders (CPU side: signatures and cached "
          "batches; GPU drawing needs a display)")
    print(f"  first draw (every batch built)   {overlay['first_ms']:8.1f} ms")
    print(f"  later draws (nothing changed)    {overlay['redraw_ms']:8.1f} ms per frame")
    print(f"  after editing one shape          {overlay['one_change_ms']:8.1f} ms "
          f"({overlay['rebuilt']} batch rebuilt)")


def overlay_worker(spec: dict[str, Any], user: Path) -> dict[str, Any]:
    """Time the viewport overlay's per-frame work for many colliders, with a stand-in
    batch factory (headless Blender has no GPU); the segment arrays are really built."""
    import bpy

    enable_addon(user)
    bpy.ops.wm.read_homefile(use_empty=True)
    build_scene(spec["count"])
    import importlib

    overlay = importlib.import_module(f"{MODULE}.panels.shape_overlay")
    cache = overlay.BatchCache(lambda segments: segments.shape)
    objects = list(bpy.context.scene.objects)

    def frame() -> float:
        started = time.perf_counter()
        for obj in objects:
            cache.batch(obj)
            overlay.color_of(obj)
        return (time.perf_counter() - started) * 1000

    first = frame()
    redraw = min(frame() for _ in range(OVERLAY_FRAMES))
    objects[0].gltf_physics.size_mode = "CUSTOM"
    objects[0].gltf_physics.box_size = (3.0, 2.0, 1.0)
    builds = cache.builds
    changed = frame()
    return {"colliders": len(objects), "first_ms": first, "redraw_ms": redraw,
            "one_change_ms": changed, "rebuilt": cache.builds - builds}


def hull_worker(spec: dict[str, Any], user: Path) -> dict[str, Any]:
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    hull = load_module("blender.tools.hull")
    objects = {"uv_sphere": uv_sphere_object(448, 224), "subdivided_monkey": monkey_object(4)}
    return {name: hull_figures(hull, obj, spec["repeat"]) for name, obj in objects.items()}


def hull_tool_worker(spec: dict[str, Any], user: Path) -> dict[str, Any]:
    """Generate Convex Hull on many selected cubes, then again (each run replaces what the
    last made): a per-object cost that grows with the scene shows here."""
    import bpy  # noqa: I001 - bpy first: it puts bmesh on the path
    import bmesh

    enable_addon(user)
    bpy.ops.wm.read_homefile(use_empty=True)
    cube = new_mesh("Cube", lambda bm: bmesh.ops.create_cube(bm, size=2.0))
    objects = []
    for number in range(spec["count"]):  # (each its own mesh, as artists' rocks are)
        obj = bpy.data.objects.new(f"Cube{number}", cube.copy())
        obj.location = (number % 40 * 3, number // 40 * 3, 0)
        bpy.context.scene.collection.objects.link(obj)
        objects.append(obj)
    bpy.context.view_layer.update()
    seconds = []
    for max_points in (64, 8):
        with bpy.context.temp_override(selected_objects=objects, active_object=objects[0],
                                       object=objects[0]):
            started = time.perf_counter()
            bpy.ops.gltf_physics.simplify_hull(max_points=max_points)
            seconds.append(time.perf_counter() - started)
    return {"objects": len(objects), "first_s": seconds[0], "again_s": seconds[1]}


def hull_figures(hull: Any, obj: Any, repeat: int) -> dict[str, Any]:
    import bpy

    depsgraph = bpy.context.evaluated_depsgraph_get()
    best = {"blender_hull_s": math.inf, "simplify_s": math.inf, "total_s": math.inf,
            "fast_path_s": math.inf}
    for _ in range(repeat):
        started = time.perf_counter()
        blender = hull.hull_of_points(hull.evaluated_vertices(obj, depsgraph))
        middle = time.perf_counter()
        result = hull.simplify_hull(blender.points, HULL_POINTS_MAX, volume_before=blender.volume)
        done = time.perf_counter()
        hull.simplified_hull_points(obj, depsgraph, HULL_POINTS_MAX)
        fast = time.perf_counter() - done
        for key, value in (("blender_hull_s", middle - started), ("simplify_s", done - middle),
                           ("total_s", done - started), ("fast_path_s", fast)):
            best[key] = min(best[key], value)
    return {"vertices": len(obj.evaluated_get(depsgraph).data.vertices),
            "hull_points": len(blender.points), "kept": len(result.points),
            "volume_before": result.volume_before, "volume_after": result.volume_after,
            "volume_error": result.volume_error, **best}


def uv_sphere_object(segments: int, rings: int) -> Any:
    """A unit UV sphere with segments × (rings − 1) + 2 vertices (100k at 448 × 224), built
    with numpy (bmesh.ops.create_uvsphere takes seconds at this size)."""
    import bpy
    import numpy as np

    theta = np.linspace(0, np.pi, rings + 1)[1:-1]
    phi = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    rings_xyz = np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)], axis=-1)
    points = np.vstack([rings_xyz.reshape(-1, 3), [[0, 0, 1], [0, 0, -1]]])
    grid = np.arange((rings - 1) * segments).reshape(rings - 1, segments)
    after = np.roll(grid, -1, axis=1)
    quads = np.stack([grid[:-1], grid[1:], after[1:], after[:-1]], axis=-1).reshape(-1)
    top, bottom = len(points) - 2, len(points) - 1
    caps = np.concatenate([
        np.stack([np.full(segments, top), grid[0], after[0]], axis=-1).reshape(-1),
        np.stack([np.full(segments, bottom), after[-1], grid[-1]], axis=-1).reshape(-1),
    ])
    sizes = np.concatenate([np.full(len(quads) // 4, 4), np.full(len(caps) // 3, 3)])
    mesh = bpy.data.meshes.new("Sphere")
    mesh.vertices.add(len(points))
    mesh.vertices.foreach_set("co", points.astype(np.float32).ravel())
    mesh.loops.add(len(quads) + len(caps))
    mesh.loops.foreach_set("vertex_index", np.concatenate([quads, caps]).astype(np.int32))
    mesh.polygons.add(len(sizes))
    mesh.polygons.foreach_set("loop_start", (np.cumsum(sizes) - sizes).astype(np.int32))
    mesh.update(calc_edges=True)
    mesh.validate()
    return link_object("Sphere", mesh)


def monkey_object(levels: int) -> Any:
    """Suzanne under a Subdivision Surface modifier (126k vertices at level 4)."""
    import bmesh
    import bpy

    mesh = bpy.data.meshes.new("Monkey")
    bm = bmesh.new()
    bmesh.ops.create_monkey(bm)
    bm.to_mesh(mesh)
    bm.free()
    obj = link_object("Monkey", mesh)
    obj.modifiers.new("Subdivision", "SUBSURF").levels = levels
    return obj


def link_object(name: str, data: Any) -> Any:
    import bpy

    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    return obj


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
