"""Flags a retry loop in test code: a `for` or `while` whose body runs an act under `try` (or
`with suppress(...)`), swallows its failure in an `except` that goes round again, and leaves the loop
once the act succeeded.

That is a rerun plugin written by hand (in a test, a fixture, or a home-made `flaky`-style decorator of
any name in a helper module): a flaky failure is retried inside the test process, where no workflow
or plugin check sees it. A loop over different inputs (`for value in values: try: parse(value)`) is
not a retry: a `for` is one only when its act does not use the loop's own variable.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind, Rule

_EXITS = (ast.Raise, ast.Return, ast.Break)
# nested scopes and loops have their own retry question
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.For,
    ast.AsyncFor,
    ast.While,
)


def _own_nodes(statements: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of `statements`, not descending into nested functions, classes or loops."""
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))


def _leaves(statements: list[ast.stmt]) -> bool:
    """Whether these statements leave the loop (a `break` or `return` outside nested loops)."""
    return any(isinstance(n, ast.Break | ast.Return) for n in _own_nodes(statements))


def _goes_round(handler: ast.ExceptHandler) -> bool:
    """An `except` that does not always end the loop: its last statement is no raise, return or
    break (`if attempt == last: raise` goes round on every other attempt)."""
    return not handler.body or not isinstance(handler.body[-1], _EXITS)


def _names(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name)}


def _suppresses(node: ast.With | ast.AsyncWith) -> bool:
    """`with suppress(...)` / `with contextlib.suppress(...)`: a `try` whose `except` goes round."""
    for item in node.items:
        call = item.context_expr
        if isinstance(call, ast.Call):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "suppress":
                return True
    return False


def _swallowing(node: ast.AST) -> tuple[list[ast.stmt], list[ast.stmt]] | None:
    """(the act, what runs on success) of a statement that swallows the act's failure and goes on."""
    if isinstance(node, ast.Try | ast.TryStar) and any(_goes_round(h) for h in node.handlers):
        return node.body, node.body + node.orelse
    if isinstance(node, ast.With | ast.AsyncWith) and _suppresses(node):
        return node.body, node.body
    return None


def _retry_try(loop: ast.For | ast.AsyncFor | ast.While) -> ast.stmt | None:
    """The `try` (or `with suppress`) of `loop`'s own body that retries its act, if there is one."""
    loop_vars: set[str] = set()
    if isinstance(loop, ast.For | ast.AsyncFor):
        loop_vars = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    for node in _own_nodes(loop.body):
        found = _swallowing(node)
        if found is None or not isinstance(node, ast.stmt):
            continue
        act, succeeded = found
        after = loop.body[loop.body.index(node) + 1 :] if node in loop.body else []
        if not (_leaves(succeeded) or _leaves(after)):
            continue  # never leaves once the act succeeded: it drains or polls, it does not retry
        if loop_vars & _names(act):
            continue  # the act changes with the loop variable: a loop over inputs
        return node
    return None


def check(ctx: FileContext) -> Iterator[Finding]:
    module = ctx.module
    if not isinstance(module, ast.Module):
        return
    for node in ast.walk(module):
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            found = _retry_try(node)
            if found is not None:
                yield ctx.finding(
                    RULE,
                    node.lineno,
                    node.col_offset + 1,
                    f"a loop retries the act under `try` (line {found.lineno}) until it succeeds: "
                    "a failure is re-run inside the test",
                )


RULE = Rule(
    id="test-retry-loop",
    summary="test code retries its own act until it passes (a hand-written rerun)",
    fix="remove the loop and let one failure fail the test; fix the flakiness or lease the test",
    kinds=frozenset({FileKind.PYTHON}),
    check=check,
)
