"""Step conditions gated on an earlier step's failure (`steps.<id>.outcome == 'failure'`, `!= 'success'`),
found with one precompiled pattern whatever the step ids (linear in the number of steps)."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from lanegate.workflow_lint.context import FileContext, Step
from lanegate.workflow_lint.shell import propagates_failure

_REF = r"steps(?:\.(?P<{g}>[\w-]+)|\[\s*['\"](?P<{g}q>[^'\"]+)['\"]\s*\])\.outcome"
_GATED = re.compile(
    rf"{_REF.format(g='a')}\s*==\s*['\"]failure['\"]"
    rf"|{_REF.format(g='b')}\s*!=\s*['\"]success['\"]"
    rf"|['\"]failure['\"]\s*==\s*{_REF.format(g='c')}"
)


@dataclass(frozen=True, slots=True)
class Gate:
    """A condition that runs a step when step `step_id` failed; `start` is its offset in the text."""

    step_id: str
    start: int
    text: str


def gated_on(condition: str, step_ids: Collection[str]) -> Gate | None:
    """The first failure gate in `condition` on one of `step_ids`, if any."""
    for match in _GATED.finditer(condition):
        step_id = next((v for v in match.groupdict().values() if v), "")
        if step_id in step_ids:
            return Gate(step_id, match.start(), match.group(0))
    return None


def _refailed(ctx: FileContext) -> set[tuple[str | None, str]]:
    """(job id, step id) pairs whose failure a later step reports by failing the job (cached)."""
    cached = ctx.cache.get("refailed")
    if isinstance(cached, set):
        return cached
    found: set[tuple[str | None, str]] = set()
    for block in ctx.run_blocks():
        condition = block.step.node.get("if")
        if condition is None or not condition.is_scalar or not block.is_posix:
            continue
        if "outcome" not in condition.text:
            continue
        commands = ctx.shell(block).commands
        if not commands or not propagates_failure(commands[-1]):
            continue
        for match in _GATED.finditer(condition.text):
            step_id = next((v for v in match.groupdict().values() if v), "")
            found.add((block.step.job_id, step_id))
    ctx.cache["refailed"] = found
    return found


def failed_again_later(ctx: FileContext, step: Step) -> bool:
    """True when another step of the same job runs on this step's failure and fails the job itself
    (ends in `exit 1`): the failure is reported after all, so `continue-on-error` forgives nothing."""
    step_id = step.node.get("id")
    return (
        step_id is not None and step_id.is_scalar and (step.job_id, step_id.text) in _refailed(ctx)
    )
