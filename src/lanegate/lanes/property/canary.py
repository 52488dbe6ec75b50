"""Canary mutants: edits of the changed code that provably keep its behaviour, planted with the real ones.

A canary goes through the same mechanism as a real mutant (a `MutantSpec`, the same job shape, the
same worker, the same in-memory and on-disk change) and is drawn from the same operator families, so
a test that tells code text apart instead of behaviour "kills" it; that kill is void and fails the
lane (`property-canary-killed`). Which canaries a run plants follows a per-run secret seed, recorded
in the ledger only after the run (the scorer re-derives the set with it).

Each family is restricted to where equivalence holds with no assumption about a value's type, or
only the one stated:

- `compare` (mirror): `x < 3` -> `3 > x`, `==`/`!=`/`<`/`<=`/`>`/`>=`, a single comparison of a plain
  name or a number with a number literal. Python tries the reflected method when the other returns
  NotImplemented, so the result is the same for every type whose `__lt__` and `__gt__` agree
  (all built-in numbers, and every type that does not define a comparison with int/float); only the
  text of the TypeError an unsupported comparison raises names the other operator.
- `arithmetic` (commute): `len(xs) + 1` -> `1 + len(xs)` for `+ * & | ^`, where one operand is an
  int literal and the other an int literal or `len(name)` (len always returns an exact int; the
  builtin must not be rebound in the module): int arithmetic commutes, and a literal has no side
  effect, so evaluation order does not matter.
- `boolean` (De Morgan): `if a and b:` -> `if not (not (a) or not (b)):`, only where the value is
  used as a condition (an `if`/`while`/ternary/`assert` test, a comprehension filter): each operand
  is evaluated, and its truth asked, exactly as often and in the same order as before.
- `negate-condition` (double negation): `if c:` -> `if not (not (c)):` in the same places.
- `rename-local`: the first local variable of a changed function renamed to an unused word, in a
  function with no nested scope, f-string, `match`, `except ... as`, `global`/`nonlocal`, and no
  call of `locals`, `vars`, `dir`, `globals`, `eval` or `exec`; parameters are never renamed (callers
  may pass them by keyword). Only an UnboundLocalError's text would differ.
- `no-op`: `; pass` after a simple statement on a changed line (the shape of `remove-statement`).

What a canary cannot do: a test that reproduces this catalogue (or lanegate's operators) and
classifies the edit it sees can still tell canaries from real mutants; canaries catch the tests that
react to any change of the code's text or byte code, which is what a fingerprint does.
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType

from lanegate import git
from lanegate.diff import DiffSummary, changed_lines
from lanegate.lanes.property.operators import Edit, apply_edit, line_starts, original_text
from lanegate.lanes.property.plant import (
    MutantSpec,
    SyntaxTree,
    mutable_sources,
    mutant_id,
    planned_ids,
    statement_lines,
)
from lanegate.lanes.property.statement_parse import ModuleStatements
from lanegate.policy import Policy
from lanegate.pysource import as_utf8
from lanegate.pysource import parse as parse_python

CANARY_FAMILIES = ("compare", "arithmetic", "boolean", "negate-condition", "rename-local", "no-op")
MAX_CANARIES = 4
MIN_CANARIES = 2
_MIRROR = {ast.Lt: ">", ast.LtE: ">=", ast.Gt: "<", ast.GtE: "<=", ast.Eq: "==", ast.NotEq: "!="}
_COMMUTATIVE = {ast.Add: "+", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
_SCOPE_READERS = frozenset({"locals", "vars", "dir", "eval", "exec", "globals", "breakpoint"})
# ordinary words: a renamed local looks like code a person wrote, not like a marker
_FRESH_NAMES = (
    "value",
    "item",
    "current",
    "result",
    "total",
    "count",
    "acc",
    "step",
    "part",
    "piece",
    "entry",
    "rest",
    "mark",
    "amount",
)


def canary_count(real: int, available: int) -> int:
    """How many canaries a run plants: a third of the real mutants, at least 2, at most 4."""
    if real == 0:
        return 0
    return min(available, max(MIN_CANARIES, min(MAX_CANARIES, -(-real // 3))))


def _number(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and type(node.value) in (int, float)
        or isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    )


def _int_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


class _Finder:
    """Collects canary edits of one module on the given lines."""

    def __init__(self, tree: ast.Module, source: bytes, lines: frozenset[int]) -> None:
        self.source = source
        self.lines = lines
        self.text = source.decode("utf-8", "surrogateescape")
        self.lines_of_text = split_lines(self.text)
        self.edits: list[tuple[Edit, int, str]] = []
        self.len_rebound = any(
            isinstance(n, ast.Name)
            and n.id == "len"
            and isinstance(n.ctx, ast.Store)
            or isinstance(n, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
            and n.name == "len"
            or isinstance(n, ast.alias)
            and (n.asname or n.name) == "len"
            for n in ast.walk(tree)
        )
        self.module_names = _identifiers(source)

    def seg(self, node: ast.AST) -> str:
        return source_segment(self.lines_of_text, node) or ast.unparse(node)

    def add(self, node: ast.AST, family: str, replacement: str, where: tuple[int, str]) -> None:
        line = node.lineno  # type: ignore[attr-defined]
        if line not in self.lines:
            return
        edit = Edit(  # ast columns are UTF-8 byte offsets, as `Edit` wants
            family,
            line,
            node.col_offset,  # type: ignore[attr-defined]
            node.end_lineno or line,  # type: ignore[attr-defined]
            node.end_col_offset or 0,  # type: ignore[attr-defined]
            replacement,
        )
        self.edits.append((edit, where[0], where[1]))

    def walk(self, body: list[ast.stmt], scope: list[ast.AST]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
                inner = [*scope, stmt]
                where = (first, ".".join(getattr(s, "name", "") for s in inner))
                self.function(stmt, where)
                self.walk(stmt.body, inner)
            elif isinstance(stmt, ast.ClassDef):
                self.walk(stmt.body, [*scope, stmt])

    def function(
        self, func: ast.FunctionDef | ast.AsyncFunctionDef, where: tuple[int, str]
    ) -> None:
        for node in _own_nodes(func):
            if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
                self.condition(node.test, where)
            elif isinstance(node, ast.comprehension):
                for cond in node.ifs:
                    self.condition(cond, where)
            elif isinstance(node, ast.Compare):
                self.compare(node, where)
            elif isinstance(node, ast.BinOp):
                self.commute(node, where)
            if isinstance(node, ast.stmt) and not hasattr(node, "body") and not _docstring(node):
                self.add(node, "no-op", f"{self.seg(node)}; pass", where)
        self.rename(func, where)

    def condition(self, test: ast.expr, where: tuple[int, str]) -> None:
        if isinstance(test, ast.BoolOp):
            inner = " and " if isinstance(test.op, ast.Or) else " or "
            parts = inner.join(f"not ({self.seg(v)})" for v in test.values)
            self.add(test, "boolean", f"not ({parts})", where)
        else:
            self.add(test, "negate-condition", f"not (not ({self.seg(test)}))", where)

    def compare(self, node: ast.Compare, where: tuple[int, str]) -> None:
        if len(node.ops) != 1 or type(node.ops[0]) not in _MIRROR:
            return
        left, right = node.left, node.comparators[0]
        plain = all(isinstance(s, ast.Name) or _number(s) for s in (left, right))
        if plain and (_number(left) or _number(right)) and not (_number(left) and _number(right)):
            mirrored = _MIRROR[type(node.ops[0])]
            self.add(node, "compare", f"{self.seg(right)} {mirrored} {self.seg(left)}", where)

    def commute(self, node: ast.BinOp, where: tuple[int, str]) -> None:
        symbol = _COMMUTATIVE.get(type(node.op))
        if symbol is None:
            return
        sides = (node.left, node.right)
        literals = sum(1 for s in sides if _int_literal(s))
        lens = sum(1 for s in sides if self.is_len(s))
        if literals == 1 and lens == 1:
            self.add(
                node, "arithmetic", f"{self.seg(node.right)} {symbol} {self.seg(node.left)}", where
            )

    def is_len(self, node: ast.AST) -> bool:
        return (
            not self.len_rebound
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "len"
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Name | ast.Attribute)
        )

    def rename(self, func: ast.FunctionDef | ast.AsyncFunctionDef, where: tuple[int, str]) -> None:
        span = range(func.lineno, (func.end_lineno or func.lineno) + 1)
        if not self.lines.intersection(span):
            return  # a local of any changed function, wherever its name stands
        body_nodes = [n for stmt in func.body for n in ast.walk(stmt)]
        if any(
            isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)
            or isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
            or isinstance(n, ast.Global | ast.Nonlocal)
            or isinstance(n, ast.Name)
            and n.id in _SCOPE_READERS
            or isinstance(n, ast.Try | ast.TryStar)
            and any(h.name for h in n.handlers)
            or isinstance(n, ast.Match | ast.JoinedStr)
            for n in body_nodes
        ):
            return
        params = {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)}
        names = [n for n in body_nodes if isinstance(n, ast.Name)]
        stored = sorted(
            {n.id for n in names if isinstance(n.ctx, ast.Store | ast.Del)} - params,
            key=lambda name: min(n.lineno for n in names if n.id == name),
        )
        used = self.module_names | set(dir(builtins))
        fresh = [f for f in _FRESH_NAMES if f not in used]
        if stored and fresh:  # one rename per function: the first local, to the first free word
            self.rename_edit([n for n in names if n.id == stored[0]], fresh[0], where)

    def rename_edit(self, hits: list[ast.Name], new: str, where: tuple[int, str]) -> None:
        hits = sorted(hits, key=lambda n: (n.lineno, n.col_offset))
        first, last = hits[0], hits[-1]
        begin = _offset(self.source, first.lineno, first.col_offset)
        end = _offset(self.source, last.lineno, last.end_col_offset or 0)
        pieces = []
        cursor = begin
        for hit in hits:
            at = _offset(self.source, hit.lineno, hit.col_offset)
            pieces.append(self.source[cursor:at])
            pieces.append(new.encode())
            cursor = _offset(self.source, hit.lineno, hit.end_col_offset or 0)
        pieces.append(self.source[cursor:end])
        replacement = b"".join(pieces).decode("utf-8", "surrogateescape")
        edit = Edit(
            "rename-local",
            first.lineno,
            first.col_offset,
            last.end_lineno or last.lineno,
            last.end_col_offset or 0,
            replacement,
        )
        self.edits.append((edit, where[0], where[1]))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str) -> list[str]:
    """`text` split after each CR LF, CR or LF (ends kept), as `ast.get_source_segment` splits it:
    never at a form feed or another character `str.splitlines` breaks at."""
    return _LINE.findall(text)


def source_segment(lines: list[str], node: ast.AST) -> str | None:
    """`ast.get_source_segment(text, node)` over `split_lines(text)`, split once per module rather
    than once per call."""
    end_line: int | None = getattr(node, "end_lineno", None)
    end_col: int | None = getattr(node, "end_col_offset", None)
    if end_line is None or end_col is None:
        return None
    first: int = node.lineno - 1  # type: ignore[attr-defined]
    col: int = node.col_offset  # type: ignore[attr-defined]
    last = end_line - 1
    if last == first:
        return lines[first].encode()[col:end_col].decode()
    head = lines[first].encode()[col:].decode()
    tail = lines[last].encode()[:end_col].decode()
    return "".join([head, *lines[first + 1 : last], tail])


def _docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _offset(source: bytes, line: int, column: int) -> int:
    return line_starts(source)[line - 1] + column


_NOT_OWN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.JoinedStr)


def _own_nodes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not descending into nested functions, classes or lambdas."""
    stack: list[ast.AST] = list(reversed(func.body))
    while stack:
        node = stack.pop()
        yield node
        # nested scopes are their own functions; inside an f-string positions are unreliable
        stack.extend(
            child
            for child in reversed(list(ast.iter_child_nodes(node)))
            if not isinstance(child, _NOT_OWN)
        )


