"""Flags `PYTEST_ADDOPTS` that adds rerun flags or plugins: in `env:`, exported or appended to
`$GITHUB_ENV` in a `run:` block, or in tox `setenv`."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.arg_sources import ADDOPTS_ENV, placed_hits
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    for hit in placed_hits(ctx):
        if hit.source == ADDOPTS_ENV:
            yield ctx.finding(
                RULE, hit.line, hit.column, f"PYTEST_ADDOPTS adds `{hit.text}` to every pytest run"
            )


RULE = Rule(
    id="pytest-addopts-rerun",
    summary="PYTEST_ADDOPTS adds a rerun flag or plugin to every pytest run",
    fix="remove the rerun option from PYTEST_ADDOPTS (lanegate's lanes drop PYTEST_ADDOPTS anyway)",
    kinds=SHELL_KINDS | {FileKind.TOX_INI},
    check=check,
)
