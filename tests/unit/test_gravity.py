# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_gravity: the model's pull, the codec (every type, world gravity, defaults and
bounds from the table rows, bad input), corpus round trips compared by meaning (the pull at
world-space probe points), the converter, and KHR saying once what it cannot write."""

from __future__ import annotations

import json
import math
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gltf_physics.io.codecs.omi_gravity import GRAVITY_EXT, TOP_ROWS
from gltf_physics.io.codecs.registry import (
    HANDLED_EXTENSIONS,
    decode_document,
    decode_gravity_document,
    encode_document,
)
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.field_table import GRAVITY, WORLD_GRAVITY
from gltf_physics.io.gravity import (
    GRAVITY_KINDS,
    KIND_PARAMS,
    Gravity,
    GravityScene,
    WorldGravity,
    combined_pull,
    pull,
)
from gltf_physics.io.model import NodePhysics, PhysicsScene, Shape, Trigger
from gltf_physics.io.node_graph import NodeGraph
from tests.conftest import CORPUS, SHARED
from tests.support.refs import ident
from tests.support.schemas import PhysicsSchemaValidator

GRAVITY_CORPUS = CORPUS / "omi" / "current" / "OMI_physics_gravity"
SCHEMAS = SHARED / "specs" / "omi" / "OMI_physics_gravity" / "schema"
#: World-space probe points: the pull there is the volume's meaning.
PROBES = [np.array(p, float) for p in (
    (0.3, 0.2, -0.1), (2.5, -1.0, 0.7), (-3.0, 4.0, 1.5), (0.0, 10.0, 0.0), (7.0, -2.0, -6.0),
    (-0.6, -0.4, 2.2),
)]
BOX = Shape("box", size=(2.0, 1.0, 3.0))


def corpus_files() -> list[Path]:
    return sorted(GRAVITY_CORPUS.glob("*/*.gltf")) if GRAVITY_CORPUS.is_dir() else []


def encode_omi(gltf: dict[str, Any]) -> tuple[dict[str, Any], Report]:
    """Decode a document's physics and gravity and write them back as OMI, over the same
    nodes (their transforms kept)."""
    report = Report()
    view = DocumentView.from_json(gltf)
    scene = decode_document(view, report)
    gravity = decode_gravity_document(view, report)
    encoded = encode_document(scene, _no_vehicles(), "OMI", ident, ident, report,
                              gravity=gravity)
    out = json.loads(json.dumps(gltf))
    for node in out["nodes"]:
        extensions = node.get("extensions", {})
        for name in (*HANDLED_EXTENSIONS, GRAVITY_EXT):
            extensions.pop(name, None)
    for index, payload in encoded.nodes.items():
        out["nodes"][index].setdefault("extensions", {}).update(payload)
    root = {k: v for k, v in out.get("extensions", {}).items() if k not in HANDLED_EXTENSIONS}
    out["extensions"] = {**root, **encoded.root}
    out["extensionsUsed"] = sorted(
        {n for n in out.get("extensionsUsed", []) if n not in HANDLED_EXTENSIONS}
        | set(encoded.used()))
    return out, report


def _no_vehicles() -> Any:
    from gltf_physics.io.vehicle_model import VehicleScene
    return VehicleScene()


def meaning(gltf: dict[str, Any]) -> dict[str, Any]:
    """World gravity, and per volume node: its combining settings and its pull at every
    probe point in world space."""
    gravity = decode_gravity_document(DocumentView.from_json(gltf), Report())
    graph = NodeGraph.of(gltf)
    volumes = {}
    for index, volume in gravity.nodes.items():
        world = graph.world(index)
        volumes[index] = ((volume.kind, volume.priority, volume.replace, volume.stop),
                          [pull(volume, world, p) for p in PROBES])
    world = None if gravity.world is None else (
        gravity.world.gravity * np.asarray(gravity.world.direction))
    return {"world": world, "volumes": volumes}


def assert_same_meaning(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert (a["world"] is None) == (b["world"] is None)
    if a["world"] is not None:
        assert np.allclose(a["world"], b["world"], atol=1e-6)
    assert a["volumes"].keys() == b["volumes"].keys()
    for index, (settings, pulls) in a["volumes"].items():
        other_settings, other_pulls = b["volumes"][index]
        assert settings == other_settings, index
        for mine, theirs in zip(pulls, other_pulls, strict=True):
            assert np.allclose(mine, theirs, rtol=1e-5, atol=1e-6), index


# -- the table rows ---------------------------------------------------------------------------


def test_rows_agree_with_the_model_and_schema() -> None:
    defaults = {f.name: f.default for f in fields(Gravity)}
    for row in GRAVITY:
        if row.written == "required":
            assert defaults[row.attr] is MISSING  # the spec gives gravity no default
        else:
            assert defaults[row.attr] == row.default, row.attr
    world = {f.name: f.default for f in fields(WorldGravity)}
    assert world["gravity"] is MISSING
    assert world["direction"] == next(r.default for r in WORLD_GRAVITY if r.attr == "direction")
    node_schema = json.loads((SCHEMAS / "node.OMI_physics_gravity.schema.json").read_text()) \
        if SCHEMAS.is_dir() else None
    if node_schema is not None:
        props = node_schema["properties"]
        for row in TOP_ROWS:
            if "default" in props[row.key]:
                assert props[row.key]["default"] == row.default, row.key
        for kind, params in KIND_PARAMS.items():
            sub = json.loads((SCHEMAS / f"node.OMI_physics_gravity.{kind}.schema.json")
                             .read_text())["properties"]
            for row in (r for r in GRAVITY if r.attr in params):
                assert list(np.atleast_1d(sub[row.key]["default"])) == \
                    list(np.atleast_1d(row.default)), (kind, row.key)


# -- the pull ---------------------------------------------------------------------------------


def test_point_pull_falls_off_with_the_inverse_square() -> None:
    earth = Gravity("point", 9.8, unit_distance=2.0)
    at_unit = pull(earth, np.identity(4), (2.0, 0.0, 0.0))
    twice = pull(earth, np.identity(4), (0.0, 4.0, 0.0))
    assert np.allclose(at_unit, (-9.8, 0.0, 0.0))
    assert np.allclose(twice, (0.0, -9.8 / 4, 0.0))
    constant = pull(Gravity("point", 9.8), np.identity(4), (0.0, 40.0, 0.0))
    assert np.allclose(constant, (0.0, -9.8, 0.0))


def test_negative_gravity_pushes_away_and_directional_turns_with_the_node() -> None:
    assert np.allclose(pull(Gravity("point", -3.0), np.identity(4), (0.0, 0.0, 5.0)),
                       (0.0, 0.0, 3.0))
    turned = np.identity(4)
    turned[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]  # 90° about Z: local -Y → world +X
    assert np.allclose(pull(Gravity("directional", 2.0), turned, (9.0, 9.0, 9.0)),
                       (2.0, 0.0, 0.0))


def test_disc_torus_line_and_shaped_pull_towards_their_figures() -> None:
    m = np.identity(4)
    disc = Gravity("disc", 1.0, radius=2.0)
    assert np.allclose(pull(disc, m, (1.0, 3.0, 0.0)), (0.0, -1.0, 0.0))  # above the disc
    assert np.allclose(pull(disc, m, (5.0, 0.0, 0.0)), (-1.0, 0.0, 0.0))  # beyond its rim
    torus = Gravity("torus", 1.0, radius=2.0)
    assert np.allclose(pull(torus, m, (0.5, 0.0, 0.0)), (1.0, 0.0, 0.0))  # inside the ring
    line = Gravity("line", 1.0, points=((0.0, 0.0, 0.0), (0.0, 4.0, 0.0)))
    assert np.allclose(pull(line, m, (3.0, 2.0, 0.0)), (-1.0, 0.0, 0.0))
    shaped = Gravity("shaped", 1.0, shape=BOX)
    assert np.allclose(pull(shaped, m, (0.0, 3.0, 0.0)), (0.0, -1.0, 0.0))
    assert np.allclose(pull(shaped, m, (0.1, 0.1, 0.1)), (0.0, 0.0, 0.0))  # inside the box


def test_priority_replace_stop_and_world_gravity_last() -> None:
    m = np.identity(4)
    world = WorldGravity(9.8)
    low = Gravity("directional", 1.0, priority=-10, direction=(1.0, 0.0, 0.0))
    high = Gravity("directional", 2.0, priority=10, direction=(0.0, 0.0, 1.0))
    point = (0.0, 0.0, 0.0)
    assert np.allclose(combined_pull([(low, m), (high, m)], world, point), (1.0, -9.8, 2.0))
    replaced = Gravity("directional", 1.0, priority=-10, direction=(1.0, 0.0, 0.0), replace=True)
    assert np.allclose(combined_pull([(replaced, m), (high, m)], world, point), (1.0, -9.8, 0.0))
    stopped = Gravity("directional", 2.0, priority=10, direction=(0.0, 0.0, 1.0), stop=True)
    assert np.allclose(combined_pull([(low, m), (stopped, m)], world, point), (0.0, 0.0, 2.0))
    assert np.allclose(combined_pull([], WorldGravity(0.0), point), (0.0, 0.0, 0.0))


# -- hand-made documents ---------------------------------------------------------------------


def hand_made() -> dict[str, Any]:
    """One trigger node per type, rotated, translated and scaled, with negative amounts,
    priorities, replace and stop; shaped points at a box; world gravity sideways."""
    volumes = [
        {"type": "directional", "gravity": -4.5, "priority": 1000,
         "directional": {"direction": [0.6, 0.0, -0.8]}},
        {"type": "point", "gravity": 9.80665, "priority": -2000, "replace": True,
         "point": {"unitDistance": 1.5}},
        {"type": "disc", "gravity": 3.0, "stop": True, "disc": {"radius": 2.5,
                                                               "unitDistance": 0.75}},
        {"type": "torus", "gravity": -1.25, "replace": True, "stop": True,
         "torus": {"radius": 4.0}},
        {"type": "line", "gravity": 6.0, "priority": 5,
         "line": {"points": [0, 0, 0, 1, 2, 3, -1, 0.5, 4], "unitDistance": 2.0}},
        {"type": "shaped", "gravity": 12.0, "shaped": {"shape": 1, "unitDistance": 0.5}},
    ]
    half = math.sqrt(0.5)
    transforms = [
        {"rotation": [half, 0.0, 0.0, half], "translation": [1.0, 2.0, 3.0]},
        {"scale": [2.0, 2.0, 2.0], "translation": [-4.0, 0.0, 1.0]},
        {"rotation": [0.0, 0.0, half, half], "scale": [1.0, 0.5, 3.0]},
        {"rotation": [0.2, 0.3, 0.1, math.sqrt(1 - 0.14)], "translation": [0.0, -3.0, 0.0]},
        {"scale": [1.5, 0.75, 1.0]},
        {"rotation": [0.0, half, 0.0, half], "translation": [2.0, 0.0, -2.0]},
    ]
    nodes: list[dict[str, Any]] = [{"name": "Root", "children": list(range(1, 7)),
                                    "rotation": [0.0, 0.0, 0.25, math.sqrt(1 - 0.0625)]}]
    for i, (volume, transform) in enumerate(zip(volumes, transforms, strict=True)):
        nodes.append({"name": f"Gravity{volume['type']}", **transform, "extensions": {
            "OMI_physics_body": {"trigger": {"shape": 0}}, GRAVITY_EXT: volume}})
        assert i < 6
    return {
        "asset": {"version": "2.0"},
        "extensions": {
            GRAVITY_EXT: {"gravity": 3.5, "direction": [1.0, 0.0, 0.0]},
            "OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 10.0}},
                                             {"type": "box", "box": {"size": [2, 1, 3]}}]},
        },
        "extensionsUsed": ["OMI_physics_body", GRAVITY_EXT, "OMI_physics_shape"],
        "nodes": nodes, "scene": 0, "scenes": [{"nodes": [0]}],
    }


def test_hand_made_document_is_valid_and_round_trips(validator: PhysicsSchemaValidator) -> None:
    source = hand_made()
    assert validator.errors(source) == []
    out, report = encode_omi(source)
    assert report.issues == []
    assert validator.errors(out) == []
    assert_same_meaning(meaning(source), meaning(out))
    kinds = {out["nodes"][i][
        "extensions"][GRAVITY_EXT]["type"] for i in range(1, 7)}
    assert kinds == set(GRAVITY_KINDS)
    shaped = out["nodes"][6]["extensions"][GRAVITY_EXT]["shaped"]["shape"]
    assert out["extensions"]["OMI_physics_shape"]["shapes"][shaped] == {
        "type": "box", "box": {"size": [2.0, 1.0, 3.0]}}


@pytest.mark.skipif(not corpus_files(), reason="the shared corpus is absent (needs ../shared)")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.stem)
def test_corpus_file_round_trips_by_meaning(path: Path, validator: PhysicsSchemaValidator) -> None:
    source = json.loads(path.read_text())
    report = Report()
    gravity = decode_gravity_document(DocumentView.from_json(source), report)
    assert gravity.nodes and report.of("warning") == []
    out, report = encode_omi(source)
    assert report.of("warning") == []
    assert validator.errors(out) == []
    assert_same_meaning(meaning(source), meaning(out))


def test_world_gravity_written_only_when_set() -> None:
    report = Report()
    scene = PhysicsScene({0: NodePhysics(trigger=Trigger(shape=Shape("sphere", radius=3.0)))})
    none = encode_document(scene, _no_vehicles(), "OMI", ident, ident, report,
                           gravity=GravityScene())
    assert GRAVITY_EXT not in none.root
    default = encode_document(scene, _no_vehicles(), "OMI", ident, ident, report,
                              gravity=GravityScene(world=WorldGravity(9.80665)))
    assert default.root[GRAVITY_EXT] == {"gravity": 9.80665}  # the default direction omitted
    assert report.issues == []


def test_unusual_values_are_written_valid_and_said(validator: PhysicsSchemaValidator) -> None:
    report = Report()
    gravity = GravityScene(nodes={
        0: Gravity("directional", 1.0, direction=(0.0, 0.0, 2.0), priority=3),
        1: Gravity("line", 1.0, points=((0.0, 0.0, 0.0),)),
        2: Gravity("shaped", 1.0),
        3: Gravity("point", math.nan, unit_distance=-1.0),
    })
    scene = PhysicsScene({i: NodePhysics(trigger=Trigger(shape=BOX)) for i in range(4)})
    encoded = encode_document(scene, _no_vehicles(), "OMI", ident, ident, report,
                              gravity=gravity)
    written = encoded.nodes[0][GRAVITY_EXT]
    assert written["directional"]["direction"] == [0.0, 0.0, 1.0] and written["priority"] == 3
    assert GRAVITY_EXT not in encoded.nodes[1] and GRAVITY_EXT not in encoded.nodes[2]
    # the schema sets no bound on unitDistance (the spec: "should not be negative")
    assert encoded.nodes[3][GRAVITY_EXT] == {"type": "point", "gravity": 0.0,
                                             "point": {"unitDistance": -1.0}}
    assert report.codes() == ["gravity-direction-normalised", "gravity-line-points",
                              "gravity-shape-missing", "value-defaulted"]


def test_bad_input_is_said_once_and_never_raises() -> None:
    nodes = [
        {"type": "spiral", "gravity": 1.0},
        {"type": "line", "gravity": 1.0, "line": {"points": [0, 0, 0, 1, 1]}},
        {"type": "shaped", "gravity": 1.0, "shaped": {"shape": -1}},
        {"type": "shaped", "gravity": 1.0, "shaped": {"shape": 9}},
        {"type": "point", "priority": 2.5, "point": "far"},
        {"type": "directional", "gravity": "down", "replace": 1},
        [],
    ]
    gltf = {"asset": {"version": "2.0"}, "extensions": {GRAVITY_EXT: {"direction": "up"}},
            "nodes": [{"extensions": {GRAVITY_EXT: v}} for v in nodes]}
    report = Report()
    scene = decode_gravity_document(DocumentView.from_json(gltf), report)
    assert sorted(scene.nodes) == [1, 2, 3, 4, 5]
    assert scene.nodes[1].points == ((0.0, 0.0, 0.0),)
    assert scene.nodes[4].priority == 2 and scene.nodes[4].gravity == 0.0
    assert scene.world is None  # (no amount: read as 0, it stopped everything)
    assert report.codes() == [
        "world-gravity-skipped", "gravity-type-unknown", "gravity-line-points",
        "gravity-shape-missing", "bad-index", "not-an-object", "missing-required",
        "gravity-priority-fraction", "not-a-number", "not-a-boolean", "not-an-object"]


# -- the converter ---------------------------------------------------------------------------


@pytest.mark.skipif(not corpus_files(), reason="the shared corpus is absent (needs ../shared)")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.stem)
def test_converter_keeps_gravity_in_omi_and_says_once_what_khr_drops(
    path: Path, validator: PhysicsSchemaValidator,
) -> None:
    source = json.loads(path.read_text())
    report = Report()
    omi = convert_document(source, "OMI", report=report)
    assert validator.errors(omi) == []
    assert_same_meaning(meaning(source), meaning(omi))
    report = Report()
    khr = convert_document(source, "KHR", report=report)
    assert GRAVITY_EXT not in json.dumps(khr)
    [said] = [issue for issue in report.issues if issue.code == "khr-no-gravity"]
    volumes = decode_gravity_document(DocumentView.from_json(source), Report())
    assert said.message.count("volume on node") == len(volumes.nodes)
    assert ("the world gravity" in said.message) == (volumes.world is not None)


# -- the file checker ------------------------------------------------------------------------


def _findings(gltf: dict[str, Any]) -> list[tuple[str, str, str]]:
    from gltf_physics.io.check.checker import check_document

    return [(i.severity, i.code, i.where) for i in check_document(gltf).issues
            if i.code != "non-uniform-scale"]  # the hand-made file scales spheres on purpose


def test_checker_finds_nothing_in_a_valid_file() -> None:
    assert _findings(hand_made()) == []


def test_checker_reports_each_gravity_rule_where_it_is_broken() -> None:
    gltf = hand_made()
    nodes = gltf["nodes"]
    where = f"/nodes/{{}}/extensions/{GRAVITY_EXT}"
    nodes[1]["extensions"]["OMI_physics_body"]["motion"] = {"type": "dynamic"}
    nodes[2]["extensions"]["OMI_physics_body"] = {"collider": {"shape": 0}}
    nodes[5]["extensions"][GRAVITY_EXT]["line"]["points"].append(7.0)
    del nodes[6]["extensions"][GRAVITY_EXT]["shaped"]
    nodes[1]["extensions"][GRAVITY_EXT] = {"type": "directional", "gravity": 1.0,
                                           "directional": {"direction": [0.0, -2.0, 0.0]}}
    gltf["extensions"][GRAVITY_EXT]["direction"] = [0.0, 0.5, 0.0]
    # a compound trigger over node 4, which keeps its own volume
    nodes[0]["extensions"] = {"OMI_physics_body": {"trigger": {"nodes": [4]}},
                              GRAVITY_EXT: {"type": "point", "gravity": 1.0}}
    assert sorted(_findings(gltf)) == sorted([
        ("error", "gravity-not-on-trigger", where.format(1)),
        ("error", "gravity-not-on-trigger", where.format(2)),
        ("error", "gravity-on-compound-part", where.format(4)),
        ("error", "gravity-line-points", where.format(5) + "/line/points"),
        ("error", "gravity-shape-missing", where.format(6)),
        ("warning", "gravity-direction-not-normalised",
         where.format(1) + "/directional/direction"),
        ("warning", "gravity-direction-not-normalised", f"/extensions/{GRAVITY_EXT}/direction"),
    ])


@pytest.mark.parametrize("points", ["no line object", [], [0, 0, 0], [0, 0, 0, 1, 1],
                                    [0, 0, 0, 1, 1, 1, 2]])
def test_checker_says_once_that_a_line_has_too_few_points(points: object) -> None:
    """The spec: a line's default points, [], are invalid and have no effect; without its
    `line` object only the shared rule can say so (the schema sees nothing), as the
    importer and Check Physics do."""
    gltf = hand_made()
    volume = gltf["nodes"][5]["extensions"][GRAVITY_EXT]
    if points == "no line object":
        del volume["line"]
    else:
        volume["line"]["points"] = points
    where = f"/nodes/5/extensions/{GRAVITY_EXT}"
    code = ("gravity-line-points" if points == "no line object" or len(points) >= 6
            else "bad-length")
    assert [(code, where + ("" if points == "no line object" else "/line/points"))] == [
        (c, w) for _s, c, w in _findings(gltf)]
    report = Report()
    decode_gravity_document(DocumentView.from_json(gltf), report)
    assert "gravity-line-points" in report.codes()


def test_checker_applies_the_schema_to_gravity() -> None:
    gltf = hand_made()
    volume = gltf["nodes"][1]["extensions"][GRAVITY_EXT]
    volume["type"] = "spiral"
    del volume["gravity"]
    gltf["nodes"][6]["extensions"][GRAVITY_EXT]["shaped"]["shape"] = 9
    codes = {(code, where) for _s, code, where in _findings(gltf)}
    where = f"/nodes/1/extensions/{GRAVITY_EXT}"
    assert {("bad-enum", f"{where}/type"), ("missing-required", where),
            ("bad-index", f"/nodes/6/extensions/{GRAVITY_EXT}/shaped/shape")} <= codes


# -- what the overlay draws ------------------------------------------------------------------


def _shafts(lines: np.ndarray, figure: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(start, unit direction) of each arrow drawn after `figure` segments (3 per arrow)."""
    arrows = lines[figure:].reshape(-1, 3, 2, 3)
    return [(a[0][0], (a[0][1] - a[0][0]) / np.linalg.norm(a[0][1] - a[0][0])) for a in arrows]


