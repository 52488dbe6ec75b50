"""Call probes: the traced files compiled with a probe call opening every function, class and module
body, so that a test process learns which of their functions each test called without a tracer.

A global trace function (`sys.settrace`) runs on every Python call the process makes, although only
the calls into the traced files count: on more-itertools' suite it made pytest 2.7x as costly in CPU.
A probe costs one call, in the traced files only, in whichever thread runs them. It records what the
tracer's `call` events recorded there: `co_firstlineno` of every function (lambdas included), class
body and module body that started running.

The probe is the builtin `__lanegate_probe__(file_index, first_line)`: a builtin, so a function
copied into other globals still finds it. The file is compiled from its bytes on disk under its real
name and never cached as byte code; every probe sits on the line of the statement it precedes, after
a docstring and `from __future__` imports, so line numbers, tracebacks, `__doc__` and
`inspect.getsource` stay as they were. Comprehensions get none: their code runs only inside a body
that has one.

A probe allocates nothing a test can see: a hit sets a byte in a table of its file, one byte per line,
made when the file is compiled (`ProbeFinder.hits`), so a test that counts live objects
(`gc.get_objects()`) or traced memory around a call of probed code counts what it counted without
lanegate. The recorder reads and clears the table between tests (`ProbeFinder.take`).
"""

from __future__ import annotations

import ast
import builtins
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import CodeType

from lanegate.lanes.property.importhook import ServingFinder
from lanegate.pysource import parse as parse_python

PROBE = "__lanegate_probe__"
Hit = Callable[[int, int], None]


def instrument(source: bytes, filename: str, index: int) -> CodeType:
    """The module's code with a probe `PROBE(index, first_line)` opening every body."""
    tree = parse_python(source, filename)
    _Probes(index).visit(tree)
    _open_body(tree.body, index, 1, module=True)
    return compile(tree, filename, "exec", dont_inherit=True)


class _Probes(ast.NodeTransformer):
    def __init__(self, index: int) -> None:
        self.index = index

    def _scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        self.generic_visit(node)
        # a decorated definition's code starts at its first decorator (co_firstlineno)
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        _open_body(node.body, self.index, first)
        return node

    visit_FunctionDef = _scope
    visit_AsyncFunctionDef = _scope
    visit_ClassDef = _scope

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self.generic_visit(node)
        # `probe(...) or body`: the probe returns None, so the lambda's value is its body's
        call = _call(self.index, node.lineno, node.body)
        node.body = ast.copy_location(ast.BoolOp(op=ast.Or(), values=[call, node.body]), node.body)
        return node


def _call(index: int, line: int, at: ast.AST) -> ast.Call:
    call = ast.Call(
        func=ast.Name(id=PROBE, ctx=ast.Load()),
        args=[ast.Constant(index), ast.Constant(line)],
        keywords=[],
    )
    for node in ast.walk(call):
        ast.copy_location(node, at)
    return call


def _open_body(body: list[ast.stmt], index: int, line: int, *, module: bool = False) -> None:
    """Insert the probe before the body's first statement that is no docstring (nor, in a module,
    a `from __future__` import), on that statement's line."""
    at = 0
    if body and _is_docstring(body[0]):
        at = 1
    while module and at < len(body) and _is_future(body[at]):
        at += 1
    anchor = body[at] if at < len(body) else body[-1] if body else None
    if anchor is None:  # an empty module: nothing to open
        return
    body.insert(at, ast.copy_location(ast.Expr(_call(index, line, anchor)), anchor))


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _is_future(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


class _ProbedLoader(importlib.machinery.SourceFileLoader):
    """The file's own loader in all but its code: compiled with probes from the bytes on disk,
    never from or into a byte-code cache (package data, `get_source` and the rest are unchanged)."""

    def __init__(self, fullname: str, path: str, index: int, finder: ProbeFinder) -> None:
        super().__init__(fullname, path)
        self.index = index
        self.finder = finder

    def get_code(self, fullname: str) -> CodeType:
        path = self.get_filename(fullname)
        data = self.get_data(path)
        self.finder.reserve(self.index, data.count(b"\n") + 2)
        return instrument(data, path, self.index)


class ProbeFinder(ServingFinder):
    """Serves every probed file probed."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = tuple(str(Path(p).resolve()) for p in paths)
        self._index = {path: i for i, path in enumerate(self.paths)}
        self._names = frozenset(Path(p).name for p in self.paths)
        # per probed file, one byte per line: 1 where a body opening on that line started running
        self.hits: tuple[bytearray, ...] = tuple(bytearray() for _ in self.paths)

    def reserve(self, index: int, lines: int) -> None:
        """Make file `index`'s table hold `lines` lines (in place: a probe may hold it)."""
        table = self.hits[index]
        if len(table) < lines:
            table.extend(bytes(lines - len(table)))

    def take(self) -> set[tuple[str, int]]:
        """The (file, first line) of every body that ran since the last call, and clear them."""
        return take_hits(zip(self.paths, self.hits, strict=True))

    def loader_for(self, fullname: str, origin: str) -> importlib.abc.Loader | None:
        index = self._index.get(str(Path(origin).resolve()))
        return None if index is None else _ProbedLoader(fullname, origin, index, self)

    def unprobed(self) -> list[str]:
        """The probed files some module of this process was loaded from without probes (by a
        loader of its own, or before the finder was installed): their calls went unrecorded."""
        out = set()
        for module in list(sys.modules.values()):
            file = getattr(module, "__file__", None)
            # only a module named like a probed file can be one: the rest are never resolved
            if not isinstance(file, str) or os.path.basename(file) not in self._names:
                continue
            try:
                resolved = str(Path(file).resolve())
            except (OSError, ValueError):
                continue
            if resolved in self._index and not isinstance(
                getattr(module, "__loader__", None), _ProbedLoader
            ):
                out.add(resolved)
        return sorted(out)


def line_table(path: str) -> bytearray:
    """A hit table of one file: a byte per line (empty when the file cannot be read)."""
    try:
        return bytearray(Path(path).read_bytes().count(b"\n") + 2)
    except OSError:
        return bytearray()


def take_hits(tables: Iterable[tuple[str, bytearray]]) -> set[tuple[str, int]]:
    """The (file, line) of every byte set in `tables`, each cleared in place."""
    out: set[tuple[str, int]] = set()
    for path, table in tables:
        line = table.find(1)  # memchr: a file none of whose bodies ran costs next to nothing
        while line >= 0:
            out.add((path, line))
            table[line] = 0
            line = table.find(1, line + 1)
    return out


def install_probes(paths: Sequence[str], hit: Hit) -> ProbeFinder | None:
    """Probe `paths` from now on, calling `hit(index into paths, first line)`; None (nothing
    installed) when one of them is already imported: its functions could only be traced."""
    finder = ProbeFinder(paths)
    if finder.unprobed():
        return None
    setattr(builtins, PROBE, hit)
    sys.meta_path.insert(0, finder)
    return finder
