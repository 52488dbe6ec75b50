"""Plain text for a terminal: the verdict, then one line per fail and warning."""

from __future__ import annotations

from lanegate.ledgers.models import ReportReason, ScoreReport
from lanegate.scoring.evidence import ScoreInputs


def reason_line(reason: ReportReason) -> str:
    """`rule-id  path:line  message` (location left out when there is none)."""
    where = ""
    if reason.path is not None:
        where = reason.path + (f":{reason.line}" if reason.line is not None else "")
    parts = [reason.rule_id, where, " ".join(reason.message.split())]
    return "  ".join(p for p in parts if p)


def split_warns(report: ScoreReport) -> tuple[list[ReportReason], list[ReportReason]]:
    """The report's warnings, and its notes: the Lane A column's follow-ups (never a fail)."""
    warnings = [r for r in report.warns if r.severity != "note"]
    return warnings, [r for r in report.warns if r.severity == "note"]


def mark(reason: ReportReason) -> str:
    """`fail`, `warn` or `note` (a follow-up): how a reason line is marked."""
    return {"error": "fail", "note": "note"}.get(reason.severity, "warn")


def verdict_line(report: ScoreReport) -> str:
    """`lanegate score: PASS` or `FAIL`, with the counts."""
    warnings, notes = split_warns(report)
    counts = f"{len(report.fails)} fail{'s' * (len(report.fails) != 1)}"
    counts += f", {len(warnings)} warning{'s' * (len(warnings) != 1)}"
    if notes:
        counts += f", {len(notes)} follow-up{'s' * (len(notes) != 1)}"
    return f"lanegate score: {report.verdict.upper()} ({counts})"


class TextReporter:
    """What `lanegate score` prints."""

    name = "text"
    file_name = "score.txt"

    def render(self, report: ScoreReport, inputs: ScoreInputs | None = None) -> str:
        """The verdict line, then fails, then warnings."""
        lines = [verdict_line(report)]
        lines.extend(f"  fail  {reason_line(r)}" for r in report.fails)
        lines.extend(f"  {mark(r)}  {reason_line(r)}" for r in report.warns)
        return "\n".join(lines) + "\n"
