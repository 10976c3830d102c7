# SPDX-License-Identifier: GPL-3.0-or-later
"""The CoACD child process: run as a script (`python -I coacd_worker.py PARENT_PID`), never
imported.

First it makes sure it dies with its parent (Linux: PR_SET_PDEATHSIG) and exits at once,
removing its own temporary folder (its working directory), when its parent is already gone.
Then it reads one JSON request on stdin: `path` (directories to find numpy and coacd in, the
parent's), `memory` (bytes of address space, 0 for no limit), `seconds` (its time budget, 0
for none), `mesh` (an .npz with `points` and `triangles`), `out` (the .npz to write the parts
to) and `arguments` (`coacd.run_coacd`'s). A watchdog thread removes the folder and ends the
process when the parent goes (where the system re-parents orphans: Linux, macOS) or a few
seconds past the time budget (everywhere: so it cannot outlive Blender for long where there
is no PDEATHSIG); `RLIMIT_CPU` backs it up where it exists. Imports only numpy and coacd.
Exit status 0 with the parts written, 3 when CoACD raised or could not be imported (its
message on stderr), 4 when the memory budget ran out, 5 when orphaned, 6 past its own
deadline, anything else (a signal) when it crashed.
`GLTF_PHYSICS_TEST_COACD` (tests only) makes it misbehave: "abort", "hang" or "raise".
"""

import contextlib
import json
import math
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path

FAILED = 3
OUT_OF_MEMORY = 4
ORPHANED = 5
TIMED_OUT = 6
GRACE_SECONDS = 5.0  # the parent stops a run at its budget; the child itself this much later
WATCH_SECONDS = 0.25
FOLDER = re.compile(r"gltf_physics_coacd_\d+-")  # coacd_child.FOLDER_PREFIX and the pid


def die_with_parent() -> None:
    """Linux: the kernel kills this process (SIGKILL) when its parent dies."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
        except (OSError, AttributeError):
            pass


def limit_memory(budget: int) -> None:
    """Address-space limit on POSIX (none elsewhere); a child past it fails, not Blender."""
    try:
        import resource
    except ImportError:
        return
    try:
        if budget > 0:
            resource.setrlimit(resource.RLIMIT_AS, (budget, budget))
    except (ValueError, OSError):  # macOS may refuse it: the time budget still holds
        pass


def limit_cpu(seconds: float) -> None:
    """`RLIMIT_CPU` (POSIX) of the budget on every core, should the watchdog not run."""
    try:
        import resource
    except ImportError:
        return
    if seconds <= 0:
        return
    soft = math.ceil(seconds * (os.cpu_count() or 1) + GRACE_SECONDS)
    try:
        _old_soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ValueError, OSError):
        pass


def orphaned(parent: int | None) -> bool:
    """Whether the parent is gone (this process was re-parented; POSIX)."""
    return parent is not None and os.name == "posix" and os.getppid() != parent


def leave(status: int) -> None:
    """Remove this run's folder (the working directory, when it is one of ours) and exit."""
    folder = Path.cwd()
    if FOLDER.match(folder.name):
        os.chdir(folder.parent)  # Windows cannot remove a working directory
        shutil.rmtree(folder, ignore_errors=True)
    os._exit(status)


def watch(parent: int | None, seconds: float) -> None:
    """A daemon thread that leaves when the parent is gone or past the deadline."""
    deadline = time.monotonic() + seconds + GRACE_SECONDS if seconds > 0 else math.inf

    def check() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if orphaned(parent):
                leave(ORPHANED)
            if time.monotonic() > deadline:
                print(f"past its time budget of {seconds:g} s", file=sys.stderr, flush=True)
                leave(TIMED_OUT)

    threading.stack_size(1 << 18)  # not 8 MiB of the memory budget
    with contextlib.suppress(RuntimeError):  # no room for a thread: RLIMIT_CPU, PDEATHSIG
        threading.Thread(target=check, name="watchdog", daemon=True).start()
    threading.stack_size(0)


def main() -> int:
    parent = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else None
    die_with_parent()
    if orphaned(parent):  # it died before the prctl above could take effect
        leave(ORPHANED)
    request = json.loads(sys.stdin.read())
    seconds = float(request.get("seconds", 0))
    limit_memory(int(request["memory"]))
    limit_cpu(seconds)
    watch(parent, seconds)  # after the limit: its malloc arena must not take 64 MiB of it
    sys.path.extend(p for p in request["path"] if p not in sys.path)
    try:
        return run(request)
    except MemoryError:  # also std::bad_alloc, which the binding raises as MemoryError
        return OUT_OF_MEMORY


def run(request: dict) -> int:
    """Decompose the request's mesh; the exit status."""
    try:
        import coacd
        import numpy as np
    except (ImportError, OSError) as exc:  # not there, or cannot be mapped within the budget
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return OUT_OF_MEMORY if isinstance(exc, OSError) and (
            "map" in str(exc) or "memory" in str(exc)) else FAILED

    hook = os.environ.get("GLTF_PHYSICS_TEST_COACD", "")
    if hook == "abort":
        os.abort()
    while hook == "hang":
        pass
    with np.load(request["mesh"], allow_pickle=False) as mesh:
        points, triangles = mesh["points"], mesh["triangles"]
    try:
        if hook == "raise":
            raise RuntimeError("test failure")
        coacd.set_log_level("error")
        raw = coacd.run_coacd(coacd.Mesh(points, triangles), **request["arguments"])
    except MemoryError:
        raise
    except Exception as exc:  # the parent shows it to the user
        print(str(exc) or type(exc).__name__, file=sys.stderr)
        return FAILED
    parts = [np.asarray(vertices, dtype=np.float64) for vertices, _faces in raw]
    np.savez(request["out"], *parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
