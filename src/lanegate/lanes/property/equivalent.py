"""Where an operator's edit cannot change what the code computes: equivalent mutants, never planted.

An equivalent mutant survives every test, so it counts against an honest diff's mutant budget as
if its tests were weak; it is no evidence of anything. Three shapes of ordinary code make them, and
each is recognised from the syntax tree alone:

- **a boundary that picks an operand.** `a if a > b else b`, `if a > b: return a` / `return b`,
  and the clamp `if x > hi: x = hi` choose between the two operands of their comparison; where
  `>` and `>=` disagree (`a == b`) either choice is a value equal to the other, so swapping the
  comparison's boundary (`>` for `>=`, `<` for `<=`) changes nothing. The negated condition still
  differs and is still planted.
- **a fallback that is never reached.** `max(xs, default=0)` (and `min`) uses its default only when
  the iterable is empty: where it provably is not (a display with an element, or a name the
  function's own guard `if not xs: return ...` left non-empty, or a generator over either), the
  default's edits are not mutants.
- **`if TYPE_CHECKING:`** is false whenever the code runs; its negation only imports what the
  annotations name (a mutant no test can tell apart, unless the import fails).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

BOUNDARY_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_FALLBACK_CALLS = frozenset({"max", "min"})


def _same(left: ast.AST, right: ast.AST) -> bool:
    return ast.dump(left) == ast.dump(right)


def _boundary_operands(test: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """The operands of a single `<`, `<=`, `>` or `>=` comparison."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], BOUNDARY_OPS)
    ):
        return test.left, test.comparators[0]
    return None


def _picks(values: Sequence[ast.expr], operands: tuple[ast.expr, ast.expr]) -> bool:
    """Whether `values` (the two choices, in order) are the comparison's two operands."""
    first, second = values
    left, right = operands
    return (_same(first, left) and _same(second, right)) or (
        _same(first, right) and _same(second, left)
    )


def _returned(stmts: Sequence[ast.stmt]) -> ast.expr | None:
    if len(stmts) == 1 and isinstance(stmts[0], ast.Return) and stmts[0].value is not None:
        return stmts[0].value
    return None


def _clamps(node: ast.If, operands: tuple[ast.expr, ast.expr]) -> bool:
    """`if a > b: a = b` (no else): at the boundary `a` already equals what it is set to."""
    if node.orelse or len(node.body) != 1 or not isinstance(node.body[0], ast.Assign):
        return False
    assign = node.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return False
    target = ast.Name(id=assign.targets[0].id, ctx=ast.Load())
    return _picks((target, assign.value), operands)


def _blocks(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block
        if isinstance(node, ast.Try | ast.TryStar):
            for handler in node.handlers:
                yield handler.body
        if isinstance(node, ast.Match):
            for case in node.cases:
                yield case.body


def boundary_picks(tree: ast.Module) -> frozenset[int]:
    """The ids of the comparisons whose boundary swap is equivalent (see the module docstring)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp):
            operands = _boundary_operands(node.test)
            if operands is not None and _picks((node.body, node.orelse), operands):
                found.add(id(node.test))
    for block in _blocks(tree):
        for i, stmt in enumerate(block):
            if not isinstance(stmt, ast.If):
                continue
            operands = _boundary_operands(stmt.test)
            if operands is None:
                continue
            chosen = _returned(stmt.body)
            other = _returned(stmt.orelse) if stmt.orelse else None
            if other is None and not stmt.orelse and i + 1 < len(block):
                other = _returned(block[i + 1 : i + 2])
            if chosen is not None and other is not None and _picks((chosen, other), operands):
                found.add(id(stmt.test))
            elif _clamps(stmt, operands):
                found.add(id(stmt.test))
    return frozenset(found)


def _non_empty_display(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.List | ast.Tuple | ast.Set)
        and bool(node.elts)
        and not any(isinstance(e, ast.Starred) for e in node.elts)
    )


def _guards_empty(stmt: ast.stmt, name: str) -> bool:
    """`if not name: return|raise ...` (or `len(name) == 0`, `== 0` / `< 1`): past it, `name` is
    non-empty."""
    if not isinstance(stmt, ast.If) or stmt.orelse or not stmt.body:
        return False
    if not isinstance(stmt.body[-1], ast.Return | ast.Raise):
        return False
    test = stmt.test
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id == name
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Call)
        and isinstance(test.left.func, ast.Name)
        and test.left.func.id == "len"
        and len(test.left.args) == 1
        and isinstance(test.left.args[0], ast.Name)
        and test.left.args[0].id == name
        and isinstance(test.comparators[0], ast.Constant)
    ):
        op, bound = test.ops[0], test.comparators[0].value
        return (isinstance(op, ast.Eq | ast.LtE) and bound == 0) or (
            isinstance(op, ast.Lt) and bound == 1
        )
    return False


def _rebinds(stmt: ast.stmt, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for n in ast.walk(stmt)
    )


def _non_empty(node: ast.expr, guarded: frozenset[str]) -> bool:
    """Whether iterating `node` provably yields at least one item (`guarded`: names the function's
    guards left non-empty)."""
    if _non_empty_display(node):
        return True
    if isinstance(node, ast.Name):
        return node.id in guarded
    if (
        isinstance(node, ast.GeneratorExp | ast.ListComp | ast.SetComp)
        and len(node.generators) == 1
    ):
        loop = node.generators[0]
        return not loop.ifs and not loop.is_async and _non_empty(loop.iter, guarded)
    return False


def _guarded_names(
    func: ast.FunctionDef | ast.AsyncFunctionDef, before: ast.stmt
) -> frozenset[str]:
    """The names the function's top-level guards before `before` left non-empty (and nothing
    rebound since)."""
    names: set[str] = set()
    for stmt in func.body:
        if stmt is before:
            break
        for name in list(names):
            if _rebinds(stmt, name):
                names.discard(name)
        if isinstance(stmt, ast.If):
            test = stmt.test
            candidate = None
            if isinstance(test, ast.UnaryOp) and isinstance(test.operand, ast.Name):
                candidate = test.operand.id
            elif (
                isinstance(test, ast.Compare) and isinstance(test.left, ast.Call) and test.left.args
            ):
                arg = test.left.args[0]
                candidate = arg.id if isinstance(arg, ast.Name) else None
            if candidate is not None and _guards_empty(stmt, candidate):
                names.add(candidate)
    return frozenset(names)


def unreached_fallbacks(tree: ast.Module) -> frozenset[int]:
    """The ids of every node inside a `default=` of `max`/`min` whose iterable is never empty."""
    found: set[int] = set()
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for stmt in func.body:
            guarded: frozenset[str] | None = None
            for node in _own_nodes(stmt):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in _FALLBACK_CALLS
                    and len(node.args) == 1
                ):
                    continue
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                if default is None:
                    continue
                if guarded is None:
                    guarded = frozenset(
                        n for n in _guarded_names(func, stmt) if not _rebinds(stmt, n)
                    )
                if _non_empty(node.args[0], guarded):
                    found.update(id(n) for n in ast.walk(default))
    return frozenset(found)


def _own_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of `stmt`, not descending into a nested function or lambda (its own scope, run
    whenever it is called)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            child
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        )


def type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING` (`t.TYPE_CHECKING`): false whenever code runs."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )
