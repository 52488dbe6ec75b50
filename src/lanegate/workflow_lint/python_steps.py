"""Retry loops in Python code run by a `shell: python` step (`for attempt in range(3): pytest.main()`)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from lanegate.workflow_lint.bounded_parse import parse_python
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


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp)
# what keeps the best of several runs: the smallest exit code, any success, the first success
_BEST_OF = frozenset({"min", "any", "next"})


def _runs_tests(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and is_test_call(n) for n in ast.walk(node))


def _collected_runs(tree: ast.Module) -> set[str]:
    """Names holding the results of several test runs: assigned a comprehension that runs tests,
    or appended to (`codes.append(subprocess.call(...))`) inside a loop."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, _COMPREHENSIONS):
            if _runs_tests(node.value):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.For | ast.While | ast.AsyncFor):
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "append"
                    and isinstance(call.func.value, ast.Name)
                    and any(_runs_tests(a) for a in call.args)
                ):
                    names.add(call.func.value.id)
    return names


def _best_of_runs(tree: ast.Module) -> list[PythonLoop]:
    """`sys.exit(min(subprocess.call([...pytest]) for _ in range(3)))`, `any(...)`, `0 in codes`:
    the tests run several times and the best result is kept."""
    runs = _collected_runs(tree)

    def several(node: ast.AST) -> bool:
        return (isinstance(node, _COMPREHENSIONS) and _runs_tests(node)) or (
            isinstance(node, ast.Name) and node.id in runs
        )

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in _BEST_OF and node.args:
            if several(node.args[0]) or (
                isinstance(node.args[0], ast.Call)
                and _name(node.args[0].func) == "filter"
                and any(several(a) for a in node.args[0].args)
            ):
                found.append(PythonLoop(node.lineno - 1, node.col_offset, _name(node.func)))
        elif isinstance(node, ast.Compare) and any(isinstance(o, ast.In) for o in node.ops):
            if any(several(c) for c in node.comparators):
                found.append(PythonLoop(node.lineno - 1, node.col_offset, "in"))
    return found


def retry_loops(source: str) -> list[PythonLoop] | None:
    """Loops that run tests and leave on success (or `while` loops around tests), and several runs
        of the tests of which the best result is kept (`min(...)` of exit codes). None when the script does
    not parse (or is nested too deeply): it cannot be analysed."""
    try:
        tree = parse_python(_EXPRESSION.sub(lambda m: "0" * len(m.group(0)), source))
    except (SyntaxError, ValueError):
        return None
    found: list[PythonLoop] = _best_of_runs(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.For | ast.While | ast.AsyncFor):
            continue
        if not any(isinstance(n, ast.Call) and is_test_call(n) for n in ast.walk(node)):
            continue
        if isinstance(node, ast.While) or _leaves_on_success(node):
            keyword = "while" if isinstance(node, ast.While) else "for"
            found.append(PythonLoop(node.lineno - 1, node.col_offset, keyword))
    return found
