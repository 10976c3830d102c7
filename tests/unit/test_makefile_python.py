# SPDX-License-Identifier: GPL-3.0-or-later
"""The Makefile's choice of Blender release and Python on machines with different Pythons.

Each case runs `make which-python` (or `make -n demo`) with a PATH holding only the given
interpreters and tools, and HOME an empty folder (so no ~/.pyenv is found).
"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")
INSTALL_HINT = "No Python for Blender's bpy: install Python 3.13 (for Blender 5.2) or Python 3.11"

pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")


def real_python(version: str) -> str | None:
    """The interpreter of Python `version` on this machine (not a pyenv shim), or None."""
    candidates = [shutil.which(f"python{version}"), f"/usr/bin/python{version}",
                  *map(str, Path.home().glob(f".pyenv/versions/{version}*/bin/python{version}"))]
    for candidate in filter(None, candidates):
        if not Path(candidate).exists():
            continue
        run = subprocess.run(
            [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2], "
             "getattr(sys, '_base_executable', '') or sys.executable)"],
            capture_output=True, text=True, check=False)
        found, _, path = run.stdout.strip().partition(" ")
        if run.returncode == 0 and found == version:
            return path
    return None


def machine(tmp_path: Path, pythons: dict[str, str], uv: str | None = None) -> dict[str, str]:
    """An environment whose PATH holds make, sh, the given python3.X names and a `uv`."""
    bin_dir, home = tmp_path / "bin", tmp_path / "home"
    bin_dir.mkdir()
    home.mkdir()
    for name, target in {"make": MAKE, "sh": "/bin/sh", **pythons}.items():
        (bin_dir / name).symlink_to(target)
    if uv is not None:
        (bin_dir / "uv").write_text(uv)
        (bin_dir / "uv").chmod(0o755)
    return {"PATH": str(bin_dir), "HOME": str(home)}


def make(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MAKE, "-s", "-C", str(ROOT), *args], env=env, capture_output=True,
                          text=True, check=False, timeout=60)


def need(version: str) -> str:
    path = real_python(version)
    if path is None:
        pytest.skip(f"no Python {version} on this machine")
    return path


def test_only_python_3_11_falls_back_to_blender_5_0_and_says_so(tmp_path):
    env = machine(tmp_path, {"python3.11": need("3.11")})
    run = make(env, "which-python")
    assert run.returncode == 0, run.stderr
    note, choice = run.stdout.splitlines()
    python = str(tmp_path / "bin" / "python3.11")
    assert note == f"No Python 3.13 for Blender 5.2: using Blender 5.0 on {python} (.venv-5.0)"
    assert choice == f"5.0 {python} .venv-5.0"
    assert run.stderr == ""
    plan = make(env, "-n", "-B", "demo")  # the demo's set-up planned as on a fresh clone
    assert plan.returncode == 0, plan.stderr
    assert note in plan.stdout
    assert f"{python} -m venv .venv-5.0" in plan.stdout
    assert '"bpy==5.0.1" numpy==1.26.4' in plan.stdout
    assert plan.stdout.rstrip().endswith(".venv-5.0/bin/python scripts/demo.py")


def test_python_3_13_runs_blender_5_2_in_the_default_venv_without_a_note(tmp_path):
    env = machine(tmp_path, {"python3.11": need("3.11"), "python3.13": need("3.13")})
    run = make(env, "which-python")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"5.2 {tmp_path / 'bin' / 'python3.13'} .venv"]


def test_a_forced_release_takes_its_own_python(tmp_path):
    env = machine(tmp_path, {"python3.11": need("3.11")})
    run = make(env, "which-python", "BLENDER=4.2")
    assert run.stdout.splitlines() == [f"4.2 {tmp_path / 'bin' / 'python3.11'} .venv-4.2"]
    run = make(env, "which-python", "BLENDER=5.2")  # forced: no fallback to 5.0
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "Blender 5.2 needs Python 3.13, not found: install python3.13" in run.stderr
    run = make(env, "which-python", "BLENDER=3.6")
    assert run.returncode == 2 and "BLENDER must be 5.2, 5.0, 4.5 or 4.2" in run.stderr


def test_no_python_says_what_to_install_in_one_line(tmp_path):
    env = machine(tmp_path, {})
    for target in ("which-python", "demo", "test"):
        run = make(env, target)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.count("\n") == 1, run.stderr
        assert INSTALL_HINT in run.stderr
        assert "uv python install 3.13" in run.stderr


def test_with_uv_and_no_python_uv_installs_python_3_13(tmp_path):
    python = need("3.13")
    marker = tmp_path / "uv-installed"
    uv = f"""#!/bin/sh
# A stand-in for uv: `python install 3.13` installs (a marker), `python find 3.13` finds it.
case "$*" in
    "python install 3.13") : > {marker}; echo "Installed Python 3.13" >&2 ;;
    "python find 3.13") [ -e {marker} ] && echo {python} ;;
    *) exit 2 ;;
esac
"""
    env = machine(tmp_path, {}, uv=uv)
    run = make(env, "which-python")
    assert run.returncode == 0, run.stderr
    assert marker.exists()
    assert run.stdout.splitlines() == [
        f"Python 3.13 installed by uv for Blender 5.2: {python}", f"5.2 {python} .venv"]
    run = make(env, "which-python")  # found by uv from now on: no second install, no note
    assert run.stdout.splitlines() == [f"5.2 {python} .venv"]


def test_only_python_3_11_with_uv_uses_the_present_python(tmp_path):
    marker = tmp_path / "uv-installed"
    uv = f'#!/bin/sh\n[ "$2" = install ] && : > {marker}\nexit 1\n'
    env = machine(tmp_path, {"python3.11": need("3.11")}, uv=uv)
    run = make(env, "which-python")
    assert run.stdout.splitlines()[-1].startswith("5.0 ")
    assert not marker.exists()  # nothing downloaded while a usable Python is present



def test_a_blender_path_exported_in_the_environment_is_ignored(tmp_path):
    """Many developers export BLENDER=/path/to/blender for other tools: it is not a release,
    so the Makefile chooses as if it were unset; a release number exported is honoured, and
    on the command line any value is taken (and refused when it is not a release)."""
    env = machine(tmp_path, {"python3.11": need("3.11"), "python3.13": need("3.13")})
    python = tmp_path / "bin"
    for exported in ("/opt/blender-5.2/blender", "/Applications/Blender.app", "blender"):
        run = make({**env, "BLENDER": exported}, "which-python")
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines() == [f"5.2 {python / 'python3.13'} .venv"]
        assert run.stderr == ""
    run = make({**env, "BLENDER": "4.2"}, "which-python")
    assert run.stdout.splitlines() == [f"4.2 {python / 'python3.11'} .venv-4.2"]
    run = make({**env, "BLENDER": "4.2"}, "which-python", "BLENDER=/opt/blender/blender")
    assert run.returncode == 2 and "BLENDER must be 5.2, 5.0, 4.5 or 4.2" in run.stderr
