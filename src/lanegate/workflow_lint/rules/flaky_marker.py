"""Flags `@pytest.mark.flaky(...)` and `@flaky(...)` on tests, and flaky marks applied in code
(`pytestmark`, `add_marker`, a parameter set's `pytest.param(..., marks=pytest.mark.flaky(...))`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind, Rule


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""


def _is_flaky(name: str) -> bool:
    return name in ("flaky", "flaky.flaky") or name.endswith("mark.flaky")


def _tests(
    module: ast.Module,
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]]:
    stack: list[tuple[str, ast.AST]] = [("", module)]
    while stack:
        prefix, node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}::{child.name}" if prefix else child.name
                yield name, child
                if isinstance(child, ast.ClassDef):
                    stack.append((name, child))


def check(ctx: FileContext) -> Iterator[Finding]:
    module = ctx.module
    if not isinstance(module, ast.Module) or "flaky" not in ctx.text:
        return  # every mark this rule names is spelled `flaky`
    decorators: set[int] = set()
    for name, definition in _tests(module):
        for decorator in definition.decorator_list:
            if _is_flaky(_dotted(decorator)):
                # only this mark's own nodes are done: a flaky mark inside another decorator
                # (`parametrize(..., [pytest.param(..., marks=pytest.mark.flaky(reruns=5))])`)
                # is found below
                decorators.update(id(n) for n in ast.walk(decorator))
                node_id = f"{ctx.path}::{name}"
                yield ctx.finding(
                    RULE,
                    decorator.lineno,
                    decorator.col_offset + 1,
                    f"{name} is marked flaky: failures are re-run until it passes",
                    route=(node_id,),
                )
    for node in ctx.tree.nodes if ctx.tree is not None else ast.walk(module):
        if id(node) in decorators or not isinstance(node, ast.Attribute):
            continue
        if _dotted(node).endswith("mark.flaky"):
            yield ctx.finding(
                RULE,
                node.lineno,
                node.col_offset + 1,
                "a flaky mark is applied in code: failures are re-run until they pass",
            )


RULE = Rule(
    id="flaky-marker",
    summary="a test is marked flaky, so its failures are re-run until it passes",
    fix="remove the flaky mark; fix the test, or lease it in flake_leases.json with an expiry",
    kinds=frozenset({FileKind.PYTHON}),
    check=check,
)