@pytest.mark.parametrize("volume", [
    Gravity("directional", 9.8, direction=(0.0, 0.0, 1.0)),
    Gravity("point", -3.0, unit_distance=2.0),
    Gravity("disc", 1.0, radius=2.0),
    Gravity("torus", 1.0, radius=3.0, unit_distance=1.0),
    Gravity("line", 1.0, points=((0.0, -1.0, 0.0), (0.0, 2.0, 1.0))),
    Gravity("shaped", 1.0, shape=BOX),
], ids=lambda v: v.kind)
def test_overlay_arrows_point_the_way_the_volume_pulls(volume: Gravity) -> None:
    from gltf_physics.io.gravity_lines import _figure, gravity_lines

    lines = gravity_lines(volume)
    shafts = _shafts(lines, len(_figure(volume)))
    assert len(shafts) >= 8
    for start, direction in shafts:
        expected = pull(volume, np.identity(4), start)
        assert np.allclose(direction, expected / np.linalg.norm(expected), atol=1e-6)


def test_overlay_figures_and_blender_axes() -> None:
    from gltf_physics.io.gravity_lines import _figure, to_blender

    ring = _figure(Gravity("torus", 1.0, radius=3.0))
    assert np.allclose(np.linalg.norm(ring[..., [0, 2]], axis=-1), 3.0, atol=1e-5)
    assert np.allclose(ring[..., 1], 0.0)  # the glTF XZ plane...
    assert np.allclose(to_blender(ring)[..., 2], 0.0)  # ...is Blender's XY plane
    line = _figure(Gravity("line", 1.0, points=((0.0, 0.0, 0.0), (1.0, 2.0, 3.0),
                                                (1.0, 2.0, 5.0))))
    assert np.allclose(line, [[(0, 0, 0), (1, 2, 3)], [(1, 2, 3), (1, 2, 5)]])
    box = _figure(Gravity("shaped", 1.0, shape=BOX))
    assert np.allclose(np.abs(box).max(axis=(0, 1)), (1.0, 0.5, 1.5))  # half of (2, 1, 3)


def test_the_shape_pool_is_read_for_gravity_only_when_a_node_has_a_volume(monkeypatch) -> None:
    """A file without gravity volumes has its (maybe huge) shape pool read once, by the
    physics decoder; one with volumes still finds their shapes."""
    from gltf_physics.io.codecs import omi

    reads = []
    real = omi.decode_shape_pool
    monkeypatch.setattr(omi, "decode_shape_pool", lambda *a: reads.append(1) or real(*a))
    document = hand_made()
    assert decode_gravity_document(DocumentView.from_json(document), Report()).nodes
    assert len(reads) == 1
    for node in document["nodes"]:
        node.get("extensions", {}).pop(GRAVITY_EXT, None)
    scene = decode_gravity_document(DocumentView.from_json(document), Report())
    assert not scene.nodes and scene.world is not None and len(reads) == 1
