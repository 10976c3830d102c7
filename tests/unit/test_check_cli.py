# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/check_physics.py: output, exit codes, importable use, independence from
../shared, and robustness: truncated GLBs, garbage, deep nesting, huge arrays, NaN and
Infinity, and any JSON or bytes whatsoever never raise."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gltf_physics.io.asset_files import glb_bytes
from gltf_physics.io.check.checker import check_document, check_file, exit_status
from tests.conftest import CORPUS, ROOT

SCRIPT = ROOT / "scripts" / "check_physics.py"
NO_CORPUS = "the shared corpus is absent (needs ../shared/corpus)"

CLEAN = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
         "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {}}]}},
         "nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                        "collider": {"shape": 0}}}}]}


def variant(**changes: Any) -> dict[str, Any]:
    gltf = json.loads(json.dumps(CLEAN))
    body = gltf["nodes"][0]["extensions"]["OMI_physics_body"]
    body["motion"].update(changes)
    return gltf


def write(path: Path, gltf: dict[str, Any]) -> Path:
    if path.suffix == ".glb":
        path.write_bytes(glb_bytes(gltf, None))
    else:
        path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def run(*args: str | Path, cwd: Path = ROOT, script: Path = SCRIPT
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, check=False, timeout=120)


def test_exit_codes_and_text_output(tmp_path: Path) -> None:
    clean = write(tmp_path / "clean.gltf", CLEAN)
    risky = write(tmp_path / "risky.glb", variant(linearVelocity=[0, 0, 0, 0]))
    broken = write(tmp_path / "broken.gltf", variant(type="flying"))
    (tmp_path / "torn.glb").write_bytes(glb_bytes(CLEAN, None)[:30])
    assert run(clean).returncode == 0
    assert run(clean, risky).returncode == 1  # bad-vector is an error
    done = run(broken)
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout.splitlines() == [
        f"{broken}:/nodes/0/extensions/OMI_physics_body/motion/type: error: 'flying' is not "
        "one of static, kinematic, dynamic [bad-enum]",
        f"{broken}: 1 error, 0 warnings, 0 notes"]
    torn = run(clean, broken, tmp_path / "torn.glb")
    assert torn.returncode == 2 and "Traceback" not in torn.stdout + torn.stderr
    assert f"{tmp_path / 'torn.glb'}: unreadable as glTF:" in torn.stdout


def test_unprintable_keys_are_escaped(tmp_path: Path) -> None:
    gltf = variant()
    gltf["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]["extensions"] = {"\ud800": 1}
    path = tmp_path / "odd.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")  # the key as an \\ud800 escape
    for flags in ((), ("--json",)):
        done = run(path, *flags)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "ud800" in done.stdout


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    warned = write(tmp_path / "warned.gltf", variant(inertiaDiagonal=[0, 0, 0, 1]))
    assert run(warned).returncode == 0
    done = run(warned, "--strict")
    assert done.returncode == 1 and "[godot-inertia]" in done.stdout


def test_json_output(tmp_path: Path) -> None:
    broken = write(tmp_path / "broken.gltf", variant(mass="heavy"))
    done = run(broken, tmp_path / "absent.gltf", "--json")
    assert done.returncode == 2
    report = json.loads(done.stdout)
    assert report["exitStatus"] == 2 and report["strict"] is False
    first, second = report["files"]
    assert first == {
        "file": str(broken), "readable": True, "errors": 1, "warnings": 0, "notes": 0,
        "findings": [{"severity": "error", "code": "wrong-type",
                      "pointer": "/nodes/0/extensions/OMI_physics_body/motion/mass",
                      "message": "expected a number, got a string"}]}
    assert second["readable"] is False and "FileNotFoundError" in second["reason"]


