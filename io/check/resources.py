# SPDX-License-Identifier: GPL-3.0-or-later
"""External resources: a buffer or image the checker would not read (`external_reader`: a
file outside the asset's folder, not a regular file, a byteLength past the file) is an
error naming its URI. Nothing is opened."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..diagnostics import Report
from ..external_reader import refusals


def check_resources(gltf: Mapping[str, Any], report: Report, folder: Path | str | None,
                    binary: bytes | None) -> None:
    """`resource-refused` for each refused buffer or image (missing files are left to the
    checks that need them)."""
    for where, problem in refusals(gltf, folder, binary):
        if problem.refused:
            report.add("error", "resource-refused", where, str(problem))
