# SPDX-License-Identifier: GPL-3.0-or-later
"""A report lists a bounded number of issues per code and counts the rest."""

from gltf_physics.io.codecs.registry import decode_document
from gltf_physics.io.diagnostics import LIST_LIMIT, Report
from gltf_physics.io.document import DocumentView


def test_issues_beyond_the_limit_are_counted_not_listed() -> None:
    report = Report()
    for i in range(LIST_LIMIT + 250):
        report.warn("bad", f"/x/{i}", "bad value")
    report.info("note", "/y", "fine")
    assert len(report.issues) == LIST_LIMIT + 1
    assert report.count == LIST_LIMIT + 251
    listed = report.listed()
    assert listed[-1].message == "250 more bad issues not listed"
    assert report.summary() == f"{LIST_LIMIT + 250} physics problems (bad×{LIST_LIMIT + 250}); " \
        "see the log"


def test_merge_keeps_the_counts() -> None:
    first, second = Report(), Report()
    for i in range(LIST_LIMIT + 3):
        second.warn("bad", f"node {i}", "bad value")
    first.merge(second, lambda where: where.replace("node ", "/nodes/"))
    assert first.count == LIST_LIMIT + 3
    assert first.issues[0].where == "/nodes/0"


def test_a_huge_bad_array_decodes_with_bounded_issues() -> None:
    gltf = {"asset": {"version": "2.0"}, "nodes": [{}], "extensions": {
        "KHR_physics_rigid_bodies": {"physicsJoints": [{"limits": list(range(100_000))}]}}}
    report = Report()
    decode_document(DocumentView.from_json(gltf), report)
    assert len(report.issues) <= LIST_LIMIT + 5
    assert report.unlisted["not-an-object"] == 100_000 - LIST_LIMIT


def test_the_same_issue_is_said_once() -> None:
    """An object exported once per collection instance reports its problem once."""
    report = Report()
    for _ in range(3):
        report.warn("joint-skipped", "DoorHinge", "no connected body is set")
    report.warn("joint-skipped", "GateHinge", "no connected body is set")
    assert [str(i) for i in report.issues] == ["DoorHinge: no connected body is set",
                                               "GateHinge: no connected body is set"]
    assert report.summary() == "2 physics problems (joint-skipped×2); see the log"
