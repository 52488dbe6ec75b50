"""A mutated module's edited top-level statement parsed alone, when that parse is provably the module's.

Checking a mutant parsed and compiled its whole module (about 6 ms for 150 lines, 200 times for
one diff). A mutant differs from its module only inside one top-level statement, and a statement
that starts and ends on lines of its own, at column 0, tokenizes the same alone as in its module:
the tokenizer starts every such logical line afresh. So the statement's edited lines, parsed alone
with the module's `__future__` flags and at their own line numbers, give the node the whole parse
would give, and they compile alone exactly when they compile in the module, unless another
statement takes part in the check. Only two do: `global`/`nonlocal` at module level (a name used
before its declaration) and `from __future__` imports (which must come first). `reparse` answers
None for every case it cannot vouch for (such a module, a statement sharing a line, another
encoding, a statement that does not parse alone as it does in its module, an edit that reaches
outside the statement), and the caller then parses the whole module. It never decides "invalid"
alone either: a statement that fails alone is checked whole.
"""

from __future__ import annotations
import __future__

import ast
import bisect
import io
import tokenize
from dataclasses import dataclass
from types import CodeType

from lanegate.lanes.property.operators import line_starts
from lanegate.lanes.property.syntax_equal import same_syntax

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_UTF8 = frozenset({"utf-8", "utf-8-sig"})


@dataclass(frozen=True, slots=True)
class Reparsed:
    """The edited statement alone: its index in the module body, its parse (as a one-statement
    module at the statement's own line numbers) and the module's `__future__` compiler flags."""

    index: int
    tree: ast.Module
    flags: int

    @property
    def node(self) -> ast.stmt:
        return self.tree.body[0]

    def code(self, path: str) -> CodeType | None:
        """The statement compiled (None: it does not compile alone; check the whole module)."""
        try:
            code = compile(self.tree, path, "exec", flags=self.flags, dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
        return code if isinstance(code, CodeType) else None


def _module_scope_declaration(body: list[ast.stmt]) -> bool:
    """Whether a `global` or `nonlocal` statement runs in the module's own scope."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal):
            return True
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _future_flags(body: list[ast.stmt]) -> tuple[int, int] | None:
    """(compiler flags, index of the last `from __future__` import), or None for an unknown one."""
    flags, last = 0, -1
    for index, node in enumerate(body):
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                if alias.name not in __future__.all_feature_names:
                    return None
                flags |= getattr(__future__, alias.name).compiler_flag
            last = index
    return flags, last


class ModuleStatements:
    """One unmutated module's top-level statements by line, for `reparse`."""

    def __init__(self, source: bytes, tree: ast.Module) -> None:
        self.source = source
        self.body = tree.body
        self._starts = line_starts(source)
        self._firsts = [self._first_line(node) for node in self.body]
        self._checked: dict[int, bool] = {}
        futures = _future_flags(self.body)
        self.usable = (
            futures is not None
            and _encoding(source) in _UTF8
            and not _module_scope_declaration(self.body)
        )
        self.flags, self._last_future = futures if futures is not None else (0, -1)

    @staticmethod
    def _first_line(node: ast.stmt) -> int:
        decorators: list[ast.expr] = getattr(node, "decorator_list", [])
        return min([node.lineno, *(d.lineno for d in decorators)])

    def _span(self, index: int) -> tuple[int, int] | None:
        """The statement's first and last line when it has them to itself, starting at column 0."""
        node = self.body[index]
        first, last = self._firsts[index], node.end_lineno or node.lineno
        if index > 0 and (self.body[index - 1].end_lineno or 0) >= first:
            return None
        if index + 1 < len(self.body) and self._firsts[index + 1] <= last:
            return None
        return first, last

    def _parse(self, text: bytes, first: int) -> ast.Module | None:
        """`text` parsed as lines `first`... of the module (its future flags, its line numbers)."""
        try:
            tree = compile(
                b"\n" * (first - 1) + text,
                "<statement>",
                "exec",
                flags=ast.PyCF_ONLY_AST | self.flags,
                dont_inherit=True,
            )
        except (SyntaxError, ValueError):
            return None
        return tree if isinstance(tree, ast.Module) else None

    def _self_contained(self, index: int, first: int, last: int) -> bool:
        """Whether the statement's own lines parse alone to the statement itself (checked once)."""
        if index not in self._checked:
            alone = self._parse(self.source[self._starts[first - 1] : self._starts[last]], first)
            self._checked[index] = (
                alone is not None
                and len(alone.body) == 1
                and same_syntax(alone.body[0], self.body[index])
            )
        return self._checked[index]

    def reparse(self, mutated: bytes, line: int) -> Reparsed | None:
        """The statement holding `line`, parsed alone from `mutated` (see the module docstring)."""
        if not self.usable or line < 1 or line >= len(self._starts):
            return None
        index = bisect.bisect_right(self._firsts, line) - 1
        if index < 0 or index <= self._last_future:
            return None
        span = self._span(index)
        if span is None or not span[0] <= line <= span[1]:
            return None
        first, last = span
        begin, end = self._starts[first - 1], self._starts[last]
        kept = len(self.source) - end
        if (
            len(mutated) < begin + kept
            or mutated[:begin] != self.source[:begin]
            or mutated[len(mutated) - kept :] != self.source[end:]
        ):
            return None
        edited = mutated[begin : len(mutated) - kept]
        if not self._self_contained(index, first, last):
            return None
        tree = self._parse(edited, first)
        if tree is None or len(tree.body) != 1 or _module_scope_declaration(tree.body):
            return None
        node = tree.body[0]
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            return None
        return Reparsed(index, tree, self.flags)


def _encoding(source: bytes) -> str:
    try:
        return tokenize.detect_encoding(io.BytesIO(source).readline)[0]
    except SyntaxError:
        return ""
