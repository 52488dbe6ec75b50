"""Tests as pytest itself collects them: node ids, in pytest's order, mapped onto their definitions.

Lanes never guess tests from names: pytest applies `python_files`, `python_classes` and
`python_functions`, finds `unittest.TestCase` subclasses whatever they are called, expands
parametrizations and nested classes; this module maps each node id it reports back to the function
(or, failing that, the class) that defines it, so that a diff's changed lines tell which tests it
touched. A node id whose definition cannot be found in its file (a test built by assignment, a doctest)
keeps no span; callers treat it as touched whenever its file changed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate.diff import Change, ChangedFile, DiffSummary, Role
from lanegate.lanes import pytest_ini
from lanegate.pysource import parse as parse_python

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True, slots=True)
class Collection:
    """What one pytest collection reported: node ids in pytest's order, and the files (or other
    collectors) it could not collect."""

    node_ids: tuple[str, ...]
    errors: tuple[str, ...] = ()
    # (collector, its exception line) of each failed collector that reported one
    error_details: tuple[tuple[str, str], ...] = ()

    # node ids by every `path` they start `path::` with, and the same of the errors (plus each
    # error itself): asked once per changed file, so a lookup, not a scan of the collection
    _by_file: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _failed: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_file: dict[str, list[str]] = {}
        for node_id in self.node_ids:
            for prefix in _prefixes(node_id):
                by_file.setdefault(prefix, []).append(node_id)
        object.__setattr__(self, "_by_file", {k: tuple(v) for k, v in by_file.items()})
        failed = {e for error in self.errors for e in (error, *_prefixes(error))}
        object.__setattr__(self, "_failed", frozenset(failed))

    def in_file(self, path: str) -> tuple[str, ...]:
        """The node ids of one repo-relative file, in pytest's order."""
        return self._by_file.get(path, ())

    def failed(self, path: str) -> bool:
        """True when pytest reported a collection error for this file (or one of its collectors)."""
        return path in self._failed

    def error_of(self, path: str) -> str:
        """The exception line of this file's failed collection ("" when none was reported)."""
        for node_id, detail in self.error_details:
            if node_id == path or node_id.startswith(path + "::"):
                return detail
        return ""


def _prefixes(node_id: str) -> list[str]:
    """Every `p` that `node_id` starts `p::` with (one for a path without `::` in it)."""
    out = []
    at = node_id.find("::")
    while at >= 0:
        out.append(node_id[:at])
        at = node_id.find("::", at + 2)
    return out


@dataclass(frozen=True, slots=True)
class TestSite:
    """Where one collected test is defined: its qualified name (`Outer.Inner.test_x`, parameters
    dropped), its function (None when it is not in this file) and the line spans whose change
    touches it: the function's, plus the collected class's when the function is inherited from a
    base class; the class's alone when the function comes from another module; none when nothing was
    found."""

    node_id: str
    qualname: str
    spans: tuple[tuple[int, int], ...]
    node: FunctionNode | None

    @property
    def located(self) -> bool:
        """True when the lines of the definition are known."""
        return bool(self.spans)

    @property
    def first_line(self) -> int:
        """The first line of the test's own definition (0 when unknown)."""
        return self.spans[0][0] if self.spans else 0

    @property
    def last_line(self) -> int:
        """The last line of the test's own definition (0 when unknown)."""
        return self.spans[0][1] if self.spans else 0

    def touched_by(self, changed: Iterable[int] | None) -> bool:
        """See `touched_by`."""
        return touched_by(self.spans, changed)


def touched_by(spans: Sequence[tuple[int, int]], changed: Iterable[int] | None) -> bool:
    """True when the changed lines hit a span (None: the whole file is new); a test without a known
    definition counts as touched by any change to its file."""
    if changed is None:
        return True
    lines = set(changed)
    if not spans:
        return bool(lines)
    return any(first <= line <= last for first, last in spans for line in lines)


