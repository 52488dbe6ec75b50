"""Values shared by every part of lanegate: verdicts, severities, locations, findings, reasons."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Verdict(StrEnum):
    """The answer of a lane or of the whole gate. There is no third value: unknown is fail."""

    PASS = "pass"
    FAIL = "fail"


class Severity(StrEnum):
    """How a finding or reason weighs: an error fails the gate, a warning never passes it alone."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Lane(StrEnum):
    """The parts of a scoring run that produce evidence."""

    PROPERTY = "property"
    FIXTURE = "fixture"
    FLAKE = "flake"
    LINT = "lint"
    GATE = "gate"


@dataclass(frozen=True, slots=True)
class Location:
    """Where something was seen: a repo-relative path, and a route/line/column when known."""

    path: str
    line: int | None = None
    column: int | None = None
    route: tuple[str | int, ...] = ()
    note: str = ""

    def render(self) -> str:
        """`path:line:column`, leaving out the parts that are unknown."""
        text = self.path
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        return text


@dataclass(frozen=True, slots=True)
class Finding:
    """One construct a lint rule flagged, with the fix in one line."""

    rule_id: str
    message: str
    severity: Severity
    primary: Location
    fix: str = ""
    related: tuple[Location, ...] = ()


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the scorer failed or warned: one decision-table row firing on one piece of evidence."""

    lane: Lane
    rule_id: str
    message: str
    severity: Severity = Severity.ERROR
    location: Location | None = None
    fix: str = ""
