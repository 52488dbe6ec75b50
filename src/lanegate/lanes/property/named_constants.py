"""The values of a module's named constants, folded from its source without running it.

One face::

    named_constants(tree: ast.Module) -> dict[str, int | float | str | bytes]
    names_bound(statement: ast.stmt) -> list[str]      # what a top-level statement binds

A guard's threshold is often a name, not a literal (`if size > LIMIT`, with `LIMIT = 2 ** 10` or
`DAY = 24 * HOUR` at module level): the behaviour diff seeds its inputs with the values of such
names, as it does with the literals on the changed lines. A name counts when the module binds it
exactly once, at its top level, by a plain or annotated assignment whose value folds: a literal
number, string or bytes, a sign, `+ - * / // % ** << >> & | ^` of such values (bounded: no
exponent or shift past `MAX_EXPONENT`, no result past `MAX_BITS`, no string past `MAX_CHARS`), or a
name that itself counts. Nothing is evaluated that is not one of these; everything else is left out.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

MAX_EXPONENT = 128
MAX_BITS = 256
MAX_CHARS = 200
MAX_DEPTH = 20

Value = int | float | str | bytes

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}


class _NotConstant(Exception):
    pass


def named_constants(tree: ast.Module) -> dict[str, Value]:
    """Each name the module binds once at top level to a value that folds (see module)."""
    bound: dict[str, list[ast.expr | None]] = {}
    for statement in tree.body:
        for name, value in _bindings(statement):
            bound.setdefault(name, []).append(value)
    single = {name: values[0] for name, values in bound.items() if len(values) == 1}
    out: dict[str, Value] = {}
    for name, expr in single.items():
        if expr is None:
            continue
        try:
            out[name] = _fold(expr, single, MAX_DEPTH)
        except (_NotConstant, ArithmeticError, ValueError, TypeError):
            continue
    return out


def _bindings(statement: ast.stmt) -> list[tuple[str, ast.expr | None]]:
    """The names a top-level statement binds, each with its value when it is a plain one."""
    if isinstance(statement, ast.Assign):
        if len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            return [(statement.targets[0].id, statement.value)]
        return [(name, None) for name in names_bound(statement)]
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [(statement.target.id, statement.value)]
    if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
        return [(statement.target.id, None)]
    # anything else that binds a name at top level (a def, an import, a loop) makes it no constant
    return [(name, None) for name in names_bound(statement)]


def names_bound(statement: ast.stmt) -> list[str]:
    """The names a statement binds in the module's own scope (not inside a def or class body)."""
    names: list[str] = []
    todo: list[ast.AST] = [statement]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
            continue  # its body is its own scope
        if isinstance(node, ast.Import | ast.ImportFrom):
            names += [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        todo.extend(ast.iter_child_nodes(node))
    return names


def _fold(expr: ast.expr, names: dict[str, ast.expr | None], depth: int) -> Value:
    if depth <= 0:
        raise _NotConstant
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, bool) or not isinstance(value, int | float | str | bytes):
            raise _NotConstant
        return _bounded(value)
    if isinstance(expr, ast.Name):
        found = names.get(expr.id)
        if found is None:
            raise _NotConstant
        return _fold(found, names, depth - 1)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub | ast.UAdd | ast.Invert):
        operand = _fold(expr.operand, names, depth - 1)
        if isinstance(operand, str | bytes):
            raise _NotConstant
        if isinstance(expr.op, ast.USub):
            return -operand
        if isinstance(expr.op, ast.UAdd):
            return +operand
        if not isinstance(operand, int):
            raise _NotConstant
        return ~operand
    if isinstance(expr, ast.BinOp) and type(expr.op) in _BINARY:
        left = _fold(expr.left, names, depth - 1)
        right = _fold(expr.right, names, depth - 1)
        if isinstance(expr.op, ast.Pow | ast.LShift) and (
            not isinstance(right, int | float) or abs(right) > MAX_EXPONENT
        ):
            raise _NotConstant
        if isinstance(expr.op, ast.Mult) and isinstance(left, str | bytes) != isinstance(
            right, str | bytes
        ):
            count = right if isinstance(left, str | bytes) else left
            if not isinstance(count, int) or count > MAX_CHARS:
                raise _NotConstant
        if isinstance(expr.op, ast.Mod) and isinstance(left, str | bytes):
            raise _NotConstant  # %-formatting: not arithmetic
        result = _BINARY[type(expr.op)](left, right)
        if isinstance(result, bool) or not isinstance(result, int | float | str | bytes):
            raise _NotConstant
        return _bounded(result)
    raise _NotConstant


def _bounded(value: Value) -> Value:
    if isinstance(value, int) and value.bit_length() > MAX_BITS:
        raise _NotConstant
    if isinstance(value, str | bytes) and len(value) > MAX_CHARS:
        raise _NotConstant
    return value
