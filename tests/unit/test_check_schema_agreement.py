# SPDX-License-Identifier: GPL-3.0-or-later
"""The checker's schema rules agree with the official JSON schemas (read from ../shared/specs
and patched for the known upstream defects by tests/support/schemas.py): on the corpus, on
systematic mutations of it and on generated documents, a payload has a schema finding from
the checker exactly when the official schemas reject it, at the same place."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gltf_physics.io.asset_files import read_asset
from gltf_physics.io.check import specs
from gltf_physics.io.check.checker import check_document
from gltf_physics.io.check.codes import CODES
from gltf_physics.io.check.schema import Array, Boolean, Integer, Number, Object, String
from gltf_physics.io.codecs.joints import is_legacy_node_joint
from gltf_physics.io.codecs.khr_legacy import is_khr_2024
from gltf_physics.io.document import DocumentView
from tests.conftest import CORPUS, SHARED
from tests.support import schemas

SPECS = SHARED / "specs"
ABSENT = "the shared specs or corpus are absent (needs ../shared)"
pytestmark = pytest.mark.skipif(not SPECS.is_dir() or not CORPUS.is_dir(), reason=ABSENT)

PAYLOAD = re.compile(r"^(/extensions/[^/]+|/nodes/\d+/extensions/[^/]+)")
COLLIDER = "OMI_collider"
#: Writer-only rule of the test helper: a reader's checker warns instead (physics-required).
WRITER_ONLY = "must stay optional"


@cache
def validators() -> tuple[schemas.PhysicsSchemaValidator, schemas.PhysicsSchemaValidator]:
    return (schemas.PhysicsSchemaValidator(SPECS, schemas.CURRENT, schemas.READ),
            schemas.PhysicsSchemaValidator(SPECS, schemas.KHR_2024_03, schemas.READ))


def payload_of(pointer: str) -> str | None:
    match = PAYLOAD.match(pointer)
    return match.group(1) if match else None


def _pointer(message: str) -> str:
    return message.split(": ", 1)[0]


def official(gltf: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(pointers the official schemas reject, pointers of the helper's semantic errors), as
    tests/support validates: the current schemas, the 2024-03 ones for a 2024-03 KHR
    document, and the archived OMI_collider schemas."""
    current, legacy = validators()
    is_legacy = is_khr_2024(DocumentView.from_json(gltf))
    found = [m for m in current.schema_errors(gltf)
             if not (is_legacy and "/KHR_physics_rigid_bodies" in _pointer(m))]
    semantic = [m for m in current.semantic_errors(gltf) if WRITER_ONLY not in m]
    if is_legacy:
        found += legacy.schema_errors(gltf) + schemas._legacy_errors(gltf)
        semantic = [m for m in legacy.semantic_errors(gltf)
                    if WRITER_ONLY not in m and "needs its" not in m and "axis 3" not in m]
    found += _collider_errors(current, gltf)
    pointers = {_pointer(m) for m in found}
    return ({p for p in pointers if not _is_v1_joint(gltf, p)},
            {_pointer(m) for m in semantic if not _is_v1_joint(gltf, _pointer(m))})


def _collider_errors(validator: schemas.PhysicsSchemaValidator, gltf: dict[str, Any]) -> list[str]:
    root = gltf.get("extensions")
    found = []
    if isinstance(root, dict) and COLLIDER in root:
        found += validator._check(f"glTF.{COLLIDER}.schema.json", root[COLLIDER],
                                  f"/extensions/{COLLIDER}")
    for index, node in enumerate(gltf.get("nodes") or []):
        extensions = node.get("extensions") if isinstance(node, dict) else None
        if isinstance(extensions, dict) and COLLIDER in extensions:
            found += validator._check(f"node.{COLLIDER}.schema.json", extensions[COLLIDER],
                                      f"/nodes/{index}/extensions/{COLLIDER}")
    return found


def _is_v1_joint(gltf: dict[str, Any], pointer: str) -> bool:
    """OMI v1 joints are a legacy revision: the checker notes them instead."""
    root = payload_of(pointer)
    if root is None or not root.endswith("/OMI_physics_joint"):
        return False
    value: Any = gltf
    for token in root.strip("/").split("/"):
        value = value[int(token)] if isinstance(value, list) else value[token]
    if not isinstance(value, dict):
        return False
    if root.startswith("/extensions"):
        return "constraints" in value and "physicsJoints" not in value
    return is_legacy_node_joint(value)


