# SPDX-License-Identifier: GPL-3.0-or-later
"""`make bench`'s growth verdicts: our growth from 1,000 to 10,000 bodies is measured against
the plain phase's own (the glTF add-on's plain export is not linear in the scene's size)."""

from __future__ import annotations

from scripts import bench


def _table(plain_growth: float, ours_growth: float) -> dict[int, dict[str, dict]]:
    """Two sizes whose every phase takes 1 s at the smaller one; at the larger one the
    phases without the add-on take `plain_growth` s and ours `ours_growth` s."""
    table: dict[int, dict[str, dict]] = {}
    for size, scale in ((1000, None), (10000, "grown")):
        table[size] = {}
        for phase in bench.PHASES:
            seconds = 1.0
            if scale:
                seconds = ours_growth if phase.physics and not phase.floor else plain_growth
            table[size][phase.name] = {"best": seconds, "runs": [seconds] * 3}
    return table


def _growth_verdicts(table: dict[int, dict[str, dict]]) -> dict[str, bool]:
    return {t["target"]: t["pass"] for t in bench.evaluate_targets(table)
            if "growth" in t["target"]}


def test_ours_may_grow_as_the_plain_phase_grows():
    verdicts = _growth_verdicts(_table(plain_growth=12.5, ours_growth=12.5 * 1.05))
    assert verdicts and all(verdicts.values())


def test_ours_growing_faster_than_the_plain_phase_fails():
    verdicts = _growth_verdicts(_table(plain_growth=10.0, ours_growth=10.0 * 1.2))
    assert verdicts and not any(verdicts.values())
