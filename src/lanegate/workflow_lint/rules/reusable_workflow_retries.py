"""Flags a job that calls a local reusable workflow (`uses: ./.github/workflows/x.yml`) that retries."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    if ctx.resolver is None:
        return
    for _, job in ctx.jobs():
        uses = job.get("uses")
        if uses is None or not uses.is_scalar or not uses.text.strip().startswith("./"):
            continue
        target = ctx.resolver.resolve(uses.text.strip(), workflow=True)
        if target is None or not target.findings:
            continue
        rules = ", ".join(sorted({f.rule_id for f in target.findings}))
        first = target.findings[0].primary.render()
        yield ctx.at_node(
            RULE,
            uses,
            f"reusable workflow {uses.text.strip()} retries or forgives a failure ({rules}; first at {first})",
        )


RULE = Rule(
    id="reusable-workflow-retries",
    summary="a job calls a local reusable workflow that retries or forgives a failure",
    fix="remove the retry construct from the called workflow (see its own findings)",
    kinds=frozenset({FileKind.WORKFLOW}),
    check=check,
)
