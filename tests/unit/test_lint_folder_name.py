# SPDX-License-Identifier: GPL-3.0-or-later
"""ruff gives the same verdict whatever the checkout folder is called."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.parametrize("folder", ["gltf_physics", "some_checkout"])
def test_lint_passes_in_a_folder_named(folder: str, tmp_path: Path) -> None:
    if not RUFF.exists() or not (ROOT / ".git").exists():
        pytest.skip("needs the venv's ruff and a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    copy = tmp_path / folder
    for name in filter(None, tracked):
        source = ROOT / name
        if source.is_file() and name.endswith((".py", ".toml")):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy / name)
    result = subprocess.run([str(RUFF), "check", "--no-cache", "."], cwd=copy,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