def checker(gltf: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(pointers of the checker's schema findings, pointers of all its errors)."""
    issues = check_document(gltf).listed()
    assert not [i for i in issues if i.code == "check-failed"], issues
    assert all(CODES[i.code][0] == i.severity for i in issues), issues
    schema = {i.where for i in issues if i.code in specs.SCHEMA_CODES and payload_of(i.where)}
    return schema, {i.where for i in issues if i.severity == "error"}


#: Where the checker is deliberately stricter than the raw official schemas, each a defect
#: the digest (§6.1, defect 6) says to "check semantically": the 2024-03 shape schema's
#: trimesh branch validates a `mesh` key instead of the `trimesh` object, and its limit
#: branches each validate only their own axis key (so one bad axis list beside a good one
#: passes).
STRICTER = (re.compile(r"^/extensions/KHR_collision_shapes/shapes/\d+/trimesh(/|$)"),
            re.compile(r"^/extensions/KHR_physics_rigid_bodies/physicsJoints/\d+/limits/\d+/"
                       r"(linear|angular)Axes(/|$)"))


def stricter(pointer: str, gltf: dict[str, Any]) -> bool:
    if not is_khr_2024(DocumentView.from_json(gltf)):
        return False
    return any(pattern.match(pointer) for pattern in STRICTER)


def related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def assert_agree(gltf: dict[str, Any]) -> None:
    wanted, semantic = official(gltf)
    mine, errors = checker(gltf)
    mine = {p for p in mine if not stricter(p, gltf) or any(related(p, w) for w in wanted)}
    assert {payload_of(p) for p in mine} == {payload_of(p) for p in wanted}, (wanted, mine)
    for pointer in wanted:
        assert any(related(pointer, p) for p in mine), (pointer, mine)
    for pointer in semantic:  # references, compound triggers, pilot seats, declarations
        assert any(related(pointer, p) for p in errors), (pointer, errors)


# -- the corpus and its mutations ------------------------------------------------------------

BASES = (
    "omi/current/OMI_physics_shape/box_collider.gltf",
    "omi/current/OMI_physics_shape/convex/convex_hull.gltf",
    "omi/current/OMI_physics_body/basic/compound_trigger.gltf",
    "omi/current/OMI_physics_body/complex/ball_pit.gltf",
    "omi/current/OMI_physics_body/complex/dynamic_with_velocity.gltf",
    "omi/current/OMI_physics_joint/slider_ball.gltf",
    "omi/current/OMI_physics_joint/weld_joint.gltf",
    "omi/current/OMI_vehicle_wheel/simple_car.gltf",
    "omi/current/OMI_vehicle_thruster/rocket_ship.gltf",
    "omi/current/OMI_vehicle_hover_thruster/hovercraft.gltf",
    "omi/current/OMI_vehicle_body/minimal_vehicle_body.gltf",
    "omi/current/OMI_collider/capsule_collider.gltf",
    "omi/current/OMI_collider/hull/convex_hull.gltf",
    "khr/samples/ShapeTypes/ShapeTypes.gltf",
    "khr/samples/JointTypes/JointTypes.gltf",
    "khr/samples/Filtering/Filtering.gltf",
    "khr/samples/Triggers/Triggers.gltf",
    "khr/samples/MotionProperties/MotionProperties.gltf",
    "khr/legacy/2024-03_collision_shapes/ShapeTypes/ShapeTypes.gltf",
    "khr/legacy/2024-03_collision_shapes/JointTypes/JointTypes.gltf",
    "khr/legacy/2024-03_collision_shapes/Triggers/Triggers.gltf",
)
REPLACEMENTS: tuple[Any, ...] = ("text", True, None, {}, [], -1, -0.5, 0, 0.5, 1.0, 2, 3, 1e9,
                                 [0.5], [1, 1], [0, 1, 2, 2], {"type": "other"})
DELETE = object()
MUTATIONS_PER_FILE = 60


def corpus_paths() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".gltf", ".glb"))


@pytest.mark.parametrize("path", corpus_paths(), ids=lambda p: p.relative_to(CORPUS).as_posix())
def test_corpus_agrees_with_the_official_schemas(path: Path) -> None:
    assert_agree(read_asset(path)[0])


