# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the demo scene through the add-on, export KHR and OMI, re-import, compare.

`make demo` runs this with bpy-as-a-module. Writes demo.blend, demo_khr.glb and demo_omi.glb
to out/ ($GLTF_PHYSICS_DEMO_OUT if set) and prints one row per object: what it is, and
whether every setting of what it is came back from each file. Blender's own console output
(the glTF add-on's INFO lines, operator notes, bpy's note on optional libraries) is held back
and summed up in one line; anything else it prints is passed on. Exits non-zero if any
compared setting differs.
"""

import ctypes
import importlib
import math
import os
import re
import sys
import tempfile
from collections import Counter
from contextlib import contextmanager, suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("GLTF_PHYSICS_DEMO_OUT") or ROOT / "out").resolve()
MODULE = "bl_ext.demo.gltf_physics"
#: The settings that make each analytic shape, beside its type, role and placement.
DIMENSIONS = {"BOX": ("box_size",), "SPHERE": ("radius",),
              "CAPSULE": ("height", "radius_top", "radius_bottom"),
              "CYLINDER": ("height", "radius_top", "radius_bottom"),
              "PLANE": ("plane_size", "plane_double_sided"), "CONVEX": ("mesh_source",),
              "TRIMESH": ("mesh_source",)}
ANALYTIC = ("BOX", "SPHERE", "CAPSULE", "CYLINDER", "PLANE")
JOINT_EXTRA = {"HINGE": ("joint_axis", "joint_use_limit"),
               "SLIDER": ("joint_axis", "joint_use_limit", "joint_slider_rotates"),
               "CONE_TWIST": ("joint_axis", "joint_cone_angle", "joint_use_limit")}
JOINT_RANGE = {"HINGE": ("joint_angle_min", "joint_angle_max"),
               "SLIDER": ("joint_distance_min", "joint_distance_max"),
               "CONE_TWIST": ("joint_angle_min", "joint_angle_max")}
#: Blender's console lines held back: (pattern, what they are).
HELD = ((re.compile(r"^\d\d:\d\d:\d\d \| INFO: "), "INFO lines of the glTF add-on"),
        (re.compile(r"^(Info|Operator): "), "operator notes"),
        (re.compile(r"^(?:[\d:.]+\s+blend\s+\| )?Read blend: "), "file-read notes"))  # 4.2: bare
SINGULAR = {"INFO lines of the glTF add-on": "INFO line of the glTF add-on",
            "operator notes": "operator note", "file-read notes": "file-read note",
            "notes on optional libraries": "note on an optional library"}
#: The glTF add-on's note on an optional library: "ERROR Draco is not available because ...",
#: "INFO Draco mesh compression is available, ..." (wording differs between releases).
LIBRARY = re.compile(r"^(?:ERROR|INFO) (\w+)[\w ]*? is (not )?available\b")


@contextmanager
def held_back(held: Counter, libraries: set[str], expected: frozenset[str] = frozenset()):
    """Catch what Blender prints (at file-descriptor level: C code prints there too), count
    the known lines and problems of the `expected` codes only, pass the rest on."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            with suppress(OSError, AttributeError, TypeError):
                ctypes.CDLL(None).fflush(None)  # C stdio buffers
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            sink.seek(0)
            for line in sink.read().decode(errors="replace").splitlines():
                kind = next((what for pattern, what in HELD if pattern.match(line)), None)
                library = LIBRARY.match(line)
                if problem_codes(line) and problem_codes(line) <= expected:
                    held[f"exporter notes on what KHR cannot say ({', '.join(expected)})"] += 1
                elif library and library.group(2):
                    libraries.add(library.group(1))
                elif library:
                    held["notes on optional libraries"] += 1
                elif kind:
                    held[kind] += 1
                elif line.strip():
                    print(line, flush=True)


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


def plain(value):
    """A comparable, printable value: rounded numbers, names for objects, tuples for arrays."""
    if isinstance(value, float):
        return round(value, 4) + 0.0
    if hasattr(value, "bl_rna") and hasattr(value, "name"):
        return value.name
    if hasattr(value, "__len__") and not isinstance(value, str):
        return tuple(plain(v) for v in value)
    return value


def body_settings(p, groups) -> list[str]:
    if p.motion_type == "NONE":
        return []
    if p.motion_type == "STATIC":
        return ["motion_type"]
    names = ["motion_type", "mass_mode", "inertia_mode", "lock_rotation", *groups("motion")]
    names += ["mass"] if p.mass_mode == "VALUE" else []
    names += ["inertia_diagonal", "inertia_orientation"] if p.inertia_mode == "CUSTOM" else []
    return names


