# SPDX-License-Identifier: GPL-3.0-or-later
"""Bench phase: one file with a 100,000-element bad array, imported fresh and again after
200 imports in the same process, with the add-on enabled and (the floor) disabled.

Used by scripts/bench.py; the worker side runs inside its Blender-as-a-module process.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "corpus" / "khr" / "samples" / "JointTypes" / "JointTypes.gltf"
BAD_LENGTH = 100_000
IMPORTS = 200
FRESH_SECONDS_MAX = 1.0
AFTER_RATIO_MAX = 1.5
GROWTH_MB_MAX = 5.0


def bad_array_file(folder: Path) -> Path | None:
    """JointTypes with `physicsJoints[5].limits` an array of 100,000 integers (None without
    ../shared/corpus)."""
    if not SOURCE.is_file():
        return None
    gltf = json.loads(SOURCE.read_text())
    gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][5]["limits"] = list(
        range(BAD_LENGTH))
    folder.mkdir(parents=True, exist_ok=True)
    for buffer in gltf.get("buffers", []):
        (folder / buffer["uri"]).write_bytes((SOURCE.parent / buffer["uri"]).read_bytes())
    target = folder / "bad_array.gltf"
    target.write_text(json.dumps(gltf))
    return target


def resident_mb() -> float:
    """Resident memory now (not the peak): what stays after each import."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 1e6


def repeat_worker(spec: dict[str, Any], user: Path, enable: Callable[[Path], None]
                  ) -> dict[str, Any]:
    """Import `spec["source"]` once, `spec["imports"]` more times, then once again."""
    import bpy

    if spec["physics"]:
        enable(user)

    def timed_import() -> float:
        bpy.ops.wm.read_homefile(use_empty=True)
        gc.collect()
        started = time.perf_counter()
        bpy.ops.import_scene.gltf(filepath=spec["source"])
        return time.perf_counter() - started

    fresh = timed_import()
    gc.collect()
    memory, objects = resident_mb(), len(gc.get_objects())
    for _ in range(spec["imports"]):
        timed_import()
    after = timed_import()
    gc.collect()
    return {"fresh_s": fresh, "after_s": after, "memory_growth_mb": resident_mb() - memory,
            "object_growth": len(gc.get_objects()) - objects}


def measure(run_worker: Callable[[dict[str, Any]], dict[str, Any]], folder: Path
            ) -> dict[str, Any] | None:
    """Both runs (add-on enabled and disabled); None without the corpus."""
    source = bad_array_file(folder)
    if source is None:
        print("\nRepeated imports: skipped (../shared/corpus is not beside the checkout)")
        return None
    return {name: run_worker({"kind": "repeat", "physics": physics, "source": str(source),
                              "imports": IMPORTS})
            for name, physics in (("enabled", True), ("disabled", False))}


def report(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Print the figures; the targets."""
    print(f"\nA {BAD_LENGTH:,}-element bad array, imported fresh and after {IMPORTS} imports "
          "in one process")
    print(f"  {'add-on':<10}{'fresh s':>9}{'after s':>9}{'memory MB':>11}{'objects':>9}")
    for name, row in result.items():
        print(f"  {name:<10}{row['fresh_s']:>9.3f}{row['after_s']:>9.3f}"
              f"{row['memory_growth_mb']:>11.1f}{row['object_growth']:>9}")
    on = result["enabled"]
    ratio = on["after_s"] / on["fresh_s"]
    return [
        {"target": "bad array import, fresh", "value": on["fresh_s"],
         "limit": FRESH_SECONDS_MAX, "pass": on["fresh_s"] <= FRESH_SECONDS_MAX},
        {"target": f"bad array import after {IMPORTS} / fresh", "value": ratio,
         "limit": AFTER_RATIO_MAX, "pass": ratio <= AFTER_RATIO_MAX},
        {"target": f"memory growth over {IMPORTS} imports (MB)", "value": on["memory_growth_mb"],
         "limit": GROWTH_MB_MAX, "pass": on["memory_growth_mb"] <= GROWTH_MB_MAX},
    ]
