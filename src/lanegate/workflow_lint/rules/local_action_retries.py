"""Flags `uses: ./path` when the local composite action's own steps retry or forgive a failure."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import YAML_KINDS, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    for step in ctx.steps():
        found = ctx.local_target_retries(
            RULE, step.node.get("uses"), workflow=False, kind="local action"
        )
        if found is not None:
            yield found


RULE = Rule(
    id="local-action-retries",
    summary="a step uses a local composite action whose own steps retry or forgive a failure",
    fix="remove the retry construct from the local action (see its own findings) or stop using it on this lane",
    kinds=YAML_KINDS,
    check=check,
)
