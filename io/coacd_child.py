# SPDX-License-Identifier: GPL-3.0-or-later
"""CoACD in a child process (`coacd_worker.py` on Blender's own Python), so a crash, a hang
or runaway memory in its C++ ends the child, not Blender. Pure: no bpy.

The mesh goes to the child in a temporary .npz file, the parts come back the same way. The
child runs isolated (`-I`: no user site, no PYTHON* variables) and finds numpy and coacd on
the parent's `sys.path`, where Blender put the extension's wheels. The temporary folder is
named with Blender's process id: a child whose Blender is gone removes it itself where it
can, and each run first removes the folders of Blender processes that no longer exist
(`sweep_stale`), so the user's mesh is not left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
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
OUT_OF_MEMORY = 4  # ... when the memory budget ran out
TIMED_OUT = 6  # ... and when it stopped itself past its own deadline
FOLDER_PREFIX = "gltf_physics_coacd_"  # + Blender's process id + "-" + random
_FOLDER = re.compile(re.escape(FOLDER_PREFIX) + r"(\d+)-")
STALE_SECONDS = 2 * 86400  # where a process id cannot be checked (Windows): this old


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
    sweep_stale()
    with tempfile.TemporaryDirectory(prefix=f"{FOLDER_PREFIX}{os.getpid()}-",
                                     ignore_cleanup_errors=True) as name:
        folder = Path(name)
        mesh, out, errors = folder / "mesh.npz", folder / "parts.npz", folder / "errors.txt"
        np.savez(mesh, points=points, triangles=triangles)
        request = {"path": [p for p in sys.path if p and Path(p).is_dir()], "memory": memory,
                   "seconds": budget.seconds, "mesh": str(mesh), "out": str(out),
                   "arguments": arguments}
        with errors.open("wb") as stderr:
            process = subprocess.Popen(
                [interpreter(), "-I", str(WORKER), str(os.getpid())], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=stderr, cwd=folder,
                creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
        _wait(process, json.dumps(request).encode(), poll, budget.seconds)
        message = ""
        with contextlib.suppress(OSError), errors.open("rb") as stderr:  # gone: it timed out
            message = stderr.read(65536).decode("utf-8", "replace").strip()
        if process.returncode == TIMED_OUT:
            raise ChildError(f"CoACD took longer than its budget of {budget.seconds:g} s "
                             "and stopped")
        _raise_for(process.returncode, message, memory)
        with np.load(out, allow_pickle=False) as parts:
            return [parts[f"arr_{i}"] for i in range(len(parts.files))]


def sweep_stale(root: Path | str | None = None) -> list[Path]:
    """Remove the temporary folders (the user's mesh) of CoACD runs whose Blender process is
    gone (killed mid-run); the removed folders. Only this user's folders, never a symlink;
    where a process id cannot be checked, folders older than `STALE_SECONDS`."""
    removed = []
    for path in Path(root or tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*"):
        found = _FOLDER.match(path.name)
        try:
            info = path.lstat()
        except OSError:
            continue
        mine = os.getuid() == info.st_uid if hasattr(os, "getuid") else True
        if not found or not stat.S_ISDIR(info.st_mode) or not mine:  # lstat: no symlink
            continue
        pid = int(found.group(1))
        if pid != os.getpid() and not _alive(pid, info.st_mtime):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _alive(pid: int, since: float) -> bool:
    if os.name != "posix":  # os.kill(pid, 0) would end the process on Windows
        return time.time() - since < STALE_SECONDS
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (PermissionError): alive
        return True
    return True


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
    # (a library may end the child itself on a failed allocation: OpenBLAS exits with 1 and
    # "OpenBLAS error: Memory allocation still failed after 10 retries, giving up.")
    if status == OUT_OF_MEMORY or "MemoryError" in message or "bad_alloc" in message \
            or "memory allocation" in message.lower():
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