def shape_settings(p, groups) -> list[str]:
    names = []
    if p.shape_type != "NONE":
        names += ["shape_type", "shape_role", *DIMENSIONS[p.shape_type]]
    if p.use_material:
        names += ["use_material", *groups("material")]
    if p.use_filter:
        names += ["use_filter", "filter_layers", "filter_mode", "filter_targets"]
    return names + (["is_compound_trigger"] if p.is_compound_trigger else [])


def joint_settings(p, groups) -> list[str]:
    if p.joint_type == "NONE":
        return []
    names = ["joint_type", "joint_connected_body", "joint_enable_collision",
             *JOINT_EXTRA.get(p.joint_type, ())]
    return names + list(JOINT_RANGE.get(p.joint_type, ()) if p.joint_use_limit else ())


def vehicle_settings(p, groups) -> list[str]:
    names = ["is_vehicle", "vehicle_pilot_seat", *groups("vehicle_body")] if p.is_vehicle else []
    if p.vehicle_part != "NONE":
        names += ["vehicle_part", *groups(p.vehicle_part.lower())]
    return names + (["is_seat", *groups("seat")] if p.is_seat else [])


def gravity_settings(p, groups) -> list[str]:
    return [] if p.gravity_type == "NONE" else ["gravity_type", *groups("gravity")]


def settings(obj, groups) -> dict:
    """The physics settings of what the object is (a body, a shape, a joint, ...); an
    analytic shape's custom placement as its centre in the world."""
    p = obj.gltf_physics
    kinds = (body_settings, shape_settings, joint_settings, vehicle_settings, gravity_settings)
    names = [name for kind in kinds for name in kind(p, groups)]
    got = {name: plain(getattr(p, name)) for name in names}
    if p.shape_type in ANALYTIC and p.size_mode == "CUSTOM":
        got["shape_centre"] = plain(obj.matrix_world @ type(obj.location)(p.shape_offset))
    return got


def snapshot(bpy, groups) -> dict[str, dict]:
    """Settings per object name; an object whose shape the importer put on a child node
    ("X.shape") is read from there."""
    rows = {obj.name: settings(obj, groups) for obj in bpy.data.objects}
    for name in [n for n in rows if n.endswith(".shape") and n[:-6] in rows]:
        rows[name[:-6]] = rows[name[:-6]] or rows.pop(name)
    return {name: row for name, row in rows.items() if row}


