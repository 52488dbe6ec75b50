"""GitHub workflow commands: one `::error file=...,line=...,col=...,title=<rule-id>::message` per finding
(`::warning` for a finding of the gate's Lane A scope, which does not fail)."""

from __future__ import annotations

from lanegate.workflow_lint import LintResult
from lanegate.workflow_lint.scope import Scope


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(result: LintResult, version: str) -> str:
    lines: list[str] = []
    for finding in result.findings:
        scope = result.scope_of(finding)
        level = "warning" if result.gate and scope is Scope.LANE_A else "error"
        where = finding.primary
        props = [f"file={_property(where.path)}"]
        if where.line is not None:
            props.append(f"line={where.line}")
            if where.column is not None:
                props.append(f"col={where.column}")
        props.append(f"title={_property(finding.rule_id)}")
        note = f"[{scope}] " if result.gate else ""
        lines.append(
            f"::{level} {','.join(props)}::{_data(f'{note}{finding.message} (fix: {finding.fix})')}"
        )
    return "\n".join(lines) + ("\n" if lines else "")
