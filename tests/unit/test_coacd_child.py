# SPDX-License-Identifier: GPL-3.0-or-later
"""CoACD in a child process (io/coacd_child.py, io/coacd_worker.py): a crash, a hang, memory
past the budget and a cancel end the child, never this process; Blender's Python is found."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gltf_physics.io import coacd_child, decomposition
from scripts import bench_decompose as meshes

pytest.importorskip("coacd", reason="coacd is not installed: make setup")
ARGUMENTS = decomposition.Settings().coacd_arguments()


def mesh(kind: str = "torus") -> tuple[np.ndarray, np.ndarray]:
    points, quads, tris = {"torus": lambda: meshes.torus(**meshes.TORUS),
                           "small": lambda: meshes.torus(1.0, 0.3, 16, 8),
                           "bowl": lambda: meshes.bowl(**meshes.BOWL)}[kind]()
    return points, np.vstack([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]], tris]).astype(np.int32)


@pytest.fixture
def children(monkeypatch):
    """The child processes started, recorded."""
    started: list[subprocess.Popen] = []
    real = subprocess.Popen

    def recording(*args, **kwargs):
        started.append(real(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(coacd_child.subprocess, "Popen", recording)
    return started


def test_the_parts_come_back_from_an_isolated_child(children):
    parts = coacd_child.run_coacd(*mesh("small"), ARGUMENTS)
    assert len(parts) >= 4 and all(p.ndim == 2 and p.shape[1] == 3 for p in parts)
    command = children[0].args
    assert command[0] == sys.executable and command[1] == "-I"
    assert command[2].endswith("coacd_worker.py") and children[0].returncode == 0


def test_a_crash_in_the_child_is_a_message(monkeypatch, children):
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "abort")
    with pytest.raises(coacd_child.ChildError, match=r"CoACD crashed \(SIGABRT\)"):
        coacd_child.run_coacd(*mesh(), ARGUMENTS)
    assert children[0].returncode < 0  # it died; this process did not


def test_a_hang_past_the_time_budget_kills_the_child(monkeypatch, children):
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "hang")
    started = time.monotonic()
    with pytest.raises(coacd_child.ChildError, match="longer than its budget of 1 s"):
        coacd_child.run_coacd(*mesh(), ARGUMENTS, budget=coacd_child.Budget(seconds=1.0))
    assert time.monotonic() - started < 5 and children[0].returncode == -9


@pytest.mark.skipif(os.name != "posix", reason="the memory budget is an RLIMIT_AS (POSIX)")
@pytest.mark.parametrize("megabytes", [140, 200])
def test_memory_past_the_budget_ends_the_child(megabytes):
    """Importing numpy and coacd takes ~160 MiB of address space, CoACD on the bowl more."""
    with pytest.raises(coacd_child.ChildError,
                       match=rf"ran out of memory \(budget {megabytes} MiB\)"):
        coacd_child.run_coacd(*mesh("bowl"), ARGUMENTS,
                              budget=coacd_child.Budget(memory=megabytes << 20))


@pytest.mark.parametrize("status, message", [
    (coacd_child.OUT_OF_MEMORY, ""),
    (coacd_child.FAILED, "MemoryError"),
    (1, "OpenBLAS error: Memory allocation still failed after 10 retries, giving up."),
])
def test_a_child_out_of_memory_is_said_so_however_it_ended(status, message):
    with pytest.raises(coacd_child.ChildError, match=r"ran out of memory \(budget 140 MiB\)"):
        coacd_child._raise_for(status, message, 140 << 20)


def test_a_cancel_kills_the_child_at_once(children):
    class CancelledError(Exception):
        pass

    started = time.monotonic()

    def poll():
        if time.monotonic() - started > 0.5:
            raise CancelledError

    with pytest.raises(CancelledError):
        coacd_child.run_coacd(*mesh(), ARGUMENTS, poll)
    assert time.monotonic() - started < 1.5  # the torus alone takes ~5 s
    assert children[0].returncode == -9


def test_blenders_python_is_found_beside_an_older_blender_binary(tmp_path, monkeypatch):
    binary = tmp_path / "blender"
    python = tmp_path / "4.2" / "python" / "bin" / "python3.11"
    python.parent.mkdir(parents=True)
    for path in (binary, python):
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    monkeypatch.setattr(coacd_child.sys, "executable", str(binary))
    assert coacd_child.interpreter() == str(python)
    python.unlink()
    with pytest.raises(coacd_child.ChildError, match="Python was not found beside"):
        coacd_child.interpreter()



# -- a Blender that dies mid-run leaves nothing behind ----------------------------------------

WORKER_STATUS = {"orphaned": 5, "timed out": 6}


def _reaped() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def run_folder(root, pid: int):
    folder = root / f"{coacd_child.FOLDER_PREFIX}{pid}-x1"
    folder.mkdir()
    np.savez(folder / "mesh.npz", points=mesh("small")[0])
    return folder


@pytest.mark.skipif(os.name != "posix", reason="orphans are re-parented on POSIX")
def test_a_worker_whose_parent_is_already_gone_removes_its_folder_before_reading(tmp_path):
    gone = _reaped()
    folder = run_folder(tmp_path, gone)
    started = time.monotonic()
    worker = subprocess.Popen([sys.executable, "-I", str(coacd_child.WORKER), str(gone)],
                              stdin=subprocess.PIPE, cwd=folder)  # stdin never written
    try:
        assert worker.wait(timeout=20) == WORKER_STATUS["orphaned"]
    finally:
        worker.kill()
        worker.stdin.close()
    assert not folder.exists() and time.monotonic() - started < 20


def test_a_worker_stops_itself_past_its_own_deadline(tmp_path, monkeypatch):
    """Where no PDEATHSIG ends it with Blender (macOS, Windows), its watchdog does."""
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "hang")
    folder = run_folder(tmp_path, os.getpid())
    request = {"path": sys.path, "memory": 0, "seconds": 0.5, "mesh": "mesh.npz",
               "out": "parts.npz", "arguments": ARGUMENTS}
    started = time.monotonic()
    worker = subprocess.Popen([sys.executable, "-I", str(coacd_child.WORKER), str(os.getpid())],
                              stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder)
    try:
        _out, stderr = worker.communicate(json.dumps(request).encode(), timeout=30)
    finally:
        worker.kill()
    took = time.monotonic() - started
    assert worker.returncode == WORKER_STATUS["timed out"], stderr
    assert b"past its time budget of 0.5 s" in stderr and not folder.exists()
    assert took < 0.5 + 5.0 + 5  # the budget, the grace, and starting Python


PARENT = """
import importlib.util, sys, numpy as np
spec = importlib.util.spec_from_file_location("coacd_child", sys.argv[1])
child = sys.modules["coacd_child"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(child)
points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
triangles = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]], np.int32)
child.run_coacd(points, triangles, {})
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL of the parent")
def test_a_killed_blender_leaves_no_child_and_no_mesh_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "hang")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    blender = subprocess.Popen([sys.executable, "-c", PARENT, coacd_child.__file__])
    children: list[str] = []
    try:
        deadline = time.monotonic() + 30
        while not list(tmp_path.glob(f"{coacd_child.FOLDER_PREFIX}{blender.pid}-*/mesh.npz")):
            assert time.monotonic() < deadline and blender.poll() is None
            time.sleep(0.05)
        time.sleep(1.0)  # the child is running now
        children = subprocess.run(["pgrep", "-P", str(blender.pid)], capture_output=True,
                                  text=True, check=False).stdout.split()
        assert len(children) == 1
        blender.kill()
        blender.wait()
        gone = time.monotonic() + 10
        while _running(int(children[0])):
            assert time.monotonic() < gone, "the child outlived its Blender"
            time.sleep(0.05)
    finally:
        blender.kill()
        for pid in children:
            if _running(int(pid)):
                os.kill(int(pid), signal.SIGKILL)
    left = list(tmp_path.glob(f"{coacd_child.FOLDER_PREFIX}{blender.pid}-*"))
    # Linux: SIGKILLed with Blender, its folder left; macOS: it removed the folder itself
    assert len(left) == (1 if sys.platform.startswith("linux") else 0)
    live = run_folder(tmp_path, os.getppid())  # pytest's parent: alive
    own = run_folder(tmp_path, os.getpid())
    (tmp_path / f"{coacd_child.FOLDER_PREFIX}{_reaped()}-link").symlink_to(live)
    other = tmp_path / "gltf_physics_coacd_abcdefgh"  # not ours to judge: no process id
    other.mkdir()
    assert coacd_child.sweep_stale(tmp_path) == left
    assert not any(path.exists() for path in left)
    assert live.exists() and own.exists() and other.exists()


