"""Which tests of the merge base the diff changed, deleted or narrowed: edits of the trusted oracle.

The base's tests run at head in their base version anyway (`base_suite.py`), so such an edit cannot
hide a wrong change of this diff; it weakens the oracle for every diff after it, so an agent diff that
makes one needs a human (SPEC 9). Within each base test file the diff touched, compared on the syntax
tree (formatting and comments aside): a test function or method whose source, decorators included
(`parametrize` rows, `settings`, skips), differs at head or is gone; a module-level statement of the
base (a strategy, a constant, a fixture, a helper, an import the tests use) that head no longer has;
and a new head statement that rebinds a name the base file binds; and a module beside the tests that
the diff changed or deleted (`base_suite.py` restores those too). New tests and helpers beside them
are not changes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

from lanegate import git
from lanegate.diff import DiffSummary
from lanegate.lanes.property.oracle_ast import test_functions
from lanegate.ledgers.models import BaseTestChange
from lanegate.pysource import parse as parse_python

EXCERPT_CHARS = 300


def _parse(data: bytes | None) -> ast.Module | None:
    if data is None:
        return None
    try:
        return parse_python(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _excerpt(text: str, node: ast.AST | None) -> str:
    """The source of `node` (its decorators included), bounded."""
    if node is None:
        return ""
    return _bounded("\n".join(_source_lines(text, node)))


def _changed_excerpts(
    base_text: str, node: ast.AST, head_text: str, after: ast.AST | None
) -> tuple[str, str]:
    """The base and head excerpts of a changed test, each from the first line where the two
    differ (so the bound never cuts off the change itself); a removed test's whole base source."""
    base, head = _excerpt(base_text, node), _excerpt(head_text, after)
    if after is None:
        return base, head
    base_lines, head_lines = _source_lines(base_text, node), _source_lines(head_text, after)
    same = 0
    while same < min(len(base_lines), len(head_lines)) and base_lines[same] == head_lines[same]:
        same += 1
    return _bounded("\n".join(base_lines[same:])), _bounded("\n".join(head_lines[same:]))


def _source_lines(text: str, node: ast.AST) -> list[str]:
    """The lines of `node`'s source, its decorators included."""
    lineno: int = getattr(node, "lineno", 1)
    first = min([d.lineno for d in getattr(node, "decorator_list", [])] + [lineno])
    last = getattr(node, "end_lineno", None) or first
    return text.splitlines()[first - 1 : last]


def _bounded(segment: str) -> str:
    return segment if len(segment) <= EXCERPT_CHARS else segment[: EXCERPT_CHARS - 3] + "..."


def _dump(node: ast.AST) -> str:
    return ast.dump(node, include_attributes=False)


def _bound(node: ast.stmt) -> set[str]:
    """The module-level names a statement binds."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _module_statements(tree: ast.Module, tests: set[int]) -> list[ast.stmt]:
    """Top-level statements that are not test functions or test classes (their tests compare apart)."""
    return [s for s in tree.body if id(s) not in tests]


def _class_heads(tree: ast.Module) -> dict[str, str]:
    """Each top-level class's header and non-test members (fixtures, set-up), dumped."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = [
                m
                for m in node.body
                if not (
                    isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
                    and m.name.startswith("test")
                )
            ]
            parts = [*node.bases, *node.keywords, *node.decorator_list, *members]
            out[node.name] = "|".join(_dump(part) for part in parts)
    return out


def _file_changes(path: str, base: bytes, head: bytes | None) -> Iterator[BaseTestChange]:
    base_text = base.decode("utf-8", "replace")
    head_text = "" if head is None else head.decode("utf-8", "replace")
    base_tree, head_tree = _parse(base), _parse(head)
    if base_tree is None:
        return
    if head_tree is None:
        what = "deleted or moved by the diff" if head is None else "does not parse at head"
        yield BaseTestChange(path=path, test="", line=1, what=what, base="", head="")
        return
    head_tests = dict(test_functions(head_tree))
    base_tests = list(test_functions(base_tree))
    for name, node in base_tests:
        after = head_tests.get(name)
        if after is not None and _dump(after) == _dump(node):
            continue
        base_excerpt, head_excerpt = _changed_excerpts(base_text, node, head_text, after)
        yield BaseTestChange(
            path=path,
            test=f"{path}::{name.replace('.', '::')}",
            line=node.lineno,
            what="removed at head" if after is None else "changed at head",
            base=base_excerpt,
            head=head_excerpt,
        )
    base_ids = {id(n) for _, n in base_tests} | {
        id(s) for s in base_tree.body if isinstance(s, ast.ClassDef)
    }
    head_ids = {id(n) for _, n in test_functions(head_tree)} | {
        id(s) for s in head_tree.body if isinstance(s, ast.ClassDef)
    }
    base_heads, head_heads = _class_heads(base_tree), _class_heads(head_tree)
    for name, dumped in base_heads.items():
        if head_heads.get(name, dumped) != dumped:
            cls = next(s for s in base_tree.body if isinstance(s, ast.ClassDef) and s.name == name)
            yield BaseTestChange(
                path=path,
                test="",
                line=cls.lineno,
                what=f"class {name}: its decorators, bases or set-up changed at head",
                base="",
                head="",
            )
    base_statements = _module_statements(base_tree, base_ids)
    head_statements = _module_statements(head_tree, head_ids)
    head_dumps = {_dump(s) for s in head_statements}
    base_dumps = {_dump(s) for s in base_statements}
    bound = set().union(*(_bound(s) for s in base_statements)) if base_statements else set()
    gone = [s for s in base_statements if _dump(s) not in head_dumps]
    gone_names = set().union(*(_bound(s) for s in gone)) if gone else set()
    for statement in gone:
        yield BaseTestChange(
            path=path,
            test="",
            line=statement.lineno,
            what="a module-level statement of the base is gone or changed at head",
            base=_excerpt(base_text, statement),
            head="",
        )
    for statement in head_statements:
        rebound = sorted((_bound(statement) & bound) - gone_names)  # a changed one is named above
        if _dump(statement) not in base_dumps and rebound:
            yield BaseTestChange(
                path=path,
                test="",
                line=statement.lineno,
                what=f"a new statement at head rebinds {', '.join(rebound)} of the base",
                base="",
                head=_excerpt(head_text, statement),
            )


def base_test_changes(
    repo: Path, summary: DiffSummary, restored: Iterable[str], helpers: Iterable[str] = ()
) -> tuple[BaseTestChange, ...]:
    """Every change the diff made to the base test files it touched (`restored`, see module doc),
    and each helper module beside the tests it changed or deleted (`helpers`, named whole)."""
    found: list[BaseTestChange] = []
    for path in sorted(restored):
        base = git.show_file(repo, summary.merge_base, path)
        if base is None:
            continue
        found.extend(_file_changes(path, base, git.show_file(repo, summary.head_commit, path)))
    for path in sorted(helpers):
        head = git.show_file(repo, summary.head_commit, path)
        found.append(
            BaseTestChange(
                path=path,
                test="",
                line=1,
                what="a module the base's tests share (beside them) is "
                + ("deleted or moved" if head is None else "changed")
                + " at head",
                base="",
                head="",
            )
        )
    return tuple(found)
