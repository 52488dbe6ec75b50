"""Flags a job that calls a local reusable workflow (`uses: ./.github/workflows/x.yml`) that retries.
A `continue-on-error` of the called workflow that reads its inputs is judged with the values this
call passes (`with:`, the matrix values it names, the declared defaults): false in every one, it
does not count for this call."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    for _, job in ctx.jobs():
        found = ctx.local_target_retries(
            RULE, job.get("uses"), workflow=True, kind="reusable workflow", caller=job
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
