"""Step conditions gated on an earlier step's failure (`steps.<id>.outcome == 'failure'`, `!= 'success'`)
or on its success (an expected-failure check), found with precompiled patterns whatever the step ids
(linear in the number of steps)."""

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


# a condition that runs a step when an earlier one did not fail (`outcome == 'success'`, `!= 'failure'`)
_UNLESS_FAILED = re.compile(
    rf"{_REF.format(g='a')}\s*==\s*['\"]success['\"]"
    rf"|{_REF.format(g='b')}\s*!=\s*['\"]failure['\"]"
    rf"|['\"]success['\"]\s*==\s*{_REF.format(g='c')}"
)
# a script that fails unless an earlier step's outcome was `failure`:
# `[ "${{ steps.x.outcome }}" = "failure" ]`, `test ... == failure`, `[[ ... == 'failure' ]]`
_EXPECT_FAILURE = re.compile(
    r"^\s*(?:\[\[?|test)\s+['\"]?\$\{\{\s*"
    + _REF.format(g="d")
    + r"\s*\}\}['\"]?\s*==?\s*['\"]?failure['\"]?\s*(?:\]\]?)?\s*$"
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


def _expected_failures(ctx: FileContext) -> set[tuple[str | None, str]]:
    """(job id, step id) pairs a later step checks failed: it fails the job unless their outcome
    was `failure` (cached)."""
    cached = ctx.cache.get("expected-failures")
    if isinstance(cached, set):
        return cached
    found: set[tuple[str | None, str]] = set()
    for block in ctx.run_blocks():
        text = block.node.text if block.node.is_scalar else ""
        condition = block.step.node.get("if")
        if condition is not None and condition.is_scalar and "outcome" in condition.text:
            commands = ctx.shell(block).commands if block.is_posix else []
            if commands and propagates_failure(commands[-1]):
                for match in _UNLESS_FAILED.finditer(condition.text):
                    step_id = next((v for v in match.groupdict().values() if v), "")
                    found.add((block.step.job_id, step_id))
        if block.is_posix and "outcome" in text:
            lines = [line for line in text.strip().splitlines() if line.strip()]
            check = _EXPECT_FAILURE.match(lines[-1]) if lines else None
            if check is not None and (condition is None or "always()" in condition.text):
                step_id = next((v for v in check.groupdict().values() if v), "")
                found.add((block.step.job_id, step_id))
    ctx.cache["expected-failures"] = found
    return found


def expected_to_fail(ctx: FileContext, step: Step) -> bool:
    """True when a later step of the same job fails it unless this step failed: the step is an
    expected-failure check, and `continue-on-error` lets its expected failure through, nothing more."""
    step_id = step.node.get("id")
    return (
        step_id is not None
        and step_id.is_scalar
        and (step.job_id, step_id.text) in _expected_failures(ctx)
    )


def failed_again_later(ctx: FileContext, step: Step) -> bool:
    """True when another step of the same job runs on this step's failure and fails the job itself
    (ends in `exit 1`): the failure is reported after all, so `continue-on-error` forgives nothing."""
    step_id = step.node.get("id")
    return (
        step_id is not None and step_id.is_scalar and (step.job_id, step_id.text) in _refailed(ctx)
    )
