"""Flags a step that uses a known retry action (nick-fields/retry, Wandalen/wretry.action, ...)."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.actions import match_retry_action
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import YAML_KINDS, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    for step in ctx.steps():
        uses = step.node.get("uses")
        if uses is None or not uses.is_scalar:
            continue
        pattern = match_retry_action(uses.text)
        if pattern is None:
            continue
        wrapped = ""
        inputs = step.node.get("with")
        action = inputs.get("action") if inputs is not None else None
        if action is not None and action.is_scalar and action.text.strip():
            wrapped = f" wrapping {action.text.strip()}"
        yield ctx.at_node(RULE, uses, f"retry action {uses.text.strip()}{wrapped}: {pattern.why}")


RULE = Rule(
    id="retry-action",
    summary="a step uses an action that re-runs a failing command until it passes",
    fix="run the command once in a plain `run:` step; fix or lease the flaky test instead of retrying it",
    kinds=YAML_KINDS,
    check=check,
)
