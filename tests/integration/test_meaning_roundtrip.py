# SPDX-License-Identifier: GPL-3.0-or-later
"""A file means the same after import → export, in each format (compared by meaning, not JSON).

KHR can say everything both families say: nothing may differ. OMI cannot say a computed
mass, an infinite mass or moment of inertia, or combine modes left to the engine: those
differences are allowed only when the export reported them, once per body or material.
"""

import logging
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import CORPUS
from tests.support.meaning import file_differences

from .scene_helpers import assert_valid, import_file

CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".gltf", ".glb")) \
    if CORPUS.is_dir() else []
NO_CORPUS = "../shared/corpus is not beside the checkout"
#: What OMI cannot say → the report code the exporter gives for it.
OMI_LIMITS = {
    "mass": ("omi-computed-mass", "omi-infinite-mass"),
    "kind": ("omi-infinite-mass",),
    "world inertia": ("omi-locked-rotation",),
    "friction combine": ("omi-engine-combine",),
    "restitution combine": ("omi-engine-combine",),
    "shape": ("plane-as-box",),
}


def export_logged(path: Path, fmt: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    """Export the scene and return the physics report lines of the export log."""
    import bpy

    bpy.context.scene.gltf_physics.export_format = fmt
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE")
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("gltf_physics:")]


def unexpressible(differences: list[str], target: str) -> list[str]:
    """The differences the target family cannot express; fails on any other."""
    tag = f"({target} cannot express this)"
    other = [d for d in differences if not d.endswith(tag)]
    assert other == [], other
    return [d for d in differences if d.endswith(tag)]


def reported_codes(log: list[str]) -> Counter[str]:
    return Counter(line.rsplit("[", 1)[-1].rstrip("]") for line in log if line.endswith("]"))


def check_reported(differences: list[str], log: list[str]) -> None:
    """Every OMI limit met was reported, and each body or material only once."""
    codes = reported_codes(log)
    for difference in differences:
        what = difference.split(": ", 1)[1].split(" ", 2)
        field = " ".join(what[:2]) if " ".join(what[:2]) in OMI_LIMITS else what[0]
        assert any(codes[c] for c in OMI_LIMITS[field]), (difference, log)
    located = [(line.removeprefix("gltf_physics: ").split(": ", 1)[0], line.rsplit("[", 1)[-1])
               for line in log if "[omi-" in line]
    assert len(located) == len(set(located)), log


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS_FILES, reason=NO_CORPUS)
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_means_the_same_after_blender(path: Path, tmp_path: Path, caplog) -> None:
    import_file(path)
    export_logged(tmp_path / "khr.gltf", "KHR", caplog)
    assert_valid(tmp_path / "khr.gltf")
    assert file_differences(path, tmp_path / "khr.gltf", "KHR") == []
    log = export_logged(tmp_path / "omi.gltf", "OMI", caplog)
    assert_valid(tmp_path / "omi.gltf")
    check_reported(unexpressible(file_differences(path, tmp_path / "omi.gltf", "OMI"), "OMI"),
                   log)
