"""Which tests the flake lane replays: the tests the diff added or changed, and the tests that run
before them in the same module (an order-dependent victim of an unchanged polluter shows only then).

Tests are what pytest itself collects from each changed test file (node ids, see
`lanegate.lanes.collection`); the AST of the file at head maps them onto their definitions, and marks tests that touch randomness, the
clock, threads or object identity (directly or through a module-level helper they call), which the plan
repeats more often.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate.diff import Change, DiffSummary, changed_lines, removed_lines
from lanegate.lanes.collection import Collection, changed_test_files, locate
from lanegate.lanes.flake.touched import touched_tests
from lanegate.pysource import parse as parse_python

# What `_names` records of what code touches beyond names, counted without an import: a deadline
# passed by keyword (`timeout=0.1`), a fixed network address (`("127.0.0.1", 8765)`), a fixed path
# in the machine's shared temporary folders (`"/tmp/report.csv"`, `Path("/tmp") / name`).
DEADLINE = "timeout="
DEADLINE_KEYWORDS = frozenset({"timeout", "deadline"})
FIXED_ADDRESS = "address="
SHARED_PATH = "shared-path="
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
MARKERS = frozenset({DEADLINE, FIXED_ADDRESS, SHARED_PATH})
# names that count as a risk without an import (builtins, and the markers)
BARE_RISK_NAMES = frozenset({"id", "hash", "object", *MARKERS})

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
    # state outside the interpreter that a run can leave behind or find taken: temporary files,
    # the working directory, the environment, sockets and ports, file locks
    "resource": frozenset(
        {
            "tempfile",
            "mkstemp",
            "mkdtemp",
            "NamedTemporaryFile",
            "TemporaryDirectory",
            "gettempdir",
            "chdir",
            "getcwd",
            "cwd",
            "environ",
            "putenv",
            "getenv",
            "socket",
            "bind",
            "sqlite3",  # a database file: a fixed path two copies share
            "flock",
            "fcntl",
            # servers and clients of an address on this machine (a fixed port two copies share)
            "http",
            "socketserver",
            "HTTPServer",
            "TCPServer",
            "create_server",
            "start_server",
            "create_connection",
            "urlopen",
            FIXED_ADDRESS,
            SHARED_PATH,
        }
    ),
    # a deadline the test sets on a wait (`subprocess.run(..., timeout=0.1)`, `q.get(timeout=1)`,
    # `join(timeout=)`): its outcome depends on how fast the machine is (`_names` adds `timeout=`)
    "deadline": frozenset({DEADLINE}),
}

# The host a CI job runs on (`lanes/flake/host.py`): names that show a test reads files by a path
# the working directory may resolve (`cwd`), the terminal size (`terminal`), the CPU count
# (`cpus`), the environment (`env`) or a directory's listing (`listing`). Counted bare, unlike the
# names above: builtins such as `open` and methods such as `read_text` are never imported, and
# `"COLUMNS"` is a string.
HOST_RISK_NAMES: dict[str, frozenset[str]] = {
    "cwd": frozenset(
        {
            "open",
            "Path",
            "PurePath",
            "exists",
            "isfile",
            "isdir",
            "listdir",
            "scandir",
            "glob",
            "iglob",
            "getcwd",
            "cwd",
            "chdir",
            "abspath",
            "relpath",
            "realpath",
            "resolve",
            "read_text",
            "read_bytes",
            "write_text",
            "write_bytes",
            "load_dotenv",
            "dotenv_values",
            "loadtxt",
            "genfromtxt",
            "read_csv",
        }
    ),
    "terminal": frozenset(
        {
            "get_terminal_size",
            "terminal_size",
            "COLUMNS",
            "LINES",
            "TextWrapper",
            "fill",
            "wrap",
            "shorten",
            "ArgumentParser",
            "HelpFormatter",
            "format_help",
            "print_help",
            "format_usage",
            "Console",
            "tabulate",
        }
    ),
    # environment variables another machine sets or does not: a CI runner's, a colour terminal's
    "env": frozenset(
        {
            "environ",
            "getenv",
            "isatty",
            "CI",
            "GITHUB_ACTIONS",
            "NO_COLOR",
            "FORCE_COLOR",
            "TERM",
            "COLORTERM",
            "CLICOLOR",
        }
    ),
    "cpus": frozenset(
        {
            "cpu_count",
            "process_cpu_count",
            "sched_getaffinity",
            "ThreadPoolExecutor",
            "ProcessPoolExecutor",
            "Pool",
        }
    ),
    # directory listings, whose order is the file system's
    "listing": frozenset(
        {"listdir", "scandir", "iterdir", "glob", "iglob", "rglob", "walk", "fwalk"}
    ),
}


def host_risks(node: ast.AST, names: set[str]) -> frozenset[str]:
    """The host conditions a test's code (`node`, whose names with its helpers' are `names`)
    shows it may depend on: `HOST_RISK_NAMES`, with string constants counted as names."""
    words = set(names)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value.isupper():
            words.add(sub.value)
    return frozenset(kind for kind, found in HOST_RISK_NAMES.items() if words & found)


StrSet = tuple[str, ...]

# What makes an outcome follow the hash seed: sets (and dicts built from them) of strings, string
# hashes, enum members (hashed by name). Sets are builtins, so these count unimported.
HASH_NAMES = frozenset(
    {
        "set",
        "frozenset",
        "hash",
        "__hash__",
        "fromkeys",
        "Enum",
        "Flag",
        "IntFlag",
        "StrEnum",
        "IntEnum",
    }
)
HASHING = "hashing"
MAX_IMPORTED_MODULES = 20


def shows_hashing(node: ast.AST) -> bool:
    """Whether code builds sets or hashes: a set display or comprehension, or a `HASH_NAMES` name."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Set | ast.SetComp):
            return True
        if isinstance(sub, ast.Name) and sub.id in HASH_NAMES:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in HASH_NAMES:
            return True
    return False


