"""The pytest plugin the property lane loads with `-p`: counts cases, records settings, traces coverage.

It records, per test: outcome, duration, Hypothesis cases run/failed (through `observe`), the effective
Hypothesis settings, and (baseline only) which functions of the target files the test called. It writes
one JSON file given by `--lanegate-out`, a path outside the repository, at session end. In mutant mode it
serves the mutated module through an import hook, turns the example database, shrinking, deadlines and
health checks off (a slow mutant must never fail a test: slowness is a timeout, not a kill).

PYTEST_DONT_REWRITE: this module holds no assert, and a standby test process (`standby`) imports it
before pytest starts; the marker keeps pytest from warning that it cannot rewrite it then.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import pytest

import lanegate.oracles
from lanegate.lanes.collect_failure import error_line
from lanegate.lanes.lazy_hypothesis import skip_idle_summary, when_imported
from lanegate.lanes.property import observe
from lanegate.lanes.property.importhook import install_mutant, write_mutant_on_disk
from lanegate.lanes.property.named_files import named_files, unnamed_sibling
from lanegate.lanes.property.oracle_guard import OracleGuard
from lanegate.lanes.property.probes import ProbeFinder, install_probes, line_table, take_hits
from lanegate.lanes.property.protected import install_protected
from lanegate.lanes.property.read_guard import ReadGuard
from lanegate.lanes.property.running import mark_running
from lanegate.lanes.quick_exit import exit_after_session
from lanegate.lanes.rewrite import unmark_rewrite

_STATE_KEY = pytest.StashKey["_Recorder"]()
# the oracle functions as this process first imported them: before any conftest or test module, so
# before any code of the project's (`oracle_guard`)
_GUARD = OracleGuard(lanegate.oracles)
# the working directory and the reading functions, taken at the same moment (`read_guard`)
_READS = ReadGuard()
_IGNORED_KEY = pytest.StashKey[frozenset[str]]()
# the arguments `named_files` last read, and what it found
_NAMED_KEY = pytest.StashKey[tuple[tuple[str, ...], frozenset[str] | None]]()

#: Set by the fork server in each child: {"out": record path, "tests": node ids to run, in order}.
JOB: dict[str, Any] | None = None
MAX_ORACLE_SITES = 200  # distinct calling lines recorded per test
# parts of a path under the root that are no project code: tests, virtual environments, installs
_NOT_SOURCE = frozenset({"tests", "test", "site-packages", "dist-packages", ".venv", "venv"})


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    # the earliest hook a `-p` plugin gets: after pytest marked the plugin distributions for
    # assertion rewriting, before any entry-point plugin (Hypothesis's) is loaded
    unmark_rewrite(pluginmanager)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lanegate", "lanegate property lane (internal)")
    group.addoption("--lanegate-out", default=None, help="write the per-test record here")
    group.addoption("--lanegate-mode", default="baseline", choices=("baseline", "mutant"))
    group.addoption("--lanegate-trace", default="", help="os.pathsep-separated files to trace")
    group.addoption(
        "--lanegate-tracer",
        default="calls",
        choices=("calls", "probes"),
        help="record the traced files' calls with a tracer on every call, or probes compiled in",
    )
    group.addoption(
        "--lanegate-oracle-module",
        default="",
        help="record oracle calls: properties.module (a file or a dotted name) and lanegate.oracles",
    )
    group.addoption("--lanegate-mutant", default=None, help="JSON file: module path and source")
    group.addoption("--lanegate-observe", default="callback", choices=observe.MODES)
    group.addoption("--lanegate-max-examples", type=int, default=0)
    group.addoption(
        "--lanegate-seed",
        type=int,
        default=None,
        help="what --hypothesis-seed does, without importing Hypothesis for tests that never use it",
    )
    group.addoption(
        "--lanegate-map",
        action="store_true",
        help="coverage-map build: trace every call (collection too) by qualified name",
    )
    group.addoption(
        "--lanegate-select", default=None, help="JSON file: node ids and whole files to keep"
    )
    group.addoption(
        "--lanegate-ignore",
        default=None,
        help="JSON file: test files not to collect (relative to the invocation directory)",
    )
    group.addoption(
        "--lanegate-protect",
        default=None,
        help="JSON file: path -> SHA-256 of the base files imported only from verified bytes",
    )
    group.addoption(
        "--lanegate-guard-reads",
        action="store_true",
        help="a moved working directory or a replaced reading function errors the tests after it",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    # Before any conftest or test module imports the target, so the hook serves the mutant everywhere.
    known = early_config.known_args_namespace
    protect = getattr(known, "lanegate_protect", None)
    if protect:  # before the first conftest: every base test file from the bytes the lane hashed
        try:
            install_protected(Path(protect), early_config.invocation_params.dir, early_config)
        except (OSError, ValueError) as exc:
            raise pytest.UsageError(f"--lanegate-protect: {exc}") from None
    if getattr(known, "lanegate_map", False):
        sys.settrace(_early_trace)  # conftest files import (and may call) the code under test
    if _probing_wanted(known):
        global _PROBES
        paths = [p for p in str(known.lanegate_trace).split(os.pathsep) if p]
        _PROBES = install_probes(paths, _probe_hit)
    mutant = getattr(known, "lanegate_mutant", None)
    if mutant:
        spec = json.loads(Path(mutant).read_text(encoding="utf-8"))
        if spec.get("on_disk"):  # this process's own sandbox copy of the tree, discarded after
            write_mutant_on_disk(Path(spec["path"]), spec["source"])
        install_mutant(Path(spec["path"]), spec["source"])


_EARLY: set[tuple[str, str]] = set()
# the probes compiled into the traced files (`probes.py`), when this process records calls with them
_PROBES: ProbeFinder | None = None
_PROBE_SINK: list[_Recorder] = []  # the recorder the probes report to, once it exists


def _probing_wanted(known: Any) -> bool:
    """Probes replace the tracer only where it traced nothing but the traced files: a baseline
    without the runtime oracle record (which needs every call) and no coverage-map build."""
    return (
        getattr(known, "lanegate_tracer", "calls") == "probes"
        and getattr(known, "lanegate_mode", "baseline") == "baseline"
        and bool(getattr(known, "lanegate_trace", ""))
        and not getattr(known, "lanegate_oracle_module", "")
        and not getattr(known, "lanegate_map", False)
    )


def _probe_hit(index: int, line: int) -> None:
    if _PROBE_SINK:
        _PROBE_SINK[0].probe_hit(index, line)


def _early_trace(frame: FrameType, event: str, arg: Any) -> None:
    """Calls made while the initial conftest files load, before the recorder exists (map builds)."""
    _EARLY.add((frame.f_code.co_filename, frame.f_code.co_qualname))


class _Recorder:
    """Everything the plugin learns during one session."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.mode: str = config.getoption("lanegate_mode")
        self.out: str | None = JOB["out"] if JOB else config.getoption("lanegate_out")
        self.observe_mode: str = config.getoption("lanegate_observe")
        self.policy_max_examples: int = config.getoption("lanegate_max_examples")
        trace = config.getoption("lanegate_trace")
        self.trace_files = frozenset(str(Path(p).resolve()) for p in trace.split(os.pathsep) if p)
        # the call tracer's hits, a byte per line of each traced file (as the probes' tables): a
        # call allocates nothing a test could count
        self.call_hits = {path: line_table(path) for path in sorted(self.trace_files)}
        # runtime oracle evidence (baseline only): which lines called a function of the trusted
        # oracle module while each test ran. lanegate.oracles is this process's own (installed)
        # module, never a file of the repository
        self.oracle_files: frozenset[str] = frozenset()
        self.oracle_module: str = config.getoption("lanegate_oracle_module")
        if self.mode == "baseline" and self.oracle_module:
            import lanegate.oracles

            self.oracle_files = frozenset({str(Path(lanegate.oracles.__file__).resolve())})
        self.oracle_calls: dict[str, int] = {}
        self.tests: dict[str, dict[str, Any]] = {}
        self.collected: list[str] = []
        self.collect_errors: list[str] = []
        self.current: str | None = None
        self.counts: dict[str, observe.CaseCounts] = {}
        self.covered: set[tuple[str, int]] = set()
        self.code_calls = 0  # calls into the project's own code while the current test ran
        self.profile = ""  # stays empty when no test imports Hypothesis
        self.seed: int | None = config.getoption("lanegate_seed")
        # mutant runs need outcomes, not counts: with observability on, Hypothesis formats a
        # traceback for every failing case, which costs more than the mutant's own tests
        self.counting = self.mode == "baseline" and self.observe_mode == "callback"
        self.uninstall: Callable[[], None] | None = None
        self.hypothesis_ready = False
        # test module file -> how its oracle names were replaced (`oracle_guard`): its tests error
        self.tampered: dict[str, str] = {}
        # the base suite's processes: what code at import or in a test changed that tests read
        # their data with (`read_guard`); every test from then on errors
        self.guard_reads = bool(config.getoption("lanegate_guard_reads"))
        self.read_problem: str | None = None
        self.modules: dict[str, ModuleType] = {}  # node id -> the test module it was collected from
        self._kinds: dict[str, _FileKind] = {}  # code file name -> its part in either trace
        self._classify_traced()
        self.tracing = False
        # coverage-map build: calls keyed by qualified name, traced from configure to the end;
        # a call while no test runs is ambient (import, collection); broader-scope fixtures'
        # set-up calls are kept per fixture and credited to every test that uses the fixture
        self.map_mode: bool = bool(config.getoption("lanegate_map"))
        self.reached: set[tuple[str, str]] = set()
        self.ambient: set[tuple[str, str]] = set()
        self.fixture_sinks: list[set[tuple[str, str]]] = []
        self.fixture_reached: dict[int, set[tuple[str, str]]] = {}
        self.spawned = False
        self.probes = _PROBES if self.mode == "baseline" and not self.oracle_files else None
        if self.probes is not None:
            _PROBE_SINK[:] = [self]

    def set_up_hypothesis(self, module: ModuleType | None = None) -> None:
        """Once Hypothesis is loaded (whole): the policy's profile, the seed, the case counter.

        Called when a test first imports it (`when_imported`) or at session start when a conftest
        or an option already had; then again before each test, which does nothing once it is done.
        """
        hypothesis = sys.modules.get("hypothesis") if module is None else module
        settings = getattr(hypothesis, "settings", None)
        if self.hypothesis_ready or settings is None:
            return  # not loaded, or still importing: the next call finishes the job
        self.hypothesis_ready = True
        # Raise Hypothesis's built-in profiles to the policy's max_examples; a profile the
        # repository chose itself is left alone so that a cut below the policy shows up (and is
        # flagged) instead of hidden.
        name = settings.get_current_profile_name()
        if self.policy_max_examples and name in ("default", "ci"):
            settings.register_profile(
                "lanegate", settings.get_profile(name), max_examples=self.policy_max_examples
            )
            settings.load_profile("lanegate")
            self.profile = f"{name}+lanegate"
        else:
            self.profile = name
        core = sys.modules.get("hypothesis.core")
        if self.seed is not None and core is not None:
            setattr(core, "global_force_seed", self.seed)  # noqa: B010 (typed without it)
        if self.counting:
            self.uninstall = observe.install_callback(self)

    def probe_hit(self, index: int, line: int) -> None:
        """A probed body started running (see `probes.py`): what `_trace` records for a call."""
        if self.tracing and self.probes is not None:
            self.code_calls += 1
            # a byte of the file's table (`ProbeFinder.hits`): nothing a test could count
            table = self.probes.hits[index]
            if line < len(table):
                table[line] = 1
            else:  # never, for a probe the loader compiled
                self.covered.add((self.probes.paths[index], line))

    def __call__(self, observation: Any) -> None:
        name = self.current or observe.property_of(observation)
        if name is not None:
            observe.record(self.counts.setdefault(name, observe.CaseCounts()), observation)

    # --- coverage: a global trace function that only looks at 'call' events, never at lines ------------
    # Threads: every thread started after configure gets the same trace function (threading.settrace),
    # so code a test runs in a thread pool or `run_in_executor` is covered too; a call is recorded for
    # the test running at that moment, whichever thread makes it.
    def _trace(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.map_mode:
            self._map_trace(frame)
            return
        if not self.tracing:
            return
        code = frame.f_code
        filename = code.co_filename
        kind = self._kinds.get(filename)
        if kind is None:
            kind = self._kind(filename)
        if kind is _NEITHER:  # neither traced nor an oracle: the common case, kept cheap
            return
        if kind.oracle:
            caller = frame.f_back
            if caller is not None and caller.f_code.co_filename != filename:
                key = f"{Path(caller.f_code.co_filename).resolve()}:{caller.f_lineno}"
                if key in self.oracle_calls or len(self.oracle_calls) < MAX_ORACLE_SITES:
                    self.oracle_calls[key] = self.oracle_calls.get(key, 0) + 1
            return
        if kind.traced is not None:
            self.code_calls += 1
            table = self.call_hits.get(kind.traced)
            line = code.co_firstlineno
            if table is not None and line < len(table):
                table[line] = 1
            else:
                self.covered.add((kind.traced, line))
        elif kind.source:
            self.code_calls += 1

    def _classify_traced(self) -> None:
        """Classify the traced files before any test runs (by their resolved names, which is how
        they are imported): a test's first call into one then allocates nothing it could count."""
        for path in self.trace_files:
            self._kinds[path] = _classify_file(path, self.trace_files, self.oracle_files)

    def _kind(self, filename: str) -> _FileKind:
        """A code file's part in the traces (cached per file name): see `_classify_file`; with the
        oracle record on, a project file that is not traced is still counted as `source`."""
        kind = _classify_file(filename, self.trace_files, self.oracle_files)
        if kind is _NEITHER and self.oracle_files and filename[:1] != "<":
            if self._is_source(Path(filename).resolve()):
                kind = _SOURCE_ONLY
        self._kinds[filename] = kind
        return kind

    def _is_source(self, path: Path) -> bool:
        """A file of the project's own code: under the root, outside tests and environments, and no
        test module or conftest (what a new test must reach to test this project at all)."""
        try:
            parts = path.relative_to(self.config.rootpath.resolve()).parts
        except ValueError:
            return False
        name = parts[-1] if parts else ""
        return (
            name.endswith(".py")
            and not _NOT_SOURCE.intersection(parts[:-1])
            and not (name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"))
        )

    def add_custom_oracles(self) -> None:
        """After collection: the file of `properties.module` (a path, or a module the tests
        imported by its dotted name) joins the oracle files."""
        name = self.oracle_module
        if not self.oracle_files or not name or name == "lanegate.oracles":
            return
        if name.endswith(".py"):
            path: str | None = str(Path(self.config.rootpath, name).resolve())
        else:
            module = sys.modules.get(name)
            path = getattr(module, "__file__", None) if module is not None else None
        if isinstance(path, str):
            self.oracle_files = self.oracle_files | {str(Path(path).resolve())}
            self._kinds.clear()
            self._classify_traced()

    @property
    def traces(self) -> bool:
        return bool(self.trace_files or self.oracle_files)

    def _map_trace(self, frame: FrameType) -> None:
        code = frame.f_code
        filename = code.co_filename
        kind = self._kinds.get(filename)
        if kind is None:
            kind = self._kind(filename)
        if kind.traced is None:
            if kind.spawning and code.co_name in _SPAWN_FUNCTIONS:
                self.spawned = True
            return
        key = (kind.traced, code.co_qualname)
        if self.tracing:
            self.reached.add(key)
        else:
            self.ambient.add(key)
        for sink in self.fixture_sinks:
            sink.add(key)

    def trace_threads(self) -> None:
        """Give every thread started from now on (and, on 3.12+, every running one) the tracer."""
        if not self.traces or self.probes is not None:
            return
        threading.settrace(self._trace)
        every = getattr(threading, "settrace_all_threads", None)
        if every is not None:
            every(self._trace)
            sys.settrace(None)  # the main thread traces only while a test runs (start_trace)

    def start_trace(self) -> None:
        if self.map_mode:
            self.reached, self.spawned, self.tracing = set(), False, True
            sys.settrace(self._trace)  # a test that replaced the tracer loses it for itself only
            return
        if self.traces:
            self.covered = set()
            # hits between tests (collection, fixtures of none) count for none
            if self.probes is not None:
                self.probes.take()
            take_hits(self.call_hits.items())
            self.oracle_calls = {}
            self.code_calls = 0
            self.tracing = True
            if self.probes is None:
                sys.settrace(self._trace)

    def stop_trace(self) -> list[str]:
        if self.map_mode:
            self.tracing = False
            if sys.gettrace() != self._trace:
                self.spawned = True  # the test replaced or removed the tracer: not all recorded
            return sorted(f"{path}::{name}" for path, name in self.reached)
        if not self.traces:
            return []
        if self.probes is None:
            sys.settrace(None)
            self.covered |= take_hits(self.call_hits.items())
        else:
            self.covered |= self.probes.take()
        self.tracing = False
        return sorted(f"{path}:{line}" for path, line in self.covered)


# where a test starts another process: the child is not traced, so the map marks such a test opaque
# (as it does one that replaced the tracer) and the lane always runs it
_SPAWN_FUNCTIONS = frozenset({"_execute_child", "_launch", "_posix_spawn"})


@dataclass(frozen=True, slots=True)
class _FileKind:
    """A code file's part in the traces: its resolved path when traced (coverage, map), whether it
    is the trusted oracle module's (runtime oracle record) or a module that starts processes (map)."""

    traced: str | None = None
    oracle: bool = False
    spawning: bool = False
    source: bool = False  # the project's own code, not traced for coverage: only counted


_NEITHER = _FileKind()
_SOURCE_ONLY = _FileKind(source=True)


def _classify_file(
    filename: str, trace_files: frozenset[str], oracle_files: frozenset[str] = frozenset()
) -> _FileKind:
    """What one code file is to the traces; `_NEITHER` (the shared common answer) when nothing."""
    if filename[:1] == "<":
        return _NEITHER
    path = Path(filename).resolve()
    resolved = str(path)
    traced = resolved if resolved in trace_files else None
    oracle = resolved in oracle_files
    name, parent = path.name, path.parent.name
    spawning = name == "subprocess.py" or (
        parent == "multiprocessing" and name.startswith("popen_")
    )
    if traced is None and not oracle and not spawning:
        return _NEITHER
    return _FileKind(traced, oracle, spawning)


def _settings_record(item: pytest.Item, recorder: _Recorder) -> dict[str, Any] | None:
    """Effective Hypothesis settings of a test, after our overrides (None for non-Hypothesis tests)."""
    func = getattr(item, "obj", None)
    # a unittest.TestCase test is a bound method: its settings live on the function
    func = getattr(func, "__func__", func)
    current = getattr(func, "_hypothesis_internal_use_settings", None)
    if func is None or current is None or not hasattr(func, "hypothesis"):
        return None
    from hypothesis import HealthCheck, Phase, settings

    declared_max = current.max_examples
    if recorder.mode == "mutant":
        phases = tuple(p for p in current.phases if p not in (Phase.shrink, Phase.explain))
        current = settings(
            current,
            database=None,
            deadline=None,
            phases=phases,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
        )
    else:
        current = settings(current, database=None)
    func._hypothesis_internal_use_settings = current
    explicit_seed = getattr(func, "_hypothesis_internal_use_seed", None)
    passed_seed = recorder.seed
    if passed_seed is None:
        passed_seed = item.config.getoption("hypothesis_seed", None)
    if explicit_seed is not None:
        seed_source, seed = "@seed", explicit_seed
    elif current.derandomize:
        seed_source, seed = "derandomize", None
    elif passed_seed is not None:
        seed_source, seed = "--hypothesis-seed", passed_seed
    else:
        seed_source, seed = "random", None
    deadline = current.deadline
    return {
        "max_examples": declared_max,
        "derandomize": bool(current.derandomize),
        "database": None if current.database is None else type(current.database).__name__,
        "deadline_ms": None if deadline is None else deadline.total_seconds() * 1000,
        "phases": ",".join(p.name for p in current.phases),
        "seed": None if seed is None else str(seed),
        "seed_source": seed_source,
        "profile": recorder.profile,
    }


@pytest.hookimpl(trylast=True)  # after the terminal plugin's own configure (see _terminal_off)
def pytest_configure(config: pytest.Config) -> None:
    config.stash[_IGNORED_KEY] = _ignored_files(config)
    _named(config)  # read once here: a fork server's children inherit the answer
    if config.getoption("lanegate_mode") == "mutant":
        _terminal_off(config)
    if config.getoption("lanegate_out") is None:
        sys.settrace(None) if config.getoption("lanegate_map") else None
        return
    recorder = _Recorder(config)
    config.stash[_STATE_KEY] = recorder
    exit_after_session(config.pluginmanager)
    recorder.trace_threads()
    if recorder.map_mode:
        sys.settrace(None)
        for filename, qualname in list(_EARLY):
            traced = _classify_file(filename, recorder.trace_files).traced
            if traced is not None:
                recorder.ambient.add((traced, qualname))
        _EARLY.clear()
        threading.settrace(recorder._trace)
        sys.settrace(recorder._trace)


def _terminal_off(config: pytest.Config) -> None:
    """Mutant runs need no terminal reporter: our plugin records outcomes, and Hypothesis's failure
    report (libcst formatting) would cost more than the mutant's tests. It is unregistered after
    configure, not disabled with `-p no:terminal`, so that terminal options in a repository's
    addopts (`-ra`, `-v`) still parse."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        config.pluginmanager.unregister(reporter, "terminalreporter")


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    recorder = session.config.stash.get(_STATE_KEY, None)
    if recorder is not None:
        # after the conftest files (whose own profile counts), before any test module is imported
        when_imported("hypothesis", recorder.set_up_hypothesis)


def _short_repr(excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
    return f"{excinfo.typename}: {str(excinfo.value)[:500]}"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """`--lanegate-ignore`'s files are not collected: what pytest's `--ignore` does, by a set lookup
    (pytest checks each collected path against every `--ignore` value, so a head run that leaves
    out thousands of shared files collected for minutes, and their flags could outgrow argv); nor
    are the siblings of the files the arguments name (`named_files`)."""
    path = os.path.abspath(collection_path)
    ignored = config.stash.get(_IGNORED_KEY, frozenset())
    if ignored and path in ignored:
        return True
    return True if unnamed_sibling(path, _named(config)) else None


def _named(config: pytest.Config) -> frozenset[str] | None:
    """The files the arguments name (`named_files`), for the arguments as they are now: a conftest
    may add a folder to them after configure, and pytest collects what they are when it collects."""
    args = tuple(config.args)
    known = config.stash.get(_NAMED_KEY, None)
    if known is None or known[0] != args:
        pyargs = bool(config.getoption("pyargs"))
        known = (args, named_files(args, config.invocation_params.dir, pyargs=pyargs))
        config.stash[_NAMED_KEY] = known
    return known[1]


def _ignored_files(config: pytest.Config) -> frozenset[str]:
    """`--lanegate-ignore`'s list as absolute paths; a file that is not a JSON list of paths is a
    usage error naming it (pytest exit 4), never a run that collects more than it was told."""
    listed = config.getoption("lanegate_ignore")
    if not listed:
        return frozenset()
    try:
        paths = json.loads(Path(listed).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise pytest.UsageError(f"{listed}: --lanegate-ignore: unreadable ({exc})") from None
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise pytest.UsageError(f"{listed}: --lanegate-ignore: expected a JSON list of paths")
    here = config.invocation_params.dir
    return frozenset(os.path.abspath(here / path) for path in paths)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    recorder = config.stash.get(_STATE_KEY, None)
    if recorder is not None and JOB is None:
        # what pytest collected (after the repository's own deselection), in its order: the lanes
        # find tests here, not by naming guesses
        recorder.collected = [item.nodeid for item in items]
        recorder.add_custom_oracles()
    if config.getoption("lanegate_mode") == "mutant":
        # a mutant run needs which test failed, not a formatted traceback (the costliest part of a
        # failing test under pytest); the instance attribute shadows the method
        for item in items:
            item.repr_failure = _short_repr  # type: ignore[method-assign]
    if JOB is None:
        select = config.getoption("lanegate_select")
        if select:
            _keep_selected(config, items, Path(select))
        return
    wanted = list(JOB["tests"])
    by_id = {item.nodeid: item for item in items}
    keep = [by_id[node] for node in wanted if node in by_id]
    dropped = [item for item in items if item.nodeid not in set(wanted)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep


def _keep_selected(config: pytest.Config, items: list[pytest.Item], path: Path) -> None:
    """Keep the selected node ids and every test of the selected whole files (coverage-map mode)."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    node_ids, files = set(spec["node_ids"]), set(spec["files"])
    keep = [i for i in items if i.nodeid in node_ids or i.nodeid.split("::", 1)[0] in files]
    kept = {id(i) for i in keep}
    dropped = [i for i in items if id(i) not in kept]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: Any, request: Any) -> Any:
    recorder: _Recorder | None = request.config.stash.get(_STATE_KEY, None)
    if recorder is None or not recorder.map_mode or fixturedef.scope == "function":
        yield
        return
    sink: set[tuple[str, str]] = set()
    recorder.fixture_sinks.append(sink)
    try:
        yield
    finally:
        recorder.fixture_sinks.remove(sink)
        recorder.fixture_reached.setdefault(id(fixturedef), set()).update(sink)


def _fixture_reach(item: pytest.Item, recorder: _Recorder) -> set[tuple[str, str]]:
    """What the broader-scope fixtures this test uses reached while they were set up (maybe in an
    earlier test): their values carry that code's effects into this test."""
    info = getattr(item, "_fixtureinfo", None)
    out: set[tuple[str, str]] = set()
    if info is None:
        return out
    for name in getattr(item, "fixturenames", ()):
        for fixturedef in info.name2fixturedefs.get(name, ()):
            out |= recorder.fixture_reached.get(id(fixturedef), set())
    return out


def pytest_collection_finish(session: pytest.Session) -> None:
    recorder: _Recorder | None = session.config.stash.get(_STATE_KEY, None)
    if recorder is None:
        return
    for item in session.items:
        module = getattr(item, "module", None)
        if isinstance(module, ModuleType):
            recorder.modules[item.nodeid] = module
    recorder.tampered.update(_GUARD.problems(set(recorder.modules.values())))
    if recorder.guard_reads:
        recorder.read_problem = _READS.problem()


def _mark_tampered(recorder: _Recorder) -> None:
    """Every recorded test of a test module whose oracle names were replaced is an error."""
    recorder.tampered.update(_GUARD.problems(set(recorder.modules.values())))
    for node_id, entry in recorder.tests.items():
        module = recorder.modules.get(node_id)
        problem = recorder.tampered.get(getattr(module, "__file__", None) or "")
        if problem:
            entry["outcome"] = "error"
            entry["detail"] = problem[:300]


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        node_id = report.nodeid or "<session>"
        _pending_collect_errors.append(node_id)
        _pending_collect_details[node_id] = error_line(report.longreprtext)


_pending_collect_errors: list[str] = []
_pending_collect_details: dict[str, str] = {}  # node id -> the collector's exception line


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    recorder: _Recorder | None = item.config.stash.get(_STATE_KEY, None)
    if recorder is None:
        yield
        return
    recorder.set_up_hypothesis()  # a loader `when_imported` could not wrap: late, not never
    entry: dict[str, Any] = {
        "outcome": "passed",
        "duration": 0.0,
        "settings": _settings_record(item, recorder),
        "covered": [],
        "cases_run": 0,
        "cases_failed": 0,
        "gave_up": 0,
    }
    recorder.tests[item.nodeid] = entry
    recorder.current = item.nodeid
    if recorder.mode == "mutant":
        mark_running(JOB["out"] if JOB else recorder.out, item.nodeid)
    recorder.start_trace()
    started = time.perf_counter()
    try:
        yield
    finally:
        entry["duration"] = time.perf_counter() - started
        entry["covered"] = recorder.stop_trace()
        if recorder.map_mode:
            extra = _fixture_reach(item, recorder) - recorder.reached
            if extra:
                entry["covered"] = sorted({*entry["covered"], *(f"{p}::{n}" for p, n in extra)})
            entry["opaque"] = recorder.spawned
        if recorder.oracle_files:
            entry["oracle_calls"] = dict(recorder.oracle_calls)
            entry["code_calls"] = recorder.code_calls
        recorder.current = None
        if recorder.guard_reads:
            recorder.read_problem = recorder.read_problem or _READS.problem()
            if recorder.read_problem:
                entry["outcome"] = "error"
                entry["detail"] = recorder.read_problem[:300]
        counts = recorder.counts.get(item.nodeid)
        if counts is not None:
            entry["cases_run"], entry["cases_failed"], entry["gave_up"] = (
                counts.run,
                counts.failed,
                counts.gave_up,
            )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    recorder = _active_recorder
    if recorder is None:
        return
    entry = recorder.tests.get(report.nodeid)
    if entry is None:
        return
    if report.failed:
        entry["outcome"] = "failed" if report.when == "call" else "error"
        lines = [ln.strip() for ln in report.longreprtext.splitlines() if ln.strip()]
        entry["detail"] = (lines[-1] if lines else "")[:300]
    elif hasattr(report, "wasxfail") and report.passed and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"  # xpassed: marked as expected to fail, so no evidence either
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"
        # where the skip was raised: a marker or the test's own pytest.skip() point at the test
        # file; code under test that raises Skipped points at itself (base_suite judges that)
        if not hasattr(report, "wasxfail") and isinstance(report.longrepr, tuple):
            entry["skip_from"] = str(report.longrepr[0])


_active_recorder: _Recorder | None = None


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    global _active_recorder
    _active_recorder = session.config.stash.get(_STATE_KEY, None)


def _hypothesis_version() -> str:
    """The Hypothesis of this run: the loaded one's, else the installed one's, without loading it."""
    loaded = getattr(sys.modules.get("hypothesis"), "__version__", None)
    if isinstance(loaded, str):
        return loaded
    try:
        return importlib.metadata.version("hypothesis")
    except importlib.metadata.PackageNotFoundError:
        return ""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    recorder = session.config.stash.get(_STATE_KEY, None)
    out = JOB["out"] if JOB else None if recorder is None else recorder.out
    if recorder is None or out is None:
        return
    skip_idle_summary(session.config.pluginmanager)
    if recorder.uninstall is not None:
        recorder.uninstall()
    if recorder.observe_mode == "files":
        storage = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
        if storage:
            for name, counts in observe.read_files(Path(storage)).items():
                entry = recorder.tests.get(name)
                if entry is not None:
                    entry["cases_run"], entry["cases_failed"], entry["gave_up"] = (
                        counts.run,
                        counts.failed,
                        counts.gave_up,
                    )
    _mark_tampered(recorder)
    payload = {
        "exitstatus": int(exitstatus),
        "hypothesis_version": _hypothesis_version(),
        "profile": recorder.profile,
        "observe": recorder.observe_mode,
        "collect_errors": list(_pending_collect_errors),
        "collect_error_details": dict(_pending_collect_details),
        "collected": recorder.collected,
        "peak_rss_bytes": _peak_rss(),
        "tests": recorder.tests,
    }
    if recorder.map_mode:
        payload["ambient"] = sorted(f"{path}::{name}" for path, name in recorder.ambient)
    if recorder.traces:
        payload["tracer"] = "calls" if recorder.probes is None else "probes"
    if recorder.probes is not None:
        # a traced file some module was loaded from without probes: its calls went unrecorded
        payload["unprobed"] = recorder.probes.unprobed()
    target = Path(out)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(payload, sort_keys=True), encoding="utf-8")
    os.replace(tmp, target)


def _peak_rss() -> int:
    """This process's peak resident memory in bytes (the baseline's, for the mutants' memory cap)."""
    try:
        import resource
    except ImportError:  # Windows: no cap
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)
