# SPDX-License-Identifier: GPL-3.0-or-later
"""Run the Khronos glTF-Validator (npm ``gltf-validator``, pinned in package.json) on a file.

The validator checks the core glTF structure only: extensions it does not know, such as ours, are
reported as information (``UNSUPPORTED_EXTENSION``), never as errors.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).with_name("validate_gltf.mjs")
PACKAGE = Path("node_modules") / "gltf-validator"
SEVERITY_ERROR = 0
TIMEOUT_SECONDS = 120


def is_available(repo_root: Path) -> bool:
    """Tell whether node and the installed npm package are present under ``repo_root``."""
    return shutil.which("node") is not None and (repo_root / PACKAGE).is_dir()


def validate_file(path: Path, repo_root: Path) -> dict[str, Any]:
    """Validate a .gltf (with its sibling resources) or .glb file; return the parsed report.

    ``repo_root`` is the folder holding ``node_modules/gltf-validator``. Raises
    ``FileNotFoundError`` when node or the package is missing and ``RuntimeError`` when the
    validator itself fails.
    """
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError("node is not on PATH")
    if not (repo_root / PACKAGE).is_dir():
        raise FileNotFoundError(f"{repo_root / PACKAGE} is missing; run `npm ci` (or `make test`)")
    result = subprocess.run(
        [node, str(SCRIPT), str(Path(path).resolve())],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"gltf-validator failed on {path}: {result.stderr.strip()}")
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def error_messages(report: dict[str, Any]) -> list[str]:
    """Return ``"<pointer>: <CODE> <message>"`` for every issue of severity 0 (error)."""
    messages = report.get("issues", {}).get("messages", [])
    return [
        f"{issue.get('pointer', issue.get('offset', ''))}: {issue['code']} {issue['message']}"
        for issue in messages
        if issue.get("severity") == SEVERITY_ERROR
    ]
