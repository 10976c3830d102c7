# SPDX-License-Identifier: GPL-3.0-or-later
"""The converter keeps what a file means: to KHR nothing differs; to OMI only what OMI
cannot say differs, and the conversion reported it."""

from pathlib import Path

import pytest

from gltf_physics.io.asset_files import read_asset
from gltf_physics.io.convert import convert_document
from gltf_physics.io.diagnostics import Report
from tests.conftest import CORPUS
from tests.support.meaning import meaning_differences

CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".gltf", ".glb")) \
    if CORPUS.is_dir() else []
OMI_CODES = {"omi-computed-mass", "omi-infinite-mass", "omi-locked-rotation",
             "omi-engine-combine", "plane-as-box"}


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS_FILES, reason="../shared/corpus is not beside the checkout")
@pytest.mark.parametrize("target", ["KHR", "OMI"])
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_conversion_keeps_the_meaning(path: Path, target: str) -> None:
    gltf, binary = read_asset(path)
    report = Report()
    out = convert_document(gltf, target, report=report, binary=binary, base_dir=path.parent)
    differences = meaning_differences(gltf, path.parent, out, path.parent, target,
                                      first_binary=binary, second_binary=binary)
    lost = [d for d in differences if not d.endswith(f"({target} cannot express this)")]
    assert lost == []
    assert bool(differences) == bool(OMI_CODES & set(report.codes())), (differences,
                                                                         report.codes())
