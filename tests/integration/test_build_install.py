# SPDX-License-Identifier: GPL-3.0-or-later
"""The extension builds with Blender's CLI, installs from the zip, enables and exports."""

import importlib
import tomllib
import zipfile

import addon_utils
import bpy
import pytest

from scripts.build import build
from tests.conftest import ROOT
from tests.integration import scene_helpers as h
from tests.integration.conftest import MODULE

TOOLING = ("Makefile", "pyproject.toml", "package.json", "package-lock.json")


@pytest.fixture(scope="module")
def zip_path(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dist"))


def test_zip_holds_the_extension_and_no_tooling(zip_path):
    manifest = tomllib.loads((ROOT / "blender_manifest.toml").read_text())
    assert manifest["id"] == "gltf_physics"
    assert zip_path.name == f"gltf_physics-{manifest['version']}.zip"
    names = zipfile.ZipFile(zip_path).namelist()
    assert {"blender_manifest.toml", "__init__.py", "io/blender/export_hooks.py"} <= set(names)
    assert not [n for n in names if n.startswith(("tests/", "scripts/", ".", "node_modules/"))]
    assert not [n for n in names if n in TOOLING or "__pycache__" in n]


def test_built_zip_enables_as_an_extension_and_exports(clean_scene, zip_path, tmp_path):
    """The zip's contents, unpacked into a fresh extension repository of this process,
    enable and export (Blender's installer is tested in a fresh process below)."""
    addon_utils.disable(MODULE, default_set=True)
    repo_dir = tmp_path / "zip_repo"
    zipfile.ZipFile(zip_path).extractall(repo_dir / "gltf_physics")
    repo = bpy.context.preferences.extensions.repos.new(
        name="zip", module="zip_repo", custom_directory=str(repo_dir), source="USER"
    )
    installed = "bl_ext.zip_repo.gltf_physics"
    try:
        importlib.invalidate_caches()
        assert addon_utils.enable(installed, default_set=True) is not None
        box = h.mesh_object("Box")
        h.set_physics(box, motion_type="DYNAMIC", shape_type="BOX")
        gltf = h.export(tmp_path / "installed.glb", "OMI")
        node = gltf["nodes"][0]
        assert node["extensions"]["OMI_physics_body"]["motion"]["type"] == "dynamic"
        h.assert_valid(tmp_path / "installed.glb")
    finally:
        addon_utils.disable(installed, default_set=True)
        bpy.context.preferences.extensions.repos.remove(repo)
        addon_utils.enable(MODULE, default_set=True)
    assert installed not in bpy.context.preferences.addons


def test_make_build_script_runs_on_its_own(tmp_path):
    """`make build` runs scripts/build.py in a fresh interpreter (import order matters)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(tmp_path.glob("gltf_physics-*.zip"))


INSTALL_AND_EXPORT = """
import os, sys, tempfile
os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp()
import bpy, addon_utils, json, struct
result = bpy.ops.extensions.package_install_files(
    filepath=sys.argv[1], repo="user_default", enable_on_install=True)
assert result == {"FINISHED"}, result
assert addon_utils.check("bl_ext.user_default.gltf_physics") == (True, True)
obj = bpy.data.objects.new("Crate", bpy.data.meshes.new("Crate"))
bpy.context.scene.collection.objects.link(obj)
obj.gltf_physics.motion_type = "DYNAMIC"
obj.gltf_physics.shape_type = "SPHERE"
bpy.ops.export_scene.gltf(filepath=sys.argv[2], export_format="GLTF_SEPARATE")
gltf = json.load(open(sys.argv[2]))
assert "motion" in gltf["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"], gltf
print("INSTALLED-AND-EXPORTED")
"""


def test_blender_installs_the_zip_and_it_exports(zip_path, tmp_path):
    """Blender's own installer (Install from Disk) takes the zip; the add-on then exports.
    Runs in a fresh interpreter with its own user folder."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", INSTALL_AND_EXPORT, str(zip_path), str(tmp_path / "a.gltf")],
        capture_output=True, text=True, timeout=300,
    )
    assert "INSTALLED-AND-EXPORTED" in done.stdout, (done.stdout + done.stderr)[-3000:]
