# SPDX-License-Identifier: GPL-3.0-or-later
"""Fetch the wheels, validate the manifest and build one installable zip per platform with
Blender's own extension CLI (`--split-platforms`: each zip carries only its platform's
wheels; a platform without a CoACD wheel gets a zip without it).

Runs under bpy-as-a-module (no Blender binary): `python scripts/build.py [output_dir]`.
"""

import argparse
import sys
import tomllib
from pathlib import Path

if __package__:  # imported as scripts.build (the tests)
    from . import wheels
else:  # run as a script: scripts/ is sys.path[0]
    import wheels

ROOT = Path(__file__).resolve().parents[1]


def build(output_dir: Path) -> list[Path]:
    """Fetch, validate and build; returns the zips, one per platform of the manifest.
    Raises SystemExit on failure."""
    import bpy  # noqa: F401, I001 - bpy first: it makes Blender's bundled bl_pkg importable
    import bl_pkg

    wheels.fetch(ROOT)
    output_dir.mkdir(parents=True, exist_ok=True)
    if bl_pkg.cli_extension(["validate", str(ROOT)]) != 0:
        raise SystemExit("manifest validation failed")
    args = ["build", "--split-platforms", "--source-dir", str(ROOT), "--output-dir",
            str(output_dir)]
    if bl_pkg.cli_extension(args) != 0:
        raise SystemExit("extension build failed")
    manifest = tomllib.loads((ROOT / "blender_manifest.toml").read_text())
    stem = f"{manifest['id']}-{manifest['version']}"
    return [output_dir / f"{stem}-{platform.replace('-', '_')}.zip"
            for platform in manifest["platforms"]]


def main(argv: list[str]) -> int:
    """The command line: an optional output folder (default dist/)."""
    parser = argparse.ArgumentParser(description="Build the extension's zips (one per "
                                     "platform) with Blender's extension CLI.")
    parser.add_argument("output_dir", nargs="?", type=Path, default=ROOT / "dist",
                        help="where the zips go (default: dist/ in the checkout)")
    args = parser.parse_args(argv)
    for zip_path in build(args.output_dir):
        print(zip_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