def _identifiers(source: bytes) -> set[str]:
    """Every name token of the module (a fresh name must clash with none of them)."""
    out: set[str] = set()
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.NAME:
                out.add(tok.string)
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _byte_code(code: CodeType, qualname: str, first_line: int) -> bytes | None:
    """The byte code of the function `qualname` starting at `first_line` within `code`."""
    stack = [code]
    while stack:
        current = stack.pop()
        if current.co_qualname == qualname and current.co_firstlineno == first_line:
            return current.co_code
        stack.extend(c for c in current.co_consts if isinstance(c, CodeType))
    return None


class _PendingCanary:
    """The canary edits of one id (one place, one family), checked only when selection asks: the
    first that parses to another tree and still defines its function is the canary, with whether it
    changes that function's byte code."""

    def __init__(self, first: MutantSpec, check: Callable[[MutantSpec], bool | None]) -> None:
        self.id, self.path, self.line, self.operator = (
            first.id,
            first.path,
            first.line,
            first.operator,
        )
        self.options = [first]
        self._check = check
        self._resolved = False
        self._found: tuple[MutantSpec, bool] | None = None

    def resolve(self) -> tuple[MutantSpec, bool] | None:
        if not self._resolved:
            for option in self.options:
                code = self._check(option)
                if code is not None:
                    self._found = (option, code)
                    break
            self._resolved = True
        return self._found


