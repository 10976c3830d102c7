# SPDX-License-Identifier: GPL-3.0-or-later
"""Problems found while reading or writing physics, each tied to a JSON pointer. Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["info", "warning", "error"]


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem: how bad, a stable code, where (JSON pointer or object name), and why."""

    severity: Severity
    code: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


#: Issues listed per code; further ones of that code are only counted (a bad array of
#: 100,000 entries must not cost 100,000 log lines).
LIST_LIMIT = 100


def listing(names: list[str], limit: int = LIST_LIMIT) -> str:
    """The first `limit` names joined, the rest counted ("a, b and 3 more")."""
    more = len(names) - limit
    return ", ".join(names[:limit]) + (f" and {more} more" if more > 0 else "")


def nodes_named(indices: list) -> str:
    """Nodes for a message: "node 0", "nodes 0, 4" (the rest counted, as `listing`)."""
    return f"node{'s' if len(indices) > 1 else ''} {listing([str(i) for i in indices])}"


@dataclass(slots=True)
class Report:
    """Collects issues; codecs append to it instead of raising. The first `LIST_LIMIT`
    issues of each code are kept; the rest are counted in `unlisted`."""

    issues: list[Issue] = field(default_factory=list)
    unlisted: Counter[str] = field(default_factory=Counter)
    _listed: Counter[str] = field(default_factory=Counter)
    _unlisted_severity: dict[str, Severity] = field(default_factory=dict)
    _seen: set[Issue] = field(default_factory=set)

    def add(self, severity: Severity, code: str, where: str, message: str) -> None:
        """Record one issue (only counted beyond `LIST_LIMIT` of its code). The same issue
        again (e.g. an object exported once per collection instance) is said once."""
        if self._listed[code] >= LIST_LIMIT:
            self.unlisted[code] += 1
            self._unlisted_severity.setdefault(code, severity)
            return
        issue = Issue(severity, code, where, message)
        if issue in self._seen:
            return
        self._seen.add(issue)
        self._listed[code] += 1
        self.issues.append(issue)

    @property
    def count(self) -> int:
        """Every issue recorded, listed or not."""
        return len(self.issues) + sum(self.unlisted.values())

    def listed(self) -> list[Issue]:
        """The kept issues, then one line per code with unlisted issues."""
        more = [Issue(self._unlisted_severity[code], code, "",
                      f"{n} more {code} issue{'s' if n > 1 else ''} not listed")
                for code, n in self.unlisted.items()]
        return self.issues + more

    def merge(self, other: Report, where: Callable[[str], str] = str) -> None:
        """Add `other`'s issues (their locations passed through `where`) and counts."""
        for issue in other.issues:
            self.add(issue.severity, issue.code, where(issue.where), issue.message)
        for code, n in other.unlisted.items():
            self.unlisted[code] += n
            self._unlisted_severity.setdefault(code, other._unlisted_severity[code])

    def warn(self, code: str, where: str, message: str) -> None:
        """Record a warning (bad data that was skipped or repaired)."""
        self.add("warning", code, where, message)

    def info(self, code: str, where: str, message: str) -> None:
        """Record an informational note (for example a legacy layout that was upgraded)."""
        self.add("info", code, where, message)

    def codes(self) -> list[str]:
        """The issue codes, in order."""
        return [issue.code for issue in self.issues]

    def of(self, severity: Severity) -> list[Issue]:
        """The issues of one severity."""
        return [issue for issue in self.issues if issue.severity == severity]

    def total(self, severity: Severity) -> int:
        """Every issue of one severity, listed or only counted."""
        return len(self.of(severity)) + sum(
            n for code, n in self.unlisted.items() if self._unlisted_severity[code] == severity)

    def summary(self) -> str:
        """One line for an operator report, e.g. '2 warnings (bad-index, not-a-number)'."""
        codes = Counter(issue.code for issue in self.of("warning") + self.of("error"))
        codes.update({code: n for code, n in self.unlisted.items()
                      if self._unlisted_severity[code] != "info"})
        total = sum(codes.values())
        if not total:
            return ""
        listed = ", ".join(f"{code}×{n}" if n > 1 else code for code, n in codes.most_common(4))
        plural = "s" if total > 1 else ""
        return f"{total} physics problem{plural} ({listed}); see the log"
