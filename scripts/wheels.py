# SPDX-License-Identifier: GPL-3.0-or-later
"""Fetch the wheels blender_manifest.toml lists (CoACD) from the package registry into
wheels/ (ignored by git), checked against pinned SHA-256 digests.

`python scripts/wheels.py` fetches them; scripts/build.py does so before building.
"""

import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The digest of every wheel the manifest may list: a changed file is refused.
SHA256 = {
    "coacd-1.0.14-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl":
        "6c135b717af096523bbebf1fd8d326e8950c024237fe9806ad46dedd8b4c31f0",
    "coacd-1.0.14-cp39-abi3-manylinux_2_17_aarch64.manylinux2014_aarch64.whl":
        "1242941fc9d49ebcb0368c68f31c86e278b9a6f1a255d11da2f1668797e2626e",
    "coacd-1.0.14-cp39-abi3-win_amd64.whl":
        "6b548f44d9a4694cde594dc8cc8fefa678fb7c88153583be4e8b2c707de8fbbd",
    "coacd-1.0.14-cp39-abi3-macosx_11_0_arm64.whl":
        "4cd9e1f327af766f6364e79e384ebfe152780a3d8dbbd09ce0756ec14f9e1256",
}


def manifest_wheels(root: Path = ROOT) -> list[Path]:
    """The wheel files the manifest lists, as paths under `root`."""
    manifest = tomllib.loads((root / "blender_manifest.toml").read_text())
    return [(root / entry).resolve() for entry in manifest.get("wheels", [])]


def fetch(root: Path = ROOT) -> list[Path]:
    """Every listed wheel present and verified (downloaded when missing); their paths."""
    paths = manifest_wheels(root)
    for path in paths:
        if not path.is_file():
            download(path)
        verify(path)
    return paths


def download(path: Path) -> None:
    """`pip download` the one wheel named `path` (its name says package, version, platform)."""
    name, version, python, abi, platforms = path.name[:-len(".whl")].split("-")
    command = [
        sys.executable, "-m", "pip", "download", f"{name}=={version}", "--no-deps",
        "--only-binary=:all:", "--platform", platforms.split(".")[0], "--python-version",
        "3.11", "--implementation", python[:2], "--abi", abi, "--dest", str(path.parent),
        "--quiet", "--disable-pip-version-check",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not path.is_file():
        raise SystemExit(f"could not download {path.name}:\n{done.stdout}{done.stderr}")


def verify(path: Path) -> None:
    """Refuse a wheel whose digest is unknown or different."""
    expected = SHA256.get(path.name)
    if expected is None:
        raise SystemExit(f"{path.name} has no pinned SHA-256 in scripts/wheels.py")
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != expected:
        raise SystemExit(f"{path.name}: SHA-256 {actual} is not the pinned {expected}")


if __name__ == "__main__":
    for wheel in fetch():
        print(wheel)
