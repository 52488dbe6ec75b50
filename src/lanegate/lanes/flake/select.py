"""Which tests the flake lane replays: the tests the diff added or changed, and the tests that run
before them in the same module (an order-dependent victim of an unchanged polluter shows only then).

Tests are found by an AST scan of each changed test file at head (pytest's default naming: `test*`
functions, `test*` methods of `Test*` classes). The same scan marks tests that touch randomness, the
clock, threads or object identity (directly or through a module-level helper they call), which the plan
repeats more often.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.diff import Change, DiffSummary, Role, changed_lines

RISK_NAMES: dict[str, frozenset[str]] = {
    "random": frozenset(
        {
            "random",
            "randint",
            "randrange",
            "choice",
            "choices",
            "shuffle",
            "sample",
            "uniform",
            "getrandbits",
            "uuid1",
            "uuid4",
            "urandom",
            "secrets",
            "SystemRandom",
            "token_hex",
        }
    ),
    "clock": frozenset(
        {
            "time",
            "datetime",
            "date",
            "monotonic",
            "perf_counter",
            "now",
            "today",
            "utcnow",
            "localtime",
            "gmtime",
            "mktime",
            "strftime",
            "tzset",
            "sleep",
            "timezone",
            "zoneinfo",
        }
    ),
    "threads": frozenset(
        {
            "threading",
            "Thread",
            "ThreadPoolExecutor",
            "ProcessPoolExecutor",
            "concurrent",
            "Lock",
            "Event",
            "Timer",
            "asyncio",
            "multiprocessing",
            "Process",
            "Barrier",
            "Queue",
        }
    ),
    "identity": frozenset({"id", "hash", "object", "getrefcount", "WeakValueDictionary"}),
}


StrSet = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TestDef:
    """One test function as the AST shows it; `str_sets` are the sets of string literals it builds
    (their iteration order follows the hash seed)."""

    node_id: str
    first_line: int
    last_line: int
    risks: frozenset[str]
    str_sets: tuple[StrSet, ...] = ()


@dataclass(frozen=True, slots=True)
class SelectedTest:
    """A test to replay; `touched` when the diff added or changed its code."""

    node_id: str
    path: str
    touched: bool
    risks: frozenset[str]
    whole_module: bool = False
    str_sets: tuple[StrSet, ...] = ()


@dataclass(frozen=True, slots=True)
class Selection:
    """The tests to replay, in file and source order."""

    tests: tuple[SelectedTest, ...]

    @property
    def node_ids(self) -> tuple[str, ...]:
        """The node ids of the selected tests."""
        return tuple(t.node_id for t in self.tests)

    @property
    def pytest_args(self) -> tuple[str, ...]:
        """What to hand to pytest: a module's path when all of its tests are selected (collecting one
        path is much cheaper than resolving each node id), its node ids otherwise."""
        args: list[str] = []
        for path in dict.fromkeys(t.path for t in self.tests):
            mine = [t for t in self.tests if t.path == path]
            if all(t.whole_module for t in mine):
                args.append(path)
            else:
                args.extend(t.node_id for t in mine)
        return tuple(args)

    @property
    def touched_ids(self) -> frozenset[str]:
        """Node ids of the tests the diff touched."""
        return frozenset(t.node_id for t in self.tests if t.touched)


def _names(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr)
        elif isinstance(sub, ast.alias):
            out.update(sub.name.split("."))
    return out


def _risks(names: Iterable[str]) -> frozenset[str]:
    found = set(names)
    return frozenset(kind for kind, words in RISK_NAMES.items() if found & words)


MAX_STR_SET = 16


def _strings(node: ast.AST | None) -> StrSet | None:
    elements: list[ast.expr] | None = None
    if isinstance(node, ast.Set | ast.List | ast.Tuple):
        elements = list(node.elts)
    elif isinstance(node, ast.Dict):
        elements = [k for k in node.keys if k is not None]
    if not elements or len(elements) > MAX_STR_SET:
        return None
    values = [e.value for e in elements if isinstance(e, ast.Constant)]
    if len(values) != len(elements) or not all(isinstance(v, str) for v in values):
        return None
    out = tuple(dict.fromkeys(str(v) for v in values))
    return out if len(out) >= 2 else None


def _str_sets(node: ast.AST, constants: dict[str, StrSet]) -> list[StrSet]:
    """String sets built from literals: `{"a", "b"}`, `set(["a", "b"])`, `frozenset(NAMES)` where
    NAMES is a module-level literal, `set(WEIGHTS)` of a module-level dict with string keys."""
    found: list[StrSet] = []
    for sub in ast.walk(node):
        group: StrSet | None = None
        if isinstance(sub, ast.Set):
            group = _strings(sub)
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id in ("set", "frozenset")
            and len(sub.args) == 1
        ):
            arg = sub.args[0]
            group = constants.get(arg.id) if isinstance(arg, ast.Name) else _strings(arg)
        if group is not None and group not in found:
            found.append(group)
    return found


def _span(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first, node.end_lineno or node.lineno


def discover_tests(source: str, path: str) -> list[TestDef]:
    """The tests of one module in source order; a SyntaxError propagates."""
    tree = ast.parse(source, filename=path)
    helpers = {
        n.name: _names(n)
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and not n.name.startswith("test")
    }
    module_imports = set().union(
        *(_names(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom))
    )
    constants: dict[str, StrSet] = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            group = _strings(n.value)
            if group is not None:
                constants[n.targets[0].id] = group

    def risks_of(func: ast.AST) -> frozenset[str]:
        names = _names(func)
        for called in names & set(helpers):
            names |= helpers[called]
        # A bare name like `choice` counts only when the module imported it from somewhere.
        return _risks(n for n in names if n in module_imports or n in {"id", "hash", "object"})

    tests: list[TestDef] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            first, last = _span(node)
            tests.append(
                TestDef(
                    f"{path}::{node.name}",
                    first,
                    last,
                    risks_of(node),
                    tuple(_str_sets(node, constants)),
                )
            )
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(
                    item, ast.FunctionDef | ast.AsyncFunctionDef
                ) and item.name.startswith("test"):
                    first, last = _span(item)
                    tests.append(
                        TestDef(
                            f"{path}::{node.name}::{item.name}",
                            first,
                            last,
                            risks_of(item),
                            tuple(_str_sets(item, constants)),
                        )
                    )
    return tests


def select_module(path: str, source: str, changed: frozenset[int] | None) -> list[SelectedTest]:
    """The tests of one changed module to replay. `changed` None means the whole file is new.

    Every test up to the last touched one is selected, in source order: the untouched ones may be the
    polluters or state-setters of the touched ones.
    """
    try:
        tests = discover_tests(source, path)
    except (SyntaxError, ValueError):
        # pytest will fail to collect it; run the file so that the failure is recorded, not skipped.
        return [SelectedTest(path, path, True, frozenset(), whole_module=True)]
    touched = [
        changed is None or any(t.first_line <= line <= t.last_line for line in changed)
        for t in tests
    ]
    if not any(touched):
        return []
    last = max(i for i, hit in enumerate(touched) if hit)
    whole = last == len(tests) - 1
    return [
        SelectedTest(t.node_id, path, touched[i], t.risks, whole, t.str_sets)
        for i, t in enumerate(tests[: last + 1])
    ]


def select_tests(repo: Path, diff: DiffSummary) -> Selection:
    """The tests of `diff` to replay, read at the diff's head commit."""
    selected: list[SelectedTest] = []
    for changed_file in diff.with_role(Role.TEST):
        path = changed_file.path
        if Path(path).name == "conftest.py" or changed_file.binary:
            continue
        data = git.show_file(repo, diff.head_commit, path)
        if data is None:
            continue
        source = data.decode("utf-8", "replace")
        lines: frozenset[int] | None = None
        if changed_file.change is not Change.ADDED:
            lines = changed_lines(repo, diff.merge_base, diff.head_commit, path)
        selected.extend(select_module(path, source, lines))
    return Selection(tuple(selected))
