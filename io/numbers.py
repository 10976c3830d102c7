# SPDX-License-Identifier: GPL-3.0-or-later
"""Canonical number formatting for written JSON, so equal settings deduplicate. Pure."""

from __future__ import annotations

from collections.abc import Iterable


def canon(value: float) -> float:
    """Round to float32 precision (7 significant digits); -0.0 becomes 0.0."""
    rounded = float(f"{value:.7g}")
    return rounded + 0.0


def canon_list(values: Iterable[float]) -> list[float]:
    """`canon` applied to each value."""
    return [canon(v) for v in values]
