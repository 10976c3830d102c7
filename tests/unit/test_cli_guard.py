# SPDX-License-Identifier: GPL-3.0-or-later
"""No traceback, ever, from scripts/convert.py and scripts/check_physics.py: MemoryError
(real, under memory limits), RecursionError (a document nested deeper than the converter can
copy), a failure of their own, Ctrl-C; the exit statuses the README documents."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gltf_physics.io import cli_guard
from tests.conftest import ROOT

CHECKER, CONVERTER = ROOT / "scripts" / "check_physics.py", ROOT / "scripts" / "convert.py"
BODY = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body"],
        "nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}}]}


def tool(script: Path, *args: str | Path, memory: int = 0) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True,
                          text=True, timeout=120, check=False,
                          preexec_fn=limited if memory else None)


@pytest.mark.parametrize(("raised", "status", "said"), [
    (MemoryError(), 1, "the input is too large or too deeply nested to process (MemoryError)"),
    (RecursionError("deep"), 1,
     "the input is too large or too deeply nested to process (RecursionError)"),
    (KeyError("bug"), 1, "internal failure (KeyError: 'bug'); please report the input file"),
    (KeyboardInterrupt(), 130, "interrupted"),
])
def test_anything_raised_is_one_line_and_a_status(raised, status, said, capsys) -> None:
    def main(_argv):
        raise raised

    assert cli_guard.run(main, 1) == status
    assert capsys.readouterr().err.strip().splitlines() == [said if status == 130
                                                            else f"error: {said}"]


def test_a_document_too_deep_to_copy_is_one_line(tmp_path: Path) -> None:
    nested: dict = {}
    inner = nested
    for _level in range(700):  # JSON reads it; copying it recurses past Python's limit
        inner["a"] = {}
        inner = inner["a"]
    path = tmp_path / "deep.gltf"
    path.write_text(json.dumps({**BODY, "extras": nested}), encoding="utf-8")
    converted = tool(CONVERTER, path, tmp_path / "out.gltf", "--to", "khr")
    assert converted.returncode == 1 and converted.stderr.strip() == (
        "error: the input is too large or too deeply nested to process (RecursionError)")
    checked = tool(CHECKER, path)
    assert checked.returncode == 0 and "Traceback" not in checked.stderr


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """A 35 MB .gltf whose JSON takes about 1 GiB to read and convert."""
    path = tmp_path_factory.mktemp("big") / "big.gltf"
    path.write_text(json.dumps({**BODY, "extras": {"values": list(range(4_000_000))}}),
                    encoding="utf-8")
    return path


@pytest.mark.skipif(os.name != "posix", reason="memory limits by RLIMIT_AS")
@pytest.mark.parametrize("megabytes", [250, 700, 1100, 1150, 1200, 1250, 1300, 2048])
def test_no_traceback_under_any_memory_limit(big: Path, megabytes: int, tmp_path: Path) -> None:
    memory = megabytes << 20
    converted = tool(CONVERTER, big, tmp_path / "out.gltf", "--to", "khr", memory=memory)
    checked = tool(CHECKER, big, memory=memory)
    for done in (converted, checked):
        assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert converted.returncode in (0, 1) and checked.returncode in (0, 2)
    if converted.returncode:
        assert len(converted.stderr.strip().splitlines()) == 1
        assert "MemoryError" in converted.stderr, converted.stderr
    if checked.returncode:
        assert "unreadable as glTF: MemoryError" in checked.stdout
