"""Flags a job that calls a local reusable workflow (`uses: ./.github/workflows/x.yml`) that retries."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    for _, job in ctx.jobs():
        found = ctx.local_target_retries(
            RULE, job.get("uses"), workflow=True, kind="reusable workflow"
        )
        if found is not None:
            yield found


RULE = Rule(
    id="reusable-workflow-retries",
    summary="a job calls a local reusable workflow that retries or forgives a failure",
    fix="remove the retry construct from the called workflow (see its own findings)",
    kinds=frozenset({FileKind.WORKFLOW}),
    check=check,
)