def _span(node: FunctionNode | ast.ClassDef) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first, node.end_lineno or node.lineno


def _named(body: Sequence[ast.stmt], name: str) -> ast.stmt | None:
    """The last definition of `name` in a block: what the module or class attribute ends up being."""
    found: ast.stmt | None = None
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if stmt.name == name:
                found = stmt
    return found


def _method(
    cls: ast.ClassDef, name: str, module: ast.Module, seen: set[str]
) -> FunctionNode | None:
    """A method of `cls`, or of a base class defined in the same module (inherited test methods)."""
    own = _named(cls.body, name)
    if isinstance(own, ast.FunctionDef | ast.AsyncFunctionDef):
        return own
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id not in seen:
            seen.add(base.id)
            parent = _named(module.body, base.id)
            if isinstance(parent, ast.ClassDef):
                found = _method(parent, name, module, seen)
                if found is not None:
                    return found
    return None


def split_node_id(node_id: str) -> tuple[str, tuple[str, ...]]:
    """`a/t.py::Outer::test_x[1-2]` -> (`a/t.py`, ("Outer", "test_x")); parameters dropped."""
    path, _, rest = node_id.partition("::")
    names = tuple(rest.split("[", 1)[0].split("::")) if rest else ()
    return path, names


def locate(tree: ast.Module, node_id: str) -> TestSite:
    """Map one node id of this module onto its definition."""
    _, names = split_node_id(node_id)
    qualname = ".".join(names)
    if not names:
        return TestSite(node_id, qualname, (), None)
    scope: ast.ClassDef | None = None
    body: Sequence[ast.stmt] = tree.body
    for name in names[:-1]:
        found = _named(body, name)
        if not isinstance(found, ast.ClassDef):
            return TestSite(node_id, qualname, (), None)
        scope, body = found, found.body
    func: FunctionNode | None
    if scope is None:
        top = _named(tree.body, names[-1])
        func = top if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef) else None
    else:
        func = _method(scope, names[-1], tree, {scope.name})
    spans: list[tuple[int, int]] = []
    if func is not None:
        spans.append(_span(func))
    if scope is not None and (func is None or not scope.lineno <= func.lineno <= _end(scope)):
        spans.append(_span(scope))
    return TestSite(node_id, qualname, tuple(spans), func)


def _end(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def sites(source: str, path: str, node_ids: Sequence[str]) -> list[TestSite]:
    """The definitions of a module's collected tests, in the order given; a SyntaxError propagates."""
    tree = parse_python(source, path)
    return [locate(tree, node_id) for node_id in node_ids]


def functions(source: str, path: str, node_ids: Sequence[str]) -> list[TestSite]:
    """One site per test function (parametrized node ids of one function merged), located ones only."""
    out: dict[str, TestSite] = {}
    for site in sites(source, path, node_ids):
        if site.node is not None and site.qualname not in out:
            out[site.qualname] = site
    return list(out.values())


def changed_test_files(repo: Path, diff: DiffSummary) -> tuple[ChangedFile, ...]:
    """The diff's added or changed Python files that pytest may collect tests from, present at head:
    test files by pytest's default names, and files the `python_files` patterns of the merge base's
    pytest config name (the base's, since the head's config is the diff's to change); never
    conftest.py, never fixtures."""
    ini = pytest_ini.read(repo, diff.merge_base)
    candidates = [
        changed
        for changed in diff.files
        if changed.change is not Change.DELETED
        and not changed.binary
        and changed.path.endswith(".py")
        and PurePosixPath(changed.path).name != "conftest.py"
        and (
            Role.TEST in changed.roles
            or (Role.FIXTURE not in changed.roles and ini.collects(changed.path))
        )
    ]
    git.prefetch_files(repo, ((diff.head_commit, c.path) for c in candidates))
    return tuple(c for c in candidates if git.show_file(repo, diff.head_commit, c.path) is not None)
