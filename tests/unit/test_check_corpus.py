# SPDX-License-Identifier: GPL-3.0-or-later
"""The physics checker on every file of ../shared/corpus: the expected verdict, legacy files
noted with a converter command that really upgrades them, and under a second per file."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gltf_physics.io.asset_files import read_asset
from gltf_physics.io.check.checker import check_document, check_file
from gltf_physics.io.check.codes import CODES
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from tests.conftest import CORPUS, ROOT

NO_CORPUS = "the shared corpus is absent (needs ../shared/corpus)"
MISSING = Path("<corpus absent>")

#: The current files that break the (patched) schemas: pointer → code of each error.
BROKEN = {
    "omi/current/OMI_physics_body/complex/indirect_children.gltf": {
        "/nodes/3/extensions/OMI_physics_body/trigger": "trigger-empty",
        "/nodes/8/extensions/OMI_physics_body/trigger": "trigger-empty",
    },
    "omi/current/OMI_physics_body/complex/two_boxes.gltf": {
        "/nodes/3/extensions/OMI_physics_body/trigger": "trigger-empty",
    },
    "omi/current/OMI_physics_body/triggers/triggers.gltf": {
        "/nodes/4/extensions/OMI_physics_body/motion": "missing-required",  # no "type"
    },
}
#: Legacy folders whose every file is a legacy revision (noted, never an error), and the
#: converter target of each.
LEGACY = {"omi/legacy": "omi", "khr/legacy": "khr", "seed": "omi",
          "omi/current/OMI_collider": "omi"}
#: In a legacy folder but written in current names only (digest §7: "no renamed field").
NOT_LEGACY = {"omi/legacy/2025-12_vehicle_current_names/OMI_vehicle_hover_thruster/hovercraft.gltf"}
#: Current files with a legacy part: capsules in the pre-2025 one-`radius` layout.
LEGACY_RADIUS = {
    f"omi/current/{name}" for name in (
        "OMI_physics_joint/hanging_rope.gltf", "OMI_physics_joint/rope_railing.gltf",
        "OMI_physics_joint/simple_joint.gltf", "OMI_physics_joint/weld_joint.gltf",
        "OMI_vehicle_thruster/rocket_ship.gltf")}


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return [MISSING]
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".gltf", ".glb"))


def relative(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix() if path != MISSING else str(path)


def legacy_target(name: str) -> str | None:
    if name in NOT_LEGACY:
        return None
    return next((target for folder, target in LEGACY.items() if name.startswith(folder)), None)


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_files(), ids=relative)
def test_corpus_verdict(path: Path) -> None:
    if path == MISSING:
        pytest.skip(NO_CORPUS)
    name = relative(path)
    start = time.perf_counter()
    check = check_file(path)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, f"{name} took {elapsed:.2f} s"
    assert not check.unreadable
    assert all(CODES[i.code][0] == i.severity for i in check.issues)
    errors = {issue.where: issue.code for issue in check.issues if issue.severity == "error"}
    assert errors == BROKEN.get(name, {})
    assert check.count("error") == len(errors)
    notes = [issue for issue in check.issues if issue.code.startswith("legacy-")]
    target = legacy_target(name.replace(".glb", ".gltf"))
    if target is not None:
        assert notes, f"{name} is a legacy revision"
        for note in notes:
            assert note.severity == "info"
            assert f"scripts/convert.py {path}" in note.message
            assert note.message.rstrip().endswith(f"--to {target}` writes the current revision")
    elif name in LEGACY_RADIUS:
        assert {note.code for note in notes} == {"legacy-radius"}
    elif name not in BROKEN:
        assert notes == [], name
    assert check.failed() == bool(errors)


@pytest.mark.corpus
@pytest.mark.parametrize("target", ["OMI", "KHR"])
@pytest.mark.parametrize("path", corpus_files(), ids=relative)
def test_converted_corpus_has_no_errors_and_no_legacy(path: Path, target: str) -> None:
    """What the converter writes, in either family, checks clean: no error, nothing legacy
    (the checker agrees with the project's writers)."""
    if path == MISSING:
        pytest.skip(NO_CORPUS)
    gltf, binary = read_asset(path)
    out = convert_document(gltf, target, report=Report(), binary=binary, base_dir=path.parent)
    after = check_document(out, binary=binary, base_dir=path.parent)
    assert [i for i in after.issues if i.severity == "error" or i.code.startswith("legacy")] == []


@pytest.mark.corpus
def test_the_upgrade_hint_is_a_working_command(tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip(NO_CORPUS)
    source = CORPUS / "omi/legacy/2024-07_joint_constraints_v1/OMI_physics_joint"
    shutil.copy(source / "simple_joint.gltf", tmp_path / "simple joint.gltf")
    for extra in source.glob("*.bin"):
        shutil.copy(extra, tmp_path)
    check = check_file(tmp_path / "simple joint.gltf")
    note = next(i for i in check.issues if i.code == "legacy-omi-joint")
    command = shlex.split(note.message.split("`")[1])
    assert command[:2] == ["python3", "scripts/convert.py"]
    done = subprocess.run([sys.executable, *command[1:]], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    upgraded = check_file(Path(command[3]))
    assert upgraded.count("error") == 0
    assert not any(i.code.startswith("legacy-") for i in upgraded.issues)
