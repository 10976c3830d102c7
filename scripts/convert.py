# SPDX-License-Identifier: GPL-3.0-or-later
"""Upgrade or translate the physics of a .gltf/.glb file; needs only Python 3.11 and numpy.

    python3.11 scripts/convert.py INPUT OUTPUT --to {omi,khr} [--khr-geometry {mesh,node}]
        [--godot-capsules] [--report FILE] [--overwrite]

Reads every OMI and KHR physics revision (and OMI vehicles) and writes them in the current
OMI or KHR layout; everything else in the file is kept. OUTPUT must use the container of
INPUT (.glb → .glb keeps the binary chunk byte for byte; .gltf → .gltf keeps external
buffers and images, which are copied next to OUTPUT when it goes to another folder).
`--khr-geometry node` writes the 2025-10 `geometry.node` form; `--godot-capsules` writes OMI
capsules and cylinders in the pre-2025 layout Godot 4 reads. Every lossy step is printed;
`--report FILE` also writes the issues as JSON. INPUT is never written; an existing OUTPUT,
report file or different copied resource is replaced only with `--overwrite`, never through
a symbolic link; the files appear together or not at all.
Exit status: 0 when written, 1 when INPUT cannot be read (or names a buffer or image outside
its folder, not a regular file or shorter than its byteLength), OUTPUT cannot be written, or
a resource copied beside it would replace a different file without `--overwrite` (nothing
is written then), 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "gltf_physics"
CONTAINERS = {".gltf": ".gltf", ".glb": ".glb"}


def load_module(name: str) -> Any:
    """Import `gltf_physics.io.<name>` from this checkout without running the add-on's
    __init__ (so without bpy): a stub package whose __path__ is the checkout."""
    if PACKAGE not in sys.modules:
        package = types.ModuleType(PACKAGE)
        package.__path__ = [str(ROOT)]
        sys.modules[PACKAGE] = package
    return importlib.import_module(f"{PACKAGE}.io.{name}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; the output container must match the input's."""
    parser = argparse.ArgumentParser(
        description="Write the physics of a glTF file as current OMI or KHR; keep the rest.",
    )
    parser.add_argument("input", type=Path, help=".gltf or .glb file to read")
    parser.add_argument("output", type=Path, help="file to write (same container as INPUT)")
    parser.add_argument("--to", required=True, choices=("omi", "khr"), help="target format")
    parser.add_argument("--khr-geometry", choices=("mesh", "node"), default="mesh",
                        help="KHR mesh colliders as geometry.mesh (default) or geometry.node")
    parser.add_argument("--godot-capsules", action="store_true",
                        help="OMI: pre-2025 capsule/cylinder layout for Godot 4")
    parser.add_argument("--report", type=Path, metavar="FILE", help="also write issues as JSON")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing OUTPUT (its report file and the resources "
                        "copied beside it); never INPUT")
    args = parser.parse_args(argv)
    suffix_in, suffix_out = args.input.suffix.lower(), args.output.suffix.lower()
    if suffix_in not in CONTAINERS or CONTAINERS[suffix_in] != suffix_out:
        parser.error(f"OUTPUT must be a {CONTAINERS.get(suffix_in, '.gltf or .glb')} file "
                     f"like INPUT (got {args.input.name} → {args.output.name})")
    if args.godot_capsules and args.to != "omi":
        parser.error("--godot-capsules only applies to --to omi")
    return args


def print_issues(issues: list[Any]) -> None:
    """One line per issue: severity, code, JSON pointer, message."""
    for issue in issues:
        print(f"{issue.severity}: {issue.code}: {issue.where or '(document)'}: {issue.message}")


def target_problem(args: argparse.Namespace, named: tuple[Path, ...] = ()) -> str | None:
    """Why OUTPUT or the report file cannot be written, or None: the converter never writes
    over INPUT or a file it names (`named`: its buffers and images) or through a symlink,
    never writes OUTPUT and the report to one file, and replaces an existing file only with
    --overwrite."""
    targets = [args.output] + ([args.report] if args.report is not None else [])
    if args.report is not None and _same(args.report, args.output):
        return f"the report file and OUTPUT are the same file ({args.output})"
    for target in targets:
        if _same(target, args.input):
            return f"{target} is INPUT: write to another file"
        if any(_same(target, path) for path in named):
            return f"{target} is a file INPUT names: write to another file"
        if target.is_symlink():
            return f"{target} is a symbolic link: the converter does not write through one"
        if target.exists() and not target.is_file():
            return f"{target} exists and is not a file"
        if target.exists() and not args.overwrite:
            return f"{target} exists: pass --overwrite to replace it"
    return None


