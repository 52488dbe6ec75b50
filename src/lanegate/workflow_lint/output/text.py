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
    count = len(result.gating)
    verdict = "clean" if count == 0 else f"{count} finding{'s' if count != 1 else ''}"
    extra = f", {len(result.exempted)} exempted" if result.exempted else ""
    if result.gate:
        extra += f", {len(result.findings) - count} in Lane A (reported only)"
    mode = "gate" if result.gate else result.mode
    lines.append(f"lanegate lint ({mode}): {result.files_scanned} files scanned, {verdict}{extra}")
    return "\n".join(lines) + "\n"
