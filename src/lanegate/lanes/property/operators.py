"""AST mutation operators: each proposes small source edits of one node; no string-literal mutations.

Operators (OPERATORS_VERSION names this exact list and behaviour; bump it on any change, since mutant ids
depend on it): comparison swaps, boolean operator swaps, arithmetic swaps, off-by-one on int constants
and on slice bounds, negated conditions, a return of the type's default (its other simplest value
where the default is what the line returns: `return False` in a `-> bool` function becomes `True`,
`return None` becomes `...`), and removed statements (also over several lines). An edit whose replacement is the original text is no mutant and is never
proposed, nor is an edit that cannot change what the code computes (`equivalent`: a boundary swap
of a comparison that picks one of its operands, a `max`/`min` default never reached, the negation
of `if TYPE_CHECKING:`). Arid
nodes (docstrings, annotations, f-strings, logging/print/warnings calls, and an int literal that only
sizes a worker pool) are never mutated.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
from dataclasses import dataclass

from lanegate.lanes.property import equivalent

OPERATORS_VERSION = "lanegate-ops-6"

OPERATOR_NAMES = (
    "compare",
    "boolean",
    "arithmetic",
    "augmented",
    "constant-plus-one",
    "constant-minus-one",
    "slice-bound",
    "negate-condition",
    "return-default",
    "remove-statement",
)

_COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_ARITH_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitAnd,
}
_DEFAULTS = {
    "int": "0",
    "float": "0.0",
    "bool": "False",
    "str": "''",
    "bytes": "b''",
    "list": "[]",
    "dict": "{}",
    "set": "set()",
    "tuple": "()",
}
# The type's other simplest value, for a return whose value already is the default (`return False`
# in a `-> bool` function): a mutant must differ from the original. An int's 0 has none here, since
# its constant operators already make it 1 and -1.
_OTHER_DEFAULTS = {
    "None": "...",  # `return None` (a "nothing found" guard): a value no caller takes for None
    "False": "True",
    "0.0": "1.0",
    "''": "' '",
    "b''": "b' '",
    "[]": "[None]",
    "{}": "{None: None}",
    "set()": "{None}",
    "()": "(None,)",
}
_ARID_CALLS = ("print", "logging.", "logger.", "log.", "warnings.warn")
# Arguments that only size a standard-library worker pool: by the pools' contract (`map` returns the
# results in input order, `submit` one future per call) the number of workers and the chunk size
# change how fast, never what, so a changed int literal there is an equivalent mutant that no test
# can kill (Google's "arid node" for a container's initial capacity). The callee must resolve,
# through the module's own imports, to the standard library's class (a name of that spelling bound
# to anything else is no pool), and the size must be at least 2: one worker serialises, which code
# may rely on. Qualified name -> the keyword, and whether the first positional argument is it.
_POOL_SIZE = {
    "concurrent.futures.ThreadPoolExecutor": ("max_workers", True),
    "concurrent.futures.ProcessPoolExecutor": ("max_workers", True),
    "concurrent.futures.InterpreterPoolExecutor": ("max_workers", True),
    "concurrent.futures.thread.ThreadPoolExecutor": ("max_workers", True),
    "concurrent.futures.process.ProcessPoolExecutor": ("max_workers", True),
    "multiprocessing.pool.ThreadPool": ("processes", True),
    "multiprocessing.pool.Pool": ("processes", True),
    "multiprocessing.Pool": ("processes", True),
}


@dataclass(frozen=True, slots=True)
class Edit:
    """One proposed mutation: replace the source span [start, end) (1-based lines, byte columns)."""

    operator: str
    line: int
    column: int
    end_line: int
    end_column: int
    replacement: str


def _span(node: ast.AST, operator: str, replacement: str) -> Edit:
    return Edit(
        operator,
        node.lineno,  # type: ignore[attr-defined]
        node.col_offset,  # type: ignore[attr-defined]
        node.end_lineno or node.lineno,  # type: ignore[attr-defined]
        node.end_col_offset or 0,  # type: ignore[attr-defined]
        replacement,
    )


def _paren(node: ast.AST) -> str:
    return f"({ast.unparse(node)})"


def _is_int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _return_default(func: ast.FunctionDef | ast.AsyncFunctionDef | None) -> str:
    if func is None or func.returns is None:
        return "None"
    text = ast.unparse(func.returns)
    return _DEFAULTS.get(text.split("[")[0], "None")


def _return_replacement(
    value: ast.expr, func: ast.FunctionDef | ast.AsyncFunctionDef | None
) -> str | None:
    """The `return-default` replacement of a returned value: the type's default, or its other
    simplest value where the line already returns the default (None: no value that differs)."""
    fallback = _return_default(func)
    if ast.unparse(value) != fallback:
        return fallback
    return _OTHER_DEFAULTS.get(fallback)


def is_arid_statement(node: ast.stmt) -> bool:
    """A statement that only logs, prints or warns (or binds a logger): arid, never mutated, not
    the diff's behaviour."""
    if isinstance(node, ast.Expr | ast.Assign | ast.AnnAssign) and node.value is not None:
        return _arid_call(node.value)
    return False


