# SPDX-License-Identifier: GPL-3.0-or-later
"""Node and mesh reference resolvers for codec tests."""

from typing import Any


def ident(ref: Any) -> int | None:
    """Identity on int refs; anything else (a deleted object) does not resolve."""
    return ref if isinstance(ref, int) else None
