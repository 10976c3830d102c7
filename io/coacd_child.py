# SPDX-License-Identifier: GPL-3.0-or-later
"""CoACD in a child process (`coacd_worker.py` on Blender's own Python), so a crash, a hang
or runaway memory in its C++ ends the child, not Blender. Pure: no bpy.

The mesh goes to the child in a temporary .npz file, the parts come back the same way. The
child runs isolated (`-I`: no user site, no PYTHON* variables) and finds numpy and coacd on
the parent's `sys.path`, where Blender put the extension's wheels.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

WORKER = Path(__file__).with_name("coacd_worker.py")
POLL_SECONDS = 0.02
FAILED = 3  # the worker's exit status when CoACD raised
OUT_OF_MEMORY = 4  # ... and when the memory budget ran out


class ChildError(Exception):
    """The child failed, crashed or went past its budget; the message is the user's."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What a child may use: wall-clock seconds, and bytes of address space (POSIX)."""

    seconds: float = 3600.0
    memory: int = 0  # 0: the default, `default_memory()`


def default_memory() -> int:
    """Three quarters of the machine's memory, at least 2 GiB (0, no limit, when unknown)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0
    return max(total * 3 // 4, 2 << 30)


def interpreter() -> str:
    """Blender's own Python: `sys.executable` when it is a Python (Blender 2.91 and later,
    and bpy as a module), else the bundled one beside a `blender` binary."""
    executable = Path(sys.executable)
    if "python" in executable.name.lower():
        return str(executable)
    roots = [executable.parent, executable.parent.parent / "Resources"]  # macOS bundle
    for root in roots:
        found = sorted(str(p) for p in root.glob("*/python/bin/python3*")
                       if os.access(p, os.X_OK))
        if found:
            return min(found, key=len)
    raise ChildError(f"Blender's Python was not found beside {executable}")


def run_coacd(points: np.ndarray, triangles: np.ndarray, arguments: dict[str, object],
              poll: Callable[[], None] = lambda: None, budget: Budget = Budget()
              ) -> list[np.ndarray]:
    """CoACD's parts (vertex arrays) of the mesh, computed in a child process.

    `poll()` is called every few milliseconds while the child runs; whatever it raises (a
    cancel) kills the child at once and goes on up. Raises ChildError when the child fails.
    """
    memory = budget.memory or default_memory()
    with tempfile.TemporaryDirectory(prefix="gltf_physics_coacd_") as name:
        folder = Path(name)
        mesh, out, errors = folder / "mesh.npz", folder / "parts.npz", folder / "errors.txt"
        np.savez(mesh, points=points, triangles=triangles)
        request = {"path": [p for p in sys.path if p and Path(p).is_dir()], "memory": memory,
                   "mesh": str(mesh), "out": str(out), "arguments": arguments}
        with errors.open("wb") as stderr:
            process = subprocess.Popen(
                [interpreter(), "-I", str(WORKER)], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=stderr, cwd=folder,
                creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
        _wait(process, json.dumps(request).encode(), poll, budget.seconds)
        with errors.open("rb") as stderr:
            message = stderr.read(65536).decode("utf-8", "replace").strip()
        _raise_for(process.returncode, message, memory)
        with np.load(out, allow_pickle=False) as parts:
            return [parts[f"arr_{i}"] for i in range(len(parts.files))]


def _wait(process: subprocess.Popen, request: bytes, poll: Callable[[], None],
          seconds: float) -> None:
    """Send the request and wait for the child; kill it on a cancel or past `seconds`."""
    try:
        with contextlib.suppress(BrokenPipeError), process.stdin:  # a dead child: its status
            process.stdin.write(request)
        deadline = time.monotonic() + seconds
        while process.poll() is None:
            poll()
            if time.monotonic() > deadline:
                raise ChildError(f"CoACD took longer than its budget of {seconds:g} s and "
                                 "was stopped")
            time.sleep(POLL_SECONDS)
    except BaseException:
        process.kill()
        process.wait()
        raise


def _raise_for(status: int, message: str, memory: int) -> None:
    if status == 0:
        return
    last = message.splitlines()[-1] if message else ""
    if status == OUT_OF_MEMORY or "MemoryError" in message or "bad_alloc" in message:
        raise ChildError(f"CoACD ran out of memory (budget {memory >> 20:,} MiB)")
    if status == FAILED:
        raise ChildError(f"CoACD failed: {last}")
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        raise ChildError(f"CoACD crashed ({name}); Blender and your data are unharmed")
    raise ChildError(f"CoACD stopped with status {status}" + (f": {last}" if last else ""))
