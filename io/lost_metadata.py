# SPDX-License-Identifier: GPL-3.0-or-later
"""What no reader here keeps of a file's physics data: `extras`, nested `extensions` and the
names of anything but a pooled shape, material, filter or joint. Said once by the converter
and by the Blender import alike. Pure."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, Final

from .codecs import khr, khr_legacy, omi
from .codecs.registry import HANDLED_EXTENSIONS
from .diagnostics import Report
from .document import DocumentView

CODE: Final = "physics-metadata-dropped"
METADATA_KEYS: Final = ("name", "extras", "extensions")
#: Root arrays whose entries' `name` the model carries (a shape, material, filter or joint
#: settings entry written again keeps it).
NAMED_POOLS: Final = frozenset({
    (khr.BODIES_EXT, "physicsMaterials"), (khr.BODIES_EXT, "collisionFilters"),
    (khr.BODIES_EXT, "physicsJoints"), (khr.SHAPES_EXT, "shapes"),
    (khr_legacy.SHAPES_EXT, "shapes"), (omi.BODY_EXT, "physicsMaterials"),
    (omi.BODY_EXT, "collisionFilters"), (omi.SHAPE_EXT, "shapes"),
    (omi.JOINT_EXT, "physicsJoints"),
})
_HANDLED: Final = frozenset(HANDLED_EXTENSIONS)
_PLACE: Final = object()  # (stands for a metadata place on the walk's stack)
_METADATA_BYTES: Final = tuple(key.encode() for key in METADATA_KEYS)
_POOL_NAME = re.compile(r"/extensions/([^/]+)/([^/]+)/\d+/name")


def report_lost_metadata(view: DocumentView, report: Report) -> None:
    """One warning for the places in the handled extensions' payloads (root and nodes)
    whose metadata is not kept: at the first of them in the file, with their number. Equal node
    payloads are looked into once (`DocumentView.distinct`)."""
    root: list[str] = []
    #: (node index, the extension's place among the node's, first place) per payload looked
    #: into: the first in the file is named
    nodes: list[tuple[int, int, str]] = []
    count = 0
    for name, payload in view.extensions.items():  # (in the file's order)
        if name in _HANDLED:
            base = f"/extensions/{name}"
            root.extend(base + place for place in _lost(payload, base))
    count += len(root)
    for name in HANDLED_EXTENSIONS:
        keys, users, payloads = view.payload_keys(name), view.users(name), view.payloads(name)
        uses: Counter[bytes | None] | None = None  # (counted once, if ever needed)
        for at, key in view.distinct(name):
            if key is not None and not any(word in key for word in _METADATA_BYTES):
                continue  # (a key holds every object key of its payload as it is spelt)
            lost = _lost(payloads[at], "/nodes")  # (no pooled names in a node's payload)
            if lost:
                node = users[at]
                order = list(view.nodes[node].extensions).index(name)
                nodes.append((node, order, f"/nodes/{node}/extensions/{name}{lost[0]}"))
                uses = uses if uses is not None else Counter(keys)
                count += len(lost) * (uses[key] if key is not None else 1)
    first = root[0] if root else min(nodes)[2] if nodes else None
    if first is not None:
        report.warn(CODE, first,
                    "extras, extensions or names inside physics data that are not a shape's, "
                    f"material's, filter's or joint's are not kept ({count} place(s))")


def _lost(payload: Any, base: str) -> list[str]:
    """The places in `payload` (pointers relative to it) whose metadata is not kept."""
    return [place for place in _metadata_pointers(payload, "")
            if not _kept_name(base + place)]


def _kept_name(pointer: str) -> bool:
    match = _POOL_NAME.fullmatch(pointer)
    return match is not None and (match[1], match[2]) in NAMED_POOLS


def _metadata_pointers(value: Any, pointer: str) -> Iterator[str]:
    """The metadata places in `value`, depth first in document order (without recursion: a
    file may nest deeper than Python recurses). Only objects and arrays are gone into, and a
    place is spelt out only when it is found: a root array of 100,000 numbers costs no
    string (it made each import keep ~90 KB more of the process's memory)."""
    stack = [(pointer, value)] if isinstance(value, dict | list) else []
    while stack:
        where, item = stack.pop()
        if item is _PLACE:
            yield where
            continue
        if isinstance(item, dict):
            entries = [(f"{where}/{key}", _PLACE if key in METADATA_KEYS else inner)
                       for key, inner in item.items()
                       if key in METADATA_KEYS or isinstance(inner, dict | list)]
        else:  # (a list: what the stack holds besides places)
            entries = [(f"{where}/{i}", inner) for i, inner in enumerate(item)
                       if isinstance(inner, dict | list)]
        stack.extend(reversed(entries))
