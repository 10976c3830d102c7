# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the demo scene through the add-on, export KHR and OMI, re-import, compare.

`make demo` runs this with bpy-as-a-module. Writes out/demo.blend, out/demo_khr.glb and
out/demo_omi.glb; exits non-zero if any physics setting fails to come back.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "out"
FIELDS = ("motion_type", "mass", "shape_type", "shape_role", "use_material", "static_friction",
          "restitution", "use_filter", "is_compound_trigger", "joint_type", "joint_axis",
          "is_vehicle", "vehicle_part", "is_seat", "wheel_max_steering_angle",
          "wheel_max_propulsion_force", "joint_connected")


def enable_addon():
    """Enable the checkout as an extension in a throw-away user directory."""
    user = tempfile.mkdtemp(prefix="gltf_physics_demo_")
    os.environ["BLENDER_USER_RESOURCES"] = user
    import bpy  # noqa: I001 - bpy first: it puts addon_utils on the path
    import addon_utils

    repo_dir = Path(user) / "repo"
    repo_dir.mkdir()
    (repo_dir / "gltf_physics").symlink_to(ROOT, target_is_directory=True)
    bpy.context.preferences.extensions.repos.new(
        name="demo", module="demo", custom_directory=str(repo_dir), source="USER"
    )
    if addon_utils.enable("bl_ext.demo.gltf_physics", default_set=True) is None:
        sys.exit("could not enable the add-on")


def snapshot(bpy):
    """Physics settings per object name (objects without physics left out)."""
    rows = {}
    for obj in bpy.data.objects:
        p = obj.gltf_physics
        if (p.motion_type == "NONE" and p.shape_type == "NONE" and not p.is_compound_trigger
                and p.joint_type == "NONE" and p.vehicle_part == "NONE" and not p.is_seat):
            continue
        values = [getattr(p, f) for f in FIELDS[:-1]]
        values.append(p.joint_connected_body.name if p.joint_connected_body else "")
        rows[obj.name] = tuple(round(v, 5) if isinstance(v, float) else v for v in values)
    return rows


def main() -> int:
    enable_addon()
    import bpy

    sys.path.insert(0, str(ROOT))
    from tests.integration.scene_helpers import build_car, build_jointed, build_showcase

    OUT.mkdir(exist_ok=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    objects = build_showcase()
    for obj in build_jointed().values():  # a hinged door and a pendulum, off to the side
        if obj.parent is None:
            obj.location.y += 12
    build_car()  # a car: four wheels from "Add Wheels", a pilot seat, a box collider
    bpy.ops.object.select_all(action="SELECT")
    bpy.context.view_layer.objects.active = objects["Box"]
    bpy.ops.gltf_physics.fit_shape()  # the artist's "Fit Now" on every analytic shape
    bpy.ops.wm.save_as_mainfile(filepath=str(OUT / "demo.blend"))
    authored = snapshot(bpy)
    failures = 0
    for fmt in ("KHR", "OMI"):
        path = OUT / f"demo_{fmt.lower()}.glb"
        bpy.ops.wm.open_mainfile(filepath=str(OUT / "demo.blend"))
        bpy.context.scene.gltf_physics.export_format = fmt
        bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLB")
        bpy.ops.wm.read_homefile(use_empty=True)
        bpy.ops.import_scene.gltf(filepath=str(path))
        back = snapshot(bpy)
        if fmt == "KHR":  # KHR has no static motion: a motionless collider is static,
            # and comes back as a Static body only where a joint needs one
            partners = {row[-1] for row in authored.values()}
            authored_fmt = {k: ("NONE", *v[1:]) if v[0] == "STATIC" and k not in partners
                            else v for k, v in authored.items()}
        else:
            authored_fmt = authored
        print(f"\n{fmt}: {path.relative_to(ROOT)}")
        print(f"{'object':<14} {'motion':<10} {'mass':>6} {'shape':<9} {'role':<9} "
              f"{'joint':<6} {'part':<6} ok")
        for name, row in sorted(authored_fmt.items()):
            got = back.get(name) or back.get(f"{name}.shape")
            same = got == row
            failures += not same
            shown = got or ("-",) * len(FIELDS)
            print(f"{name:<14} {shown[0]:<10} {shown[1]!s:>6} {shown[2]:<9} {shown[3]:<9} "
                  f"{shown[9]:<6} {shown[12]:<6} {'yes' if same else 'NO: ' + str(row)}")
    print(f"\n{'all physics came back' if not failures else f'{failures} objects differ'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
