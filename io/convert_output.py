# SPDX-License-Identifier: GPL-3.0-or-later
"""Putting a conversion back into the document: splicing extensions, declarations, and the
reports of what a rewrite drops or keeps. Pure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .codecs.common import Encoded
from .codecs.vehicles import VEHICLE_EXTENSIONS
from .convert_structure import HANDLED, Work
from .diagnostics import Report
from .json_read import as_dict, as_list, is_index


def _splice(mapping: Mapping[str, Any], additions: Mapping[str, Any]) -> dict[str, Any]:
    """`mapping` without the handled extensions, `additions` where the first one was."""
    result: dict[str, Any] = {}
    placed = False
    for key, value in mapping.items():
        if key not in HANDLED:
            result[key] = value
        elif not placed:
            result.update(additions)
            placed = True
    if not placed:
        result.update(additions)
    return result


def _splice_names(names: list[Any], additions: list[str]) -> list[Any]:
    """A name list without the handled names, `additions` where the first one was."""
    result: list[Any] = []
    placed = False
    for name in names:
        if name not in HANDLED:
            result.append(name)
        elif not placed:
            result.extend(a for a in additions if a not in result)
            placed = True
    if not placed:
        result.extend(a for a in additions if a not in result)
    return result


def _set_or_drop(owner: dict[str, Any], key: str, value: Any) -> None:
    if value:
        owner[key] = value
    else:
        owner.pop(key, None)


def attach(work: Work, encoded: Encoded) -> None:
    """Replace the handled extensions of the root and of every node by the encoded ones."""
    out = work.out
    if isinstance(out.get("extensions"), Mapping) or encoded.root:
        _set_or_drop(out, "extensions", _splice(as_dict(out.get("extensions")), encoded.root))
    for index, node in enumerate(work.graph.nodes):
        payload = encoded.nodes.get(index, {})
        if isinstance(node, dict) and (isinstance(node.get("extensions"), Mapping) or payload):
            _set_or_drop(node, "extensions", _splice(as_dict(node.get("extensions")), payload))


def declare(
    out: dict[str, Any], source: Mapping[str, Any], written: list[str], report: Report
) -> None:
    """`extensionsUsed` lists what is written; a required physics name stays required as its
    written equivalents."""
    if isinstance(source.get("extensionsUsed"), list) or written:
        _set_or_drop(out, "extensionsUsed", _splice_names(as_list(source.get("extensionsUsed")),
                                                          written))
    required = source.get("extensionsRequired")
    if not isinstance(required, list):
        return
    physics_written = [name for name in written if name not in VEHICLE_EXTENSIONS]
    additions = [name for name in written if name in VEHICLE_EXTENSIONS and name in required]
    if any(name in HANDLED and name not in VEHICLE_EXTENSIONS for name in required):
        additions = physics_written + additions
        report.warn("physics-required", "/extensionsRequired",
                    "physics was listed as required: the written physics names are required "
                    "too, although readers without them could still show the file")
    _set_or_drop(out, "extensionsRequired", _splice_names(required, additions))


def report_kept_mesh_nodes(gltf: Mapping[str, Any], node_form: bool, report: Report) -> None:
    """Nodes that served KHR `geometry.node` stay in the file when another form is written
    (removing nodes would re-index the document): unused when in no scene."""
    targets = _geometry_node_targets(gltf)
    if not targets or node_form:
        return
    shown = _in_scenes(gltf)
    fates = [(sorted(nodes), fate) for nodes, fate in (
        (targets - shown, "now unused (in no scene)"),
        (targets & shown, "still in a scene")) if nodes]
    said = fates[0][1] if len(fates) == 1 else ", ".join(f"{n} {fate}" for n, fate in fates)
    report.info("geometry-nodes-kept", "/nodes",
                f"nodes {sorted(targets)} held geometry.node meshes; kept, {said}")


def _geometry_node_targets(gltf: Mapping[str, Any]) -> set[int]:
    """The nodes the colliders and triggers of nodes name in `geometry.node`."""
    targets: set[int] = set()
    for base, payload in _handled_payloads(gltf):
        for part in ("collider", "trigger"):
            node = as_dict(as_dict(as_dict(payload).get(part)).get("geometry")).get("node")
            if base.startswith("/nodes/") and is_index(node):
                targets.add(node)
    return targets


def _in_scenes(gltf: Mapping[str, Any]) -> set[int]:
    """The nodes of every scene, with their descendants."""
    nodes = as_list(gltf.get("nodes"))
    found: set[int] = set()
    stack = [n for s in as_list(gltf.get("scenes")) for n in as_list(as_dict(s).get("nodes"))]
    while stack:
        index = stack.pop()
        if is_index(index) and index < len(nodes) and index not in found:
            found.add(index)
            stack.extend(as_list(as_dict(nodes[index]).get("children")))
    return found


def _handled_payloads(gltf: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for name, payload in as_dict(gltf.get("extensions")).items():
        if name in HANDLED:
            yield f"/extensions/{name}", payload
    for index, node in enumerate(as_list(gltf.get("nodes"))):
        for name, payload in as_dict(as_dict(node).get("extensions")).items():
            if name in HANDLED:
                yield f"/nodes/{index}/extensions/{name}", payload
