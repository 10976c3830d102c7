# SPDX-License-Identifier: GPL-3.0-or-later
"""Long work on a worker thread, polled from the main thread (a modal operator's timer).

The work is a callable taking an `update(stage, fraction)` function; it calls it now and then
to publish its progress, and `update` raises `JobCancelledError` once `cancel()` was asked for, so
the work stops at its next update (work waiting on a child process calls it every few
milliseconds and kills the child). Work cancelled before its thread got to it never starts.
No bpy: Blender data must not be touched off the main thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

Update = Callable[[str, float], None]


class JobCancelledError(Exception):
    """Raised inside the work by `update` after `BackgroundJob.cancel`."""


class BackgroundJob:
    """Runs `work(update)` on a daemon thread; `stage`, `fraction`, `done` and `result()` are
    read from the main thread."""

    def __init__(self, work: Callable[[Update], Any], name: str = "gltf_physics job") -> None:
        self._work = work
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._cancel = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None
        self._started = 0.0
        self.stage = "waiting"
        self.fraction = 0.0

    def start(self) -> BackgroundJob:
        """Start the thread; returns self."""
        self._started = time.perf_counter()
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            if self._cancel.is_set():  # cancelled before it started: never starts
                raise JobCancelledError
            self._value = self._work(self.update)
        except BaseException as exc:  # handed to the main thread by result()
            self._error = exc

    def update(self, stage: str, fraction: float) -> None:
        """Publish progress (called by the work); raises JobCancelledError after `cancel`."""
        if self._cancel.is_set():
            raise JobCancelledError
        self.stage, self.fraction = stage, min(max(fraction, 0.0), 1.0)

    def cancel(self) -> None:
        """Ask the work to stop at its next update; its result will not be used."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        """Whether `cancel` was asked for."""
        return self._cancel.is_set()

    @property
    def done(self) -> bool:
        """Whether the work has returned or raised."""
        return self._started > 0.0 and not self._thread.is_alive()

    @property
    def elapsed(self) -> float:
        """Seconds since `start`."""
        return time.perf_counter() - self._started if self._started else 0.0

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work is done (or `timeout` seconds passed); whether it is done."""
        self._thread.join(timeout)
        return self.done

    def result(self) -> Any:
        """The work's return value; re-raises its exception. Only once `done`."""
        if not self.done:
            raise RuntimeError("the job is still running")
        if self._error is not None:
            raise self._error
        return self._value
