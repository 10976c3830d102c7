# SPDX-License-Identifier: GPL-3.0-or-later
"""Make the checkout importable as the package `gltf_physics` without running its __init__."""

import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"

if "gltf_physics" not in sys.modules:
    package = types.ModuleType("gltf_physics")
    package.__path__ = [str(ROOT)]
    sys.modules["gltf_physics"] = package