def _arid_call(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    text = ast.unparse(node.func)
    return any(text == a or text.startswith(a) for a in _ARID_CALLS)


_CMP_TEXT: dict[type[ast.cmpop], str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
_BIN_TEXT: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.MatMult: "@",
}
_GAP_NOISE = b" \t\r\n()\\"
_COMMENT = re.compile(rb"#[^\n]*")


class _Source:
    """Byte offsets of one module's lines, to locate operator tokens between two operand nodes."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.starts = line_starts(source)

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line]

    def token_edit(
        self, operator: str, left: ast.AST, right: ast.AST, replacement: str
    ) -> Edit | None:
        """An edit of the operator token between `left` and `right` (skipping parens and comments)."""
        begin = self.offset(left.end_lineno or 0, left.end_col_offset or 0)  # type: ignore[attr-defined]
        end = self.offset(right.lineno, right.col_offset)  # type: ignore[attr-defined]
        gap = _COMMENT.sub(lambda m: b" " * len(m.group()), self.source[begin:end])
        lead = len(gap) - len(gap.lstrip(_GAP_NOISE))
        trail = len(gap.rstrip(_GAP_NOISE))
        if trail <= lead:
            return None
        line, column = self.position(begin + lead)
        end_line, end_column = self.position(begin + trail)
        return Edit(operator, line, column, end_line, end_column, replacement)


class _Walker:
    """Collects edits from one module, skipping arid nodes."""

    def __init__(
        self,
        source: _Source,
        imports: dict[str, str] | None = None,
        boundary_picks: frozenset[int] = frozenset(),
        unreached: frozenset[int] = frozenset(),
    ) -> None:
        self.source = source
        self.imports = imports or {}  # local name -> the module or object it was imported as
        # ids of comparisons whose boundary swap is equivalent, and of nodes never evaluated in a
        # way that matters (`equivalent`)
        self.boundary_picks = boundary_picks
        self.unreached = unreached
        # edit, enclosing def first line, qualname, and the def whose signature holds it ("")
        self.edits: list[tuple[Edit, int, str, str]] = []
        self.signature_of = ""  # set while a def's defaults and decorators are walked
        self.scope: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, int]] = []

    def _where(self) -> tuple[int, str]:
        funcs = [(n, first) for n, first in self.scope if not isinstance(n, ast.ClassDef)]
        if not funcs:
            return 0, "<module>"
        return funcs[-1][1], ".".join(n.name for n, _ in self.scope)

    def _func(self) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        for node, _ in reversed(self.scope):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None

    def add(self, edit: Edit) -> None:
        """Record `edit`, unless it replaces a span with the same text (no mutant at all)."""
        if original_text(self.source.source, edit) == edit.replacement:
            return
        first, name = self._where()
        self.edits.append((edit, first, name, self.signature_of))

    def body(self, stmts: list[ast.stmt]) -> None:
        for i, stmt in enumerate(stmts):
            is_docstring = (
                i == 0
                and isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            )
            if not is_docstring:
                self.stmt(stmt)

    def stmt(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
            # evaluated where the def runs (its code object is the enclosing one's), but they
            # decide what the def does when called: their mutants count toward its budget
            outer = self.signature_of
            self.signature_of = ".".join([*(n.name for n, _ in self.scope), stmt.name])
            for deco in stmt.decorator_list:
                self.expr(deco)
            if not isinstance(stmt, ast.ClassDef):
                for default in [*stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d)]:
                    self.expr(default)
            self.signature_of = outer
            self.scope.append((stmt, first))
            self.body(stmt.body)
            self.scope.pop()
            return
        if isinstance(stmt, ast.Return):
            if stmt.value is not None:
                replacement = _return_replacement(stmt.value, self._func())
                if replacement is not None:
                    self.add(_span(stmt.value, "return-default", replacement))
                self.expr(stmt.value)
            return
        removable = isinstance(
            stmt, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Raise | ast.Expr
        )
        if isinstance(stmt, ast.Expr) and (
            _arid_call(stmt.value) or isinstance(stmt.value, ast.Constant)
        ):
            return
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.expr(stmt.value)
            if stmt.value is not None and len(self.scope) > 0:
                self.add(_span(stmt, "remove-statement", "pass"))
            return
        if isinstance(stmt, ast.AugAssign):
            swap = _ARITH_SWAP.get(type(stmt.op))
            if swap is not None:
                edit = self.source.token_edit(
                    "augmented", stmt.target, stmt.value, _BIN_TEXT[swap] + "="
                )
                if edit is not None:
                    self.add(edit)
        if isinstance(stmt, ast.If | ast.While) and not equivalent.type_checking(stmt.test):
            self.add(_span(stmt.test, "negate-condition", f"(not {_paren(stmt.test)})"))
        if isinstance(stmt, ast.Assert):
            self.expr(stmt.test)  # the message is arid
            return
        if removable and self.scope:  # over several lines too: `pass` takes its whole span
            self.add(_span(stmt, "remove-statement", "pass"))
        for field_name, value in ast.iter_fields(stmt):
            if field_name in ("annotation", "returns", "type_comment"):
                continue
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    for sub in value:
                        self.stmt(sub)
                else:
                    for item in value:
                        self._any(item)
            else:
                self._any(value)

    def _any(self, value: object) -> None:
        if isinstance(value, ast.expr):
            self.expr(value)
        elif isinstance(value, ast.stmt):
            self.stmt(value)
        elif isinstance(value, ast.ExceptHandler):
            self.body(value.body)
        elif isinstance(value, ast.AST):
            for child in ast.iter_child_nodes(value):
                self._any(child)

    def expr(self, node: ast.expr) -> None:
        if (
            isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.Constant) and isinstance(node.value, str | bytes))
            or id(node) in self.unreached
        ):
            return
        edit: Edit | None = None
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            picks = id(node) in self.boundary_picks
            for i, op in enumerate(node.ops):
                cmp_swap = _COMPARE_SWAP.get(type(op))
                if picks and isinstance(op, equivalent.BOUNDARY_OPS):
                    continue  # either side of the boundary picks an equal value
                if cmp_swap is not None:
                    edit = self.source.token_edit(
                        "compare", operands[i], operands[i + 1], _CMP_TEXT[cmp_swap]
                    )
                    if edit is not None:
                        self.add(edit)
        elif isinstance(node, ast.BoolOp):
            swap = "or" if isinstance(node.op, ast.And) else "and"
            edit = self.source.token_edit("boolean", node.values[0], node.values[1], swap)
            if edit is not None:
                self.add(edit)
        elif isinstance(node, ast.BinOp):
            arith = _ARITH_SWAP.get(type(node.op))
            if arith is not None and not _string_format(node):
                edit = self.source.token_edit("arithmetic", node.left, node.right, _BIN_TEXT[arith])
                if edit is not None:
                    self.add(edit)
        elif isinstance(node, ast.IfExp):
            self.add(_span(node.test, "negate-condition", f"(not {_paren(node.test)})"))
        elif isinstance(node, ast.Slice):
            for bound in (node.lower, node.upper):
                if bound is not None and not _is_int(bound):
                    self.add(_span(bound, "slice-bound", f"({ast.unparse(bound)} + 1)"))
        elif _is_int(node):
            assert isinstance(node, ast.Constant) and isinstance(node.value, int)
            self.add(_span(node, "constant-plus-one", repr(node.value + 1)))
            self.add(_span(node, "constant-minus-one", repr(node.value - 1)))
            return
        elif isinstance(node, ast.Call) and _arid_call(node):
            return
        elif isinstance(node, ast.Call):
            arid = pool_size_literals(node, self.imports)
            for child in ast.iter_child_nodes(node):
                value = child.value if isinstance(child, ast.keyword) else child
                if isinstance(value, ast.expr) and id(value) not in arid:
                    self.expr(value)
            return
        elif isinstance(node, ast.Lambda):
            self.expr(node.body)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
            elif isinstance(child, ast.comprehension):
                self.expr(child.iter)
                for cond in child.ifs:
                    self.expr(cond)
            elif isinstance(child, ast.keyword):
                self.expr(child.value)


def module_imports(tree: ast.Module) -> dict[str, str]:
    """The imports of `tree` (at any depth: `from concurrent.futures import ...` inside a function is
    common): local name -> what it names (`cf` -> `concurrent.futures`, `TPE` ->
    `concurrent.futures.ThreadPoolExecutor`). A name that anything else binds too (an assignment,
    a def, a parameter, another import) names nothing certain and is left out."""
    imported: dict[str, set[str]] = {}
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".", 1)[0]
                target = alias.name if alias.asname else name
                imported.setdefault(name, set()).add(target)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                target = f"{node.module}.{alias.name}" if node.module and not node.level else ""
                imported.setdefault(alias.asname or alias.name, set()).add(target)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.MatchAs | ast.MatchStar):
            if node.name:
                bound.add(node.name)
    return {
        name: next(iter(targets))
        for name, targets in imported.items()
        if len(targets) == 1 and "" not in targets and name not in bound
    }


def _qualified(func: ast.expr, imports: dict[str, str]) -> str:
    """`func`'s dotted name with its first part replaced by what the module imported under it
    ("" when the first part is not an import of the module)."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in imports:
        return ""
    return ".".join([imports[func.id], *reversed(parts)])


def pool_size_literals(node: ast.Call, imports: dict[str, str]) -> frozenset[int]:
    """The ids of the int literals (>= 2) among `node`'s arguments that only size a standard-library
    worker pool (see `_POOL_SIZE`): never mutated. Only literals: an expression there may do more
    than size."""
    entry = _POOL_SIZE.get(_qualified(node.func, imports))
    if entry is None:
        return frozenset()
    keyword, positional = entry
    sized = [k.value for k in node.keywords if k.arg == keyword]
    if positional and node.args:
        sized.append(node.args[0])
    return frozenset(
        id(value)
        for value in sized
        if _is_int(value)
        and isinstance(value, ast.Constant)
        and isinstance(value.value, int)
        and value.value >= 2
    )


def _string_format(node: ast.BinOp) -> bool:
    """`"..." % x` and `"a" + name` build messages: arid."""
    return any(
        isinstance(side, ast.Constant)
        and isinstance(side.value, str | bytes)
        or isinstance(side, ast.JoinedStr)
        for side in (node.left, node.right)
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    """A proposed edit with the function it lives in (first line as in `co_firstlineno`, qualname)."""

    edit: Edit
    function_line: int
    function: str
    owner: str = ""  # the def whose default or decorator holds the edit (its budget's function)


def candidates(tree: ast.Module, source: bytes) -> list[Candidate]:
    """Every edit the operators propose for a module (parsed from `source`), in source order."""
    walker = _Walker(
        _Source(source),
        module_imports(tree),
        equivalent.boundary_picks(tree),
        equivalent.unreached_fallbacks(tree),
    )
    walker.body(tree.body)
    out = [Candidate(e, first, name, owner) for e, first, name, owner in walker.edits]
    out.sort(key=lambda c: (c.edit.line, c.edit.column, c.edit.operator))
    return out


@functools.lru_cache(maxsize=16)
def line_starts(source: bytes) -> tuple[int, ...]:
    """The byte offset of each line of `source`, and its length last. Cached: a plan applies and
    reads a thousand edits of the same few modules, and splitting a module per edit was most of
    its candidates' cost (a bytes object keeps its hash, so a hit costs no pass over the source)."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return tuple(starts)


def apply_edit(source: bytes, edit: Edit) -> bytes:
    """The source with one edit applied (columns are UTF-8 byte offsets, as the ast module gives them)."""
    starts = line_starts(source)
    begin = starts[edit.line - 1] + edit.column
    end = starts[edit.end_line - 1] + edit.end_column
    return source[:begin] + edit.replacement.encode("utf-8") + source[end:]


def original_text(source: bytes, edit: Edit) -> str:
    """The source text an edit replaces."""
    starts = line_starts(source)
    begin = starts[edit.line - 1] + edit.column
    end = starts[edit.end_line - 1] + edit.end_column
    return source[begin:end].decode("utf-8", "replace")
