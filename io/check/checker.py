# SPDX-License-Identifier: GPL-3.0-or-later
"""Check the physics of a glTF document or file: the entry points of the physics checker
(scripts/check_physics.py). Pure: no bpy, and nothing read but the file and its buffers
inside its folder (`external_reader`).

`check_file` never raises: a file that cannot be read as glTF comes back `unreadable`; any
other input yields findings (`Issue`: severity, stable code, JSON pointer, message).
Errors break a specification, warnings are legal but risky, notes (info) name legacy
revisions and the converter command that upgrades them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..asset_files import JSON_LAX, read_asset
from ..codecs.joints import is_legacy_node_joint
from ..diagnostics import Issue, Report, Severity
from ..mesh_data import MeshData
from . import geometry, gravity, links, placement, resources, revisions, risks
from .facts import Facts
from .schema import Context, pointer, type_name
from .specs import KHR_PAYLOADS, LEGACY_KHR_PAYLOADS, OMI_PAYLOADS, Payload

Json = Any
SEVERITIES: Final[tuple[Severity, ...]] = ("error", "warning", "info")
UNREADABLE: Final = (OSError, ValueError, RecursionError, MemoryError)


@dataclass(frozen=True, slots=True)
class FileCheck:
    """The findings for one file; `unreadable` says why it is not glTF ("" when it is)."""

    path: str
    issues: tuple[Issue, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)
    unreadable: str = ""

    def count(self, severity: Severity) -> int:
        """Findings of one severity, including those only counted."""
        return self.counts.get(severity, 0)

    def failed(self, strict: bool = False) -> bool:
        """True for an unreadable file or an error (with `strict`, also a warning)."""
        return bool(self.unreadable) or self.count("error") > 0 or (
            strict and self.count("warning") > 0)

    def as_json(self) -> dict[str, Json]:
        """The findings as plain JSON data."""
        return {
            "file": self.path, "readable": not self.unreadable,
            **({"reason": self.unreadable} if self.unreadable else {}),
            "errors": self.count("error"), "warnings": self.count("warning"),
            "notes": self.count("info"),
            "findings": [{"severity": i.severity, "code": i.code, "pointer": i.where,
                          "message": i.message} for i in self.issues],
        }


def check_file(path: Path | str) -> FileCheck:
    """Read a .gltf or .glb file and check its physics."""
    lax: list[str] = []
    try:
        gltf, binary = read_asset(path, lax)
    except UNREADABLE as exc:
        return FileCheck(str(path), unreadable=f"{type(exc).__name__}: {exc}"[:300])
    report = check_document(gltf, name=str(path), binary=binary, base_dir=Path(path).parent)
    for message in lax:
        report.add("error", JSON_LAX, "", message)
    return FileCheck(str(path), tuple(ordered(report.listed())),
                     {severity: report.total(severity) for severity in SEVERITIES})


def exit_status(checks: Iterable[FileCheck], strict: bool = False) -> int:
    """2 when a file is unreadable, else 1 when one failed, else 0."""
    checks = list(checks)
    if any(check.unreadable for check in checks):
        return 2
    return 1 if any(check.failed(strict) for check in checks) else 0


def check_document(gltf: Json, *, name: str = "FILE", binary: bytes | None = None,
                   base_dir: Path | str | None = None) -> Report:
    """Every finding for a parsed glTF document. `name` goes into the converter hints;
    `binary` (a GLB chunk) and `base_dir` let convex meshes be read from the buffers."""
    report = Report()
    if not isinstance(gltf, Mapping):
        report.add("error", "not-gltf", "", f"a glTF document is an object, not {type_name(gltf)}")
        return report
    try:
        facts = Facts.of(gltf)
    except Exception as exc:  # a decoder bug must not hide the file's schema errors
        _failed(report, "decoding", exc)
        return report
    meshes = MeshData(dict(gltf), base_dir, binary)
    stages: Sequence[Callable[[], None]] = (
        lambda: check_schemas(facts, report),
        lambda: links.check_references(facts, report, facts.legacy_khr),
        lambda: links.check_declarations(facts, report),
        lambda: links.check_numbers(facts, report),
        *(lambda check=check: check(facts, report) for check in (
            placement.check_triggers, placement.check_joints, placement.check_vehicles,
            placement.check_geometry_nodes, placement.check_vectors, geometry.check_shapes,
            risks.check_bodies, risks.check_motion, risks.check_materials, risks.check_limits,
            risks.check_families, risks.check_decoded, gravity.check_gravity)),
        lambda: resources.check_resources(gltf, report, base_dir, binary),
        lambda: geometry.check_hulls(facts, report, meshes),
        lambda: revisions.check_revisions(facts, report, name),
    )
    for index, stage in enumerate(stages):
        try:
            stage()
        except Exception as exc:  # one failing check must not hide the others' findings
            _failed(report, f"stage {index}", exc)
    return report


def _failed(report: Report, stage: str, exc: Exception) -> None:
    report.add("error", "check-failed", "", f"the checker failed in {stage} "
               f"({type(exc).__name__}: {str(exc)[:200]}); please report this file")


def check_schemas(facts: Facts, report: Report) -> None:
    """The schema rules of every extension payload (the KHR revision the document uses);
    OMI v1 joints are left to the legacy note."""
    _check_core(facts.gltf, report)
    khr = (LEGACY_KHR_PAYLOADS + KHR_PAYLOADS[:1] if facts.legacy_khr
           else KHR_PAYLOADS + LEGACY_KHR_PAYLOADS[:1])
    for payload in OMI_PAYLOADS + khr:
        ctx = Context(report, payload.integral_floats)
        for where, value in facts.payloads(payload.extension, payload.level):
            if not _is_v1_joint(payload, value):
                payload.spec.check(value, where, ctx)


def _is_v1_joint(payload: Payload, value: Json) -> bool:
    if payload.extension != "OMI_physics_joint" or not isinstance(value, Mapping):
        return False
    if payload.level == "doc":
        return "constraints" in value and "physicsJoints" not in value
    return is_legacy_node_joint(value)


def _check_core(gltf: Mapping[str, Json], report: Report) -> None:
    """The glTF structure the physics hangs on: root extensions, nodes and their children."""
    def wrong(where: str, expected: str, value: Json) -> None:
        report.add("error", "wrong-type", where, f"expected {expected}, got {type_name(value)}")

    if "extensions" in gltf and not isinstance(gltf["extensions"], Mapping):
        wrong("/extensions", "an object", gltf["extensions"])
    nodes = gltf.get("nodes", [])
    if not isinstance(nodes, list):
        wrong("/nodes", "an array", nodes)
        return
    for index, node in enumerate(nodes):
        where = f"/nodes/{index}"
        if not isinstance(node, Mapping):
            wrong(where, "an object", node)
            continue
        if "extensions" in node and not isinstance(node["extensions"], Mapping):
            wrong(f"{where}/extensions", "an object", node["extensions"])
        children = node.get("children", [])
        if not isinstance(children, list):
            wrong(f"{where}/children", "an array", children)
            continue
        for position, child in enumerate(children):
            if isinstance(child, bool) or not isinstance(child, int) or child < 0:
                wrong(pointer(f"{where}/children", position), "a node index", child)
            elif child >= len(nodes):
                report.add("error", "bad-index", pointer(f"{where}/children", position),
                           f"index {child} is past the end of /nodes ({len(nodes)} items)")


def ordered(issues: Iterable[Issue]) -> list[Issue]:
    """Errors first, then warnings, then notes; each in document order."""
    def key(issue: Issue) -> tuple[int, tuple[tuple[int, int | str], ...]]:
        tokens = tuple((0, int(t)) if t.isdecimal() and len(t) < 19 else (1, t)
                       for t in issue.where.split("/"))
        return SEVERITIES.index(issue.severity), tokens

    return sorted(issues, key=key)

