"""Flags two-step retries: a test step allowed to fail (`continue-on-error`) and a later step, gated on
`steps.<id>.outcome == 'failure'` (or `!= 'success'`), that runs tests again. A probe step (changed
files, a cache check) or a gated step that only reports or fails the job is not a retry."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext, Step
from lanegate.workflow_lint.outcome_gates import gated_on
from lanegate.workflow_lint.rule import YAML_KINDS, Rule
from lanegate.workflow_lint.step_purpose import step_purpose


def _groups(ctx: FileContext) -> list[list[Step]]:
    groups: dict[str | None, list[Step]] = {}
    for step in ctx.steps():
        groups.setdefault(step.job_id, []).append(step)
    return list(groups.values())


def check(ctx: FileContext) -> Iterator[Finding]:
    for steps in _groups(ctx):
        allowed: set[str] = set()
        for step in steps:
            condition = step.node.get("if")
            if allowed and condition is not None and condition.is_scalar:
                match = gated_on(condition.text, allowed)
                if match and step_purpose(ctx, step).evidence:
                    step_id = match.step_id
                    yield ctx.in_scalar(
                        RULE,
                        condition,
                        0,
                        match.start,
                        match.text,
                        f"{step.label} runs tests again when the step with id {step_id!r} (allowed to fail) failed: a second try decides the job",
                    )
            node_id = step.node.get("id")
            cont = step.node.get("continue-on-error")
            if (
                node_id is not None
                and node_id.is_scalar
                and cont is not None
                and not cont.is_literal_false()
                and step_purpose(ctx, step).evidence
            ):
                allowed.add(node_id.text)


RULE = Rule(
    id="two-step-retry",
    summary="a test step allowed to fail is followed by a step that runs tests again when it failed",
    fix="delete the fallback step and the `continue-on-error` of the first; one run decides",
    kinds=YAML_KINDS,
    check=check,
)
