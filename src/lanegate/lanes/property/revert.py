"""Revert mutants: the merge base's version of each changed function (and module-level hunk), planted
into the head as a mutant.

Operator mutants ask whether the tests can tell the head from *worse versions of the head*; a revert
asks whether they can tell it from *the base*: a bug fix comes with a test that fails before the fix,
a feature's test fails without it, and a refactor changes nothing any test (or the behaviour diff)
can see. For every function of the head that exists at the merge base (same file and qualified name,
or matched unambiguously across a rename or a move) and whose syntax tree the diff changed
(docstrings, comments and layout left out), the plan holds:

- `revert`: the function's whole base text in place of the head's (renamed to the head's name and
  indented as the head has it);
- `revert-hunk`: when the function's change is several separate hunks, each hunk alone put back to
  the base's lines, where that still compiles (a hunk that needs its neighbours is not independent);
- `revert-module`: each hunk of module-level code (outside every function; never one that adds or
  removes a whole `def` or `class`) put back to the base's lines, in files that exist at base.

Pure deletions count: their revert puts the deleted lines back. A revert that does not compile in the
head's file is not planted and is recorded (`RevertProblem`); one that names something the head
removed fails with a NameError when it runs, which the scorer reads as "does not run in the head's
context", never as a kill. Every revert is planted in every run (no draw: it is the diff's own
evidence), as a `MutantSpec` through the same jobs, workers and handles as every other mutant.
Ids are `mutant_id(diff digest, seed, path, line, operator, column)` like an operator's.
"""

from __future__ import annotations

import ast
import difflib
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.diff import Change, DiffSummary, Role
from lanegate.lanes.property.named_constants import named_constants, names_bound
from lanegate.lanes.property.operators import Edit, apply_edit, is_arid_statement, original_text
from lanegate.lanes.property.plant import MutantSpec, mutable_sources, mutant_id
from lanegate.lanes.property.syntax_equal import same_syntax
from lanegate.ledgers.models import REVERT_OPERATORS
from lanegate.policy import Policy
from lanegate.pysource import as_utf8
from lanegate.pysource import parse as parse_python

REVERT = "revert"
REVERT_HUNK = "revert-hunk"
REVERT_MODULE = "revert-module"
MODULE = "<module>"
# a renamed or moved function is matched to a base function whose text (its name left out) is at
# least this alike, and only when no other candidate is (unambiguous in both directions)
RENAME_SIMILARITY = 0.75
# more new x gone function pairs than this are not compared for renames (a diff that rewrites a
# whole package): each is then a new function, judged by the operators
MAX_RENAME_PAIRS = 4096
MAX_LITERALS = 32
MAX_LITERAL_CHARS = 200
_FuncNode = ast.FunctionDef | ast.AsyncFunctionDef


def is_revert(operator: str) -> bool:
    """Whether a mutant's operator is one of the revert kinds (never counted in the budgets)."""
    return operator in REVERT_OPERATORS


@dataclass(frozen=True, slots=True)
class Function:
    """One outermost function or method of a module: qualified name, node, and its line span
    (from its first decorator to its last line), as `co_firstlineno` counts the first."""

    path: str
    qualname: str
    node: _FuncNode
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class ChangedFunctionPlan:
    """A head function that exists at base with another syntax tree: where, and its base version."""

    path: str
    qualname: str
    first_line: int
    last_line: int
    base_path: str
    base_qualname: str
    literals: tuple[str, ...]
    matched: str  # "same" (same file and name), "renamed", "moved" or "rebound" (see `_rebound`)


@dataclass(frozen=True, slots=True)
class RevertProblem:
    """A revert that could not be planted: it does not compile in the head's file."""

    path: str
    function: str
    line: int
    what: str


@dataclass(frozen=True, slots=True)
class RevertPlan:
    """Every revert of a diff, the changed functions they belong to, and those not planted."""

    specs: tuple[MutantSpec, ...]
    functions: tuple[ChangedFunctionPlan, ...]
    problems: tuple[RevertProblem, ...]