def shown(path: Path) -> str:
    """A path as the reader types it: relative to the checkout when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def number(value: float) -> str:
    return f"{round(value, 3):g}"


def body_text(p, row: dict) -> list[str]:
    if "motion_type" not in row:
        return []
    mass = {"VALUE": f" {number(p.mass)} kg", "AUTO": ", mass auto",
            "INFINITE": ", infinite mass"}[p.mass_mode] if p.motion_type == "DYNAMIC" else ""
    return [f"{p.motion_type.lower()} body{mass}"]


def shape_text(obj, row: dict) -> list[str]:
    p = obj.gltf_physics
    parts = []
    if "shape_type" in row:
        size = {"BOX": "×".join(map(number, p.box_size)), "SPHERE": f"r {number(p.radius)}",
                "PLANE": "×".join(map(number, p.plane_size))}.get(p.shape_type)
        if p.shape_type in ("CAPSULE", "CYLINDER"):
            radii = sorted({number(p.radius_top), number(p.radius_bottom)}, key=float)
            size = f"h {number(p.height)} r {'/'.join(radii)}"
        elif p.shape_type in ("CONVEX", "TRIMESH"):
            source = p.mesh_object if p.mesh_source == "OBJECT" else None
            size = f"of {source.name}" if source else "of its mesh"
        name = {"CONVEX": "convex hull", "TRIMESH": "triangle mesh"}.get(p.shape_type)
        parts.append(f"{name or p.shape_type.lower()} {p.shape_role.lower()} {size}")
    if "is_compound_trigger" in row:
        count = sum(1 for c in obj.children if c.gltf_physics.shape_role == "TRIGGER"
                    and c.gltf_physics.shape_type != "NONE")
        parts.append(f"compound trigger of {count} parts")
    if "use_material" in row:
        parts.append(f"friction {number(p.static_friction)}")
        parts += [f"bounce {number(p.restitution)}"] if p.restitution else []
    return parts


def joint_text(p, row: dict) -> list[str]:
    if "joint_type" not in row:
        return []
    connected = p.joint_connected_body.name if p.joint_connected_body else "the world"
    joint = f"{p.joint_type.lower().replace('_', '-')} joint to {connected}"
    if "joint_axis" in row:
        joint += f", axis {p.joint_axis}"
    if "joint_angle_min" in row:
        low, high = (math.degrees(v) for v in (p.joint_angle_min, p.joint_angle_max))
        joint += f", {low:.0f}° to {high:.0f}°"
    elif "joint_distance_min" in row:
        joint += f", {number(p.joint_distance_min)} to {number(p.joint_distance_max)} m"
    return [joint]


def vehicle_text(p, row: dict, seat_of: str | None) -> list[str]:
    parts = ["vehicle"] if "is_vehicle" in row else []  # its seat's row says whose seat it is
    if row.get("vehicle_part") == "WHEEL":
        wheel = f"wheel r {number(p.wheel_radius)}"
        if p.wheel_max_steering_angle:
            wheel += f", steers {math.degrees(p.wheel_max_steering_angle):.0f}°"
        if p.wheel_max_propulsion_force:
            wheel += f", drives {number(p.wheel_max_propulsion_force)} N"
        parts.append(wheel)
    elif "vehicle_part" in row:
        parts.append(p.vehicle_part.lower().replace("_", " "))
    if "is_seat" in row:
        parts.append(f"pilot seat of {seat_of}" if seat_of else "seat")
    return parts


def gravity_text(p, row: dict) -> list[str]:
    if "gravity_type" not in row:
        return []
    pull = f"{p.gravity_type.lower()} gravity {number(p.gravity_amount)} m/s²"
    if p.gravity_type in ("POINT", "DISC", "TORUS", "LINE", "SHAPED") and p.gravity_unit_distance:
        pull += f" at {number(p.gravity_unit_distance)} m"
    return [pull]


def describe(obj, row: dict, seats: dict[str, str]) -> str:
    """What the object is, from the settings it has (never one it does not have)."""
    p = obj.gltf_physics
    wheel_or_seat = vehicle_text(p, row, seats.get(obj.name))
    material = [t for t in shape_text(obj, row) if t.startswith(("friction", "bounce"))]
    shape = [t for t in shape_text(obj, row) if t not in material]
    return ", ".join(body_text(p, row) + shape + gravity_text(p, row) + joint_text(p, row)
                     + wheel_or_seat + material)


def expected_in(fmt: str, authored: dict[str, dict], gravity: set[str]) -> dict[str, dict]:
    """What each format can bring back. KHR has no static motion (a motionless collider is
    static), so a Static body comes back without motion unless a joint needs it as a body;
    KHR has no gravity volumes (`gravity`: their settings), so the trigger comes back alone."""
    if fmt != "KHR":
        return authored
    partners = {row.get("joint_connected_body") for row in authored.values()}
    return {name: {k: v for k, v in row.items() if k not in gravity
                   and not (k == "motion_type" and v == "STATIC" and name not in partners)}
            for name, row in authored.items()}


def problem_codes(line: str) -> set[str]:
    """The codes of an export problem line ("... [code]", "N physics problems (a, b); ...")."""
    found = re.search(r"\[([\w-]+)\]$", line) or re.search(r"physics problems? \(([^)]*)\)", line)
    return set(found.group(1).split(", ")) if found else set()


def build_scene(bpy) -> None:
    """The demo scene, made as an artist would: the add-on's properties and operators."""
    from tests.integration.scene_helpers import build_car, build_jointed, build_showcase

    bpy.ops.wm.read_homefile(use_empty=True)
    objects = build_showcase()
    for obj in build_jointed().values():  # a hinged door and a pendulum, off to the side
        if obj.parent is None:
            obj.location.y += 12
    build_car()  # a car: four wheels from "Add Wheels", a pilot seat, a box collider
    well = bpy.data.objects.new("GravityWell", None)  # a small planet's pull (OMI only)
    bpy.context.scene.collection.objects.link(well)
    well.location, well.empty_display_type = (0.0, -14.0, 6.0), "SPHERE"
    p = well.gltf_physics
    p.shape_type, p.shape_role, p.size_mode, p.radius = "SPHERE", "TRIGGER", "CUSTOM", 4.0
    p.gravity_type, p.gravity_amount, p.gravity_unit_distance = "POINT", 9.80665, 1.5
    for obj in bpy.data.objects:  # "Fit Now" on the shapes that fit to their mesh
        obj.select_set(obj.gltf_physics.size_mode == "FIT"
                       and obj.gltf_physics.shape_type in ANALYTIC)
    bpy.context.view_layer.objects.active = objects["Box"]
    bpy.ops.gltf_physics.fit_shape()
    bpy.ops.wm.save_as_mainfile(filepath=str(OUT / "demo.blend"))


