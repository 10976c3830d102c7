# SPDX-License-Identifier: GPL-3.0-or-later
"""Export .blend files to glTF with their gltf_physics physics, from the command line.

    blender --background --python scripts/export_physics.py -- a.blend b.blend --out dist/
    python3.11 scripts/export_physics.py a.blend b.blend --out dist/ --format omi   # bpy module

The extension must be installed (any repository, e.g. user_default); run from a checkout, the
checkout itself is used when it is not. Each file is written as `<out>/<name>.glb`; files of
the same name from different folders go to those folders' paths below `<out>` (relative to
the folder they share), and files of one name in one folder (good.blend, good.blend1) keep
their whole names (good.blend.glb), so no output overwrites another. Exit status: 0 when every
file exported, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

MODULE_NAME = "gltf_physics"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("blend_files", nargs="+", type=Path, help=".blend files to export")
    parser.add_argument("--out", type=Path, required=True, help="folder for the exported files")
    parser.add_argument("--format", choices=("khr", "omi", "none"), default=None,
                        help="physics format (default: each file's own scene setting)")
    parser.add_argument("--khr-geometry", choices=("mesh", "node"), default=None,
                        help="KHR mesh colliders as geometry.mesh (2026-01) or .node (2025-10)")
    parser.add_argument("--godot-capsules", action="store_true",
                        help="OMI capsules and cylinders in the pre-2025 layout Godot 4 reads")
    parser.add_argument("--gltf", action="store_true", help="write .gltf + .bin instead of .glb")
    return parser.parse_args(argv)


def blender_argv() -> list[str]:
    """The script's own arguments: after `--` under `blender --python`, else sys.argv[1:]."""
    return sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]


def enable_extension(made: list[Path]) -> str:
    """Enable gltf_physics from wherever it is installed (or this checkout, through a
    temporary repository folder appended to `made`); its module."""
    import bpy  # noqa: I001 (first: it makes Blender's addon_utils importable)
    import addon_utils

    for module in addon_utils.modules(refresh=True):
        name = module.__name__
        if name.startswith("bl_ext.") and name.endswith(f".{MODULE_NAME}") \
                and addon_utils.enable(name, default_set=True) is not None:
            return name
    checkout = Path(__file__).resolve().parents[1]
    if not (checkout / "blender_manifest.toml").is_file():
        raise SystemExit("gltf_physics is not installed: install its zip first (README)")
    repo_dir = Path(tempfile.mkdtemp(prefix="gltf_physics_checkout_"))
    made.append(repo_dir)
    (repo_dir / MODULE_NAME).symlink_to(checkout, target_is_directory=True)
    bpy.context.preferences.extensions.repos.new(
        name="checkout", module="checkout", custom_directory=str(repo_dir), source="USER")
    name = f"bl_ext.checkout.{MODULE_NAME}"
    if addon_utils.enable(name, default_set=True) is None:
        raise SystemExit(f"could not enable {name}")
    return name


def output_paths(blends: list[Path], out: Path, suffix: str) -> dict[Path, Path]:
    """Where each .blend file is written: `out/<name><suffix>`, or, when files of one name
    (letter case aside) come from different folders, `out/<folder>/<name><suffix>` with each
    folder relative to the folder they share."""
    sources = [blend.resolve() for blend in blends]
    by_name: dict[str, list[Path]] = defaultdict(list)
    for source in dict.fromkeys(sources):
        by_name[source.stem.casefold()].append(source)
    targets: dict[Path, Path] = {}
    for same in by_name.values():
        if len(same) == 1:
            targets[same[0]] = out / f"{same[0].stem}{suffix}"
            continue
        shared = Path(os.path.commonpath([source.parent for source in same]))
        folders = [source.parent.relative_to(shared) for source in same]
        clash = len({str(folder).casefold() for folder in folders}) < len(same)
        for source, folder in zip(same, folders, strict=True):
            # (one folder holding several: good.blend and good.blend1 keep their whole names)
            name = source.name if clash else source.stem
            targets[source] = out / folder / f"{name}{suffix}"
    return {blend: targets[source] for blend, source in zip(blends, sources, strict=True)}


def export_file(blend: Path, target: Path, args: argparse.Namespace) -> Path:
    """Open `blend` and export its scene with physics to `target`; the written path."""
    import bpy

    bpy.ops.wm.open_mainfile(filepath=str(blend))
    settings = bpy.context.scene.gltf_physics
    if args.format is not None:
        settings.export_format = args.format.upper()
    if args.khr_geometry is not None:
        settings.khr_geometry = args.khr_geometry.upper()
    if args.godot_capsules:
        settings.omi_round_layout = "GODOT4"
    target.parent.mkdir(parents=True, exist_ok=True)
    bpy.ops.export_scene.gltf(filepath=str(target),
                              export_format="GLTF_SEPARATE" if args.gltf else "GLB")
    return target


def main(argv: list[str]) -> int:
    """Export every file; the exit status."""
    args = parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: --out {args.out}: {exc.strerror or exc}: nothing exported",
              file=sys.stderr)
        return 1
    repo_dir: list[Path] = []
    try:
        print(f"gltf_physics enabled as {enable_extension(repo_dir)}")
        failed = 0
        targets = output_paths(args.blend_files, args.out, ".gltf" if args.gltf else ".glb")
        for blend in args.blend_files:
            try:
                target = export_file(blend, targets[blend], args)
            except (RuntimeError, OSError) as exc:
                failed += 1
                print(f"error: {blend}: {last_line(exc)}", file=sys.stderr)
                continue
            print(f"wrote {target}")
    finally:
        for folder in repo_dir:  # (the checkout's stand-in repository: a link, nothing more)
            shutil.rmtree(folder, ignore_errors=True)
    print(f"{len(args.blend_files) - failed} of {len(args.blend_files)} file(s) exported")
    return 1 if failed else 0


def last_line(exc: BaseException) -> str:
    """What went wrong, in one line: an operator's error carries the exporter's whole
    traceback, whose last line says it."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def leave(code: int) -> None:
    """Exit with `code`. bpy 4.2/4.5 as a module can crash or hang while tearing down at
    interpreter exit, which would hide the status: leave without that teardown there."""
    import bpy

    if bpy.app.version < (5, 0, 0) and "--" not in sys.argv:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    leave(main(blender_argv()))