def _module_paths(path: str, module: str, level: int) -> list[str]:
    """Where an imported module's source may live in the repository (repo-relative paths)."""
    parts = module.split(".") if module else []
    here = PurePosixPath(path).parent
    if level:
        base = here
        for _ in range(level - 1):
            base = base.parent
        roots = [base]
    else:
        roots = [here, PurePosixPath("."), PurePosixPath("src")]
    out = []
    for root in roots:
        if parts:
            target = root.joinpath(*parts)
            out += [f"{target}.py", f"{target}/__init__.py"]
    return [str(PurePosixPath(o)) for o in out]


def module_traits(tree: ast.AST) -> frozenset[str]:
    """What a repository module's code shows that a test calling into it inherits: `hashing`
    (`shows_hashing`), the host conditions it reads (`host_risks`: the code under test, not
    the test, usually opens the relative path, reads the terminal width or sizes its pool) and
    the causes of flakiness it imports (`RISK_NAMES`: the code under test sleeps, keeps a TTL or
    starts the worker thread, so a test of it needs the stress and clock runs)."""
    return _traits(tree, _names(tree), _imports(tree))


def _traits(node: ast.AST, names: set[str], imported: set[str]) -> frozenset[str]:
    """What code (`node`, whose names are `names`) shows, when its module imports `imported`."""
    found = host_risks(node, names) | _risks(n for n in names if n in imported or n in MARKERS)
    return found | {HASHING} if shows_hashing(node) else found


def _imports(tree: ast.AST) -> set[str]:
    """Every name part a module imports (`from a.b import c as d`: a, b, c)."""
    out: set[str] = set()
    for sub in ast.walk(tree):
        if isinstance(sub, ast.ImportFrom):
            out.update((sub.module or "").split("."))
        if isinstance(sub, ast.Import | ast.ImportFrom):
            out.update(part for alias in sub.names for part in alias.name.split("."))
    return out


