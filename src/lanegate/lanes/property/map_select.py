"""Which tests the property lane runs: all of them (the full traced baseline), or, with a usable
coverage map of the merge base, only the base tests that reached the functions the diff changed.

The map is used only when the diff changes nothing but function bodies of traced Python files (and test
files, which run whole). A test's run at head can differ from its run at base only once it executes
changed code; with the module-level code of every file unchanged, that means calling a changed function,
which the base run recorded. Everything else falls back to the full baseline with the reason: no map, a
map inside the head's tree, a missing, unreadable or stale map, a changed file that is not a function
body (module level, class body, decorator, signature, docstring, a new, deleted or renamed module, any
non-Python file, conftest.py, configuration), a file the map did not trace or traced at another blob,
and a changed function called outside any test (at import or collection). Base tests that did not pass
at base, opaque tests (they started a process, whose child was not traced, or replaced the tracer) and
files that did not collect are always selected; a new or changed test file must sit in a tests/
directory (elsewhere a package's own discovery could import it).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate.diff import Change, DiffSummary
from lanegate.errors import CoverageMapError
from lanegate.lanes.collection import changed_test_files
from lanegate.lanes.property.map_file import CoverageMapFile, file_name, read_map
from lanegate.lanes.property.map_key import MapKey
from lanegate.pysource import parse as parse_python

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
MAX_LISTED = 3


class BaselineMode(StrEnum):
    """How the property lane chose the tests of its baseline and base-suite runs."""

    FULL = "full"
    COVERAGE_MAP = "coverage-map"


@dataclass(frozen=True, slots=True)
class BaselineChoice:
    """The choice, its reason, and (coverage-map mode) the selected base tests and changed functions."""

    mode: BaselineMode
    reason: str
    map_key: str = ""
    map_tests: int = 0
    node_ids: frozenset[str] = frozenset()
    head_files: tuple[str, ...] = ()
    base_files: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()

    @property
    def selective(self) -> bool:
        """True when only the selected tests run."""
        return self.mode is BaselineMode.COVERAGE_MAP


def full(reason: str, key: str = "", tests: int = 0) -> BaselineChoice:
    """The full traced baseline, and why."""
    return BaselineChoice(BaselineMode.FULL, reason, key, tests)


def _hunks(repo: Path, summary: DiffSummary, path: str) -> tuple[set[int], set[int]]:
    """(base-side, head-side) line numbers the diff removed or added in `path`."""
    out = git.zero_context_diff(repo, summary.merge_base, summary.head_commit, path)
    base: set[int] = set()
    head: set[int] = set()
    for m in _HUNK.finditer(out):
        start, count = int(m.group(1)), int(m.group(2) or "1")
        base.update(range(start, start + count))
        start, count = int(m.group(3)), int(m.group(4) or "1")
        head.update(range(start, start + count))
    return base, head


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _bodies(tree: ast.Module) -> list[tuple[str, int, int]]:
    """(qualname, first, last) of the executable body of every outermost function (methods of
    classes included): the lines after its signature and docstring."""
    out: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                body = child.body[1:] if _is_docstring(child.body[0]) else child.body
                if body:
                    out.append(
                        (prefix + child.name, body[0].lineno, child.end_lineno or child.lineno)
                    )
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.stmt):
                visit(child, prefix)  # `if`, `try`, `with` at module or class level

    visit(tree, "")
    return out


def _parsed_bodies(path: str, source: bytes) -> list[tuple[str, int, int]]:
    """`_bodies` of the file; CoverageMapError when it does not parse."""
    try:
        return _bodies(parse_python(source, path))
    except (SyntaxError, ValueError):
        raise CoverageMapError(f"{path} does not parse") from None


def _units(
    path: str, source: bytes, lines: set[int], bodies: list[tuple[str, int, int]]
) -> set[str]:
    """The qualnames of the functions whose bodies (`bodies`, the file's `_parsed_bodies`) hold
    `lines`; a line outside every function body (blank and comment lines aside) raises
    CoverageMapError."""
    text = source.decode("utf-8", "replace").splitlines()
    units: set[str] = set()
    for line in sorted(lines):
        stripped = text[line - 1].strip() if 0 < line <= len(text) else ""
        if not stripped or stripped.startswith("#"):
            continue
        found = [name for name, first, last in bodies if first <= line <= last]
        if not found:
            raise CoverageMapError(
                f"{path}:{line} is outside every function body (module level, class body, "
                "decorator, signature or docstring)"
            )
        units.add(found[0])
    return units


def changed_functions(
    repo: Path, summary: DiffSummary, data: CoverageMapFile
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(changed functions as `path::qualname`, test files at head that run whole); CoverageMapError
    with the reason when the diff is not only function bodies and tests."""
    tests = {f.path for f in changed_test_files(repo, summary)}
    base_tests = {node.split("::", 1)[0] for node in data.tests} | {
        e.split("::", 1)[0] for e in data.collect_errors
    }
    functions: set[str] = set()
    git.prefetch_files(
        repo,
        (
            (commit, f.path)
            for f in summary.files
            if f.change is Change.MODIFIED and f.path.endswith(".py") and f.path not in tests
            for commit in (summary.merge_base, summary.head_commit)
        ),
    )
    for changed in summary.files:
        path = changed.path
        name = PurePosixPath(path).name
        if path in tests or (changed.change is Change.DELETED and path in base_tests):
            if not _in_test_dir(path) and changed.change is not Change.DELETED:
                raise CoverageMapError(
                    f"{path}: a test file outside a tests/ directory (discovery may import it)"
                )
            continue  # a test file: run whole at head; restored by the base suite
        if changed.is_gate_input:
            raise CoverageMapError(f"{path} is a gate input (configuration, packaging, start-up)")
        if changed.change is not Change.MODIFIED or not path.endswith(".py") or changed.binary:
            raise CoverageMapError(f"{path} is {changed.change.value}, not a Python file's body")
        if name == "conftest.py":
            raise CoverageMapError(f"{path}: conftest.py changed")
        blob = data.traced_files.get(path)
        if blob is None:
            raise CoverageMapError(f"{path} is not traced by the map")
        listed = git.run_git(repo, "rev-parse", f"{summary.merge_base}:{path}").decode().strip()
        if listed != blob:
            raise CoverageMapError(f"{path} was traced at another blob than the merge base's")
        base_src = git.show_file(repo, summary.merge_base, path) or b""
        head_src = git.show_file(repo, summary.head_commit, path) or b""
        base_lines, head_lines = _hunks(repo, summary, path)
        base_bodies, head_bodies = _parsed_bodies(path, base_src), _parsed_bodies(path, head_src)
        base_units = _units(path, base_src, base_lines, base_bodies)
        head_units = _units(path, head_src, head_lines, head_bodies)
        names = {q for q, _, _ in base_bodies}
        heads = {q for q, _, _ in head_bodies}
        for unit in base_units | head_units:
            if unit not in names or unit not in heads:
                raise CoverageMapError(f"{path}: {unit} is not a function at both base and head")
        functions.update(f"{path}::{u}" for u in base_units | head_units)
    return tuple(sorted(functions)), tuple(sorted(tests))


def _in_test_dir(path: str) -> bool:
    """Under a `tests`/`test` directory: no package's own module discovery reaches it."""
    return bool({"tests", "test"} & set(PurePosixPath(path).parts[:-1]))


def _matches(function: str, unit: str) -> bool:
    """`path::qualname` reached is the unit itself or code nested in it (`f.<locals>.g`)."""
    return function == unit or function.startswith(unit + ".<locals>.")


def select(data: CoverageMapFile, functions: tuple[str, ...]) -> frozenset[str]:
    """The base tests to run for these changed functions (CoverageMapError: one runs ambient)."""
    hit = frozenset(
        i for i, name in enumerate(data.functions) if any(_matches(name, u) for u in functions)
    )
    ambient = sorted(data.functions[i] for i in hit & data.ambient)
    if ambient:
        raise CoverageMapError(f"{ambient[0]} runs outside any test (at import or collection time)")
    return frozenset(
        node
        for node, test in data.tests.items()
        if test.reached & hit or test.opaque or test.outcome != "passed"
    )


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def choose(
    repo: Path, summary: DiffSummary, expected: MapKey, given: Path | None
) -> BaselineChoice:
    """Decide full or coverage-map mode for this diff, with the map at `given` (a file or the
    directory a cache restored; None: no map)."""
    if given is None:
        return full("no coverage map given")
    if _inside(given, repo):
        return full(f"the coverage map {given} is inside the head's tree: ignored")
    path = given / file_name(expected) if given.is_dir() else given
    if _inside(path, repo):
        return full(f"the coverage map {path} resolves inside the head's tree: ignored")
    if not path.exists():
        return full(f"no coverage map for this base and environment ({path.name} missing)")
    try:
        data = read_map(path)
    except CoverageMapError as exc:
        return full(f"coverage map unusable: {exc}")
    key = data.key.digest
    stale = expected.differences(data.key)
    if stale:
        return full(f"coverage map is stale: {', '.join(stale)} differ", key, len(data.tests))
    try:
        functions, whole = changed_functions(repo, summary, data)
        nodes = select(data, functions)
    except CoverageMapError as exc:
        return full(f"diff not scoped by the map: {exc}", key, len(data.tests))
    uncollected = tuple(sorted({e.split("::", 1)[0] for e in data.collect_errors}))
    if not nodes and not whole and not uncollected:
        return full("no base test reaches the changed functions and no test file changed", key)
    reached = frozenset().union(*(test.reached for test in data.tests.values()))
    unseen = [f for f in functions if not _reached(data, f, reached)]
    note = (
        f"; {len(unseen)} changed function(s) no base test reached ({', '.join(unseen[:MAX_LISTED])}"
        + (", ..." if len(unseen) > MAX_LISTED else "")
        + "): only the diff's tests cover them"
        if unseen
        else ""
    )
    return BaselineChoice(
        BaselineMode.COVERAGE_MAP,
        f"{len(nodes)} of {len(data.tests)} base tests reach {len(functions)} changed "
        f"function(s), plus {len(whole)} changed test file(s) run whole{note}",
        key,
        len(data.tests),
        nodes,
        whole,
        uncollected,
        functions,
    )


def _reached(data: CoverageMapFile, unit: str, reached: frozenset[int]) -> bool:
    """Whether some base test reached `unit` (`reached`: every function index any test reached)."""
    return any(_matches(data.functions[i], unit) for i in reached)
