"""Reports a workflow, action or test-config file cannot be parsed, so it cannot be checked (the lint session raises these findings itself)."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    return iter(())


RULE = Rule(
    id="unparseable-file",
    summary="a workflow, action or test-config file cannot be parsed, so it cannot be checked",
    fix="fix the syntax error; lanegate fails closed on what it cannot read",
    kinds=frozenset(),
    check=check,
)