def test_importable_as_a_function(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("check_physics_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    [check] = module.check_files([write(tmp_path / "a.gltf", variant(centerOfMass=[0, 0]))])
    assert [(i.severity, i.code) for i in check.issues] == [("error", "bad-length")]
    assert check.as_json()["errors"] == 1 and check.failed()


def test_runs_without_the_shared_folder(tmp_path: Path) -> None:
    """A copy of the add-on's pure parts, with no ../shared beside it, checks files."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "io", copy / "io", ignore=shutil.ignore_patterns("blender"))
    shutil.copytree(ROOT / "scripts", copy / "scripts")
    file = write(tmp_path / "x.gltf", variant(type="flying"))
    done = run(file, "--json", cwd=tmp_path, script=copy / "scripts" / "check_physics.py")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["files"][0]["findings"][0]["code"] == "bad-enum"


@pytest.mark.corpus
def test_truncated_glbs_never_raise(tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip(NO_CORPUS)
    data = (CORPUS / "khr/samples/Triggers/Triggers.glb").read_bytes()
    for length in (0, 3, 4, 12, 19, 20, 27, 28, 100, len(data) // 2, len(data) - 1):
        path = tmp_path / f"cut{length}.glb"
        path.write_bytes(data[:length])
        check = check_file(path)
        assert check.unreadable, length
        assert exit_status([check]) == 2


def test_garbage_deep_nesting_and_literal_nans(tmp_path: Path) -> None:
    cases = {
        "bytes.gltf": b"\xff\xfe\x00garbage", "list.gltf": b"[1, 2]",
        "deep.gltf": b"[" * 100_000 + b"]" * 100_000, "empty.gltf": b"",
        "digits.gltf": b'{"nodes": [' + b"9" * 5000 + b"]}",
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        assert check_file(tmp_path / name).unreadable, name
    (tmp_path / "nan.gltf").write_text(
        '{"extensionsUsed": ["OMI_physics_body"], "nodes": [{"extensions": {"OMI_physics_body":'
        ' {"motion": {"type": "dynamic", "mass": NaN, "gravityFactor": -Infinity}}}}]}')
    check = check_file(tmp_path / "nan.gltf")
    assert {(i.code, i.where) for i in check.issues} == {
        ("not-finite", "/nodes/0/extensions/OMI_physics_body/motion/mass"),
        ("not-finite", "/nodes/0/extensions/OMI_physics_body/motion/gravityFactor")}
    assert check_file(tmp_path).unreadable  # a folder


def test_huge_arrays_are_bounded(tmp_path: Path) -> None:
    gltf = json.loads(json.dumps(CLEAN))
    gltf["extensions"]["OMI_physics_shape"]["shapes"] = [{"type": "box", "box": {
        "size": [1, -1, 1]}}] * 20_000
    gltf["extensions"]["OMI_physics_body"] = {"physicsMaterials": [{"restitution": -1}] * 20_000}
    gltf["nodes"][0]["extensions"]["OMI_physics_body"]["trigger"] = {
        "nodes": list(range(1, 200_000))}
    gltf["extensionsUsed"].append("OMI_vehicle_wheel")
    gltf["extensions"]["OMI_vehicle_wheel"] = {"wheels": [{"radius": 1}],
                                               "extra": [0.5] * 1_000_000}
    start = time.perf_counter()
    check = check_file(write(tmp_path / "huge.glb", gltf))
    assert time.perf_counter() - start < 30
    counted = {code: sum(1 for i in check.issues if i.code == code) for code in
               ("out-of-range", "bad-index")}
    assert counted == {"out-of-range": 101, "bad-index": 101}  # 100 listed, 1 "more" line
    assert check.count("error") == 20_000 + 20_000 + 199_999


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.sampled_from(["nodes", "extensions", "children", "mesh", "motion",
                                       "collider", "trigger", "shape", "nodes", "type",
                                       "OMI_physics_body", "KHR_physics_rigid_bodies",
                                       "OMI_physics_shape", "shapes", "geometry", "joint",
                                       "OMI_vehicle_body", "pilotSeat", "extensionsUsed"]),
                      children, max_size=5),
    max_leaves=30)
ANYTHING = settings(max_examples=300, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@ANYTHING
@given(JSON)
def test_any_json_never_raises(value: Any) -> None:
    report = check_document(value)
    assert "check-failed" not in report.codes()
    wrapped = check_document({"nodes": [{"extensions": {"OMI_physics_body": value,
                                                        "KHR_physics_rigid_bodies": value}}],
                              "extensions": {"OMI_physics_shape": value}})
    assert "check-failed" not in wrapped.codes()


@ANYTHING
@given(st.binary(max_size=200))
def test_any_bytes_never_raise(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.glb"
        path.write_bytes(b"glTF" + data if data[:1] == b"\x02" else data)
        check = check_file(path)
        assert check.unreadable or "check-failed" not in {i.code for i in check.issues}


@pytest.mark.parametrize("text, said", [
    ('{"asset": {"version": "2.0", "version": "2.0"}, "nodes": [{"name": "a", "name": "b"}]}',
     "2 key(s) appear twice in one JSON object ('version', 'name'): the last value is read"),
    ('\ufeff{"asset": {"version": "2.0"}}', "the JSON starts with a byte order mark"),
])
def test_json_gltf_forbids_is_an_error_of_the_checker_and_said_by_the_converter(
        tmp_path: Path, text: str, said: str) -> None:
    """Both read such a file silently (a key given twice: the last value; another reader
    may take the first)."""
    path = tmp_path / "lax.gltf"
    path.write_text(text, encoding="utf-8")
    checked = check_file(path)
    assert [(f["severity"], f["code"]) for f in checked.as_json()["findings"]
            if f["code"] == "json-not-strict"] == [("error", "json-not-strict")]
    assert any(said in f["message"] for f in checked.as_json()["findings"])
    converted = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "convert.py"), str(path),
         str(tmp_path / "out" / "strict.gltf"), "--to", "khr"],
        capture_output=True, text=True, timeout=120, check=False)
    assert converted.returncode == 0, converted.stderr
    assert f"warning: json-not-strict: (document): {said}" in converted.stdout
    written = (tmp_path / "out" / "strict.gltf").read_bytes()
    assert not written.startswith(b"\xef\xbb\xbf")