def _pending_canaries(
    path: str, source: bytes, lines: frozenset[int], digest: str, seed: int
) -> list[_PendingCanary]:
    """The canary edits on `lines` of one file, by id, not yet checked."""
    try:
        tree = parse_python(source, path)
    except (SyntaxError, ValueError):
        return []
    finder = _Finder(tree, source, lines)
    finder.walk(tree.body, [])
    original = SyntaxTree(tree)
    before: dict[tuple[str, int], bytes | None] = {}

    statements = ModuleStatements(source, tree)

    def check(spec: MutantSpec) -> bool | None:
        """None: not a canary (no other tree, or the function is gone); else: byte code changed."""
        mutated = apply_edit(source, spec.edit)
        key = (spec.function, spec.function_line)
        try:
            if key not in before:
                before[key] = _byte_code(compile(source, path, "exec", dont_inherit=True), *key)
        except (SyntaxError, ValueError):
            return None
        alone = statements.reparse(mutated, spec.line)
        code = None if alone is None else alone.code(path)
        if alone is not None and code is not None:  # the edited statement decides (see reparse)
            same = original.statement_equals(alone.index, alone.node)
        else:
            try:
                same = original.equals(parse_python(mutated), spec.line)
                code = compile(mutated, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                return None
        after = _byte_code(code, *key)
        if same or after is None:
            return None
        return before[key] != after

    out: dict[str, _PendingCanary] = {}
    for edit, first, qualname in finder.edits:
        ident = mutant_id(digest, seed, path, edit.line, "canary:" + edit.operator, edit.column)
        spec = MutantSpec(ident, path, edit, original_text(source, edit), qualname, first)
        if ident in out:
            out[ident].options.append(spec)
        else:
            out[ident] = _PendingCanary(spec, check)
    return list(out.values())


def canary_specs_for_file(
    path: str, source: bytes, lines: frozenset[int], digest: str, seed: int
) -> list[tuple[MutantSpec, bool]]:
    """Every canary of one file on `lines`, each with whether it changes the function's byte code
    (`co_code`; a change of text or names only is still a canary for a test that reads those)."""
    resolved = (p.resolve() for p in _pending_canaries(path, source, lines, digest, seed))
    return [found for found in resolved if found is not None]


def select_canaries(found: list[tuple[MutantSpec, bool]], count: int) -> list[MutantSpec]:
    """`count` canaries in the order of their (seeded) ids, distinct families and lines first, and
    at least one that changes the byte code when any does (so a byte-code fingerprint meets one)."""
    return _select_canaries([_Checked(f) for f in found], count)


class _Checked:
    """An already checked canary, in the shape selection reads."""

    def __init__(self, found: tuple[MutantSpec, bool]) -> None:
        self.id, self.path, self.line, self.operator = (
            found[0].id,
            found[0].path,
            found[0].line,
            found[0].operator,
        )
        self._found = found

    def resolve(self) -> tuple[MutantSpec, bool] | None:
        return self._found


def _select_canaries(pending: Sequence[_PendingCanary | _Checked], count: int) -> list[MutantSpec]:
    """`select_canaries` over unchecked canaries: one is checked only when it would be picked (or
    is the byte-code-changing fallback), so the picks are those `select_canaries` makes from the
    checked list, at a fraction of the parses and compiles. With fewer than `count` valid canaries
    every one is picked, as `select_canaries(found, min(count, len(found)))` does."""
    ordered = sorted(pending, key=lambda p: p.id)
    chosen: list[tuple[MutantSpec, bool]] = []
    families: set[str] = set()
    lines: set[tuple[str, int]] = set()
    # distinct families on distinct lines first, then distinct lines, then any
    for strictness in (2, 1, 0):
        for item in ordered:
            if len(chosen) >= count or any(c.id == item.id for c, _ in chosen):
                continue
            fresh_line = (item.path, item.line) not in lines
            fits = [True, fresh_line, fresh_line and item.operator not in families][strictness]
            found = item.resolve() if fits else None
            if found is not None:
                chosen.append(found)
                families.add(item.operator)
                lines.add((item.path, item.line))
    if chosen and not any(code for _, code in chosen):
        changing = next((f for f in (p.resolve() for p in ordered) if f is not None and f[1]), None)
        if changing is not None:
            chosen[-1] = changing
    return sorted((s for s, _ in chosen), key=lambda s: (s.path, s.line, s.column, s.operator))


def plan_canaries(
    repo: Path, summary: DiffSummary, policy: Policy, seed: int, real: int
) -> list[MutantSpec]:
    """The canaries a run with canary seed `seed` and `real` real mutants plants (the scorer calls
    this with the ledger's seed); only the candidates selection reaches are checked."""
    pending: list[_PendingCanary] = []
    for path in mutable_sources(summary, policy):
        source = git.show_file(repo, summary.head_commit, path)
        if source is None:
            continue
        source = as_utf8(source)
        lines = statement_lines(
            source, changed_lines(repo, summary.merge_base, summary.head_commit, path)
        )
        pending.extend(_pending_canaries(path, source, lines, summary.digest, seed))
    return _select_canaries(pending, canary_count(real, len(pending)))


def planned_canary_ids(
    repo: Path, summary: DiffSummary, policy: Policy, seed: int, real: int
) -> tuple[str, ...]:
    """The canary ids a run with canary seed `seed` and `real` real mutants plants, for the scorer
    to hold a ledger against (`real` is the count the caller already planted: never re-planted)."""
    return tuple(spec.id for spec in plan_canaries(repo, summary, policy, seed, real))


@dataclass(frozen=True, slots=True)
class PlannedFor:
    """What the scorer holds a property ledger against, re-derived from the diff."""

    mutants: tuple[str, ...]  # the mutant ids the ledger's own draw plants
    canaries: tuple[str, ...] | None  # the canary ids its own seed draws (None: no ledger loaded)


def planned_for_slot(repo: Path, summary: DiffSummary, policy: Policy, slot: object) -> PlannedFor:
    """The mutants and canaries a property ledger slot must list: planted once here, with the
    draw and the canary seed the ledger records (without a loaded ledger, draw 0 and no canaries:
    the missing ledger fails anyway)."""
    from lanegate.ledgers.models import PropertyLedger
    from lanegate.scoring.evidence import LoadedLedger

    ledger = slot.value if isinstance(slot, LoadedLedger) else None
    if not isinstance(ledger, PropertyLedger):
        return PlannedFor(planned_ids(repo, summary, policy, 0), None)
    mutants = planned_ids(repo, summary, policy, ledger.mutant_draw)
    canaries = planned_canary_ids(repo, summary, policy, ledger.canary_seed, len(mutants))
    return PlannedFor(mutants, canaries)
