# SPDX-License-Identifier: GPL-3.0-or-later
"""Importer fuzzing: near-valid physics in real Blender imports never aborts or loses meshes.

A fast subset runs in `make test`; `make fuzz` runs many more seeds
(GLTF_PHYSICS_FUZZ_RUNS). Each case mutates the physics of a valid export (wrong types,
bad and negative indices, missing keys, NaN/Infinity, huge or empty arrays, self-references,
unknown shape types, required physics extensions) and imports it. NaN and Infinity are
refused by the glTF add-on's own parser before any hook runs; the pure decoder tests cover
them.
"""

import json
import logging
import os
import random
import shutil
from pathlib import Path

import bpy
import pytest

from tests.integration import scene_helpers as h

RUNS = int(os.environ.get("GLTF_PHYSICS_FUZZ_RUNS", "24"))
PHYSICS = ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint", "KHR_implicit_shapes",
           "KHR_physics_rigid_bodies", "OMI_vehicle_body", "OMI_vehicle_wheel", "OMI_seat")
INDEX_KEYS = ("shape", "physicsMaterial", "collisionFilter", "joint", "connectedNode", "mesh",
              "node", "wheel", "pilotSeat")
WEIRD_VALUES = ("text", [], {}, None, True, [1, 2], {"x": 1}, -1, 10**9, 1e300)


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> dict[str, tuple[Path, int]]:
    """Valid KHR and OMI exports of a scene using every feature, and their mesh counts."""
    folder = tmp_path_factory.mktemp("fuzz")
    bpy.ops.wm.read_homefile(use_empty=True)
    h.build_showcase()
    h.build_jointed()
    h.build_car()
    out = {}
    for fmt in ("KHR", "OMI"):
        path = folder / f"base_{fmt.lower()}.gltf"
        h.export(path, fmt)
        h.assert_valid(path)
        h.import_file(path)
        out[fmt] = (path, visible_meshes())
    return out


def visible_meshes() -> int:
    """Mesh objects that are geometry (collision proxies made from physics data excluded:
    with the physics reference broken, their mesh is referenced by nothing)."""
    return sum(1 for o in bpy.data.objects
               if o.type == "MESH" and not o.gltf_physics.collision_only)


def physics_spots(gltf: dict) -> list[tuple[list, object, str]]:
    """(path, container, key) of every value inside a physics extension."""
    spots: list[tuple[list, object, str]] = []

    def walk(value, path):
        items = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        for key, child in items:
            spots.append(([*path, key], value, key))
            walk(child, [*path, key])

    for name, ext in (gltf.get("extensions") or {}).items():
        if name in PHYSICS:
            walk(ext, ["extensions", name])
    for i, node in enumerate(gltf["nodes"]):
        for name, ext in (node.get("extensions") or {}).items():
            if name in PHYSICS:
                walk(ext, ["nodes", i, "extensions", name])
    return spots


def mutate(gltf: dict, rng: random.Random) -> list[str]:
    """Apply one to three mutations; returns what was done."""
    done = []
    for _ in range(rng.randint(1, 3)):
        spots = physics_spots(gltf)
        path, container, key = rng.choice(spots)
        kind = rng.choice(("type", "index", "delete", "number", "array", "self", "shape",
                           "required", "name"))
        if kind == "index":
            candidates = [s for s in spots if s[2] in INDEX_KEYS]
            if candidates:
                path, container, key = rng.choice(candidates)
            container[key] = rng.choice((-1, -7, 10**6, len(gltf["nodes"]), 2.5, "0"))
        elif kind == "delete" and isinstance(container, dict):
            del container[key]
        elif kind == "number":
            # The glTF add-on itself refuses NaN/Infinity tokens ("Bad glTF"), before any hook
            # runs; the pure decoder tests cover them. Here: extreme finite numbers.
            container[key] = rng.choice((-1e308, 1e308, 10**400, -0.0, 5e-324))
        elif kind == "array":
            container[key] = rng.choice(([], [0] * 100_000, [[]] * 50))
        elif kind == "self" and path[0] == "nodes":
            node = path[1]
            ext = gltf["nodes"][node]["extensions"]
            payload = next(iter(ext.values()))
            if isinstance(payload, dict):
                payload["trigger"] = {"nodes": [node, node]}
                payload.setdefault("joint", {"joint": 0, "connectedNode": node})
        elif kind == "shape":
            for name in ("OMI_physics_shape", "KHR_implicit_shapes"):
                shapes = (gltf.get("extensions") or {}).get(name, {}).get("shapes")
                if shapes:
                    rng.choice(shapes)["type"] = rng.choice(("torus", 7, None, ""))
        elif kind == "name":  # a pooled entry's optional name (shape, material, filter, joint)
            entries = [item for name, ext in (gltf.get("extensions") or {}).items()
                       if name in PHYSICS and isinstance(ext, dict)
                       for pool in ext.values() if isinstance(pool, list)
                       for item in pool if isinstance(item, dict)]
            if entries:
                rng.choice(entries)["name"] = rng.choice(
                    ("x" * 5000, "a\0b", 7, ["n"], None, {"n": 1}, "Ünï ☃ crate.001", ""))
        elif kind == "required":
            names = rng.sample((*PHYSICS, "OMI_physics_gravity", "OMI_spawn_point"), 2)
            gltf.setdefault("extensionsRequired", []).extend(names)
            gltf.setdefault("extensionsUsed", []).extend(names)  # the glTF rule
        else:
            container[key] = rng.choice(WEIRD_VALUES)
        done.append(f"{kind} at {'/'.join(map(str, path))}")
    return done


def run_case(seed: int, bases: dict, tmp_path: Path, caplog) -> None:
    rng = random.Random(seed)
    fmt = rng.choice(("KHR", "OMI"))
    base, meshes = bases[fmt]
    gltf = json.loads(base.read_text())
    what = mutate(gltf, rng)
    case = base.parent / f"case_{seed}.gltf"
    case.write_text(json.dumps(gltf))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        h.import_file(case)
    got = visible_meshes()
    assert got == meshes, f"seed {seed} ({what}): {got} of {meshes} meshes"
    errors = [r for r in caplog.records if "physics skipped" in r.getMessage()
              or "failed" in r.getMessage()]
    assert errors == [], f"seed {seed} ({what}): {[r.getMessage() for r in errors]}"
    case.unlink()


@pytest.mark.parametrize("seed", range(RUNS))
def test_fuzzed_import_never_aborts_or_loses_meshes(bases, tmp_path, caplog, seed):
    run_case(seed, bases, tmp_path, caplog)


def test_problems_name_their_node(bases, tmp_path, caplog):
    base, meshes = bases["KHR"]
    gltf = json.loads(base.read_text())
    index = next(i for i, n in enumerate(gltf["nodes"]) if n.get("name") == "Box")
    gltf["nodes"][index]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"] = {
        "shape": -3}
    case = base.parent / "named.gltf"
    case.write_text(json.dumps(gltf))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        h.import_file(case)
    assert any(f"/nodes/{index}/" in r.getMessage() for r in caplog.records)
    assert visible_meshes() == meshes
    shutil.rmtree(tmp_path, ignore_errors=True)
