"""Flags `uses: ./path` when the local composite action's own steps retry or forgive a failure."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import YAML_KINDS, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    if ctx.resolver is None:
        return
    for step in ctx.steps():
        uses = step.node.get("uses")
        if uses is None or not uses.is_scalar or not uses.text.strip().startswith("./"):
            continue
        target = ctx.resolver.resolve(uses.text.strip(), workflow=False)
        if target is None or not target.findings:
            continue
        rules = ", ".join(sorted({f.rule_id for f in target.findings}))
        first = target.findings[0].primary.render()
        yield ctx.at_node(
            RULE,
            uses,
            f"local action {uses.text.strip()} retries or forgives a failure ({rules}; first at {first})",
        )


RULE = Rule(
    id="local-action-retries",
    summary="a step uses a local composite action whose own steps retry or forgive a failure",
    fix="remove the retry construct from the local action (see its own findings) or stop using it on this lane",
    kinds=YAML_KINDS,
    check=check,
)
