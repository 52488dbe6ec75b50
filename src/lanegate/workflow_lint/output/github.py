"""GitHub workflow commands: one `::error file=...,line=...,col=...,title=<rule-id>::message` per finding."""

from __future__ import annotations

from lanegate.workflow_lint import LintResult


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(result: LintResult, version: str) -> str:
    lines: list[str] = []
    for finding in result.findings:
        where = finding.primary
        props = [f"file={_property(where.path)}"]
        if where.line is not None:
            props.append(f"line={where.line}")
            if where.column is not None:
                props.append(f"col={where.column}")
        props.append(f"title={_property(finding.rule_id)}")
        lines.append(
            f"::error {','.join(props)}::{_data(f'{finding.message} (fix: {finding.fix})')}"
        )
    return "\n".join(lines) + ("\n" if lines else "")
