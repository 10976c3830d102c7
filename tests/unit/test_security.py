# SPDX-License-Identifier: GPL-3.0-or-later
"""Imported data is never code, never a path we write, and its sizes are bounded."""

from __future__ import annotations

import ast
from pathlib import Path

from gltf_physics.io.codecs import registry
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.json_read import MAX_LIST
from tests.conftest import ROOT

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "marshal", "shelve"}
PRODUCT = ("io", "operators", "panels", "__init__.py")


def product_files() -> list[Path]:
    files = []
    for part in PRODUCT:
        path = ROOT / part
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def test_no_dynamic_code_or_unsafe_deserialisation() -> None:
    found = []
    for path in product_files():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in FORBIDDEN_CALLS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}")
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names
                          if n.split(".")[0] in FORBIDDEN_MODULES]
    assert found == []


def test_import_side_writes_no_files() -> None:
    """The import path (decoders and import hooks) opens nothing for writing."""
    for path in [*sorted((ROOT / "io" / "codecs").glob("*.py")),
                 ROOT / "io" / "blender" / "import_hooks.py"]:
        text = path.read_text()
        assert "open(" not in text and "write_text" not in text and "write_bytes" not in text, path


def test_huge_arrays_are_refused_before_copying() -> None:
    report = Report()
    huge = [{"type": "box"}] * (MAX_LIST + 1)
    view = DocumentView.from_json({"nodes": [], "extensions": {"KHR_implicit_shapes": {
        "shapes": huge}}})
    registry.decode_document(view, report)
    assert any("exceeds" in issue.message for issue in report.issues)
