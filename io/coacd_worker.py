# SPDX-License-Identifier: GPL-3.0-or-later
"""The CoACD child process: run as a script (`python -I coacd_worker.py`), never imported.

Reads one JSON request on stdin: `path` (directories to find numpy and coacd in, the
parent's), `memory` (bytes of address space, 0 for no limit), `mesh` (an .npz with
`points` and `triangles`), `out` (the .npz to write the parts to) and `arguments`
(`coacd.run_coacd`'s). Imports only numpy and coacd. Exit status 0 with the parts written,
3 when CoACD raised (its message on stderr), 4 when the memory budget ran out, anything else
(a signal) when it crashed.
`GLTF_PHYSICS_TEST_COACD` (tests only) makes it misbehave: "abort", "hang" or "raise".
"""

import json
import os
import sys

FAILED = 3
OUT_OF_MEMORY = 4


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
    if sys.platform.startswith("linux"):  # end with Blender, should it die first
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
        except (OSError, AttributeError):
            pass


def main() -> int:
    request = json.loads(sys.stdin.read())
    limit_memory(int(request["memory"]))
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
    except OSError as exc:  # a library that cannot be mapped within the budget
        print(exc, file=sys.stderr)
        return OUT_OF_MEMORY if "map" in str(exc) or "memory" in str(exc) else FAILED

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