def _functions(path: str, tree: ast.Module) -> dict[str, Function]:
    """The outermost functions and methods of a module by qualified name, also where a module or
    class body defines them inside an `if`, `try`, `with` or loop block (a name defined twice keeps
    its last definition in source order, as running the module top to bottom would)."""
    out: dict[str, Function] = {}
    stack: list[tuple[Iterator[ast.stmt], str]] = [(iter(tree.body), "")]
    while stack:
        statements, prefix = stack[-1]
        stmt = next(statements, None)
        if stmt is None:
            stack.pop()
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
            name = prefix + stmt.name
            out[name] = Function(path, name, stmt, first, stmt.end_lineno or stmt.lineno)
        elif isinstance(stmt, ast.ClassDef):
            stack.append((iter(stmt.body), f"{prefix}{stmt.name}."))
        else:  # a block's defs bind names of the scope it is in
            stack.append((iter([s for block in _blocks(stmt) for s in block]), prefix))
    return out


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists a compound statement runs in its own scope's namespace."""
    if isinstance(stmt, ast.If | ast.For | ast.AsyncFor | ast.While):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [stmt.body]
    if isinstance(stmt, ast.Try | ast.TryStar):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
    return []


def _class_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """The first lines (decorators included) and last lines of every class and function statement."""
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.end_lineno or node.lineno))
    return spans


def _strip_docstring(node: _FuncNode) -> list[ast.stmt]:
    return _without_docstring(node.body)


def _same_function(base: _FuncNode, head: _FuncNode) -> bool:
    """The two functions' trees are equal apart from their names and docstrings."""
    if type(base) is not type(head):
        return False
    for name in ("args", "returns", "type_comment"):
        if not _same_field(getattr(base, name, None), getattr(head, name, None)):
            return False
    pairs: list[tuple[list[ast.expr] | list[ast.stmt], list[ast.expr] | list[ast.stmt]]] = [
        (base.decorator_list, head.decorator_list),
        (_strip_docstring(base), _strip_docstring(head)),
    ]
    return all(
        len(a) == len(b) and all(same_syntax(x, y) for x, y in zip(a, b, strict=True))
        for a, b in pairs
    )


def _same_module(a: ast.Module, b: ast.Module) -> bool:
    """The two modules' trees are equal apart from their docstrings."""
    left, right = _without_docstring(a.body), _without_docstring(b.body)
    return len(left) == len(right) and all(
        same_syntax(x, y) for x, y in zip(left, right, strict=True)
    )


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return body[1:]
    return body


def _same_field(a: object, b: object) -> bool:
    if isinstance(a, ast.AST) and isinstance(b, ast.AST):
        return same_syntax(a, b)
    return a == b


def _same_header(base: _FuncNode, head: _FuncNode) -> bool:
    """Same decorators, parameters (defaults included) and return annotation: the function object
    the head's `def` made can take the base's code (`__code__`) and be the base's function."""
    return (
        type(base) is type(head)
        and _same_field(base.args, head.args)
        and _same_field(base.returns, head.returns)
        and len(base.decorator_list) == len(head.decorator_list)
        and all(
            same_syntax(a, b) for a, b in zip(base.decorator_list, head.decorator_list, strict=True)
        )
    )


def _shape(func: Function, lines: list[str]) -> str:
    """A function's text with its own name blanked and its indentation removed (to compare)."""
    text = textwrap.dedent("".join(lines[func.first - 1 : func.last]))
    return _rename(text, func.node.name, "_")


def _rename(text: str, old: str, new: str) -> str:
    """`text` (a function's source, decorators first) with its `def old` renamed `def new`."""
    return re.sub(rf"\b((?:async\s+)?def\s+){re.escape(old)}\b", rf"\g<1>{new}", text, count=1)


