"""Changed executable lines where no mutant could be planted: a change the lane has no evidence about.

A diff whose changed statements offer no mutation operator (a call added on its own, a string handed to
`exec`, a line the operators do not cover) would otherwise plant nothing and pass on a budget of 0.
Every changed statement that computes something (an assignment, a returned value, a call made for
its effect, an `if` or `while` condition) must carry at least one mutant candidate; docstrings,
arid statements (logging, printing, warnings) and control keywords are left out. A source file that
imports from a `tests` package (where nothing is mutated) is named too: that is how code moves out of
the lane's reach. A changed source file git diffs as binary (`.gitattributes`) cannot be
mutated at all. In a statement spread over several lines, each changed line that computes something of
its own (a call or subscript wholly on it) needs a mutant on that line: the statement's other lines
carrying mutants a weak test kills is no evidence about it. A changed string literal that holds Python
code (a definition, binding, branch or call: what `exec`, `eval` or `compile` would run) is named too.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

from lanegate import git
from lanegate.diff import DiffSummary, Role, changed_lines
from lanegate.lanes.property.operators import candidates, is_arid_statement
from lanegate.lanes.property.plant import mutable_sources, statement_lines
from lanegate.ledgers.models import UnmutatedLine
from lanegate.policy import Policy
from lanegate.pysource import as_utf8
from lanegate.pysource import parse as parse_python

# the statements whose own line computes something: a value assigned, returned or called for its
# effect, or a condition; control keywords (`break`, `del`, `assert`, `raise`, `with`, `try`, a loop
# header) are left to the operators that do reach them, so that honest diffs are not failed for them
_TEST_FOLDERS = frozenset({"tests", "test"})
_COMPUTING = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr, ast.If, ast.While)


def _is_docstring_or_ellipsis(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and (isinstance(node.value.value, str) or node.value.value is Ellipsis)
    )


def _dunder(target: ast.expr) -> bool:
    return isinstance(target, ast.Name) and target.id.startswith("__") and target.id.endswith("__")


def _own_lines(node: ast.stmt) -> range | None:
    """The lines a computing statement's own behaviour sits on (`if`/`while`: the condition)."""
    if not isinstance(node, _COMPUTING) or _is_docstring_or_ellipsis(node):
        return None
    if is_arid_statement(node) or getattr(node, "value", True) is None:
        return None  # logging and printing; a bare annotation; a bare `return`
    if isinstance(node, ast.Assign) and all(_dunder(t) for t in node.targets):
        return None  # `__all__`, `__version__`: module metadata
    if isinstance(node, ast.If | ast.While):
        return range(node.test.lineno, (node.test.end_lineno or node.test.lineno) + 1)
    return range(node.lineno, (node.end_lineno or node.lineno) + 1)


def _from_test_folder(node: ast.stmt) -> str | None:
    """The module a source file imports from a `tests`/`test` package, if it does: by an absolute
    or a relative name (`from .tests.impl import f`, `from . import tests`, red-team pass 9)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        prefix = "." * node.level + (node.module or "")
        joint = "." if node.module else ""
        names = [prefix, *(f"{prefix}{joint}{alias.name}" for alias in node.names)]
    for name in names:
        if any(part in _TEST_FOLDERS for part in name.split(".")):
            return name
    return None


# what makes a string code rather than text: a definition, a binding, control flow or a call
_CODE_NODES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Return,
    ast.For,
    ast.While,
    ast.If,
    ast.With,
    ast.Try,
    ast.Import,
    ast.ImportFrom,
    ast.Call,
)
MAX_CODE_STRING = 100_000


def _holds_code(text: str) -> bool:
    """Whether a string literal parses as Python that defines, binds, branches or calls something."""
    if len(text) > MAX_CODE_STRING or not text.strip():
        return False
    try:
        tree = parse_python(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, _CODE_NODES) for node in ast.walk(tree))


def _code_strings(tree: ast.AST, lines: frozenset[int]) -> Iterator[ast.Constant]:
    """String literals on changed lines that hold code (for `exec`, `eval`, `compile`, `python -c`):
    their code runs, but no mutant is ever planted inside a string. Docstrings and bare string
    statements do nothing and are left out."""
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in bare
            and lines.intersection(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            and _holds_code(node.value)
        ):
            yield node


def _calling_defaults(tree: ast.AST) -> Iterator[ast.expr]:
    """Default argument values that call something: they run once, when the `def` or `lambda` runs
    (red-team pass 8 hid a `type.__setattr__(...)` there, on no statement line of its own)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None and any(isinstance(n, ast.Call) for n in ast.walk(default)):
                    yield default


