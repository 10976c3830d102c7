# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision layer names: a file names a collision system by its layer's name, so two layers
of one scene never share a name (they would become one system). Pure."""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Sequence

DEFAULT_STEM = "Layer"


def unique_name(wanted: str, taken: Collection[str]) -> str:
    """`wanted`, or Blender-style `wanted.001`, `.002`... when another layer has it."""
    if wanted not in taken:
        return wanted
    number = 1
    while f"{wanted}.{number:03d}" in taken:
        number += 1
    return f"{wanted}.{number:03d}"


def new_layer_name(taken: Collection[str]) -> str:
    """The first of "Layer 1", "Layer 2"... that no layer has."""
    number = 1
    while f"{DEFAULT_STEM} {number}" in taken:
        number += 1
    return f"{DEFAULT_STEM} {number}"


def listed_order(lists: Iterable[Sequence[str]]) -> list[str]:
    """Every name of `lists`, in an order that keeps each list's own order where the lists
    agree (names no list orders go in the order first met); where they disagree (A before
    B, B before A) and no name is free to go next, the first met of those waiting goes next,
    which may break another list's order. An import gives a file's new
    collision layers this order: the export lists a filter's systems in layer order, so a
    file comes back with the lists it had, and a second round trip changes nothing."""
    first, after, waiting = _precedence(lists)
    ready = [(rank, name) for name, rank in first.items() if not waiting[name]]
    heapq.heapify(ready)
    order: list[str] = []
    placed: set[str] = set()
    met = iter(first)  # (in the order first met)
    while len(order) < len(first):
        if ready:
            _rank, name = heapq.heappop(ready)
            if name in placed:
                continue
        else:  # the lists disagree (a cycle): the first met of the rest goes next
            name = next(n for n in met if n not in placed)
        placed.add(name)
        order.append(name)
        for later in after.get(name, ()):
            waiting[later] -= 1
            if waiting[later] == 0 and later not in placed:
                heapq.heappush(ready, (first[later], later))
    return order


def _precedence(lists: Iterable[Sequence[str]]
                ) -> tuple[dict[str, int], dict[str, set[str]], Counter[str]]:
    """Each name's first appearance, the names listed right after it, and how many names
    are listed right before each."""
    first: dict[str, int] = {}
    after: dict[str, set[str]] = {}
    waiting: Counter[str] = Counter()
    for names in lists:
        for name in names:
            first.setdefault(name, len(first))
        for earlier, later in itertools.pairwise(names):
            if earlier != later and later not in after.setdefault(earlier, set()):
                after[earlier].add(later)
                waiting[later] += 1
    return first, after, waiting