AS_ON_MACOS = """
import runpy, sys
sys.platform = "darwin"  # no PR_SET_PDEATHSIG: only the watchdog can see Blender go
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
BLENDER = """
import os, subprocess, sys, time
worker = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2], str(os.getpid())],
                          stdin=subprocess.PIPE, cwd=sys.argv[3])
worker.stdin.write(sys.argv[4].encode())
worker.stdin.close()
print(worker.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(os.name != "posix", reason="orphans are re-parented on POSIX")
def test_without_pdeathsig_the_watchdog_ends_an_orphaned_worker(tmp_path, monkeypatch):
    """As on macOS: Blender is killed mid-run; the worker sees it was re-parented, removes
    its folder (the user's mesh) and exits, long before its time budget."""
    monkeypatch.setenv("GLTF_PHYSICS_TEST_COACD", "hang")
    folder = run_folder(tmp_path, 1)  # the name's pid plays no part here
    request = {"path": sys.path, "memory": 0, "seconds": 600, "mesh": "mesh.npz",
               "out": "parts.npz", "arguments": ARGUMENTS}
    blender = subprocess.Popen([sys.executable, "-c", BLENDER, AS_ON_MACOS,
                                str(coacd_child.WORKER), str(folder), json.dumps(request)],
                               stdout=subprocess.PIPE, text=True)
    worker = int(blender.stdout.readline())
    try:
        time.sleep(2.0)  # numpy and coacd imported: the worker hangs in its run
        assert _running(worker) and folder.exists()
        blender.kill()
        blender.wait()
        gone = time.monotonic() + 10
        while folder.exists() or _running(worker):
            assert time.monotonic() < gone, "the orphaned worker went on"
            time.sleep(0.05)
    finally:
        blender.kill()
        if _running(worker):
            os.kill(worker, signal.SIGKILL)


def _running(pid: int) -> bool:
    """Alive and not a zombie awaiting its (new) parent's wait."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return not stat.parent.parent.is_dir()  # no /proc (macOS): kill(0) is the answer


def test_availability_is_checked_without_importing_coacd(tmp_path, monkeypatch):
    """A CoACD library that crashes while loading would take Blender with it: only the child
    imports it."""
    marker = tmp_path / "imported"
    (tmp_path / "coacd").mkdir()
    (tmp_path / "coacd" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nraise ImportError('would have crashed')\n")
    monkeypatch.delitem(sys.modules, "coacd", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    decomposition.missing_reason.cache_clear()
    try:
        assert decomposition.missing_reason() == ""
    finally:
        decomposition.missing_reason.cache_clear()
    assert not marker.exists() and "coacd" not in sys.modules
