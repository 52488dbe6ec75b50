"""Flags `continue-on-error` whose value is not literally `false` on a job or step that produces test
evidence, retry-action inputs (`continue_on_error`) that do the same, and a gate check
(`re-actors/alls-green`) whose `allowed-failures` names a test job. On a step that only uploads, labels
or notifies it forgives nothing the gate reads, so it is not a finding."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.actions import parse_uses
from lanegate.workflow_lint.call_inputs import MATRIX_VALUE, matrix_values
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.expressions import UNKNOWN, Value, evaluate, truthy
from lanegate.workflow_lint.outcome_gates import expected_to_fail, failed_again_later
from lanegate.workflow_lint.rule import YAML_KINDS, Rule
from lanegate.workflow_lint.step_purpose import job_purpose, step_purpose
from lanegate.workflow_lint.yamldoc import YNode

_INPUTS = ("continue_on_error", "continue-on-error")


def _describe(text: str) -> str:
    return "an expression that may be true" if "${{" in text else repr(text)


def _never_true(node: YNode, job: YNode) -> bool:
    """A literal `false`, `${{ matrix.x }}` where every value of x is a literal `false`, or an
    expression over the job's matrix that is false for every value its keys take (a key no matrix
    entry defines is null: `${{ matrix.continue || false }}` with no `continue` anywhere)."""
    if node.is_literal_false():
        return True
    if not node.is_scalar:
        return False
    match = MATRIX_VALUE.match(node.text.strip())
    if match is not None:
        values = matrix_values(job, match.group(1))
        if values is not None and all(v.is_literal_false() for v in values):
            return True
    return _false_for_every_matrix_value(node.text.strip(), job)


def _may_forgive(value: YNode, job: YNode | None) -> bool:
    """A step's `continue-on-error` (or retry input) that can be true in its job's matrix."""
    return not value.is_literal_false() and (job is None or not _never_true(value, job))


_MATRIX_NAME = re.compile(r"\bmatrix\.([A-Za-z_][\w-]*)")
_MAX_COMBINATIONS = 256


def _false_for_every_matrix_value(text: str, job: YNode) -> bool:
    """Whether the expression `text`, whose only names are `matrix.<key>`, is false (not unknown)
    for every value each key can take; an over-count of combinations, which only adds cases."""
    if not text.startswith("${{"):
        return False
    choices: dict[str, list[Value]] = {}
    for key in set(_MATRIX_NAME.findall(text)):
        nodes = matrix_values(job, key)
        if nodes is None:
            return False  # a computed matrix
        strategy = job.get("strategy")
        matrix = strategy.get("matrix") if strategy is not None else None
        axis = matrix.get(key) if matrix is not None and matrix.is_map else None
        values: list[Value] = [] if axis is not None else [None]  # absent from some entries
        for value in nodes:
            if not value.is_scalar or "${{" in value.text:
                return False
            values.append(_yaml_scalar(value))
        choices[f"matrix.{key}"] = values
    total = 1
    for values in choices.values():
        total *= len(values)
    if not choices or total > _MAX_COMBINATIONS:
        return False
    names = list(choices)
    for combination in itertools.product(*choices.values()):
        result = evaluate(text, dict(zip(names, combination, strict=True)))
        if result is UNKNOWN or truthy(result) is not False:
            return False
    return True


def _yaml_scalar(node: YNode) -> Value:
    """A YAML scalar as the expression reads it: a quoted one a string, a plain one a boolean, a
    number or a string."""
    text = node.text
    if node.style:
        return text
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return float(text)
    except ValueError:
        return text


# gate-check actions whose input lets a needed job fail and still report success
_ALLOWED_FAILURES = {"re-actors/alls-green": ("allowed-failures",)}
_JOB_LIST = re.compile(r"[\w-]+")


def _allowed_failures(ctx: FileContext) -> Iterator[Finding]:
    """`re-actors/alls-green` with `allowed-failures:` naming a job that produces test evidence (or
    an expression: fail closed): the gate check passes when that job failed."""
    jobs = dict(ctx.jobs())
    for step in ctx.steps():
        uses = step.node.get("uses")
        parsed = parse_uses(uses.text) if uses is not None and uses.is_scalar else None
        inputs = step.node.get("with")
        if parsed is None or inputs is None or not inputs.is_map:
            continue
        for name in _ALLOWED_FAILURES.get(f"{parsed.owner}/{parsed.repo}", ()):
            value = inputs.get(name)
            if value is None or not value.is_scalar or not value.text.strip():
                continue
            if "${{" in value.text:
                yield ctx.at_node(
                    RULE,
                    value,
                    f"{step.label} lets the jobs an expression names fail: a failing test job may count as passed",
                )
                continue
            for job_id in _JOB_LIST.findall(value.text.replace("[", " ").replace("]", " ")):
                job = jobs.get(job_id)
                purpose = job_purpose(ctx, job_id, job) if job is not None else None
                if purpose is not None and purpose.evidence:
                    yield ctx.at_node(
                        RULE,
                        value,
                        f"{step.label} lets job {job_id!r} fail ({name}): a failing test job counts as passed ({purpose.why})",
                    )


def check(ctx: FileContext) -> Iterator[Finding]:
    yield from _allowed_failures(ctx)
    for job_id, job in ctx.jobs():
        node = job.get("continue-on-error")
        if node is not None and not _never_true(node, job):
            purpose = job_purpose(ctx, job_id, job)
            if purpose.evidence:
                yield ctx.at_node(
                    RULE,
                    node,
                    f"job {job_id!r} has continue-on-error {_describe(node.text)}: a failing job counts as passed ({purpose.why})",
                )
    for step in ctx.steps():
        node = step.node.get("continue-on-error")
        inputs = step.node.get("with")
        forgiving = [node] if node is not None and _may_forgive(node, step.job) else []
        for name in _INPUTS if inputs is not None else ():
            value = inputs.get(name) if inputs is not None else None
            if value is not None and _may_forgive(value, step.job):
                forgiving.append(value)
        if not forgiving:
            continue
        purpose = step_purpose(ctx, step)
        if not purpose.evidence or (
            node in forgiving and (failed_again_later(ctx, step) or expected_to_fail(ctx, step))
        ):
            continue
        for found in forgiving:
            if found is node:
                message = f"{step.label} has continue-on-error {_describe(found.text)}: a failing step counts as passed ({purpose.why})"
            else:
                message = f"action input continue_on_error is {_describe(found.text)}: the action's failure counts as passed"
            yield ctx.at_node(RULE, found, message)


RULE = Rule(
    id="continue-on-error",
    summary="a failing job or step that produces test evidence is allowed to pass",
    fix="delete `continue-on-error` (or set it to the literal `false`); a failing test must fail the lane",
    kinds=YAML_KINDS,
    check=check,
)