def locations(gltf: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """Paths (from the document root) of every value inside a physics payload."""
    def below(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        yield path
        items = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        for key, child in items:
            yield from below(child, (*path, key))

    for name, payload in (gltf.get("extensions") or {}).items():
        if name in specs.CHECKED:
            yield from below(payload, ("extensions", name))
    for index, node in enumerate(gltf.get("nodes") or []):
        for name, payload in (node.get("extensions") or {}).items():
            if name in specs.CHECKED:
                yield from below(payload, ("nodes", index, "extensions", name))


def mutated(gltf: dict[str, Any], path: tuple[Any, ...], replacement: Any) -> dict[str, Any]:
    out = copy.deepcopy(gltf)
    owner = out
    for key in path[:-1]:
        owner = owner[key]
    if replacement is DELETE:
        del owner[path[-1]]
    else:
        owner[path[-1]] = copy.deepcopy(replacement)
    return out


@pytest.mark.parametrize("name", BASES)
def test_mutations_agree_with_the_official_schemas(name: str) -> None:
    gltf = read_asset(CORPUS / name)[0]
    places = list(locations(gltf))
    rng = random.Random(name)
    for _ in range(MUTATIONS_PER_FILE):
        path = rng.choice(places)
        choices = [*REPLACEMENTS, *([DELETE] if isinstance(path[-1], str) else [])]
        assert_agree(mutated(gltf, path, rng.choice(choices)))


def test_a_missing_required_key_is_an_error_at_its_object() -> None:
    gltf = read_asset(CORPUS / "omi/current/OMI_vehicle_thruster/simple_spaceship.gltf")[0]
    del gltf["extensions"]["OMI_vehicle_thruster"]["thrusters"][1]["maxForce"]
    issues = check_document(gltf).issues
    found = [(i.code, i.where) for i in issues if i.severity == "error"]
    assert found == [("missing-required", "/extensions/OMI_vehicle_thruster/thrusters/1")]
    assert_agree(gltf)


def test_huge_arrays_and_non_finite_numbers_agree() -> None:
    gltf = read_asset(CORPUS / "khr/samples/ShapeTypes/ShapeTypes.gltf")[0]
    shapes = gltf["extensions"]["KHR_implicit_shapes"]["shapes"]
    shapes[:] = [copy.deepcopy(shapes[0]) for _ in range(3000)]
    shapes[2500] = {"type": "box", "box": {"size": [1, -1, 1]}}
    shapes[2600] = {"type": "box", "box": {"size": [1.0] * 5000}}
    motion = next(n["extensions"]["KHR_physics_rigid_bodies"]["motion"] for n in gltf["nodes"]
                  if "motion" in n.get("extensions", {}).get("KHR_physics_rigid_bodies", {}))
    motion.update(mass=float("nan"), gravityFactor=float("-inf"),
                  linearVelocity=[0, float("inf"), 0])
    assert_agree(gltf)
    found = {(i.code, i.where) for i in check_document(gltf).issues if i.severity == "error"}
    base = "/extensions/KHR_implicit_shapes/shapes"
    assert {("out-of-range", f"{base}/2500/box/size/1"),
            ("bad-length", f"{base}/2600/box/size")} <= found
    assert sum(code == "not-finite" for code, _ in found) == 3


# -- generated documents ---------------------------------------------------------------------

SCALARS = st.sampled_from([None, True, False, "box", "other", -1, 0, 1, 2, 3, 1.0, 0.5, -0.5,
                           3.2, 1e9, [], {}])


def strategy(spec: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values shaped by one of the checker's specs, often subtly wrong."""
    if isinstance(spec, Object):
        optional = {key: strategy(field, depth + 1) for key, field in spec.fields.items()}
        extra = {"extensions": st.sampled_from([{}, {"X": {}}, {"X": 1}, 2]),
                 "name": st.sampled_from(["n", 1])} if spec.base else {}
        shaped = st.fixed_dictionaries({}, optional={**optional, **extra})
        return st.one_of(shaped, shaped, shaped, SCALARS) if depth else shaped
    if isinstance(spec, Array):
        items = strategy(spec.items, depth + 1) if spec.items is not None else SCALARS
        size = max(spec.max_items or 4, spec.min_items + 1)
        return st.one_of(st.lists(items, max_size=size), SCALARS)
    if isinstance(spec, Integer):
        return st.sampled_from([-1, 0, 1, 2, 3, 2.0, 1.5, "1", True, 10**20])
    if isinstance(spec, Number):
        return st.sampled_from([0, 0.0, -0.5, 0.5, 1, 3.1415926, -1, 1e300, float("nan"), "1",
                                None])
    if isinstance(spec, Boolean):
        return st.sampled_from([True, False, 0, "true"])
    if isinstance(spec, String):
        return st.sampled_from([*spec.choices, "other", 5]) if spec.choices else \
            st.sampled_from(["box", "capsule", "convex", "trimesh", "linear", "force", 7])
    return SCALARS


def document(payloads: tuple[specs.Payload, ...]) -> st.SearchStrategy[dict[str, Any]]:
    roots = {p.extension: strategy(p.spec) for p in payloads if p.level == "doc"}
    nodes = {p.extension: strategy(p.spec) for p in payloads if p.level == "node"}
    node = st.fixed_dictionaries(
        {"children": st.lists(st.integers(0, 3), max_size=2, unique=True)},
        optional={"extensions": st.fixed_dictionaries({}, optional=nodes),
                  "mesh": st.integers(0, 1)})
    return st.fixed_dictionaries({
        "asset": st.just({"version": "2.0"}),
        "extensions": st.fixed_dictionaries({}, optional=roots),
        "nodes": st.lists(node, min_size=1, max_size=4),
        "meshes": st.just([{"primitives": []}]),
    }, optional={"extensionsUsed": st.just(sorted(specs.CHECKED))})


GENERATED = settings(max_examples=150, deadline=None, database=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@GENERATED
@given(document(specs.OMI_PAYLOADS))
def test_generated_omi_documents_agree(gltf: dict[str, Any]) -> None:
    assert_agree(gltf)


@GENERATED
@given(document(specs.KHR_PAYLOADS))
def test_generated_khr_documents_agree(gltf: dict[str, Any]) -> None:
    assert_agree(gltf)


@GENERATED
@given(document(specs.LEGACY_KHR_PAYLOADS))
def test_generated_2024_khr_documents_agree(gltf: dict[str, Any]) -> None:
    assert_agree(gltf)
