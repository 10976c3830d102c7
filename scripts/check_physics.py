# SPDX-License-Identifier: GPL-3.0-or-later
"""Check the physics of .gltf/.glb files without Blender; needs Python 3.11 and numpy.

    python3 scripts/check_physics.py FILE... [--json] [--strict]

Reads every OMI and KHR physics revision. Errors break a specification (what the official
JSON schemas reject, bad indices, undeclared extensions, misplaced triggers, joints, vehicle
parts, non-finite numbers); warnings are legal but risky or engine-dependent; notes name
legacy revisions with the scripts/convert.py command that upgrades them. One line per
finding (`FILE:POINTER: severity: message [code]`) and one summary line per file, or with
`--json` one JSON document. Exit status: 0 without errors, 1 with an error (with
`--strict`, also a warning), 2 when a file cannot be read as glTF (or bad arguments).

Also importable: `check_files(paths)` returns one `FileCheck` per file (its `issues`,
`counts`, `unreadable` and `as_json()`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "gltf_physics"


def load_module(name: str) -> Any:
    """Import `gltf_physics.io.<name>` from this checkout without running the add-on's
    __init__ (so without bpy): a stub package whose __path__ is the checkout."""
    if PACKAGE not in sys.modules:
        package = types.ModuleType(PACKAGE)
        package.__path__ = [str(ROOT)]
        sys.modules[PACKAGE] = package
    return importlib.import_module(f"{PACKAGE}.io.{name}")


def check_files(paths: Iterable[Path | str]) -> list[Any]:
    """One `FileCheck` per path, in order."""
    checker = load_module("check.checker")
    return [checker.check_file(path) for path in paths]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description="Check the OMI and KHR physics of glTF files (no Blender needed).")
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help=".gltf or .glb")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--strict", action="store_true", help="warnings also fail (exit 1)")
    return parser.parse_args(argv)


def text_lines(check: Any) -> list[str]:
    """A file's findings, one line each, and its summary line."""
    if check.unreadable:
        return [f"{check.path}: unreadable as glTF: {check.unreadable}"]
    lines = [f"{check.path}:{issue.where or '(document)'}: {issue.severity}: "
             f"{issue.message} [{issue.code}]" for issue in check.issues]
    counts = [(check.count("error"), "error"), (check.count("warning"), "warning"),
              (check.count("info"), "note")]
    summary = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts)
    return [*lines, f"{check.path}: {summary}"]


def main(argv: list[str] | None = None) -> int:
    """Check the files; the exit status."""
    args = parse_args(argv)
    checker = load_module("check.checker")
    checks = check_files(args.files)
    status = checker.exit_status(checks, args.strict)
    if args.json:
        document = {"files": [check.as_json() for check in checks], "strict": args.strict,
                    "exitStatus": status}
        print(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for check in checks:
            print("\n".join(text_lines(check)))
    return status


if __name__ == "__main__":
    sys.exit(load_module("cli_guard").run(main, 2))
