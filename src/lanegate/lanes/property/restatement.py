"""A reference implementation that restates the code under test is no oracle, found on syntax trees.

`equivalent(decode, reference_decode, s)` is a fine property when `reference_decode` is an independent
way to the same answer (a naive loop beside a fast one). When the new test file's reference is the
head's own function written again, it kills every mutant of that function and blesses whatever the
function does, bugs included. So for every `equivalent` call of a new test between a function the test
file defines and a function it imports from the head's source, the two bodies are compared with
variables renamed in order of appearance; at `SIMILAR` or more the test's oracle call does not count.
A reference that only looks answers up (`GOLDEN.__getitem__`, `lambda s: GOLDEN[s]`) is a snapshot the
diff recorded, maybe from its own wrong code: no oracle either (expected data is a locked fixture).
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from lanegate.pysource import parse as parse_python

SIMILAR = 0.85
_TOKEN = re.compile(r"\w+|[^\w\s]")
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
Reader = Callable[[str], bytes | None]


@dataclass(frozen=True, slots=True)
class Restatement:
    """A test whose `equivalent` reference restates the implementation it is compared with."""

    test: str
    line: int
    reason: str


class _Rename(ast.NodeTransformer):
    """Variables and parameters become v0, v1, ... in order of first appearance."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _name(self, name: str) -> str:
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id=self._name(node.id), ctx=node.ctx)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.arg(arg=self._name(node.arg))


def _shape(func: FunctionNode) -> list[str]:
    body = [stmt for stmt in func.body if not _is_docstring(stmt)]
    module = ast.Module(body=body, type_ignores=[])
    renamed = _Rename().visit(ast.parse(ast.unparse(module)))
    return _TOKEN.findall(ast.dump(renamed, annotate_fields=False))


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def similarity(a: FunctionNode, b: FunctionNode) -> float:
    """How alike two function bodies are once their variables are renamed (0 to 1)."""
    return difflib.SequenceMatcher(None, _shape(a), _shape(b), autojunk=False).ratio()


def _imports(tree: ast.Module) -> dict[str, tuple[str, str | None]]:
    """local name -> (module, attribute) for `from m import f [as g]`, (module, None) for `import m`."""
    out: dict[str, tuple[str, str | None]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                out[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".")[0]] = (alias.name, None)
    return out


def _is_equivalent(call: ast.Call, imports: dict[str, tuple[str, str | None]]) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return imports.get(func.id, ("", None))[1] == "equivalent"
    return isinstance(func, ast.Attribute) and func.attr == "equivalent"


def _target(expr: ast.expr, imports: dict[str, tuple[str, str | None]]) -> tuple[str, str] | None:
    """(module, function) an argument names through the file's imports, if it does."""
    if isinstance(expr, ast.Name) and expr.id in imports:
        module, attr = imports[expr.id]
        return (module, attr) if attr is not None else None
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        module, attr = imports.get(expr.value.id, ("", "x"))
        if module and attr is None:
            return module, expr.attr
    return None


def _lookup_table(expr: ast.expr) -> str | None:
    """`TABLE.__getitem__`, `TABLE.get` or `lambda x: TABLE[x]`: answers looked up, not computed."""
    if (
        isinstance(expr, ast.Attribute)
        and expr.attr in ("__getitem__", "get")
        and isinstance(expr.value, ast.Name)
    ):
        return ast.unparse(expr)
    if not isinstance(expr, ast.Lambda):
        return None
    params = {a.arg for a in expr.args.args}
    body = expr.body
    if isinstance(body, ast.Subscript) and isinstance(body.value, ast.Name):
        if body.value.id not in params:  # `lambda x: TABLE[x]`; `lambda v: v[-1:]` computes
            return ast.unparse(expr)
    return None


def module_paths(module: str, source_dirs: tuple[str, ...]) -> list[str]:
    """Repository paths a dotted module may live at, under the policy's source dirs."""
    rel = PurePosixPath(*module.split("."))
    bases = [PurePosixPath(folder.strip("/") or ".") for folder in source_dirs]
    return [
        candidate.as_posix().removeprefix("./")
        for base in bases
        for candidate in (base / f"{rel}.py", base / rel / "__init__.py")
    ]


def _function(source: bytes, name: str) -> FunctionNode | None:
    try:
        tree = parse_python(source)
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return node
    return None


def restatements(
    test_source: str,
    read: Reader,
    source_dirs: tuple[str, ...],
) -> list[Restatement]:
    """The tests of one file whose `equivalent` reference restates the implementation.

    `read(path) -> bytes | None` gives a head file (so this module stays free of git)."""
    try:
        tree = parse_python(test_source)
    except SyntaxError:
        return []
    imports = _imports(tree)
    local = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    found: list[Restatement] = []
    for test in tree.body:
        if not isinstance(test, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not test.name.startswith("test"):
            continue
        local_here = {**local}
        local_here.update(
            (n.name, n)
            for n in ast.walk(test)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n is not test
        )
        for call in ast.walk(test):
            if not isinstance(call, ast.Call) or not _is_equivalent(call, imports):
                continue
            reason = _restated(call, imports, local_here, read, source_dirs)
            if reason:
                found.append(Restatement(test.name, test.lineno, reason))
                break
    return found


def _restated(
    call: ast.Call,
    imports: dict[str, tuple[str, str | None]],
    local: dict[str, FunctionNode],
    read: Reader,
    source_dirs: tuple[str, ...],
) -> str | None:
    pair = call.args[:2]
    if len(pair) < 2:
        return None
    for side in pair:
        table = _lookup_table(side)
        if table is not None:
            return (
                f"equivalent() compares with {table} (line {call.lineno}), a table of answers "
                "the diff brings itself: a snapshot, not an oracle (lock expected data as a fixture)"
            )
    for mine, theirs in ((pair[0], pair[1]), (pair[1], pair[0])):
        if not isinstance(mine, ast.Name) or mine.id not in local:
            continue
        target = _target(theirs, imports)
        if target is None:
            continue
        module, name = target
        for path in module_paths(module, source_dirs):
            data = read(path)
            impl = _function(data, name) if data is not None else None
            if impl is None:
                continue
            score = similarity(local[mine.id], impl)
            if score >= SIMILAR:
                return (
                    f"equivalent() compares {module}.{name} with {mine.id} (line {call.lineno}), "
                    f"which restates it ({score:.0%} alike): no independent oracle"
                )
    return None