def _reserved(args: argparse.Namespace) -> dict[Path, str]:
    """The files no copied resource may land on: what the run writes and reads."""
    reserved = {args.output: "OUTPUT", args.input: "INPUT"}
    if args.report is not None:
        reserved[args.report] = "the report file"
    return reserved


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def report_bytes(args: argparse.Namespace, issues: list[Any]) -> bytes:
    """The issues as JSON, with the conversion settings."""
    document = {
        "input": str(args.input), "output": str(args.output), "target": args.to.upper(),
        "khrGeometry": args.khr_geometry, "godotCapsules": args.godot_capsules,
        "issues": [
            {"severity": i.severity, "code": i.code, "where": i.where, "message": i.message}
            for i in issues
        ],
    }
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    """Convert INPUT to OUTPUT; the exit status."""
    args = parse_args(argv)
    convert = load_module("convert")
    asset_files = load_module("asset_files")
    report = convert.Report()
    lax: list[str] = []
    try:
        gltf, binary = asset_files.read_asset(args.input, lax)
    except (OSError, ValueError, MemoryError, RecursionError) as exc:
        print(f"error: cannot read {args.input}: {str(exc) or type(exc).__name__}", file=sys.stderr)
        return 1
    refused = [(where, problem) for where, problem in load_module("external_reader").refusals(
        gltf, args.input.parent, binary) if problem.refused]
    for where, problem in refused:
        print(f"error: {args.input}:{where}: {problem}", file=sys.stderr)
    if refused:
        print(f"error: {args.input} not converted: it has buffers or images the converter "
              "does not read (see README, Files from strangers)", file=sys.stderr)
        return 1
    problem = target_problem(args, tuple(asset_files.named_files(gltf, args.input.parent)))
    if problem is not None:
        print(f"error: nothing written: {problem}", file=sys.stderr)
        return 1
    for message in lax:  # (the output is written strict: said, as what was read)
        report.warn(asset_files.JSON_LAX, "", message)
    out = convert.convert_document(
        gltf, args.to.upper(), khr_geometry=args.khr_geometry,
        godot_capsules=args.godot_capsules, report=report, binary=binary,
        base_dir=args.input.parent,
    )
    # Every file is written under a temporary name first and moved into place only when
    # all are written: a failure or an interrupt leaves no partial file behind.
    writing: Path | None = args.output
    try:
        with asset_files.StagedFiles() as staged:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            staged.write(args.output, asset_files.asset_bytes(args.output, out, binary))
            writing = args.output.parent
            asset_files.copy_resources(out, args.input.parent, args.output.parent, report,
                                       staged, overwrite=args.overwrite,
                                       reserved=_reserved(args))
            if asset_files.RESOURCE_CLASH in report.codes():
                print_issues(report.listed())
                print("error: nothing written: a file INPUT names would be copied over OUTPUT, "
                      "the report, INPUT or a file INPUT names: write to another folder",
                      file=sys.stderr)
                return 1
            if asset_files.RESOURCE_CONFLICT in report.codes():
                print_issues(report.listed())
                print(f"error: nothing written: {args.output} would name files in its folder "
                      "that hold other bytes: pass --overwrite to replace them, or write to "
                      "another folder", file=sys.stderr)
                return 1
            if args.report is not None:
                writing = args.report
                args.report.parent.mkdir(parents=True, exist_ok=True)
                staged.write(args.report, report_bytes(args, report.listed()))
            writing = None
            staged.commit()
    except (OSError, ValueError) as exc:
        if writing is None:  # (a rename failed: the files before it are in place)
            print(f"error: cannot move every written file into place: {exc}", file=sys.stderr)
        else:
            print(f"error: nothing written: cannot write {writing}: {exc}", file=sys.stderr)
        return 1
    print_issues(report.listed())
    warnings = len(report.of("warning")) + len(report.of("error"))
    print(f"wrote {args.output} ({args.to.upper()}): {warnings} warning(s), "
          f"{len(report.of('info'))} note(s)")
    return 0


if __name__ == "__main__":
    sys.exit(load_module("cli_guard").run(main, 1))
