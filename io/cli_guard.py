# SPDX-License-Identifier: GPL-3.0-or-later
"""The last line of defence of the command-line tools (scripts/convert.py and
scripts/check_physics.py): no traceback, ever, whatever the input. Pure."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

INTERRUPTED = 130


def run(main: Callable[[list[str] | None], int], failure: int,
        argv: list[str] | None = None) -> int:
    """`main(argv)`'s exit status; anything it raises becomes one line on stderr and the
    `failure` status (130 for Ctrl-C; a closed output pipe ends quietly)."""
    for stream in (sys.stdout, sys.stderr):  # names a terminal cannot show: escaped
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return main(argv)
    except KeyboardInterrupt:
        _say("interrupted")
        return INTERRUPTED
    except BrokenPipeError:  # e.g. `| head`: the reader has gone, nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return failure
    except (MemoryError, RecursionError) as exc:
        _say(f"error: the input is too large or too deeply nested to process "
             f"({type(exc).__name__})")
        return failure
    except Exception as exc:  # a bug: said once, in one line, with what to do
        _say(f"error: internal failure ({type(exc).__name__}: {str(exc)[:200]}); "
             "please report the input file")
        return failure


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr)