def compare(fmt: str, expected: dict[str, dict], back: dict[str, dict]) -> list[str]:
    """Each setting that did not come back as expected, said with both values."""
    differences = []
    for name, row in expected.items():
        got = back.get(name, {})
        wrong = [(key, value, got.get(key, "nothing")) for key, value in row.items()
                 if got.get(key, "nothing") != value]
        wrong += [(key, "nothing", got[key]) for key in got.keys() - row.keys()]
        differences += [f"{fmt} {name}: {key} {a} came back as {b}" for key, a, b in wrong]
    return differences + [f"{fmt} {name}: has physics it did not have"
                          for name in sorted(back.keys() - expected.keys())]


def print_notes(authored: dict[str, dict], khr: dict[str, dict]) -> None:
    """What KHR cannot say, where the demo's scene has it."""
    statics = sorted(n for n, row in authored.items() if row.get("motion_type") == "STATIC"
                     and "motion_type" not in khr[n])
    if statics:
        print(f"KHR has no static motion: {', '.join(statics)} came back as a collider without "
              "motion (static), as expected.")
    wells = sorted(n for n, row in authored.items() if "gravity_type" in row)
    if wells:
        print(f"KHR has no gravity: {', '.join(wells)} came back from it as a plain trigger "
              "(the exporter says so), as expected; OMI keeps the pull.")


def main() -> int:
    held: Counter = Counter()
    libraries: set[str] = set()
    with held_back(held, libraries):
        enable_addon()
    import bpy

    sys.path.insert(0, str(ROOT))
    table = importlib.import_module(f"{MODULE}.io.field_table")

    def props_of(group: str) -> tuple[str, ...]:
        """The stored properties of one part of the field table (MOTION, WHEEL, GRAVITY...)."""
        return tuple(dict.fromkeys(row.prop for row in getattr(table, group.upper())))

    gravity = {"gravity_type", *props_of("gravity")}
    OUT.mkdir(exist_ok=True)
    with held_back(held, libraries):
        build_scene(bpy)
    authored = snapshot(bpy, props_of)
    seats = {o.gltf_physics.vehicle_pilot_seat.name: o.name for o in bpy.data.objects
             if o.gltf_physics.is_vehicle and o.gltf_physics.vehicle_pilot_seat}
    what = {name: describe(bpy.data.objects[name], row, seats) for name, row in authored.items()}
    expected = {fmt: expected_in(fmt, authored, gravity) for fmt in ("KHR", "OMI")}
    differences: dict[str, list[str]] = {}
    for fmt in ("KHR", "OMI"):
        path = OUT / f"demo_{fmt.lower()}.glb"
        has_gravity = any("gravity_type" in row for row in authored.values())
        codes = frozenset({"khr-no-gravity"} if fmt == "KHR" and has_gravity else ())
        with held_back(held, libraries, codes):
            bpy.ops.wm.open_mainfile(filepath=str(OUT / "demo.blend"))
            bpy.context.scene.gltf_physics.export_format = fmt
            bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLB")
            bpy.ops.wm.read_homefile(use_empty=True)
            bpy.ops.import_scene.gltf(filepath=str(path))
        differences[fmt] = compare(fmt, expected[fmt], snapshot(bpy, props_of))

    print(f"{len(authored)} objects built with the add-on's properties and operators, saved "
          f"as {shown(OUT / 'demo.blend')},\nexported to KHR and to OMI, each "
          "file imported into an empty scene and compared with what was built.")
    print(f"\n{'object':<14} {'what it is':<66} KHR OMI")
    for name in sorted(authored):
        marks = ["NO " if any(d.startswith(f"{fmt} {name}: ") for d in differences[fmt])
                 else "ok " for fmt in ("KHR", "OMI")]
        print(f"{name:<14} {what[name]:<66} {marks[0]} {marks[1]}".rstrip())
    print()
    print_notes(authored, expected["KHR"])
    every = differences["KHR"] + differences["OMI"]
    for line in every[:20]:
        print(line)
    if len(every) > 20:
        print(f"... and {len(every) - 20} more differences")
    for fmt in ("KHR", "OMI"):
        compared = sum(len(row) for row in expected[fmt].values())
        bad = len(differences[fmt])
        print(f"{fmt} ({shown(OUT / f'demo_{fmt.lower()}.glb')}): {compared} settings of "
              f"{len(authored)} objects compared, {f'{bad} differ' if bad else 'all came back'}.")
    hidden = ", ".join(f"{count} {kind}" if count > 1 else f"1 {SINGULAR.get(kind, kind)}"
                       for kind, count in held.items())
    missing = f"; no {' or '.join(sorted(libraries))} library in bpy (mesh compression, " \
              "not used)" if libraries else ""
    print(f"Held back from Blender: {hidden or 'nothing'}{missing}.")
    return 1 if every else 0


if __name__ == "__main__":
    from export_physics import leave  # bpy 4.2/4.5 crash at interpreter teardown: skip it

    leave(main())
