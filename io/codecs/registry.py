# SPDX-License-Identifier: GPL-3.0-or-later
"""Which extension revisions are read and written, and the one entry point for reading. Pure."""

from __future__ import annotations

from typing import Final

from ..diagnostics import Report
from ..document import DocumentView
from ..model import PhysicsScene
from . import khr, omi

#: Names the importer declares as handled, so files listing them as required import.
HANDLED_EXTENSIONS: Final = (
    omi.SHAPE_EXT,
    omi.BODY_EXT,
    omi.JOINT_EXT,
    khr.SHAPES_EXT,
    khr.BODIES_EXT,
)


def decode_document(view: DocumentView, report: Report) -> PhysicsScene:
    """Decode every physics family present; KHR wins on a node that has both."""
    scene = omi.decode_omi(view, report)
    khr_scene = khr.decode_khr(view, report)
    for index, physics in khr_scene.nodes.items():
        if index in scene.nodes:
            report.warn("two-families", f"/nodes/{index}", "both OMI and KHR physics: KHR used")
        scene.nodes[index] = physics
    scene.nodes = dict(sorted(scene.nodes.items(), key=lambda item: item[0]))  # type: ignore[arg-type]
    return scene
