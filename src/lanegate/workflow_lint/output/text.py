"""Human-readable lint output: `path:line:column: rule-id: message` and the fix, then a summary line."""

from __future__ import annotations

from lanegate.workflow_lint import LintResult


def render(result: LintResult, version: str) -> str:
    lines: list[str] = []
    for finding in result.findings:
        lines.append(f"{finding.primary.render()}: {finding.rule_id}: {finding.message}")
        lines.append(f"    fix: {finding.fix}")
    lines.extend(
        f"{finding.primary.render()}: {finding.rule_id}: (exempted in lane-a) {finding.message}"
        for finding in result.exempted
    )
    lines.extend(f"skipped: {entry}" for entry in result.skipped)
    count = len(result.findings)
    verdict = "clean" if count == 0 else f"{count} finding{'s' if count != 1 else ''}"
    extra = f", {len(result.exempted)} exempted" if result.exempted else ""
    lines.append(
        f"lanegate lint ({result.mode}): {result.files_scanned} files scanned, {verdict}{extra}"
    )
    return "\n".join(lines) + "\n"
