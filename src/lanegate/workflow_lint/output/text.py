"""Human-readable lint output: `path:line:column: rule-id: message` and the fix, then a summary line."""

from __future__ import annotations

from lanegate.workflow_lint import LintResult
from lanegate.workflow_lint.scope import Scope

_SCOPE_NOTE = {
    Scope.LANE_B: "[lane-b: Lane B runs this] ",
    Scope.DIFF: "[diff: added by this change] ",
    Scope.LANE_A: "[lane-a: reported only] ",
}


def render(result: LintResult, version: str) -> str:
    lines: list[str] = []
    for finding in result.findings:
        note = _SCOPE_NOTE[result.scope_of(finding)] if result.gate else ""
        lines.append(f"{finding.primary.render()}: {finding.rule_id}: {note}{finding.message}")
        lines.append(f"    fix: {finding.fix}")
    lines.extend(
        f"{finding.primary.render()}: {finding.rule_id}: (exempted in lane-a) {finding.message}"
        for finding in result.exempted
    )
    lines.extend(f"skipped: {entry}" for entry in result.skipped)
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary_line(result: LintResult) -> str:
    """`lanegate lint (lane-b): 1 file scanned, 2 findings, 1 exempted` (or `clean`); in the gate's
    scope, the findings that gate and those of Lane A, reported only."""
    count = len(result.gating)
    verdict = "clean" if count == 0 else _counted(count, "finding")
    extra = f", {len(result.exempted)} exempted" if result.exempted else ""
    if result.gate:
        extra += f", {len(result.findings) - count} in Lane A (reported only)"
    mode = "gate" if result.gate else result.mode
    scanned = _counted(result.files_scanned, "file")
    return f"lanegate lint ({mode}): {scanned} scanned, {verdict}{extra}"
