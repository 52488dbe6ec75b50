"""Reports a file is larger than the lint size cap, so it is not checked (the lint session raises these findings itself)."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    return iter(())


RULE = Rule(
    id="oversized-file",
    summary="a file is larger than the lint size cap, so it is not checked",
    fix="split or shrink the file; lanegate fails closed on what it cannot read",
    kinds=frozenset(),
    check=check,
)
