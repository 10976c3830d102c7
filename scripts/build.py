# SPDX-License-Identifier: GPL-3.0-or-later
"""Validate the manifest and build the installable zip with Blender's own extension CLI.

Runs under bpy-as-a-module (no Blender binary): `python scripts/build.py [output_dir]`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(output_dir: Path) -> Path:
    """Validate and build; returns the zip path. Raises SystemExit on failure."""
    import bpy  # noqa: F401, I001 - bpy first: it makes Blender's bundled bl_pkg importable
    import bl_pkg

    output_dir.mkdir(parents=True, exist_ok=True)
    if bl_pkg.cli_extension(["validate", str(ROOT)]) != 0:
        raise SystemExit("manifest validation failed")
    before = set(output_dir.glob("*.zip"))
    args = ["build", "--source-dir", str(ROOT), "--output-dir", str(output_dir)]
    if bl_pkg.cli_extension(args) != 0:
        raise SystemExit("extension build failed")
    built = sorted(set(output_dir.glob("gltf_physics-*.zip")) - before) or sorted(
        output_dir.glob("gltf_physics-*.zip")
    )
    return built[-1]


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist"
    print(build(target))
