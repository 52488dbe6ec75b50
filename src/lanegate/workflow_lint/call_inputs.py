"""The values a reusable workflow's inputs take in one call (`with:`, the matrix values it names,
and the declared defaults), and whether a `continue-on-error` of the called workflow that reads
only its inputs can be true in that call. setuptools' test-suite.yml forgives a failure when
`inputs.python == '3.15'`: a caller that passes no python (the default `3.x`) forgives nothing."""

from __future__ import annotations

import itertools
import re

from lanegate.model import Finding
from lanegate.workflow_lint.expressions import UNKNOWN, Result, Value, evaluate, truthy
from lanegate.workflow_lint.yamldoc import YNode

MATRIX_VALUE = re.compile(r"^\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}$")
_MAX_CALLS = 256  # input combinations evaluated, at most; more: the finding stands


def matrix_values(job: YNode, key: str) -> list[YNode] | None:
    """Every value `matrix.<key>` takes in the job's matrix; None when the matrix is computed."""
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if strategy is not None else None
    if matrix is None or not matrix.is_map:
        return None
    values: list[YNode] = []
    axis = matrix.get(key)
    if axis is not None:
        if not axis.is_seq:
            return None
        values.extend(axis.items)
    include = matrix.get("include")
    if include is not None:
        if not include.is_seq:
            return None
        for entry in include.items:
            if not entry.is_map:
                return None
            value = entry.get(key)
            if value is not None:
                values.append(value)
    return values


def _typed(node: YNode | None, kind: str) -> Result:
    """A scalar input value as the called workflow reads it (its declared type); absent: the
    type's empty value."""
    if node is None:
        return {"boolean": False, "number": 0.0}.get(kind, "")
    if not node.is_scalar or "${{" in node.text:
        return UNKNOWN
    text = node.text
    if kind == "boolean":
        return text.lower() == "true" if text.lower() in ("true", "false") else UNKNOWN
    if kind == "number":
        try:
            return float(text)
        except ValueError:
            return UNKNOWN
    return text


def input_sets(caller_job: YNode, called: YNode) -> list[dict[str, Value]] | None:
    """Every combination of `inputs.<name>` values this call can pass (matrix axes multiplied, an
    over-count that only adds cases); None when lint cannot tell (a computed value, too many)."""
    on = called.get("on") if called.is_map else None
    call = on.get("workflow_call") if on is not None and on.is_map else None
    declared = call.get("inputs") if call is not None and call.is_map else None
    given = caller_job.get("with")
    choices: dict[str, list[Value]] = {}
    for name, spec in declared.str_items() if declared is not None and declared.is_map else ():
        kind_node = spec.get("type") if spec.is_map else None
        kind = kind_node.text if kind_node is not None and kind_node.is_scalar else "string"
        value = given.get(name) if given is not None and given.is_map else None
        if value is None:
            value = spec.get("default") if spec.is_map else None
        match = (
            MATRIX_VALUE.match(value.text.strip())
            if value is not None and value.is_scalar
            else None
        )
        nodes = matrix_values(caller_job, match.group(1)) if match is not None else [value]
        if nodes is None or not nodes:
            return None
        typed = [_typed(n, kind) for n in nodes]
        known = [t for t in typed if t is not UNKNOWN]
        if len(known) != len(typed):
            continue  # not computed: a name evaluate() does not know is UNKNOWN
        choices[f"inputs.{name}"] = known  # type: ignore[assignment]
    total = 1
    for values in choices.values():
        total *= len(values)
    if total > _MAX_CALLS:
        return None
    names = list(choices)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*choices.values())]


def _nodes_named(root: YNode, key: str) -> list[YNode]:
    """Every value of a mapping key `key` anywhere under `root` (walked without recursion)."""
    found: list[YNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_map:
            for k, v in node.pairs:
                if k.is_scalar and k.text == key:
                    found.append(v)
                stack.append(v)
        elif node.is_seq:
            stack.extend(node.items)
    return found


def never_forgives(finding: Finding, called: YNode, calls: list[dict[str, Value]]) -> bool:
    """Whether a `continue-on-error` finding of the called workflow is false in every one of these
    calls: its expression reads only inputs whose values the calls give."""
    if finding.rule_id != "continue-on-error":
        return False
    at = finding.primary
    for node in _nodes_named(called, "continue-on-error"):
        if node.line == at.line and node.column == at.column and node.is_scalar:
            return all(truthy(evaluate(node.text, names)) is False for names in calls)
    return False
