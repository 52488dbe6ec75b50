"""Flags two-step retries: a step allowed to fail (`continue-on-error`) and a later step gated on
`steps.<id>.outcome == 'failure'` (or `!= 'success'`) that runs again."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext, Step
from lanegate.workflow_lint.rule import YAML_KINDS, Rule


def _gated(condition: str, step_id: str) -> re.Match[str] | None:
    ref = rf"steps(?:\.{re.escape(step_id)}|\[\s*['\"]{re.escape(step_id)}['\"]\s*\])\.outcome"
    pattern = rf"{ref}\s*==\s*['\"]failure['\"]|{ref}\s*!=\s*['\"]success['\"]|['\"]failure['\"]\s*==\s*{ref}"
    return re.search(pattern, condition)


def _groups(ctx: FileContext) -> list[list[Step]]:
    groups: dict[str | None, list[Step]] = {}
    for step in ctx.steps():
        groups.setdefault(step.job_id, []).append(step)
    return list(groups.values())


def check(ctx: FileContext) -> Iterator[Finding]:
    for steps in _groups(ctx):
        allowed: list[str] = []
        for step in steps:
            condition = step.node.get("if")
            if condition is not None and condition.is_scalar:
                for step_id in allowed:
                    match = _gated(condition.text, step_id)
                    if match:
                        yield ctx.in_scalar(
                            RULE,
                            condition,
                            0,
                            match.start(),
                            match.group(0),
                            f"step {step.index + 1} runs when step {step_id!r} (allowed to fail) failed: a second try decides the job",
                        )
                        break
            node_id = step.node.get("id")
            cont = step.node.get("continue-on-error")
            if (
                node_id is not None
                and node_id.is_scalar
                and cont is not None
                and not cont.is_literal_false()
            ):
                allowed.append(node_id.text)


RULE = Rule(
    id="two-step-retry",
    summary="a step allowed to fail is followed by a step that runs again when it failed",
    fix="delete the fallback step and the `continue-on-error` of the first; one run decides",
    kinds=YAML_KINDS,
    check=check,
)