def imported_traits(
    source_tree: ast.Module, path: str, read: Callable[[str], str | None]
) -> dict[str, frozenset[str]]:
    """The names a test module imports from modules of the repository, each with the traits of
    its module (`module_traits`): the test that calls one may depend on the hash seed, the
    host, or the clock, threads and shared resources of the code it calls. At most `MAX_IMPORTED_MODULES` modules are read."""
    names: dict[str, frozenset[str]] = {}
    looked = 0
    for node in source_tree.body:
        if isinstance(node, ast.ImportFrom):
            pairs = [(node.module or "", node.level, [a.asname or a.name for a in node.names])]
        elif isinstance(node, ast.Import):
            pairs = [(a.name, 0, [a.asname or a.name.split(".")[0]]) for a in node.names]
        else:
            continue
        for module, level, bound in pairs:
            for candidate in _module_paths(path, module, level):
                if looked >= MAX_IMPORTED_MODULES:
                    return names
                text = read(candidate)
                if text is None:
                    continue
                looked += 1
                try:
                    traits = module_traits(parse_python(text))
                except (SyntaxError, ValueError):
                    traits = frozenset()
                if traits:
                    names.update(dict.fromkeys(bound, traits))
                break
    return names


@dataclass(frozen=True, slots=True)
class TestDef:
    """One collected test as the AST shows it (`spans`: see `lanegate.lanes.collection.TestSite`);
    `str_sets` are the sets of string literals it builds
    (their iteration order follows the hash seed)."""

    node_id: str
    spans: tuple[tuple[int, int], ...]
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
        elif isinstance(sub, ast.keyword) and sub.arg in DEADLINE_KEYWORDS:
            if not (isinstance(sub.value, ast.Constant) and sub.value.value is None):
                out.add(DEADLINE)
        elif isinstance(sub, ast.Tuple) and _fixed_address(sub):
            out.add(FIXED_ADDRESS)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            if any(sub.value == f or sub.value.startswith(f + "/") for f in SHARED_FOLDERS):
                out.add(SHARED_PATH)
    return out


def _fixed_address(node: ast.Tuple) -> bool:
    """`("127.0.0.1", 8765)`: a host and a port other than 0 (0 asks the kernel for a free one)."""
    if len(node.elts) != 2:
        return False
    host, port = node.elts
    return (
        isinstance(host, ast.Constant)
        and isinstance(host.value, str)
        and isinstance(port, ast.Constant)
        and type(port.value) is int
        and 0 < port.value < 65536
    )


def _is_fixture(decorator: ast.expr) -> bool:
    """`@pytest.fixture`, `@fixture`, either called with arguments or not."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("fixture", "yield_fixture")


def _fixture_option(decorator: ast.expr, option: str) -> object:
    if isinstance(decorator, ast.Call):
        for keyword in decorator.keywords:
            if keyword.arg == option and isinstance(keyword.value, ast.Constant):
                return keyword.value.value
    return None


@dataclass(frozen=True, slots=True)
class Fixtures:
    """The fixtures a module (or a conftest) defines at its top level, by name (its `name=` when
    given), and the autouse ones, which every test of their scope requests."""

    nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    autouse: frozenset[str]

    def names(self, name: str) -> set[str]:
        """What fixture `name` reaches: its own names and the fixtures it requests."""
        node = self.nodes[name]
        return _names(node) | _params(node)


def _params(func: ast.AST) -> set[str]:
    """The parameters of a function: for a test or a fixture, the fixtures it requests."""
    if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    args = func.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def fixtures_of(tree: ast.Module) -> Fixtures:
    """The module-level fixtures of `tree` (`Fixtures`)."""
    nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    autouse: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if _is_fixture(decorator):
                given = _fixture_option(decorator, "name")
                name = given if isinstance(given, str) else node.name
                nodes[name] = node
                if _fixture_option(decorator, "autouse") is True:
                    autouse.add(name)
    return Fixtures(nodes, frozenset(autouse))


def requested(func: ast.AST) -> set[str]:
    """The fixtures a test requests: its parameters and its `usefixtures` marks' names."""
    out = _params(func)
    decorators = getattr(func, "decorator_list", [])
    for decorator in decorators:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute):
            if decorator.func.attr == "usefixtures":
                out.update(
                    a.value
                    for a in decorator.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                )
    return out


def _reach(start: set[str], helpers: Mapping[str, ast.AST]) -> tuple[set[str], list[ast.AST]]:
    """The names code reaches from `start` through `helpers` (functions, classes and fixtures of
    one module, helpers of helpers too), and the helper nodes it reached."""
    names = set(start)
    reached: set[str] = set()
    while fresh := (names & helpers.keys()) - reached:
        reached |= fresh
        for name in fresh:
            names |= _names(helpers[name]) | _params(helpers[name])
    return names, [helpers[name] for name in sorted(reached)]


