# SPDX-License-Identifier: GPL-3.0-or-later
"""The README's Python examples run as written, and the batch exporter it documents works."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import bpy
import pytest

from scripts.build import build
from tests.conftest import ROOT
from tests.integration import scene_helpers as h

PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
#: After each block: bpy 4.2/4.5 can crash or hang tearing down at exit (the README says so).
EPILOGUE = """
import os as _os, sys as _sys
if bpy.app.version < (5, 0, 0):
    _sys.stdout.flush(); _sys.stderr.flush(); _os._exit(0)
"""


def readme_blocks() -> list[str]:
    return PYTHON_BLOCK.findall((ROOT / "README.md").read_text())


def run(code_or_args: list[str], cwd: Path, user: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "BLENDER_USER_RESOURCES": str(user)}
    return subprocess.run([sys.executable, *code_or_args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_readme_has_the_install_and_api_examples() -> None:
    blocks = readme_blocks()
    assert "package_install_files" in blocks[0]
    assert all('addon_utils.enable("bl_ext.user_default.gltf_physics"' in b for b in blocks[1:])


def test_every_readme_python_block_runs_in_a_fresh_process(tmp_path: Path) -> None:
    """Installed from the built zip by the README's own first block, then each block."""
    build(tmp_path / "dist")
    user = tmp_path / "user"
    user.mkdir()
    for number, block in enumerate(readme_blocks()):
        done = run(["-c", block + EPILOGUE], tmp_path, user)
        assert done.returncode == 0, (number, block, done.stderr[-3000:])
    assert (user / "extensions" / "user_default" / "gltf_physics" / "__init__.py").is_file()
    level = json.loads(_json_chunk(tmp_path / "level.glb"))
    crate = next(n for n in level["nodes"] if n.get("name") == "Crate")
    assert crate["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"] == 12.0
    for written in ("level.glb", "door.glb", "door_omi.glb"):
        h.assert_valid(tmp_path / written)


def _json_chunk(path: Path) -> str:
    data = path.read_bytes()
    length = int.from_bytes(data[12:16], "little")
    return data[20:20 + length].decode()


@pytest.fixture
def blend_files(clean_scene, tmp_path: Path) -> list[Path]:
    paths = []
    for name, shape in (("crates", "BOX"), ("balls", "SPHERE")):
        bpy.ops.wm.read_homefile(use_empty=True)
        obj = h.mesh_object(name.title())
        h.set_physics(obj, motion_type="DYNAMIC", shape_type=shape)
        bpy.context.scene.gltf_physics.export_format = "KHR"
        path = tmp_path / f"{name}.blend"
        bpy.ops.wm.save_as_mainfile(filepath=str(path))
        paths.append(path)
    bpy.ops.wm.read_homefile(use_empty=True)
    return paths


def test_batch_export_of_blend_files(blend_files: list[Path], tmp_path: Path) -> None:
    user = tmp_path / "fresh_user"  # nothing installed: the checkout is used
    user.mkdir()
    script = str(ROOT / "scripts" / "export_physics.py")
    out = tmp_path / "out"
    done = run([script, *map(str, blend_files), "--out", str(out), "--format", "omi", "--gltf"],
               tmp_path, user)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 of 2 file(s) exported" in done.stdout
    for path, shape in zip(blend_files, ("box", "sphere"), strict=True):
        gltf = json.loads((out / f"{path.stem}.gltf").read_text())
        assert gltf["extensions"]["OMI_physics_shape"]["shapes"][0]["type"] == shape
        h.assert_valid(out / f"{path.stem}.gltf")
    done = run([script, str(blend_files[0]), str(tmp_path / "missing.blend"), "--out",
                str(out)], tmp_path, user)
    assert done.returncode == 1
    assert "1 of 2 file(s) exported" in done.stdout and "missing.blend" in done.stderr
    h.assert_valid(out / "crates.glb")  # the file's own format (KHR)
