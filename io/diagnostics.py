# SPDX-License-Identifier: GPL-3.0-or-later
"""Problems found while reading or writing physics, each tied to a JSON pointer. Pure."""

from __future__ import annotations

from collections import Counter
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


@dataclass(slots=True)
class Report:
    """Collects issues; codecs append to it instead of raising."""

    issues: list[Issue] = field(default_factory=list)

    def add(self, severity: Severity, code: str, where: str, message: str) -> None:
        """Record one issue."""
        self.issues.append(Issue(severity, code, where, message))

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

    def summary(self) -> str:
        """One line for an operator report, e.g. '2 warnings (bad-index, not-a-number)'."""
        warnings = self.of("warning") + self.of("error")
        if not warnings:
            return ""
        codes = Counter(issue.code for issue in warnings)
        listed = ", ".join(f"{code}×{n}" if n > 1 else code for code, n in codes.most_common(4))
        plural = "s" if len(warnings) > 1 else ""
        return f"{len(warnings)} physics problem{plural} ({listed}); see the log"