def _statements(tree: ast.AST) -> Iterator[ast.stmt]:
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            yield node


def _bare_lines(path: str, node: ast.stmt, own: range, bare: frozenset[int]) -> list[UnmutatedLine]:
    """Changed physical lines of a statement spread over several that compute something of their own
    (a call or a subscript wholly on that line) with no mutant on them: the statement's mutants sit on
    its other lines, so a weak test that kills those says nothing about this one."""
    out = []
    for line in sorted(bare.intersection(own)):
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Call | ast.Subscript)
                and sub.lineno == line
                and sub.end_lineno == line
            ):
                kind = "call" if isinstance(sub, ast.Call) else "subscript"
                what = (
                    f"a changed line of a statement spread over several lines holds a {kind} "
                    "no mutation operator reaches (the statement's mutants are on other lines)"
                )
                out.append(UnmutatedLine(path=path, line=line, what=what))
                break
    return out


def unmutated_in_source(
    path: str, source: bytes, lines: frozenset[int], reverted: frozenset[int] = frozenset()
) -> list[UnmutatedLine]:
    """The changed statements of one file that no mutation operator reaches and no killed revert
    answers for (`reverted`: the lines of changed functions, or module-level code, whose revert a
    test killed: a test tells that code from the base's, which is the evidence the operators could
    not give). What no revert can answer for is named wherever it is: an import from the test
    folder and code in a string."""
    try:
        tree = parse_python(source, path)
    except (SyntaxError, ValueError):
        return []
    changed = lines
    lines = statement_lines(source, lines)  # the lines the planter plants on
    reached = {cand.edit.line for cand in candidates(tree, source)} & lines
    found = []
    for node in _statements(tree):
        imported = _from_test_folder(node)
        if imported and node.lineno in lines:
            what = f"imports code from the test folder ({imported}), where no mutant is planted"
            found.append(UnmutatedLine(path=path, line=node.lineno, what=what))
            continue
        own = _own_lines(node)
        if own is None or not lines.intersection(own) or reverted.issuperset(own):
            continue
        if not reached.intersection(own):
            what = f"a changed {type(node).__name__.lower()} statement no mutation operator reaches"
            found.append(UnmutatedLine(path=path, line=node.lineno, what=what))
        elif len(own) > 1:
            found.extend(_bare_lines(path, node, own, changed - reached))
    for default in _calling_defaults(tree):
        span = range(default.lineno, (default.end_lineno or default.lineno) + 1)
        if (
            lines.intersection(span)
            and not reached.intersection(span)
            and not reverted.issuperset(span)
        ):
            what = (
                "a changed default argument calls something when its function is defined (at "
                "import), where no mutation operator reaches"
            )
            found.append(UnmutatedLine(path=path, line=default.lineno, what=what))
    for literal in _code_strings(tree, changed):
        what = (
            "a changed string holds Python code (for exec/eval/compile), where no mutant is planted"
        )
        found.append(UnmutatedLine(path=path, line=literal.lineno, what=what))
    return sorted(found, key=lambda u: u.line)


def unmutated_lines(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    reverted: dict[str, frozenset[int]] | None = None,
) -> tuple[UnmutatedLine, ...]:
    """Every changed executable line of the diff's mutable sources that cannot get a mutant and
    that no revert answers for (`reverted`, by path: see `unmutated_in_source`)."""
    binary = "git diffs this source file as binary (.gitattributes): nothing is mutated"
    sources = [c for c in summary.with_role(Role.SOURCE) if c.path.endswith(".py")]
    found = [UnmutatedLine(path=c.path, line=1, what=binary) for c in sources if c.binary]
    linked = "this source file is a symlink at head: its code lives where no mutant is planted"
    found += [
        UnmutatedLine(path=path, line=1, what=linked)
        for path, mode in git.tree_modes(
            repo, summary.head_commit, [c.path for c in sources]
        ).items()
        if mode == git.SYMLINK_MODE
    ]
    for path in mutable_sources(summary, policy):
        source = git.show_file(repo, summary.head_commit, path)
        if source is None:
            continue
        lines = changed_lines(repo, summary.merge_base, summary.head_commit, path)
        covered = (reverted or {}).get(path, frozenset())
        found.extend(unmutated_in_source(path, as_utf8(source), lines, covered))
    return tuple(found)
