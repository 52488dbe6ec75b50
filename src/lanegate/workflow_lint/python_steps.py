"""Retry loops in Python code run by a `shell: python` step (`for attempt in range(3): pytest.main()`)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from lanegate.workflow_lint.shell import TEST_PROGRAMS, is_test_command, parse_shell

_EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.DOTALL)
_SUBPROCESS = frozenset(
    {"run", "call", "check_call", "check_output", "Popen", "system", "getoutput", "getstatusoutput"}
)


@dataclass(frozen=True, slots=True)
class PythonLoop:
    """A loop (0-based line and column in the script) that retries a test invocation."""

    line: int
    col: int
    keyword: str


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return ""


def _strings(node: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def is_test_call(call: ast.Call) -> bool:
    """`pytest.main(...)`, or a subprocess/os.system call whose arguments run a test command."""
    name = _name(call.func)
    if name == "pytest.main":
        return True
    if name.rsplit(".", 1)[-1] not in _SUBPROCESS:
        return False
    if not call.args:
        return False
    first = call.args[0]
    if isinstance(first, ast.List | ast.Tuple):  # argv form: the program, or `python -m <program>`
        argv = [
            e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else ""
            for e in first.elts
        ]
        if argv and argv[0].rsplit("/", 1)[-1] in TEST_PROGRAMS:
            return True
        return any(a == "-m" and b in TEST_PROGRAMS for a, b in zip(argv, argv[1:], strict=False))
    return any(is_test_command(c) for s in _strings(first) for c in parse_shell(s).commands)


def _leaves_on_success(loop: ast.For | ast.While | ast.AsyncFor) -> bool:
    for node in ast.walk(loop):
        if isinstance(node, ast.Break | ast.Return):
            return True
        if isinstance(node, ast.Call) and _name(node.func) in ("sys.exit", "exit", "os._exit"):
            if not node.args or (
                isinstance(node.args[0], ast.Constant) and node.args[0].value in (0, None)
            ):
                return True
    return False


def retry_loops(source: str) -> list[PythonLoop]:
    """Loops that run tests and leave on success (or `while` loops around tests). Unparseable: none."""
    try:
        tree = ast.parse(_EXPRESSION.sub(lambda m: "0" * len(m.group(0)), source))
    except (SyntaxError, ValueError, RecursionError):
        return []
    found: list[PythonLoop] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.For | ast.While | ast.AsyncFor):
            continue
        if not any(isinstance(n, ast.Call) and is_test_call(n) for n in ast.walk(node)):
            continue
        if isinstance(node, ast.While) or _leaves_on_success(node):
            keyword = "while" if isinstance(node, ast.While) else "for"
            found.append(PythonLoop(node.lineno - 1, node.col_offset, keyword))
    return found
