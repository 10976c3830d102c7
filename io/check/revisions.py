# SPDX-License-Identifier: GPL-3.0-or-later
"""Notes about revisions: each legacy layout the decoders upgrade, once per document, with
the converter command that writes the current revision; physics extensions not checked
here. Pure."""

from __future__ import annotations

import os
import shlex
from collections import Counter
from pathlib import Path, PurePath
from typing import Final

from ..diagnostics import Report
from .facts import Facts
from .links import OTHER_PHYSICS

#: The converter beside this package (in a checkout; the extension zip leaves scripts out).
CONVERTER: Final = Path(__file__).resolve().parents[2] / "scripts" / "convert.py"

#: The decoders' note for a legacy layout → the checker's code and what the layout is.
LEGACY: Final = {
    "legacy-omi-collider": ("legacy-omi-collider", "OMI_collider (archived in 2023)"),
    "legacy-body": ("legacy-omi-body-type", "OMI_physics_body with a body 'type' (2023)"),
    "legacy-joint": ("legacy-omi-joint",
                     "OMI_physics_joint v1 (constraints, nodeA, nodeB; before 2024-11)"),
    "legacy-radius": ("legacy-radius", "capsules or cylinders with one 'radius' (before "
                      "2025; an OMI capsule's height is then its full height)"),
    "khr-single-radius": ("legacy-radius", "capsules or cylinders with one 'radius'"),
    "flat-shape": ("legacy-flat-shape", "shape parameters beside 'type' (2023-06)"),
    "implicit-compound-trigger": ("legacy-implicit-trigger",
                                  "empty triggers over descendant triggers (the 2023 "
                                  "implicit compound trigger)"),
    "legacy-khr-2024": ("legacy-khr-2024", "the KHR physics draft of 2024-03 "
                        "(KHR_collision_shapes, collider.shape)"),
    "vehicle-old-names": ("legacy-vehicle-names", "OMI vehicle properties under their 2025 "
                          "names"),
}


def upgrade_command(name: str, target: str) -> str:
    """The converter command line that rewrites file `name` in the current `target` (paths
    relative to the working directory, as `name` is)."""
    path = PurePath(name)
    out = path.with_name(f"{path.stem}-current{path.suffix or '.gltf'}")
    try:
        script = os.path.relpath(CONVERTER)
    except ValueError:  # another drive
        script = str(CONVERTER)
    return (f"python3 {shlex.quote(script)} {shlex.quote(str(path))} {shlex.quote(str(out))} "
            f"--to {target}")


def check_revisions(facts: Facts, report: Report, name: str) -> None:
    """One `legacy-*` note per legacy layout found (at its first place), and `not-checked`
    for physics extensions outside this checker."""
    firsts: dict[str, tuple[str, str, str]] = {}
    counts: Counter[str] = Counter()
    for issue in facts.decoded.issues:
        if issue.code in LEGACY:
            code, what = LEGACY[issue.code]
            firsts.setdefault(code, (issue.where, what, "khr" if "KHR_" in issue.where
                                     else "omi"))
            counts[code] += 1
    for code, n in facts.decoded.unlisted.items():
        if code in LEGACY:
            counts[LEGACY[code][0]] += n
    shapes = facts.view.users("OMI_physics_shape")
    if shapes:
        firsts["legacy-node-shape"] = (f"/nodes/{shapes[0]}/extensions/OMI_physics_shape",
                                       "OMI_physics_shape on nodes (2023)", "omi")
        counts["legacy-node-shape"] = len(shapes)
    for code, (where, what, target) in firsts.items():
        places = f"{counts[code]} places" if counts[code] > 1 else "1 place"
        report.info(code, where, f"legacy layout: {what}, {places}; "
                    f"`{upgrade_command(name, target)}` writes the current revision")
    for other in OTHER_PHYSICS:
        users = facts.view.users(other)
        if other in facts.view.extensions or users:
            where = (f"/extensions/{other}" if other in facts.view.extensions
                     else f"/nodes/{users[0]}/extensions/{other}")
            report.info("not-checked", where, f"{other} is not checked by this tool")
