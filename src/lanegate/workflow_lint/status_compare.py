"""What a shell comparison of a captured exit status decides: `[ $rc -le 1 ]`, `(( rc < 2 ))`,
`exit $(( rc > 1 ))` evaluated for one known status, or None when lanegate cannot tell."""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

from lanegate.workflow_lint.shell import Command, Word, argv

_MAX_EXPRESSION_CHARS = 200  # longer arithmetic is not evaluated (None: undecided)
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "-eq": operator.eq,
    "-ne": operator.ne,
    "-lt": operator.lt,
    "-le": operator.le,
    "-gt": operator.gt,
    "-ge": operator.ge,
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
}


def reads(command: Command, name: str) -> bool:
    """Whether the command reads `$name` (or `name` inside an arithmetic `(( ))`)."""
    if any(_name_in(expression, name) for expression in arithmetic_parts(command)):
        return True
    return any(f"${name}" in w.raw or f"${{{name}}}" in w.raw for w in command.words)


def arithmetic_parts(command: Command) -> list[str]:
    """The arithmetic expressions of a command: an `(( expr ))` command, and `$(( expr ))` words."""
    expression = arithmetic(command)
    parts = [] if expression is None else [expression]
    parts.extend(w.raw for w in command.words if "$((" in w.raw)
    return parts


def _name_in(expression: str, name: str) -> bool:
    return re.search(rf"(?<![\w$]){re.escape(name)}\b", expression) is not None


def arithmetic(command: Command) -> str | None:
    """The expression of an arithmetic command `(( expr ))`, else None."""
    words = command.words
    if len(words) == 1 and words[0].raw.startswith("((") and words[0].raw.endswith("))"):
        return words[0].raw[2:-2]
    return None


def _number(word: str, name: str, value: int) -> int | None:
    text = word.strip("\"'")
    if text in (f"${name}", f"${{{name}}}"):
        return value
    return int(text) if re.fullmatch(r"-?[0-9]+", text) else None


def _evaluate(expression: str, name: str, value: int) -> int | None:
    """An arithmetic expression's value with `name` bound to `value` (integers, comparisons, `&&`,
    `||`, `!`, `+ - * / %`); None for anything else."""
    if len(expression) > _MAX_EXPRESSION_CHARS:
        return None
    quoted = re.escape(name)
    text = re.sub(
        rf"\$\{{{quoted}\}}|\${quoted}(?!\w)|(?<![\w$]){quoted}\b", str(value), expression
    )
    if not re.fullmatch(r"[0-9\s<>=!&|()+\-*/%]*", text) or not text.strip():
        return None
    text = text.replace("&&", " and ").replace("||", " or ").replace("/", "//")
    text = re.sub(r"!(?!=)", " not ", text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    allowed = (
        ast.Expression, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Constant,
        ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv,
        ast.Mod, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
    )  # fmt: skip
    if not all(isinstance(node, allowed) for node in ast.walk(tree)):
        return None
    try:
        result = eval(compile(tree, "<arithmetic>", "eval"), {"__builtins__": {}})  # noqa: S307
    except (ArithmeticError, ValueError):
        return None
    return int(result) if isinstance(result, (int, bool)) else None


def holds(command: Command, name: str, value: int) -> bool | None:
    """Whether a comparison command succeeds when `$name` is `value`: `[`, `[[`, `test` with
    `-eq`..`-ge`, `=`, `!=` (optionally after `!`), or `(( expr ))`; None for any other command."""
    expression = arithmetic(command)
    if expression is not None:
        result = _evaluate(expression, name, value)
        return None if result is None else result != 0
    words = [w.raw for w in command.words]
    if not words or words[0] not in ("[", "[[", "test"):
        return None
    if words[0] != "test" and words[-1] in ("]", "]]"):
        words = words[:-1]
    words = words[1:]
    negate = bool(words) and words[0] == "!"
    words = words[1:] if negate else words
    if len(words) != 3:
        return None
    left, op, right = words
    compare = _COMPARE.get(op)
    a, b = _number(left, name, value), _number(right, name, value)
    if compare is None or a is None or b is None:
        return None
    return compare(a, b) != negate


def exit_code(command: Command, name: str, value: int, previous: int | None) -> int | None:
    """The status an `exit`/`return` leaves with when `$name` is `value` and the command before it
    returned `previous` (for a bare `exit` or `exit $?`); None when it cannot be told."""
    args = argv(command)
    if not args or args[0].value not in ("exit", "return"):
        return None
    if len(args) == 1:
        return previous
    return _code_of(args[1], name, value, previous)


def _code_of(word: Word, name: str, value: int, previous: int | None) -> int | None:
    text = word.raw.strip("\"'")
    if text in ("$?", "${?}"):
        return previous
    if text.startswith("$((") and text.endswith("))"):
        return _evaluate(text[3:-2], name, value)
    number = _number(text, name, value)
    return None if number is None else number % 256
