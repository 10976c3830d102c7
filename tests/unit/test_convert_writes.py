# SPDX-License-Identifier: GPL-3.0-or-later
"""The converter writes only what it makes: never INPUT, never through a symbolic link, an
existing OUTPUT, report or copied resource only with --overwrite, and its files appear
together or not at all (no partial file after a failure). Its JSON is always valid (no NaN
or Infinity)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gltf_physics.io import asset_files
from gltf_physics.io.asset_files import GLB_BIN, GLB_CHUNK, GLB_HEADER, GLB_JSON, StagedFiles
from tests.conftest import ROOT

BUFFER = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)


def document(uri: str | None = "data.bin") -> dict[str, Any]:
    """A triangle whose buffer is the file `uri` (the GLB chunk for None), and a sphere
    trigger in OMI."""
    buffer: dict[str, Any] = {"byteLength": len(BUFFER)}
    if uri is not None:
        buffer["uri"] = uri
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Zone", "mesh": 0, "extensions": {"OMI_physics_body": {
            "trigger": {"shape": 0}}}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "bufferViews": [{"buffer": 0, "byteLength": len(BUFFER)}],
        "buffers": [buffer],
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere",
                                                          "sphere": {"radius": 1}}]}},
    }


def source(folder: Path, gltf: dict[str, Any] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "data.bin").write_bytes(BUFFER)
    path = folder / "zone.gltf"
    path.write_text(json.dumps(gltf or document()), encoding="utf-8")
    return path


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts/convert.py"), *args],
                          capture_output=True, text=True, timeout=60, check=False, cwd="/")


def test_input_is_never_written(tmp_path: Path) -> None:
    path = source(tmp_path / "a")
    before = path.read_bytes()
    for extra in ([], ["--overwrite"]):
        result = run_cli(str(path), str(path), "--to", "khr", *extra)
        assert result.returncode == 1 and "is INPUT" in result.stderr, result.stderr
        assert path.read_bytes() == before
    result = run_cli(str(path), str(tmp_path / "out.gltf"), "--to", "khr", "--report",
                     str(path), "--overwrite")
    assert result.returncode == 1 and path.read_bytes() == before
    assert not (tmp_path / "out.gltf").exists()


def test_an_existing_output_is_replaced_only_with_overwrite(tmp_path: Path) -> None:
    path = source(tmp_path / "a")
    output = tmp_path / "b" / "zone.gltf"
    output.parent.mkdir()
    output.write_text("the user's own file", encoding="utf-8")
    result = run_cli(str(path), str(output), "--to", "khr")
    assert result.returncode == 1 and "pass --overwrite" in result.stderr
    assert output.read_text(encoding="utf-8") == "the user's own file"
    assert not (output.parent / "data.bin").exists()  # nothing at all was written
    result = run_cli(str(path), str(output), "--to", "khr", "--overwrite")
    assert result.returncode == 0, result.stderr
    assert "KHR_physics_rigid_bodies" in json.loads(output.read_text(encoding="utf-8"))[
        "extensionsUsed"]


def test_a_different_resource_beside_output_is_replaced_only_with_overwrite(
        tmp_path: Path) -> None:
    """OUTPUT's folder already has another data.bin: writing zone.gltf there would make it
    name those bytes, so nothing is written (exit 1) unless --overwrite replaces it."""
    path = source(tmp_path / "a")
    output = tmp_path / "b" / "zone.gltf"
    output.parent.mkdir()
    (output.parent / "data.bin").write_bytes(b"another asset's buffer")
    result = run_cli(str(path), str(output), "--to", "khr")
    assert result.returncode == 1 and "--overwrite" in result.stderr, result.stderr
    assert "resource-exists" in result.stdout
    assert (output.parent / "data.bin").read_bytes() == b"another asset's buffer"
    assert sorted(p.name for p in output.parent.iterdir()) == ["data.bin"]
    result = run_cli(str(path), str(output), "--to", "khr", "--overwrite")
    assert result.returncode == 0, result.stderr
    assert "resource-replaced" in result.stdout  # (said: it may be another asset's file)
    assert (output.parent / "data.bin").read_bytes() == BUFFER
    link_target = tmp_path / "precious.bin"
    link_target.write_bytes(b"keep")
    (output.parent / "data.bin").unlink()
    (output.parent / "data.bin").symlink_to(link_target)
    result = run_cli(str(path), str(output), "--to", "khr", "--overwrite")
    assert result.returncode == 1 and link_target.read_bytes() == b"keep"


@pytest.mark.parametrize("case", ["report on the copied buffer", "output named like the buffer",
                                  "report on the input's buffer", "copy onto the input"])
def test_a_copied_resource_never_lands_on_a_file_the_run_writes_or_reads(tmp_path: Path,
                                                                          case: str) -> None:
    """A buffer copied beside OUTPUT would be the report file, or OUTPUT itself (its URI
    names OUTPUT's name); the report would be INPUT's own buffer; the copy of INPUT's buffer
    would be INPUT (INPUT in a folder its buffer's URI names): nothing is written, exit 1,
    --overwrite or not (each wrote a broken file and exited 0, or replaced INPUT's files)."""
    folder = tmp_path / "in"
    path = source(folder)
    if case == "report on the copied buffer":
        args = [str(path), str(tmp_path / "w" / "out.gltf"), "--report",
                str(tmp_path / "w" / "data.bin")]
    elif case == "output named like the buffer":  # (a buffer file named out.gltf)
        (folder / "out.gltf").write_bytes(BUFFER)
        path.write_text(json.dumps(document("out.gltf")), encoding="utf-8")
        args = [str(path), str(tmp_path / "w" / "out.gltf")]
    elif case == "report on the input's buffer":
        args = [str(path), str(tmp_path / "w" / "out.gltf"), "--report",
                str(folder / "data.bin")]
    else:  # INPUT in/sub/zone.gltf names sub/zone.gltf (in/sub/sub/zone.gltf); OUTPUT in/x
        sub = folder / "sub"
        sub.mkdir()
        (sub / "sub").mkdir()
        (sub / "sub" / "zone.gltf").write_bytes(BUFFER)
        path = sub / "zone.gltf"
        path.write_text(json.dumps(document("sub/zone.gltf")), encoding="utf-8")
        args = [str(path), str(folder / "x.gltf")]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    for extra in ([], ["--overwrite"]):
        result = run_cli(*args, "--to", "khr", *extra)
        assert result.returncode == 1, (result.stdout, result.stderr)
        assert "nothing written" in result.stderr, result.stderr
        assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_no_write_goes_through_a_symbolic_link(tmp_path: Path) -> None:
    path = source(tmp_path / "a")
    precious = tmp_path / "elsewhere" / "precious.gltf"
    precious.parent.mkdir()
    precious.write_text("keep", encoding="utf-8")
    (tmp_path / "b").mkdir()
    link = tmp_path / "b" / "zone.gltf"
    link.symlink_to(precious)
    result = run_cli(str(path), str(link), "--to", "khr", "--overwrite")
    assert result.returncode == 1 and "symbolic link" in result.stderr
    assert precious.read_text(encoding="utf-8") == "keep"


def test_a_failed_write_leaves_no_file_and_names_what_failed(tmp_path: Path) -> None:
    path = source(tmp_path / "a")
    output = tmp_path / "b" / "zone.gltf"
    blocked = tmp_path / "not_a_folder"
    blocked.write_text("", encoding="utf-8")
    result = run_cli(str(path), str(output), "--to", "khr", "--report",
                     str(blocked / "report.json"))
    assert result.returncode == 1
    assert "nothing written" in result.stderr and "report.json" in result.stderr
    assert not output.exists() and not (output.parent / "data.bin").exists()
    assert [p.name for p in output.parent.iterdir()] == []  # no temporary file left


def test_staged_files_are_all_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "old.gltf").write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), StagedFiles() as staged:
        staged.write(tmp_path / "old.gltf", b"new")
        staged.write(tmp_path / "new.bin", b"data")
        raise RuntimeError("interrupted before the commit")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.gltf"]
    assert (tmp_path / "old.gltf").read_text(encoding="utf-8") == "old"

    def broken():
        yield b"part"
        raise OSError("disk full")

    with StagedFiles() as staged, pytest.raises(OSError):
        staged.copy(tmp_path / "cut.bin", broken())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.gltf"]


def test_a_number_json_cannot_hold_is_refused_not_written(tmp_path: Path) -> None:
    gltf = document()
    gltf["nodes"][0]["translation"] = [float("inf"), 0, 0]  # parsed from 1e999
    path = tmp_path / "a" / "zone.gltf"
    source(tmp_path / "a")
    path.write_text(json.dumps(gltf), encoding="utf-8")  # (writes Infinity)
    result = run_cli(str(path), str(tmp_path / "out.gltf"), "--to", "khr")
    assert result.returncode == 1 and "NaN or infinity" in result.stderr
    assert not (tmp_path / "out.gltf").exists()
    with pytest.raises(ValueError, match="NaN or infinity"):
        asset_files.asset_bytes("x.glb", gltf, None)


def test_a_lone_surrogate_is_written_escaped_as_it_was_read(tmp_path: Path) -> None:
    gltf = document()
    gltf["nodes"][0]["name"] = "crate \ud800"  # valid JSON: the escape "\\ud800"
    path = tmp_path / "a" / "zone.gltf"
    source(tmp_path / "a")
    path.write_text(json.dumps(gltf), encoding="utf-8")  # (ensure_ascii: escaped)
    result = run_cli(str(path), str(tmp_path / "out.gltf"), "--to", "khr")
    assert result.returncode == 0, result.stderr
    assert asset_files.read_asset(tmp_path / "out.gltf")[0]["nodes"][0]["name"] == \
        "crate \ud800"
    glb = tmp_path / "out.glb"
    glb.write_bytes(asset_files.asset_bytes(glb, gltf, None))
    assert asset_files.read_asset(glb)[0]["nodes"][0]["name"] == "crate \ud800"


def test_a_glb_keeps_its_external_resources(tmp_path: Path) -> None:
    """A .glb with its chunk and an external buffer too: the external one is copied next to
    an output in another folder (it was not)."""
    gltf = document()
    gltf["buffers"].insert(0, {"byteLength": 4})  # the GLB chunk
    gltf["bufferViews"][0]["buffer"] = 1
    text = json.dumps(gltf).encode()
    text += b" " * (-len(text) % 4)
    chunks = GLB_CHUNK.pack(len(text), GLB_JSON) + text + GLB_CHUNK.pack(4, GLB_BIN) + b"\0" * 4
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "data.bin").write_bytes(BUFFER)
    path = tmp_path / "a" / "zone.glb"
    path.write_bytes(GLB_HEADER.pack(b"glTF", 2, GLB_HEADER.size + len(chunks)) + chunks)
    output = tmp_path / "b" / "zone.glb"
    result = run_cli(str(path), str(output), "--to", "khr")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "b" / "data.bin").read_bytes() == BUFFER


def test_written_files_get_the_permissions_a_plain_write_gives(tmp_path: Path) -> None:
    """A staged file is not owner-only (mkstemp's mode); a replaced file keeps its mode."""
    import os

    umask = os.umask(0o022)
    try:
        path = source(tmp_path / "a")
        output = tmp_path / "b" / "zone.gltf"
        assert run_cli(str(path), str(output), "--to", "khr").returncode == 0
        assert output.stat().st_mode & 0o777 == 0o644
        assert (output.parent / "data.bin").stat().st_mode & 0o777 == 0o644
        output.chmod(0o640)
        assert run_cli(str(path), str(output), "--to", "omi", "--overwrite").returncode == 0
        assert output.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)