def _alike(a: str, b: str) -> float:
    """How alike two texts are, 0 to 1 (difflib's ratio; a cheap bound first)."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < RENAME_SIMILARITY:
        return 0.0
    return matcher.ratio()


@dataclass(frozen=True, slots=True)
class _Side:
    """One file on one side of the diff: path, lines, tree and functions."""

    path: str
    lines: list[str]
    tree: ast.Module
    functions: dict[str, Function]


def _side(path: str, data: bytes | None) -> _Side | None:
    if data is None:
        return None
    source = as_utf8(data)
    try:
        tree = parse_python(source, path)
    except (SyntaxError, ValueError):
        return None
    text = source.decode("utf-8", "surrogateescape")
    return _Side(path, text.splitlines(keepends=True), tree, _functions(path, tree))


def _match(
    heads: dict[str, _Side], bases: dict[str, _Side], base_of: dict[str, str]
) -> dict[tuple[str, str], tuple[Function, str]]:
    """Head (path, qualname) -> its base function and how it was matched: the same name in the file
    it came from, else the one base function (gone from the head) whose text is alike, unambiguous
    both ways."""
    found: dict[tuple[str, str], tuple[Function, str]] = {}
    taken: set[tuple[str, str]] = set()
    for path, head in heads.items():
        base = bases.get(base_of.get(path, ""))
        for name in head.functions:
            if base is not None and name in base.functions:
                found[(path, name)] = (base.functions[name], "same")
                taken.add((base.path, name))
    still = {
        (path, name): heads[path].functions[name]
        for path in heads
        for name in heads[path].functions
        if (path, name) not in found
    }
    gone = {
        (side.path, name): func
        for side in bases.values()
        for name, func in side.functions.items()
        if (side.path, name) not in taken
        and not any(name in h.functions for p, h in heads.items() if base_of.get(p) == side.path)
    }
    if not still or not gone:
        return found
    # the same name, one function gone and one new: moved (whatever it now does)
    for h, func in still.items():
        same = [b for b in gone if gone[b].node.name == func.node.name]
        rivals = [k for k in still if still[k].node.name == func.node.name]
        if len(same) == 1 and rivals == [h]:
            found[h] = (gone[same[0]], "moved")
    taken = {(f.path, f.qualname) for f, _ in found.values()}
    still = {k: f for k, f in still.items() if k not in found}
    gone = {k: f for k, f in gone.items() if k not in taken}
    # another name: renamed when its text (names left out) is alike one gone function's, and that
    # one's alike no other new function's
    if not still or not gone or len(still) * len(gone) > MAX_RENAME_PAIRS:
        return found
    head_shapes = {k: _shape(f, heads[k[0]].lines) for k, f in still.items()}
    base_shapes = {k: _shape(f, bases[k[0]].lines) for k, f in gone.items()}
    scores = {(h, b): _alike(head_shapes[h], base_shapes[b]) for h in still for b in gone}
    for h in still:
        near = [b for b in gone if scores[(h, b)] >= RENAME_SIMILARITY]
        if len(near) != 1:
            continue
        rivals = [k for k in still if scores[(k, near[0])] >= RENAME_SIMILARITY]
        if rivals == [h]:
            found[h] = (gone[near[0]], "renamed")
    return found


def _full_lines_edit(operator: str, first: int, last: int, replacement: str) -> Edit:
    """An edit of whole lines `first`..`last` (1-based, inclusive; `last` < `first` inserts before
    `first`)."""
    return Edit(operator, first, 0, last + 1, 0, replacement)


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    return [
        op
        for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]


def _constants(tree: ast.AST, lines: set[int], sources: list[str]) -> Iterator[str]:
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    # the text pieces of an f-string are no value a caller passes
    bare |= {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for node in ast.walk(tree):
        if id(node) not in bare and (
            isinstance(node, ast.Constant)
            and not isinstance(node.value, bool | type(None) | type(Ellipsis))
            and node.lineno in lines
        ):
            text = ast.get_source_segment("".join(sources), node) or repr(node.value)
            if len(text) <= MAX_LITERAL_CHARS:
                yield text


class _Planner:
    """Builds the reverts of one head file against its base functions."""

    def __init__(self, digest: str, seed: int, head: _Side) -> None:
        self.digest, self.seed, self.head = digest, seed, head
        self.source = "".join(head.lines).encode("utf-8", "surrogateescape")
        self.specs: list[MutantSpec] = []
        self.problems: list[RevertProblem] = []

    def _compiles(self, edit: Edit) -> ast.Module | str:
        mutated = apply_edit(self.source, edit)
        try:
            tree = parse_python(mutated, self.head.path)
            compile(tree, self.head.path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            return f"{type(exc).__name__}: {exc}"[:300]
        return tree

    def plant(
        self,
        edit: Edit,
        function: str,
        first_line: int,
        hot: bool,
        unlike: tuple[ast.AST, ...] = (),
    ) -> ast.AST | None:
        """Plant `edit` when it compiles and changes what the code does as far as its syntax tree
        shows (docstrings left out; never the same tree as one of `unlike`); record it when it does
        not compile. Returns the planted function's (or module's) new tree."""
        tree = self._compiles(edit)
        if isinstance(tree, str):
            self.problems.append(
                RevertProblem(
                    self.head.path,
                    function,
                    edit.line,
                    f"{edit.operator} does not compile in the head's file: {tree}",
                )
            )
            return None
        if function == MODULE:
            new: ast.AST = tree
            if _same_module(tree, self.head.tree):
                return None
        else:
            reverted = _functions(self.head.path, tree).get(function)
            head = self.head.functions[function].node
            if reverted is None or _same_function(reverted.node, head):
                return None
            new = reverted.node
            if any(
                isinstance(u, ast.FunctionDef | ast.AsyncFunctionDef)
                and _same_function(reverted.node, u)
                for u in unlike
            ):
                return None
        ident = mutant_id(
            self.digest, self.seed, self.head.path, edit.line, edit.operator, edit.column
        )
        self.specs.append(
            MutantSpec(
                id=ident,
                path=self.head.path,
                edit=edit,
                original=original_text(self.source, edit),
                function=function,
                function_line=first_line,
                hot=hot,
            )
        )
        return new

    def function(self, head: Function, base: Function, base_lines: list[str]) -> bool:
        """The whole revert of `head` and, when its change is several hunks, one per hunk. True
        when the function changed (whatever was planted)."""
        if _same_function(base.node, head.node):
            return False
        base_text = textwrap.dedent("".join(base_lines[base.first - 1 : base.last]))
        if base.node.name != head.node.name:
            base_text = _rename(base_text, base.node.name, head.node.name)
        indent = _indent_of(self.head.lines[head.first - 1])
        body = textwrap.indent(base_text, indent, lambda line: bool(line.strip()))
        if not body.endswith("\n"):
            body += "\n"
        hot = _same_header(base.node, head.node)
        whole = _full_lines_edit(REVERT, head.first, head.last, body)
        reverted = self.plant(whole, head.qualname, head.first, hot)
        if reverted is None:
            return True
        head_lines = self.head.lines[head.first - 1 : head.last]
        reindented = body.splitlines(keepends=True)
        hunks = _opcodes(reindented, head_lines)
        if len(hunks) < 2:
            return True
        body_start = head.node.body[0].lineno if head.node.body else head.last
        for _tag, b1, b2, h1, h2 in hunks:
            first, last = head.first + h1, head.first + h2 - 1
            edit = _full_lines_edit(REVERT_HUNK, first, last, "".join(reindented[b1:b2]))
            # a hunk inside the body keeps the head's `def` (its defaults, its decorators)
            self.plant(edit, head.qualname, head.first, hot and first >= body_start, (reverted,))
        return True

    def module(self, base: _Side) -> None:
        """One revert per hunk of module-level code (outside every def and class body's functions;
        never a hunk that adds or removes a whole def or class)."""
        head_spans = _class_spans(self.head.tree)
        base_spans = _class_spans(base.tree)
        head_funcs = [(f.first, f.last) for f in self.head.functions.values()]
        base_funcs = [(f.first, f.last) for f in base.functions.values()]
        for _tag, b1, b2, h1, h2 in _opcodes(base.lines, self.head.lines):
            head_range = set(range(h1 + 1, h2 + 1))
            base_range = set(range(b1 + 1, b2 + 1))
            if _touches(head_range, head_funcs) or _touches(base_range, base_funcs):
                continue
            if _starts_any(head_range, head_spans) or _starts_any(base_range, base_spans):
                continue
            if b2 == b1 or not "".join(self.head.lines[h1:h2] + base.lines[b1:b2]).strip():
                continue  # a pure addition (no base code to put back), or blank lines
            if _inert(self.head.tree, head_range) and _inert(base.tree, base_range):
                continue
            edit = _full_lines_edit(REVERT_MODULE, h1 + 1, h2, "".join(base.lines[b1:b2]))
            self.plant(edit, MODULE, 0, False)


def _rebound(head: _Side, base: _Side) -> list[tuple[str, int, int]]:
    """The base's top-level functions whose names a changed module-level statement of the head
    binds again (an import, an assignment, a loop variable: `from .fast import slugify` at the
    end of the module, `parse = cache(parse)`): the name now means what that statement made, and
    the diff's changed lines show no changed `def`. With each, that statement's lines."""
    changed: set[int] = set()
    for _tag, _b1, _b2, h1, h2 in _opcodes(base.lines, head.lines):
        changed.update(range(h1 + 1, h2 + 1))
    functions = {name for name in base.functions if "." not in name}
    out = []
    for stmt in head.tree.body:
        last = stmt.end_lineno or stmt.lineno
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue  # a def is a changed function of its own (or a new one)
        if not changed.intersection(range(stmt.lineno, last + 1)):
            continue
        out += [(n, stmt.lineno, last) for n in dict.fromkeys(names_bound(stmt)) if n in functions]
    return out


def _inert(tree: ast.Module, lines: set[int]) -> bool:
    """The module-level statements on `lines` only import, name the module's metadata (`__all__`),
    log or hold a docstring: putting them back changes no behaviour a test or a comparison can
    judge (an import a changed function needs is that function's revert's business)."""
    for stmt in tree.body:
        span = set(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
        if not span & lines:
            continue
        if isinstance(stmt, ast.Import | ast.ImportFrom) or is_arid_statement(stmt):
            continue
        if isinstance(stmt, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id.startswith("__") and t.id.endswith("__")
            for t in stmt.targets
        ):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        return False
    return True


def _touches(lines: set[int], spans: list[tuple[int, int]]) -> bool:
    return any(lines.intersection(range(a, b + 1)) for a, b in spans)


def _starts_any(lines: set[int], spans: list[tuple[int, int]]) -> bool:
    return any(a in lines for a, _ in spans)


def _literals(
    head: Function, base: Function, head_side: _Side, base_side: _Side
) -> tuple[str, ...]:
    """The constants on the lines the diff changed in this function, both sides (behaviour-diff
    seeds)."""
    head_lines = head_side.lines[head.first - 1 : head.last]
    base_lines = base_side.lines[base.first - 1 : base.last]
    changed_head: set[int] = set()
    changed_base: set[int] = set()
    for _tag, b1, b2, h1, h2 in _opcodes(
        [line.strip() for line in base_lines], [line.strip() for line in head_lines]
    ):
        changed_base.update(range(base.first + b1, base.first + b2))
        changed_head.update(range(head.first + h1, head.first + h2))
    found = [
        *_constants(head.node, changed_head, head_side.lines),
        *_constants(base.node, changed_base, base_side.lines),
        *_named(head.node, changed_head, head_side.tree),
        *_named(base.node, changed_base, base_side.tree),
    ]
    return tuple(dict.fromkeys(found))[:MAX_LITERALS]


def _named(tree: ast.AST, lines: set[int], module: ast.Module) -> Iterator[str]:
    """The values of the module's named constants (`named_constants`) read on the changed lines:
    a threshold written `LIMIT` is as much a boundary as one written `1024`."""
    loaded = {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.lineno in lines
    }
    if not loaded:
        return
    values = named_constants(module)
    for name in sorted(loaded & values.keys()):
        text = repr(values[name])
        if len(text) <= MAX_LITERAL_CHARS:
            yield text


def plan_reverts(
    repo: Path, summary: DiffSummary, policy: Policy, seed: int | None = None
) -> RevertPlan:
    """Every revert the diff gets (see the module docstring), read from git at base and head."""
    use_seed = policy.properties.seed if seed is None else seed
    heads: dict[str, _Side] = {}
    base_of: dict[str, str] = {}
    for path in mutable_sources(summary, policy):
        side = _side(path, git.show_file(repo, summary.head_commit, path))
        if side is not None:
            heads[path] = side
    bases: dict[str, _Side] = {}
    for changed in summary.with_role(Role.SOURCE, include_deleted=True):
        old = changed.old_path or changed.path
        if not old.endswith(".py") or changed.change is Change.ADDED:
            continue
        if changed.path in heads:
            base_of[changed.path] = old
        side = _side(old, git.show_file(repo, summary.merge_base, old))
        if side is not None:
            bases[old] = side
    matched = _match(heads, bases, base_of)
    specs: list[MutantSpec] = []
    functions: list[ChangedFunctionPlan] = []
    problems: list[RevertProblem] = []
    for path in sorted(heads):
        head = heads[path]
        planner = _Planner(summary.digest, use_seed, head)
        for name in sorted(head.functions, key=lambda n: head.functions[n].first):
            pair = matched.get((path, name))
            if pair is None:
                continue
            base_func, how = pair
            base_side = bases[base_func.path]
            if planner.function(head.functions[name], base_func, base_side.lines):
                functions.append(
                    ChangedFunctionPlan(
                        path=path,
                        qualname=name,
                        first_line=head.functions[name].first,
                        last_line=head.functions[name].last,
                        base_path=base_func.path,
                        base_qualname=base_func.qualname,
                        literals=_literals(head.functions[name], base_func, head, base_side),
                        matched=how,
                    )
                )
        module_base = bases.get(base_of.get(path, ""))
        if module_base is not None:
            planner.module(module_base)
            listed = {f.qualname for f in functions if f.path == path}
            for name, first, last in _rebound(head, module_base):
                if name not in listed:  # the name now means another object: compare the two
                    listed.add(name)
                    functions.append(
                        ChangedFunctionPlan(
                            path, name, first, last, module_base.path, name, (), "rebound"
                        )  # fmt: skip
                    )
        specs.extend(planner.specs)
        problems.extend(planner.problems)
    return RevertPlan(tuple(specs), tuple(functions), tuple(problems))


def reverted_lines(
    plan: RevertPlan, pinned: set[tuple[str, str]], sources: dict[str, bytes] | None = None
) -> dict[str, frozenset[int]]:
    """The head's lines a test is known to tell from the base: every line of each changed function
    whose reverts were killed (`pinned`: (path, qualname), "<module>" for a file's module-level
    reverts), the lines each of a pinned file's module-level reverts replaces, and (given the
    head's `sources`) each module-level binding that only pinned functions of its file read (a
    constant a fixed function uses is part of that function). A revert that survived, even one the
    behaviour diff found no difference for, vouches for no line: a comparison on the inputs it
    tried is no test."""
    out: dict[str, set[int]] = {}
    for f in plan.functions:
        if (f.path, f.qualname) in pinned:
            out.setdefault(f.path, set()).update(range(f.first_line, f.last_line + 1))
    for spec in plan.specs:
        if spec.operator == REVERT_MODULE and (spec.path, MODULE) in pinned:
            out.setdefault(spec.path, set()).update(range(spec.line, spec.edit.end_line))
    for path, source in (sources or {}).items():
        spans = [
            (f.first_line, f.last_line)
            for f in plan.functions
            if f.path == path and (f.path, f.qualname) in pinned
        ]
        if spans:
            out.setdefault(path, set()).update(_bindings_read_only_in(source, path, spans))
    return {path: frozenset(lines) for path, lines in out.items()}


def _bindings_read_only_in(source: bytes, path: str, spans: list[tuple[int, int]]) -> set[int]:
    """The lines of module-level assignments whose names the module reads, and reads only on lines
    inside `spans`."""
    try:
        tree = parse_python(source, path)
    except (SyntaxError, ValueError):
        return set()
    reads: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            reads.setdefault(node.id, []).append(node.lineno)
    lines: set[int] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target]
        else:
            continue
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if len(names) != len(targets) or not names:
            continue
        used = [line for name in names for line in reads.get(name, [])]
        if used and all(any(a <= line <= b for a, b in spans) for line in used):
            lines.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return lines
