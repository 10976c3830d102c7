# SPDX-License-Identifier: GPL-3.0-or-later
"""bpy-as-a-module fixtures: the checkout enabled as an extension, a fresh scene per test."""

import os
import tempfile
from pathlib import Path

import pytest

_USER = tempfile.mkdtemp(prefix="gltf_physics_user_")
os.environ["BLENDER_USER_RESOURCES"] = _USER  # before bpy is imported: never touch real config

bpy = pytest.importorskip("bpy", reason="bpy (Blender as a module) is not installed: make test")

from tests.conftest import ROOT  # noqa: E402

from . import scene_helpers  # noqa: E402

MODULE = "bl_ext.dev.gltf_physics"


def _enable() -> None:
    import addon_utils

    repo_dir = Path(_USER) / "dev_repo"
    repo_dir.mkdir(exist_ok=True)
    link = repo_dir / "gltf_physics"
    if not link.exists():
        link.symlink_to(ROOT, target_is_directory=True)
    if not any(repo.module == "dev" for repo in bpy.context.preferences.extensions.repos):
        bpy.context.preferences.extensions.repos.new(
            name="dev", module="dev", custom_directory=str(repo_dir), source="USER"
        )
    assert addon_utils.enable(MODULE, default_set=True) is not None, "add-on failed to enable"


_enable()


@pytest.fixture
def clean_scene() -> "bpy.types.Scene":
    """An empty scene (the add-on stays enabled)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    return bpy.context.scene


@pytest.fixture
def helpers():
    """Scene building, export and import helpers."""
    return scene_helpers


_EXIT_STATUS = 0


def pytest_sessionfinish(session, exitstatus) -> None:
    """Remember the run's status for `pytest_unconfigure`."""
    global _EXIT_STATUS
    _EXIT_STATUS = int(exitstatus)


def pytest_unconfigure(config) -> None:
    """bpy 4.2 can crash, and 4.5 hang, while tearing itself down at interpreter exit after
    every test has run; leave without that teardown there (5.0 exits cleanly, left alone)."""
    if bpy.app.version < (5, 0, 0):
        import sys

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS)
