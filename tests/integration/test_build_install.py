# SPDX-License-Identifier: GPL-3.0-or-later
"""The extension builds with Blender's CLI (one zip per platform, each with its platform's
CoACD wheel), installs from the zip, enables, exports and decomposes with the zip's CoACD."""

import importlib
import shutil
import subprocess
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
MANIFEST = tomllib.loads((ROOT / "blender_manifest.toml").read_text())
#: The CoACD wheel each platform's zip carries (none: the operator is greyed out there).
WHEEL_OF = {"linux-x64": "manylinux_2_17_x86_64", "linux-arm64": "manylinux_2_17_aarch64",
            "windows-x64": "win_amd64", "macos-arm64": "macosx_11_0_arm64",
            "windows-arm64": None, "macos-x64": None}


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def zip_path(zips):
    """The zip for this machine's platform."""
    from gltf_physics.io.decomposition import platform_name

    return next(z for z in zips if z.name.endswith(f"-{platform_name().replace('-', '_')}.zip"))


def test_one_zip_per_platform_with_the_extension_and_no_tooling(zips):
    assert MANIFEST["id"] == "gltf_physics"
    assert set(MANIFEST["platforms"]) == set(WHEEL_OF)
    assert [z.name for z in zips] == [
        f"gltf_physics-{MANIFEST['version']}-{p.replace('-', '_')}.zip"
        for p in MANIFEST["platforms"]]
    for platform, zip_file in zip(MANIFEST["platforms"], zips, strict=True):
        names = zipfile.ZipFile(zip_file).namelist()
        assert {"blender_manifest.toml", "__init__.py", "io/blender/exporter/export_hooks.py",
                "io/decomposition.py"} <= set(names)
        assert not [n for n in names if n.startswith(("tests/", "scripts/", ".",
                                                      "node_modules/"))]
        assert not [n for n in names if n in TOOLING or "__pycache__" in n]
        wheels = [n for n in names if n.endswith(".whl")]
        expected = WHEEL_OF[platform]
        assert len(wheels) == (expected is not None), (platform, wheels)
        assert all(n.startswith("wheels/coacd-1.0.14-") and expected in n for n in wheels)
        built = tomllib.loads(zipfile.ZipFile(zip_file).read("blender_manifest.toml").decode())
        # Blender's build validated it: the decomposition worker's temporary folder is said
        assert set(built["permissions"]) == {"files"}
        generated = built["build"]["generated"]
        assert generated["platforms"] == [platform]
        assert [w.removeprefix("./") for w in generated["wheels"]] == wheels


def test_fetched_wheels_stay_out_of_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "wheels"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    ignored = subprocess.run(["git", "check-ignore", "-q", "wheels/any.whl"], cwd=ROOT,
                             check=False).returncode
    assert listed == "" and ignored == 0


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
    assert len(list(tmp_path.glob("gltf_physics-*.zip"))) == len(MANIFEST["platforms"])


INSTALL_AND_EXPORT = """
import os, sys, tempfile
user = os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp()
import bpy, addon_utils, json, struct
import numpy  # the test venv also has coacd: keep only the installed wheel's copy reachable
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
sys.path[:] = [p for p in sys.path if "site-packages" not in p or p.startswith(user)]
sys.modules.pop("coacd", None)
import bmesh
mesh = bpy.data.meshes.new("Cube")
bm = bmesh.new()
bmesh.ops.create_cube(bm, size=1.0)
bm.to_mesh(mesh)
cube = bpy.data.objects.new("Cube", mesh)
bpy.context.scene.collection.objects.link(cube)
bpy.context.view_layer.objects.active = cube
cube.select_set(True)
assert bpy.ops.gltf_physics.convex_decompose() == {"FINISHED"}
import importlib.util  # CoACD runs in a child given this sys.path: where it resolves here
coacd_file = importlib.util.find_spec("coacd").origin
assert coacd_file.startswith(os.path.join(user, "extensions", ".local")), coacd_file
assert [c.gltf_physics.shape_type for c in cube.children] == ["CONVEX"]
print("INSTALLED-AND-EXPORTED")
if bpy.app.version < (5, 0, 0):
    sys.stdout.flush(); os._exit(0)
"""


def test_blender_installs_the_zip_and_it_exports(zip_path, tmp_path):
    """Blender's own installer (Install from Disk) takes this platform's zip; the add-on then
    exports, and decomposes with the CoACD wheel the zip installed (into the user folder's
    extensions/.local/lib/pythonX.Y/site-packages). Runs in a fresh interpreter with its own
    user folder."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", INSTALL_AND_EXPORT, str(zip_path), str(tmp_path / "a.gltf")],
        capture_output=True, text=True, timeout=300,
    )
    assert "INSTALLED-AND-EXPORTED" in done.stdout, (done.stdout + done.stderr)[-3000:]


def test_build_help_prints_usage_and_makes_nothing(tmp_path):
    """`build.py --help` took "--help" for the output folder, made it, then failed."""
    import sys

    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--help"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 0 and "usage:" in result.stdout
    assert list(tmp_path.iterdir()) == []
