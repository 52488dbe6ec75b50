"""Flags `continue-on-error` on a job or step whose value is not literally `false`, and retry-action
inputs (`continue_on_error`) that do the same."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import YAML_KINDS, Rule

_INPUTS = ("continue_on_error", "continue-on-error")


def _describe(text: str) -> str:
    return "an expression that may be true" if "${{" in text else repr(text)


def check(ctx: FileContext) -> Iterator[Finding]:
    for job_id, job in ctx.jobs():
        node = job.get("continue-on-error")
        if node is not None and not node.is_literal_false():
            yield ctx.at_node(
                RULE,
                node,
                f"job {job_id!r} has continue-on-error {_describe(node.text)}: a failing job counts as passed",
            )
    for step in ctx.steps():
        node = step.node.get("continue-on-error")
        if node is not None and not node.is_literal_false():
            yield ctx.at_node(
                RULE,
                node,
                f"step {step.index + 1} has continue-on-error {_describe(node.text)}: a failing step counts as passed",
            )
        inputs = step.node.get("with")
        if inputs is None:
            continue
        for name in _INPUTS:
            value = inputs.get(name)
            if value is not None and not value.is_literal_false():
                yield ctx.at_node(
                    RULE,
                    value,
                    f"action input {name} is {_describe(value.text)}: the action's failure counts as passed",
                )


RULE = Rule(
    id="continue-on-error",
    summary="a failing job or step is allowed to pass",
    fix="delete `continue-on-error` (or set it to the literal `false`); a failure must fail the lane",
    kinds=YAML_KINDS,
    check=check,
)