def conftest_traits(
    path: str, read: Callable[[str], str | None]
) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """The fixtures of the `conftest.py` files above a test module (its folder and every parent,
    the nearest one winning), each with the traits of its code (`_traits` with the conftest's
    imports), and the names of the autouse ones: a test's risk is what it touches, and a fixture
    it requests (a server on a fixed port, a file at a fixed path) is code it runs."""
    traits: dict[str, frozenset[str]] = {}
    autouse: set[str] = set()
    folder = PurePosixPath(path).parent
    for level in (folder, *folder.parents):
        text = read(str(level / "conftest.py"))
        if text is None:
            continue
        try:
            tree = parse_python(text)
        except (SyntaxError, ValueError):
            continue
        found = fixtures_of(tree)
        imported = _imports(tree)
        helpers = {n.name: n for n in _helpers(tree)} | found.nodes
        for name in found.nodes:
            if name in traits:  # a nearer conftest's fixture overrides a farther one's
                continue
            names, nodes = _reach({name}, helpers)
            traits[name] = frozenset().union(*(_traits(n, names, imported) for n in nodes))
        autouse |= found.autouse
    return traits, frozenset(autouse)


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


Helper = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _helpers(tree: ast.Module) -> list[Helper]:
    """The module-level functions and classes a test of the module may call: not tests."""
    out: list[Helper] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("test"):
                out.append(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("Test"):
            out.append(node)
    return out


def _aliases(tree: ast.Module) -> dict[str, set[str]]:
    """What each name a module binds to another stands for, so that a risk is seen whatever the
    name it goes by: `import datetime as dt` (dt: datetime), `from time import time as now` (now:
    time, time), `import time as t` (t: time), and a module-level `clock = t.monotonic` or
    `stamp = partial(datetime.now, tz=UTC)` (the names of its value). Imports anywhere in the
    module count, a function's own included."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out.setdefault(alias.asname, set()).update(alias.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            source = set((node.module or "").split(".")) - {""}
            for alias in node.names:
                out.setdefault(alias.asname or alias.name, set()).update({alias.name, *source})
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, set()).update(_names(node.value))
    return out


def discover_tests(
    source: str,
    path: str,
    node_ids: Sequence[str],
    read: Callable[[str], str | None] | None = None,
) -> list[TestDef]:
    """The collected tests of one module, in pytest's order, with the spans of their definitions and
    their risks (`hashing` also from the repository modules it imports, read through `read`); a
    SyntaxError propagates."""
    tree = parse_python(source, path)
    imported = imported_traits(tree, path, read) if read is not None else {}
    # the fixtures a test requests are code it runs: the module's own (below), and its
    # conftests' (with what their code shows), autouse ones requested by every test
    conftest, autouse = conftest_traits(path, read) if read is not None else ({}, frozenset())
    imported = {**conftest, **imported}
    hashing_names = {name for name, found in imported.items() if HASHING in found}
    # what a test calls or builds from its own module: helper functions, and classes (a fake, a
    # cache, a `threading.Thread` subclass) whose methods read the clock or start the thread
    helper_nodes = _helpers(tree)
    helpers = {n.name: _names(n) for n in helper_nodes}
    fixtures = fixtures_of(tree)  # by name, with the fixtures each requests
    helpers.update({name: fixtures.names(name) for name in fixtures.nodes})
    autouse |= fixtures.autouse
    module_imports = set().union(
        *(_names(n) for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom))
    )
    aliases = _aliases(tree)
    constants: dict[str, StrSet] = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            group = _strings(n.value)
            if group is not None:
                constants[n.targets[0].id] = group

    def risks_of(func: ast.AST) -> frozenset[str]:
        names = _names(func) | requested(func) | autouse
        reached: set[str] = set()
        while fresh := (names & (helpers.keys() | aliases.keys())) - reached:
            reached |= fresh  # helpers of helpers, and the names an alias stands for, too
            for name in fresh:
                names |= helpers.get(name, set()) | aliases.get(name, set())
        # A bare name like `choice` counts only when the module imported it from somewhere.
        risks = _risks(n for n in names if n in module_imports or n in BARE_RISK_NAMES)
        hashing = shows_hashing(func) or any(
            shows_hashing(h) for h in helper_nodes if h.name in names
        )
        risks |= host_risks(func, names)
        for called in names & set(imported):  # what the imported code reads and starts
            risks |= imported[called] - {HASHING}
        return risks | {HASHING} if hashing or names & hashing_names else risks

    tests: list[TestDef] = []
    for site in (locate(tree, node_id) for node_id in node_ids):
        func = site.node
        tests.append(
            TestDef(
                site.node_id,
                site.spans,
                risks_of(func) if func is not None else frozenset(),
                tuple(_str_sets(func, constants)) if func is not None else (),
            )
        )
    return tests


def select_module(
    path: str,
    source: str,
    changed: frozenset[int] | None,
    node_ids: Sequence[str],
    *,
    collect_failed: bool = False,
    read: Callable[[str], str | None] | None = None,
    cut: frozenset[str] = frozenset(),
    deleted: bool = False,
) -> list[SelectedTest]:
    """The tests of one changed module to replay. `changed` None means the whole file is new;
    `node_ids` are what pytest collected from it, in its order; `cut` the ones the diff changed by
    deleting lines of them (`cut_tests`), `deleted` whether the diff deleted lines of it at all.
    A change touches the tests `touched_tests` names.

    Every test up to the last touched one is selected, in pytest's order: the untouched ones may be
    the polluters or state-setters of the touched ones. A module pytest failed to collect (or that
    does not parse) is run whole, so that the failure is recorded, not skipped.
    """
    whole_file = [SelectedTest(path, path, True, frozenset(), whole_module=True)]
    if collect_failed and (changed is None or changed or deleted):
        return whole_file
    try:
        tests = discover_tests(source, path, node_ids, read)
    except (SyntaxError, ValueError):
        return whole_file
    hit = touched_tests(parse_python(source, path), node_ids, changed) | cut
    touched = [t.node_id in hit for t in tests]
    if not any(touched):
        return []
    last = max(i for i, hit in enumerate(touched) if hit)
    whole = last == len(tests) - 1
    return [
        SelectedTest(t.node_id, path, touched[i], t.risks, whole, t.str_sets)
        for i, t in enumerate(tests[: last + 1])
    ]


def select_tests(
    repo: Path, diff: DiffSummary, collection: Collection, only: frozenset[str] | None = None
) -> Selection:
    """The tests of `diff` to replay, read at the diff's head commit; `collection` is pytest's
    collection of `changed_test_files(repo, diff)` (of those in `only`, a shard's slice, if given)."""
    selected: list[SelectedTest] = []
    for changed_file in changed_test_files(repo, diff):
        path = changed_file.path
        if only is not None and path not in only:
            continue
        data = git.show_file(repo, diff.head_commit, path)
        if data is None:
            continue
        source = data.decode("utf-8", "replace")

        def read(other: str) -> str | None:
            found = git.show_file(repo, diff.head_commit, other)
            return None if found is None else found.decode("utf-8", "replace")

        lines: frozenset[int] | None = None
        cut: frozenset[str] = frozenset()
        removed: frozenset[int] = frozenset()
        node_ids = collection.in_file(path)
        if changed_file.change is not Change.ADDED:
            lines = changed_lines(repo, diff.merge_base, diff.head_commit, path)
            removed = removed_lines(repo, diff.merge_base, diff.head_commit, path)
            cut = cut_tests(repo, diff, path, node_ids, removed)
        selected.extend(
            select_module(
                path,
                source,
                lines,
                node_ids,
                collect_failed=collection.failed(path),
                read=read,
                cut=cut,
                deleted=bool(removed),
            )
        )
    return Selection(tuple(selected))


def cut_tests(
    repo: Path, diff: DiffSummary, path: str, node_ids: Sequence[str], removed: frozenset[int]
) -> frozenset[str]:
    """The tests among `node_ids` (collected at head) that the diff changed by deleting the base's
    lines `removed` (`touched_tests` on the base's copy of the module)."""
    if not removed:
        return frozenset()
    data = git.show_file(repo, diff.merge_base, path)
    if data is None:
        return frozenset()
    try:
        tree = parse_python(data.decode("utf-8", "replace"), path)
    except (SyntaxError, ValueError):
        return frozenset()
    return touched_tests(tree, node_ids, removed)
