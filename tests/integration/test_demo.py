# SPDX-License-Identifier: GPL-3.0-or-later
"""`make demo` as a newcomer sees it: scripts/demo.py run on its own, into a temporary folder."""

import os
import re
import subprocess
import sys

from tests.conftest import ROOT
from tests.integration import scene_helpers as h

#: What each kind of object is shown as (and nothing it does not have).
ROWS = {
    "Box": "dynamic body 2.5 kg, box collider 1×1×1, friction 0.6, bounce 0.7",
    "Pill": "kinematic body, capsule collider h 1.2 r 0.3/0.4",
    "Floor": "static body, box collider 1×1×1, friction 0.9",
    "Car.wheel0": "wheel r 0.25, steers 34°, friction 1.2",
    "Car.wheel3": "wheel r 0.25, drives 2000 N, friction 1.2",
    "DoorHinge": "hinge joint to DoorFrame, axis Z, -86° to 0°",
    "PendulumPivot": "pin joint to Ceiling",
    "DriverSeat": "pilot seat of Car",
    "Gate": "compound trigger of 2 parts",
    "Zone": "box trigger 4×2×1",
    "Shell": "dynamic body 1 kg, convex hull collider of PropProxy",
    "GravityWell": "sphere trigger r 4, point gravity 9.807 m/s² at 1.5 m",
}


def test_demo_output_fits_a_screen_and_says_what_came_back(tmp_path):
    env = {**os.environ, "GLTF_PHYSICS_DEMO_OUT": str(tmp_path)}
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo.py")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stderr == ""
    lines = run.stdout.splitlines()
    assert len(lines) <= 60, run.stdout
    assert not [line for line in lines if re.search(r"error|warning", line, re.IGNORECASE)]
    assert not [line for line in lines if re.search(r"\b(NONE|COLLIDER|NO)\b", line)]
    built = int(re.match(r"(\d+) objects built", lines[0]).group(1))
    rows = {line.split()[0]: line for line in lines if line.rstrip().endswith("ok  ok")}
    assert len(rows) == built >= 28
    for name, what in ROWS.items():
        assert rows[name].split(None, 1)[1].rsplit("ok  ok", 1)[0].strip() == what
    compared = {}
    for fmt in ("KHR", "OMI"):
        path = re.escape(str(tmp_path / f"demo_{fmt.lower()}.glb"))
        verdict = rf"{fmt} \({path}\): (\d+) settings of {built} objects compared, all came back\."
        found = [m for m in map(re.compile(verdict).fullmatch, lines) if m]
        assert len(found) == 1, run.stdout
        compared[fmt] = int(found[0].group(1))
    assert compared["KHR"] > 250  # every setting of what each object is, not a few columns
    assert compared["OMI"] > compared["KHR"]  # Floor's static motion, the gravity: not in KHR
    assert "KHR has no static motion: Floor came back as a collider without motion" in run.stdout
    assert "KHR has no gravity: GravityWell came back from it as a plain trigger" in run.stdout
    held = lines[-1]
    assert held.startswith("Held back from Blender: ")
    assert re.search(r"\b\d+ INFO lines of the glTF add-on\b", held)
    for fmt in ("khr", "omi"):
        h.assert_valid(tmp_path / f"demo_{fmt}.glb")
