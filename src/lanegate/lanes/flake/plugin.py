"""lanegate's own pytest plugin for flake replays: enforces order and repeats, records each outcome.

Loaded with `-p lanegate.lanes.flake.plugin` by the flake lane. It is inert unless the lane gave it a
channel: the env var `LANEGATE_FLAKE_CHANNEL` = `<fd>:<result path>`; the plugin reads a per-run nonce
from that inherited pipe, closes it, and removes the variable from `os.environ` before any test module
is imported. Every outcome is appended to the result file as one JSON line carrying the nonce, the
moment the test's teardown ends, so a test that exits the process early leaves its own (and every later)
outcome missing instead of passed.

Outcomes are taken from the exceptions the test's phases raise (setup, call, teardown), observed by
outermost hook wrappers, not from pytest's reports: a test that patches reporting cannot turn a failure
into a pass. The pins (order, seeds, repeats, forbidden plugins) come from recorded env vars, so a replay
is reproducible from the ledger.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import importlib
import inspect
import json
import math
import os
import random
import resource
import sys
import threading
import time
import unittest
import warnings
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lanegate.lanes.collect_failure import error_line
from lanegate.lanes.flake import untimed
from lanegate.lanes.flake.dimensions import (
    CROSS_RUN,
    HOST_DIMENSIONS,
    Dimension,
    RunPins,
    run_pins,
)
from lanegate.lanes.flake.fresh import FreshResult, FreshTest, real_file, run_child
from lanegate.lanes.flake.pins import (
    BATCHES_VAR,
    CHANNEL_VAR,
    EXTRA_REPEATS_VAR,
    EXTRA_TESTS_VAR,
    FORBIDDEN_VAR,
    HYPOTHESIS_DB_VAR,
    ORDER_SEED_VAR,
    ORDER_VAR,
    RANDOM_SEED_VAR,
    REPEATS_VAR,
    ZONEINFO_VAR,
    derived_seed,
    normalized_plugin_name,
)
from lanegate.lanes.lazy_hypothesis import skip_idle_summary, when_imported
from lanegate.lanes.quick_exit import exit_after_session
from lanegate.lanes.rewrite import unmark_rewrite

HYPOTHESIS_PROFILE = "lanegate-flake"
# Extra repeats shake thread schedules with a tiny GIL switch interval (races show on every run
# instead of once in a thousand) and shift the heap so object ids and id-ordered sets change.
SHAKE_SWITCH_INTERVAL = 1e-6


def base_id(node_id: str) -> str:
    """The node id without its parametrization (`t.py::test_a[1]` -> `t.py::test_a`)."""
    return node_id.split("[", 1)[0]


@dataclass(frozen=True, slots=True)
class _ProcessState:
    """What a run that skipped its own clean-up leaves behind where later tests see it: threads
    still running, the environment, the working directory (about 2 us to take)."""

    threads: frozenset[int]
    environ: dict[Any, Any]
    cwd: str

    @classmethod
    def now(cls) -> _ProcessState:
        try:
            cwd = os.getcwd()
        except OSError:  # the directory was removed under the process
            cwd = ""
        threads = frozenset(t.ident or 0 for t in threading.enumerate())
        # os.environ's own store (bytes keys and values): a copy costs no decoding
        environ = getattr(os.environ, "_data", None)
        return cls(threads, dict(environ if isinstance(environ, dict) else os.environ), cwd)

    def changed_since(self, before: _ProcessState) -> bool:
        return bool(self.threads - before.threads) or (self.environ, self.cwd) != (
            before.environ,
            before.cwd,
        )


class _Recorder:
    """The plugin's state for one pytest process."""

    def __init__(self, result_path: str, nonce: str) -> None:
        self.nonce = nonce
        # O_APPEND + os.write: each line reaches the OS at once; no Python buffer to lose on os._exit.
        self.fd = os.open(result_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self.order = os.environ.get(ORDER_VAR, "forward")
        self.order_seed = int(os.environ.get(ORDER_SEED_VAR, "0") or 0)
        self.random_seed = int(os.environ.get(RANDOM_SEED_VAR, "0") or 0)
        self.repeats = max(1, int(os.environ.get(REPEATS_VAR, "1") or 1))
        self.extra_repeats = max(0, int(os.environ.get(EXTRA_REPEATS_VAR, "0") or 0))
        self.extra_tests = frozenset(
            name for name in os.environ.get(EXTRA_TESTS_VAR, "").split(",") if name
        )
        self.forbidden = frozenset(
            normalized_plugin_name(n) for n in os.environ.get(FORBIDDEN_VAR, "").split(",") if n
        )
        self.repeat_of: dict[int, int] = {}
        self.phase: dict[int, tuple[str, str]] = {}
        self.started: dict[int, float] = {}
        self.child_owner: dict[int, tuple[str, int | str]] = {}
        self.jitter: list[Any] = []
        self.saved_interval: float | None = None
        # taken out of the environment: a test's own subprocesses need not carry it
        self.batches = _read_batches(os.environ.pop(BATCHES_VAR, ""))
        # id(carrier item) -> its batch (fast path: one item runs every run of the batch);
        # id(clone) -> (batch, run) (fixture path: one clone per run, each with its own fixtures).
        self.carriers: dict[int, _Batch] = {}
        self.call_seconds: dict[int, float] = {}
        # CPU seconds (`_cpu_clock`) of each item and of its call: what the budget spends
        self.started_cpu: dict[int, float] = {}
        self.call_cpu: dict[int, float] = {}
        self.isolated: list[tuple[pytest.Item, _Batch]] = []
        self.shared: list[tuple[pytest.Item, _Batch]] = []  # run in forked pairs before the loop
        self.batch_runs: dict[int, tuple[_Batch, int]] = {}
        # hash-seed batches, in the replay's order; their runs share one child interpreter per run
        self.fresh: list[tuple[pytest.Item, _Batch]] = []
        self.fresh_results: dict[tuple[str, int], FreshResult] | None = None
        self.measured_seconds: dict[str, float] = {}
        # id(clone) -> the host conditions of its run, held from its setup to its teardown
        self.hosts: dict[int, contextlib.ExitStack] = {}
        # A polluter of the process: a test that failed (or errored) a run that left the process
        # changed, and that passed a run here that left it as it was: the change is what its
        # failure skipped. A test whose passing runs change the process leaks either way.
        self.dirty_failures: list[str] = []  # node ids, in the order of their first such failure
        self.failed_pass: set[str] = set()  # node ids whose run in the pass failed or errored
        self.mute_batches = False  # a shared-host child: its parent reports the batches
        self.clean_passes: set[str] = set()
        self.leaks_passing: set[str] = set()
        # id(item) -> the process's state when its setup began
        self.state_before: dict[int, _ProcessState] = {}

    def ran(self, node_id: str, outcome: str, before: _ProcessState | None) -> None:
        """Note one in-process run: whether it left the process as `before` found it."""
        if before is None or outcome == "skipped":
            return
        changed = _ProcessState.now().changed_since(before)
        if outcome == "passed":
            (self.leaks_passing if changed else self.clean_passes).add(node_id)
        elif changed and node_id not in self.dirty_failures:
            self.dirty_failures.append(node_id)

    def polluter(self, node_id: str) -> bool:
        return (
            node_id in self.dirty_failures
            and node_id in self.clean_passes
            and node_id not in self.leaks_passing
        )

    def emit(self, kind: str, **fields: Any) -> None:
        line = json.dumps({"nonce": self.nonce, "kind": kind, **fields}, sort_keys=True)
        os.write(self.fd, (line + "\n").encode("utf-8"))


# a batch's detail as reported; what an isolation child sends its parent (its run's outcome,
# detail and seconds) stays far below a pipe's buffer
MAX_DETAIL = 400
MAX_TALLY_BYTES = 65536
# a run's outcomes, worst last: of a run's phases (set-up, call, teardown) the worst is the run's
OUTCOME_RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
OUTCOMES = frozenset(OUTCOME_RANK)
# a batch's outcomes in run order, one letter a run ("m": a run that reported nothing)
SEQUENCE_LETTERS = {"passed": "p", "skipped": "s", "failed": "f", "error": "e"}
MAX_SEQUENCE = 1000


class _Batch:
    """The outcomes of one test's runs in one dimension, reported as one line when complete."""

    def __init__(self, node_id: str, dimension: Dimension, runs: int) -> None:
        self.node_id = node_id
        self.dimension = dimension
        self.runs = runs
        self.counts: dict[str, int] = {}
        self.first: dict[str, int] = {}
        self.sequence: dict[int, str] = {}  # run -> outcome's letter (`SEQUENCE_LETTERS`)
        self.detail = ""
        self.seconds = 0.0
        self.done = 0
        self.last: tuple[str, str, float] = ("", "", 0.0)  # the run added last (`last_run`)
        # other tests whose failed run had left the process changed before this batch began
        self.dirty_before: tuple[str, ...] | None = None

    def begin(self, rec: _Recorder) -> None:
        """Mark the batch's first in-process run."""
        if self.dirty_before is None:
            self.dirty_before = tuple(n for n in rec.dirty_failures if n != self.node_id)

    def after(self, rec: _Recorder) -> str | None:
        """The first polluter of the process before this batch began, as known when it ends."""
        return next((n for n in self.dirty_before or () if rec.polluter(n)), None)

    def add(self, run: int, outcome: str, detail: str, seconds: float) -> None:
        self.last = (outcome, detail[:MAX_DETAIL], seconds)
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        self.first.setdefault(outcome, run)
        self.sequence[run] = SEQUENCE_LETTERS[outcome]
        if detail and not self.detail:
            self.detail = f"run {run}: {detail}"
        self.seconds += seconds
        self.done += 1

    def last_run(self) -> list[Any]:
        """The run added last, as an isolation child sends it to its parent (`take`): a few
        hundred bytes, written whole into the pipe's buffer before the parent reads it."""
        return list(self.last)

    def take(self, sent: bytes, run: int) -> bool:
        """Count run `run` as an isolation child sent it (`last_run`); False when it sent nothing
        (it died first) or anything else. The parent adds the one run itself, so the child, whose
        test can write the pipe too, can say no more than its own run's outcome (which a test
        decides anyway), never undo an earlier child's."""
        try:
            outcome, detail, seconds = json.loads(sent)
            seconds = float(seconds)
        except (ValueError, TypeError):
            return False
        if not isinstance(outcome, str) or outcome not in OUTCOMES or not isinstance(detail, str):
            return False
        if not 0 <= seconds < math.inf:
            return False
        self.add(run, outcome, detail[:MAX_DETAIL], seconds)
        return True

    def emit(self, rec: _Recorder) -> None:
        if rec.mute_batches:
            return
        rec.emit(
            "batch",
            node_id=self.node_id,
            dimension=str(self.dimension),
            runs=self.done,
            counts=self.counts,
            first=self.first,
            sequence="".join(self.sequence.get(i, "m") for i in range(self.done))[:MAX_SEQUENCE],
            detail=self.detail[:MAX_DETAIL],
            seconds=round(self.seconds, 6),
            after_failure_of=self.after(rec),
        )


def _read_batches(raw: str) -> dict[str, list[tuple[Dimension, int]]]:
    out: dict[str, list[tuple[Dimension, int]]] = {}
    if not raw:
        return out
    try:
        if raw.startswith("@"):  # too long for the environment: the lane wrote it to a file
            raw = Path(raw[1:]).read_text(encoding="utf-8")
        entries = json.loads(raw)
        for node_id, dimension, runs in entries:
            if int(runs) > 0:
                out.setdefault(str(node_id), []).append((Dimension(dimension), int(runs)))
    except (ValueError, TypeError, OSError) as exc:
        raise pytest.UsageError(f"lanegate flake plugin: unreadable {BATCHES_VAR}: {exc}") from None
    return out


_recorder: _Recorder | None = None


def _open_channel() -> _Recorder | None:
    raw = os.environ.pop(CHANNEL_VAR, None)
    if not raw:
        return None
    fd_text, _, result_path = raw.partition(":")
    try:
        fd = int(fd_text)
        with os.fdopen(fd, "rb") as pipe:
            nonce = pipe.read(256).decode("ascii").strip()
    except (ValueError, OSError) as exc:
        raise pytest.UsageError(f"lanegate flake plugin: unusable channel: {exc}") from None
    if not nonce or not result_path:
        raise pytest.UsageError("lanegate flake plugin: empty channel")
    return _Recorder(result_path, nonce)


def _zone_files() -> None:
    """Put the lane's TZif files (`zonefiles`) first on `zoneinfo`'s search path, and on
    `PYTHONTZPATH` for a test's own Python subprocesses: `ZoneInfo(os.environ["TZ"])` then knows
    every POSIX string a replay sets."""
    folder = os.environ.pop(ZONEINFO_VAR, "")
    if not folder:
        return
    import zoneinfo

    search = [folder, *(p for p in zoneinfo.TZPATH if p != folder)]
    zoneinfo.reset_tzpath(to=search)
    os.environ["PYTHONTZPATH"] = os.pathsep.join(search)


# Read at import: the plugin is imported (by -p) before any conftest or test module.
_recorder = _open_channel()
if _recorder is not None:
    _zone_files()
if _recorder is not None and any(
    d in (Dimension.CLOCK, Dimension.DST, Dimension.CALENDAR)
    for batches in _recorder.batches.values()
    for d, _ in batches
):
    from lanegate.lanes.flake import clock as _clock

    _clock.install()  # before test modules bind `datetime.datetime` and `time.time`
if _recorder is not None and any(
    d in HOST_DIMENSIONS for batches in _recorder.batches.values() for d, _ in batches
):
    from lanegate.lanes.flake import host as _host  # noqa: F401 (reads TMPDIR before any test)


def _children() -> set[int]:
    """Live (non-zombie) child processes of this process, where Linux tells us cheaply."""
    pids: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return pids
    for task in tasks:
        try:
            text = Path(f"/proc/self/task/{task}/children").read_text()
        except OSError:
            continue
        pids.update(int(p) for p in text.split())
    return {pid for pid in pids if _alive(pid)}


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[-1].split()[:1]
    return state != ["Z"] and state != ["X"]


def _forbidden_active(config: pytest.Config, forbidden: frozenset[str]) -> list[str]:
    found: set[str] = set()
    for name, plugin in config.pluginmanager.list_name_plugin():
        if plugin is None:
            continue
        names = {normalized_plugin_name(str(name))}
        module_name = getattr(plugin, "__name__", "") or type(plugin).__module__
        names.add(normalized_plugin_name(module_name.split(".")[0]))
        found.update(names & forbidden)
    return sorted(found)


def _disable_hypothesis_database() -> None:
    """Replays must not share Hypothesis's example database (one run's failure replays first in the
    next). The lane already points HYPOTHESIS_STORAGE_DIRECTORY at a fresh directory per replay; when
    Hypothesis is loaded, a profile without a database is loaded too, again after collection so that a
    conftest's own profile cannot turn it back on. Hypothesis is never imported here (it is slow).

    Hypothesis's default time limits stay, measured net of the time the test waited for a CPU
    (`untimed`): replays run beside each other on a loaded machine, and a default 200 ms deadline
    on the wall clock would time the machine, not the code. A Hypothesis too old to be measured so
    loses the default deadline instead (a test that sets its own keeps it)."""
    module = sys.modules.get("hypothesis")
    if module is None or os.environ.get(HYPOTHESIS_DB_VAR, "off") != "off":
        return
    settings = getattr(module, "settings", None)
    if settings is None:  # still importing; the import hook calls again when it is done
        return
    untimed_limits: dict[str, Any] = {} if untimed.install() else {"deadline": None}
    settings.register_profile(
        HYPOTHESIS_PROFILE, parent=settings.default, database=None, **untimed_limits
    )
    settings.load_profile(HYPOTHESIS_PROFILE)


def _watch_hypothesis() -> None:
    if os.environ.get(HYPOTHESIS_DB_VAR, "off") != "off":
        return
    when_imported("hypothesis", lambda _module: _disable_hypothesis_database())


def _pin_hypothesis_seed(seed: int) -> None:
    """What `--hypothesis-seed` does, per test run, without needing the option to exist."""
    core = sys.modules.get("hypothesis.core")
    if core is not None and hasattr(core, "global_force_seed"):
        setattr(core, "global_force_seed", seed)  # noqa: B010 (the module is typed without it)


if _recorder is not None:
    _watch_hypothesis()


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    unmark_rewrite(pluginmanager)  # before Hypothesis and the other entry-point plugins load


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    if _recorder is None:
        return
    _recorder.emit("start", pid=os.getpid(), hash_seed=os.environ.get("PYTHONHASHSEED"))
    _disable_hypothesis_database()
    exit_after_session(config.pluginmanager)


def _refuse_forbidden(config: pytest.Config) -> None:
    assert _recorder is not None
    active = _forbidden_active(config, _recorder.forbidden)
    if active:
        _recorder.emit("refused", plugins=active)
        pytest.exit(f"lanegate: forbidden pytest plugin active: {', '.join(active)}", returncode=4)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    if _recorder is None:
        return
    _refuse_forbidden(session.config)
    _disable_hypothesis_database()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if _recorder is None:
        return
    rec = _recorder
    ordered = list(items)
    if rec.order == "reverse":
        ordered.reverse()
    elif rec.order == "shuffled":
        random.Random(rec.order_seed).shuffle(ordered)
    plan: list[pytest.Item] = []
    for repeat in range(rec.repeats):
        for item in ordered:
            plan.append(item if repeat == 0 else _clone(item))
            rec.repeat_of[id(plan[-1])] = repeat
    for item in ordered:
        if base_id(item.nodeid) in rec.extra_tests:
            for extra in range(rec.extra_repeats):
                plan.append(_clone(item))
                rec.repeat_of[id(plan[-1])] = rec.repeats + extra
    runs = [[i.nodeid, rec.repeat_of[id(i)]] for i in plan]
    batches: list[list[Any]] = []
    for item in ordered:
        for dimension, count in rec.batches.get(item.nodeid, ()):
            batch = _Batch(item.nodeid, dimension, count)
            batches.append([item.nodeid, str(dimension), count])
            if dimension is Dimension.ISOLATION:
                rec.isolated.append((item, batch))  # run in forked children before the loop
            elif dimension is Dimension.SHARED_HOST:
                rec.shared.append((item, batch))
            elif dimension is Dimension.HASH_SEED:
                carrier = _clone(item)
                carrier.runtest = _fresh_runner(carrier, batch)  # type: ignore[method-assign]
                rec.carriers[id(carrier)] = batch
                rec.fresh.append((item, batch))
                plan.append(carrier)
            elif _fast(item):
                carrier = _clone(item)
                carrier.runtest = _batch_runner(carrier, batch)  # type: ignore[method-assign]
                rec.carriers[id(carrier)] = batch
                plan.append(carrier)
            else:
                for run in range(count):
                    twin = _clone(item)
                    rec.batch_runs[id(twin)] = (batch, run)
                    plan.append(twin)
    items[:] = plan
    rec.emit("collected", runs=runs, batches=batches)


def _fast(item: pytest.Item) -> bool:
    """A plain test function with no fixtures at all: its batch runs call the function in a loop
    inside one setup/teardown (no fixture can carry state from one run to the next)."""
    return type(item) is pytest.Function and not item.fixturenames


def fresh_unfit(item: pytest.Item) -> str:
    """Why a fresh interpreter cannot call this test the way pytest does ('' when it can): it
    must be a module-level plain function, without fixtures, parameters or marks, in a module
    importable by its name."""
    if not _fast(item):
        return "it uses fixtures"
    if getattr(item, "cls", None) is not None or hasattr(item, "callspec"):
        return "a method or a parametrized test"
    if next(iter(item.iter_markers()), None) is not None:
        return "a marked test"
    function = getattr(item, "obj", None)
    module = getattr(item, "module", None)
    name = getattr(item, "originalname", item.name)
    if module is None or getattr(module, name, None) is not function:
        return "not a module-level function"
    if sys.modules.get(module.__name__) is not module:
        return "its module is not importable by its name"
    if (
        inspect.iscoroutinefunction(function)
        or inspect.isgeneratorfunction(function)
        or getattr(function, "is_hypothesis_test", False)
    ):
        return "a coroutine, generator or Hypothesis test"
    return ""


def fresh_kind(item: pytest.Item) -> str:
    """How a fresh interpreter can call the test: '' (it cannot, `fresh_unfit`), `heavy` (its
    module imports pytest: each child pays pytest's ~0.3 s import) or `light`."""
    if fresh_unfit(item):
        return ""
    module = getattr(item, "module", None)
    for key, value in vars(module).items():
        if key.startswith(("@", "__")):  # assertion rewriting's `@pytest_ar`, `__loader__`
            continue
        name = getattr(value, "__name__", "") if inspect.ismodule(value) else ""
        origin = name or str(getattr(value, "__module__", "") or "")
        if origin.split(".", 1)[0] in ("pytest", "_pytest"):
            return "heavy"
    return "light"


def _fresh_all(rec: _Recorder) -> dict[tuple[str, int], FreshResult]:
    """Every run of every hash-seed batch: run `k` is one child interpreter under run `k`'s hash
    seed that calls each test whose batch has more than `k` runs, in the replay's order."""
    results: dict[tuple[str, int], FreshResult] = {}
    unfit = {item.nodeid: fresh_unfit(item) for item, _ in rec.fresh}
    for run in range(max((b.runs for _, b in rec.fresh), default=0)):
        pins = run_pins(Dimension.HASH_SEED, run, rec.random_seed)
        assert pins.hash_seed is not None
        mine = [(item, b) for item, b in rec.fresh if b.runs > run]
        callable_ = [item for item, _ in mine if not unfit[item.nodeid]]
        tests = [
            FreshTest(
                module=item.module.__name__,  # type: ignore[attr-defined]
                file=real_file(getattr(item.module, "__file__", None)),  # type: ignore[attr-defined]
                function=getattr(item, "originalname", item.name),
                seed=derived_seed(rec.random_seed, item.nodeid, pins.random_key),
                seconds=rec.measured_seconds.get(item.nodeid, 0.0),
            )
            for item in callable_
        ]
        got = run_child(tests, pins.hash_seed, path=sys.path, env=os.environ) if tests else []
        for item, result in zip(callable_, got, strict=True):
            results[(item.nodeid, run)] = result
        for item, _ in mine:
            if unfit[item.nodeid]:
                why = f"not run in a fresh interpreter: {unfit[item.nodeid]}"
                results[(item.nodeid, run)] = FreshResult("failed", why, 0.0)
    return results


def _fresh_runner(item: pytest.Item, batch: _Batch) -> Callable[[], None]:
    """A hash-seed carrier's `runtest`: its runs' results from the children (run once, for every
    hash-seed batch of the replay, when the first carrier runs)."""

    def run_all() -> None:
        assert _recorder is not None
        rec = _recorder
        if rec.fresh_results is None:
            rec.fresh_results = _fresh_all(rec)
        for run in range(batch.runs):
            got = rec.fresh_results.get((item.nodeid, run), FreshResult("failed", "no result", 0.0))
            batch.add(run, got.outcome, got.detail, got.seconds)

    return run_all


@contextlib.contextmanager
def _varied(rec: _Recorder, item: pytest.Item, pins: RunPins, host: bool = True) -> Iterator[None]:
    """Apply a batch run's pins around the test call, and undo them after (the host conditions
    too when `host`: a test with fixtures gets them from its setup to its teardown instead)."""
    seed = derived_seed(rec.random_seed, item.nodeid, pins.random_key)
    random.seed(seed)
    _pin_hypothesis_seed(seed)
    saved_tz = os.environ.get("TZ")
    held = not host and pins.dimension in HELD_CLOCKS  # moved from the set-up on
    stack = contextlib.ExitStack()
    # the lane's own delays: a default limit sees no time, unless the test failed its pass here
    # (then its own time may be what fails it, and the run must time it as the pass did)
    delays = pins.stress_seed is not None or pins.deschedule is not None
    stack.enter_context(_timed(item, lane_delays=delays and item.nodeid not in rec.failed_pass))
    try:
        if host and pins.dimension in HOST_DIMENSIONS:
            from lanegate.lanes.flake import host as host_conditions

            stack.enter_context(host_conditions.applied(pins))
        if pins.tz is not None and not held:
            os.environ["TZ"] = pins.tz
            time.tzset()
        if pins.dimension is Dimension.REPEAT or pins.preempt:
            _jitter_heap(rec, seed)
        if pins.dimension in HELD_CLOCKS and not held:
            with _moved_clock(pins):  # TZ is set above
                yield
        elif pins.preempt:
            from lanegate.lanes.flake.stress import Preemption

            with Preemption(pins.stress_seed or 0, pins.yield_every):
                yield
        elif pins.stress_seed is not None:
            from lanegate.lanes.flake.stress import Stalls

            with Stalls(pins.stress_seed):
                yield
        elif pins.deschedule is not None:
            from lanegate.lanes.flake.deschedule import descheduled

            share, hold = pins.deschedule
            with descheduled(share * rec.measured_seconds.get(item.nodeid, 0.0), hold):
                yield
        else:
            yield
    finally:
        stack.close()
        rec.jitter.clear()
        if pins.tz is not None and not held:
            _restore_zone(saved_tz)


def _timed(item: pytest.Item, *, lane_delays: bool) -> contextlib.AbstractContextManager[None]:
    """How Hypothesis's limits see time in one run of `item` (`untimed`): its own deadline on the
    clock as it is; a default one net of run-queue waits, or not at all where the lane delays
    the run itself."""
    if "hypothesis" not in sys.modules:
        return contextlib.nullcontext()
    untimed.install()  # `hypothesis.stateful` may have been imported since
    own = untimed.own_deadline(getattr(item, "obj", None))
    return untimed.timed(own_limit=own, lane_delays=lane_delays)


# The clock dimensions: for a test with fixtures, the clock moves before its set-up and comes back
# after its teardown (a fixture that issues a token at set-up must see the same clock as the call).
HELD_CLOCKS = frozenset({Dimension.CLOCK, Dimension.DST, Dimension.CALENDAR})


def _restore_zone(saved: str | None) -> None:
    if saved is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = saved
    time.tzset()


@contextlib.contextmanager
def _moved_clock(pins: RunPins) -> Iterator[None]:
    """The wall clock where a clock, DST or calendar run puts it (the run's `TZ` already set)."""
    from lanegate.lanes.flake import clock

    if pins.dimension is Dimension.CALENDAR:
        offset = clock.calendar_offset(pins.calendar or "")
    elif pins.dimension is Dimension.DST:
        offset = clock.dst_offset(pins.dst_change == "start")
    else:
        offset = clock.offset_for(pins.clock_hours, pins.clock_lead)
    with clock.shifted(offset):
        yield


@contextlib.contextmanager
def _zone_and_clock(pins: RunPins) -> Iterator[None]:
    """A clock run's zone and moved clock, from a test's set-up to its teardown."""
    saved = os.environ.get("TZ")
    if pins.tz is not None:
        os.environ["TZ"] = pins.tz
        time.tzset()
    try:
        with _moved_clock(pins):
            yield
    finally:
        if pins.tz is not None:
            _restore_zone(saved)


def _batch_runner(
    item: pytest.Item, batch: _Batch, first_run: int = 0, runs: int | None = None
) -> Callable[[], None]:
    """The carrier's `runtest`: every run of the batch (or `runs` of them from `first_run`), each
    one's outcome taken from its exception."""
    call = type(item).runtest

    def run_all() -> None:
        assert _recorder is not None
        rec = _recorder
        batch.begin(rec)
        for run in range(first_run, first_run + (batch.runs if runs is None else runs)):
            pins = run_pins(batch.dimension, run, rec.random_seed)
            started = time.perf_counter()
            outcome, detail = "passed", ""
            before = _ProcessState.now()
            try:
                with _varied(rec, item, pins):
                    call(item)
            except (KeyboardInterrupt, pytest.exit.Exception):
                batch.add(run, "error", "interrupted", time.perf_counter() - started)
                raise
            except BaseException as exc:
                outcome = "skipped" if _skip_like(exc) else "failed"
                detail = _describe(exc)
            batch.add(run, outcome, detail, time.perf_counter() - started)
            rec.ran(batch.node_id, outcome, before)

    return run_all


def _clone(item: pytest.Item) -> pytest.Item:
    twin = copy.copy(item)
    init = getattr(twin, "_initrequest", None)
    if init is not None:
        init()
    return twin


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, Any, Any]:
    rec = _recorder
    if rec is not None and (rec.isolated or rec.shared) and not session.config.option.collectonly:
        _run_isolated(rec)
    return (yield)


def _run_isolated(rec: _Recorder) -> None:
    """Each isolation batch: the test alone, in a child forked before any test of this process
    ran (nothing set state up for it), with its own fixtures set up and torn down in the child.
    The child appends its batch line to the result file and exits; the parent waits for it."""
    # Frozen objects are never visited by the child's collector: fewer copy-on-write page faults.
    gc.freeze()
    try:
        _fork_each(rec)
        _fork_pairs(rec)
    finally:
        gc.unfreeze()


def _child_run(
    rec: _Recorder, item: pytest.Item, twin: pytest.Item, batch: _Batch, run: int
) -> bool:
    """In a forked child: run `twin` as run `run` of `batch` through pytest's whole protocol, a
    test without fixtures too: its set-up is where pytest decides a `skip`/`skipif` mark, so a run
    that calls the test alone would run a body the test's marks skip; True when the run was
    counted."""
    twin.ihook.pytest_runtest_protocol(item=twin, nextitem=None)
    return run in batch.sequence


@dataclass(frozen=True, slots=True)
class _Child:
    """A forked child running one run of a batch, and the pipe it sends that run back on."""

    pid: int
    tally: int
    twin: pytest.Item
    run: int


def _fork_child(
    rec: _Recorder, item: pytest.Item, batch: _Batch, run: int, go: tuple[int, int] | None = None
) -> _Child:
    """Fork a child that runs `item` as run `run` of `batch` (after the `go` pipe's write end is
    closed by the parent, when given) and sends the run back; it never returns into pytest."""
    twin = _clone(item)
    rec.batch_runs[id(twin)] = (batch, run)
    tally_read, tally_write = os.pipe()
    with warnings.catch_warnings():
        # A conftest may have started threads; the child only runs one test and exits.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(tally_read)
            if go is not None:
                # a pair's parent reports its batches once every pair is done: a child whose
                # run completes a batch (its other runs were reaped before) must not report it
                rec.mute_batches = True
                os.close(go[1])
                _own_imports(item, derived_seed(rec.random_seed, item.nodeid, f"import:{run}"))
                os.read(go[0], 1)  # end of file once every child of the group exists
            if _child_run(rec, item, twin, batch, run):  # its run was counted: send it on
                os.write(tally_write, json.dumps(batch.last_run()).encode("utf-8"))
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(tally_write)
    return _Child(pid, tally_read, twin, run)


def _own_imports(item: pytest.Item, seed: int) -> None:
    """In a shared-host child: run the import-time code of the test's module again, and of the
    tree's modules it takes names from (helpers first), under a random seed of the child's own.
    Two xdist workers are two processes, each importing the test module itself: a module-level
    `RUN_ID = uuid4().hex` or a timestamp differs between them, while a child forked after
    collection shares its parent's, and two copies that write the same bytes to one fixed path
    collide without a trace. `reload` runs the code in the module's own namespace, so the
    functions and fixtures pytest holds see the new values. Only what the test's module reaches
    (a whole repository's modules cost every child their imports: 2x the lane's CPU on a corpus
    collected in one session). A module that fails to import again keeps what it had."""
    random.seed(seed)
    test_module = getattr(item, "module", None)
    if not isinstance(test_module, ModuleType):
        return
    root = Path(str(item.config.rootpath)).resolve()
    order: list[ModuleType] = []
    for value in list(vars(test_module).values()):
        module = (
            value
            if isinstance(value, ModuleType)
            else sys.modules.get(str(getattr(value, "__module__", "") or ""))
        )
        if module is None or module is test_module or module in order:
            continue
        file = getattr(module, "__file__", None)
        if not file or Path(file).name == "conftest.py":
            continue
        if module.__name__.partition(".")[0] in ("lanegate", "pytest", "_pytest"):
            continue  # the lane's own plugin, where the tree is lanegate's
        path = Path(file).resolve()
        if root in path.parents and "site-packages" not in path.parts:
            order.append(module)
    for module in [*order, test_module]:  # helpers before what imports from them
        with contextlib.suppress(Exception):
            importlib.reload(module)


def _reap_child(rec: _Recorder, batch: _Batch, child: _Child, why: str) -> bool:
    """Wait for a child and add the run it sent (True); a child that died first makes its run an
    error (False)."""
    os.waitpid(child.pid, 0)
    sent = _drain(child.tally)
    del rec.batch_runs[id(child.twin)]
    if batch.take(sent, child.run):
        return True
    batch.add(child.run, "error", why, 0.0)
    return False


def _pairs(rec: _Recorder) -> list[list[tuple[pytest.Item, _Batch, int]]]:
    """The shared-host runs in pairs: each test's runs before `CROSS_RUN` two by two beside
    themselves (two copies of one test), then run `CROSS_RUN` of each test beside run
    `CROSS_RUN + 1` of the next one in the replay's (shuffled) order: two different tests at once,
    as pytest-xdist runs them, so that two tests sharing one fixed path or port meet (a test
    alone meets itself there too)."""
    shared = rec.shared
    out: list[list[tuple[pytest.Item, _Batch, int]]] = []
    for item, batch in shared:
        out.extend(
            [(item, batch, run) for run in range(first, min(first + 2, batch.runs))]
            for first in range(0, min(batch.runs, CROSS_RUN), 2)
        )
    for index, (item, batch) in enumerate(shared):
        if batch.runs > CROSS_RUN:
            after, its = shared[(index + 1) % len(shared)]
            partner = [(after, its, CROSS_RUN + 1)] if its.runs > CROSS_RUN + 1 else []
            out.append([(item, batch, CROSS_RUN), *partner])
    return out


def _fork_pairs(rec: _Recorder) -> None:
    """Each pair of shared-host runs (`_pairs`): two children forked before any test of this
    process ran and released together, so that the two run at the same moment in one `/tmp`, one
    network and one working tree. The parent adds the run each child sends back and reports
    every batch's one line when every pair is done."""
    why = "the shared-host run's process ended without a result"
    for pair in _pairs(rec):
        go = os.pipe()
        children = [(batch, _fork_child(rec, item, batch, run, go)) for item, batch, run in pair]
        os.close(go[1])  # both children exist: release them together
        os.close(go[0])
        for batch, child in children:
            _reap_child(rec, batch, child, why)
    for _item, batch in rec.shared:
        if batch.done == batch.runs:
            batch.emit(rec)


def _fork_each(rec: _Recorder) -> None:
    """Each run of an isolation batch in a child of its own. A child starts from the batch as the
    runs before it left it (the parent adds the run each child sends back over a pipe), so the
    child of the last run holds every run and reports the batch's one line."""
    for item, batch in rec.isolated:
        for run in range(batch.runs):
            child = _fork_child(rec, item, batch, run)
            why = "the isolated run's process ended without a result"
            # a batch whose last child died is reported here (a missing line would hide the
            # others); the last child that lived reported it itself
            if not _reap_child(rec, batch, child, why) and batch.done == batch.runs:
                batch.emit(rec)


def _drain(fd: int) -> bytes:
    """What an exited isolation child left in its tally pipe (then the pipe is closed): read
    without waiting, since a process the test left behind may still hold the pipe open."""
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    try:
        while sum(map(len, chunks)) < MAX_TALLY_BYTES:
            chunk = os.read(fd, MAX_TALLY_BYTES)
            if not chunk:
                break
            chunks.append(chunk)
    except BlockingIOError:
        pass
    finally:
        os.close(fd)
    return b"".join(chunks)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if _recorder is not None and report.skipped and report.nodeid:
        # a module that skips itself (pytest.skip(allow_module_level=True), importorskip)
        _recorder.emit("collect_skipped", node_id=report.nodeid)
    if _recorder is not None and report.failed:
        _recorder.emit(
            "collect_error",
            node_id=report.nodeid or "<session>",
            detail=error_line(report.longreprtext),
            text=" ".join(report.longreprtext.split())[:MAX_DETAIL],  # pytest's whole report
        )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    if _recorder is not None:
        _refuse_forbidden(session.config)
        _disable_hypothesis_database()


def _skip_like(exc: BaseException) -> bool:
    return isinstance(exc, pytest.skip.Exception | unittest.SkipTest)


def _note(item: pytest.Item, outcome: str, detail: str) -> None:
    assert _recorder is not None
    key = id(item)
    current = _recorder.phase.get(key, ("passed", ""))
    if OUTCOME_RANK[outcome] > OUTCOME_RANK[current[0]]:
        _recorder.phase[key] = (outcome, detail)


def _describe(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def _recorded_by_unittest(item: pytest.Item, before: int) -> BaseException | None:
    """The first exception a `unittest.TestCase` test recorded during its call: pytest's unittest
    item takes the test's failures, errors and skips as a `TestResult` would (`_excinfo`) and its
    `runtest` returns normally, so no exception reaches this plugin's wrapper. `before` is the
    count recorded before the call (a clone shares its original's list)."""
    recorded = getattr(item, "_excinfo", None)
    if not isinstance(recorded, list) or len(recorded) <= before:
        return None
    value = getattr(recorded[before], "value", None)
    return value if isinstance(value, BaseException) else AssertionError(str(recorded[before]))


def _note_unittest(item: pytest.Item, before: int) -> None:
    """Note the outcome a `unittest.TestCase` call recorded on its item, when it recorded one."""
    recorded = _recorded_by_unittest(item, before)
    if recorded is not None:
        _note(item, _call_outcome(recorded), _describe(recorded))


def _unittest_count(item: pytest.Item) -> int:
    recorded = getattr(item, "_excinfo", None)
    return len(recorded) if isinstance(recorded, list) else 0


def _call_outcome(exc: BaseException) -> str:
    """What a call that raised (or that unittest recorded) `exc` counts as."""
    return "skipped" if _skip_like(exc) or isinstance(exc, pytest.xfail.Exception) else "failed"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, Any, Any]:
    if _recorder is None:
        return (yield)
    rec = _recorder
    repeat = rec.repeat_of.get(id(item), 0)
    rec.started[id(item)] = time.perf_counter()
    rec.started_cpu[id(item)] = _cpu_clock()
    in_batch = rec.batch_runs.get(id(item))
    key: int | str = repeat
    rec.state_before[id(item)] = _ProcessState.now()
    if in_batch is not None:
        in_batch[0].begin(rec)
        pins = run_pins(in_batch[0].dimension, in_batch[1], rec.random_seed)
        key = pins.random_key
        if pins.dimension in HOST_DIMENSIONS:  # before the fixtures: one that sets its own wins
            from lanegate.lanes.flake import host as host_conditions

            stack = contextlib.ExitStack()
            rec.hosts[id(item)] = stack
            stack.enter_context(host_conditions.applied(pins))
        elif pins.dimension in HELD_CLOCKS:  # the fixtures see the call's clock
            stack = contextlib.ExitStack()
            rec.hosts[id(item)] = stack
            stack.enter_context(_zone_and_clock(pins))
    seed = derived_seed(rec.random_seed, item.nodeid, key)
    random.seed(seed)
    _pin_hypothesis_seed(seed)
    try:
        return (yield)
    except BaseException as exc:
        _note(item, "skipped" if _skip_like(exc) else "error", _describe(exc))
        raise


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    if _recorder is None:
        return (yield)
    rec = _recorder
    in_batch = rec.batch_runs.get(id(item))
    before = _unittest_count(item)
    if in_batch is not None:
        pins = run_pins(in_batch[0].dimension, in_batch[1], rec.random_seed)
        try:
            with _varied(rec, item, pins, host=False):
                result = yield
        except BaseException as exc:
            _note(item, "skipped" if _skip_like(exc) else "failed", _describe(exc))
            raise
        _note_unittest(item, before)
        return result
    shaken = id(item) in rec.repeat_of and rec.repeat_of[id(item)] >= rec.repeats
    if shaken:
        rec.saved_interval = sys.getswitchinterval()
        sys.setswitchinterval(SHAKE_SWITCH_INTERVAL)
        _jitter_heap(rec, derived_seed(rec.random_seed, item.nodeid, rec.repeat_of[id(item)]))
    started, started_cpu = time.perf_counter(), _cpu_clock()
    try:
        with _timed(item, lane_delays=shaken):
            result = yield
        _note_unittest(item, before)
        return result
    except BaseException as exc:
        _note(item, "skipped" if _skip_like(exc) else "failed", _describe(exc))
        raise
    finally:
        rec.call_seconds[id(item)] = time.perf_counter() - started
        rec.call_cpu[id(item)] = _cpu_clock() - started_cpu
        if shaken and rec.saved_interval is not None:
            sys.setswitchinterval(rec.saved_interval)
        rec.jitter.clear()


def _cpu_clock() -> float:
    """CPU seconds of this process and of the children it has reaped: a test that runs
    `python -c ...` or a CLI through `subprocess` costs the machine its children's CPU too, which
    `time.process_time` alone would charge as waiting (a tenth)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class _Filler:
    """A small instance, the size class of most test objects."""


def _jitter_heap(rec: _Recorder, seed: int) -> None:
    """Leave holes in the allocator's free lists of the common small size classes (a seeded number
    of them), so that objects the test creates land at other addresses and in another id order."""
    count = 8 + seed % 57
    blocks: list[Any] = []
    for i in range(count * 2):
        blocks += (_Filler(), (i,) * (i % 6), [i])
    rec.jitter.extend(blocks[::2])
    del blocks


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, Any, Any]:
    if _recorder is None:
        return (yield)
    rec = _recorder
    try:
        return (yield)
    except BaseException as exc:
        _note(item, "error", _describe(exc))
        raise
    finally:
        key = id(item)
        held = rec.hosts.pop(key, None)
        if held is not None:
            held.close()
        repeat = rec.repeat_of.get(key, 0)
        outcome, detail = rec.phase.pop(key, ("passed", ""))
        now, now_cpu = time.perf_counter(), _cpu_clock()
        seconds = now - rec.started.pop(key, now)
        cpu = now_cpu - rec.started_cpu.pop(key, now_cpu)
        _finish(rec, item, repeat, outcome, detail, seconds, cpu)


def _finish(
    rec: _Recorder,
    item: pytest.Item,
    repeat: int,
    outcome: str,
    detail: str,
    seconds: float,
    cpu: float = 0.0,
) -> None:
    """Record one finished item: an outcome line, or its part of a batch (a line when complete)."""
    key = id(item)
    batch = rec.carriers.get(key)
    in_batch = rec.batch_runs.get(key)
    owner: tuple[str, int | str] = (item.nodeid, repeat)
    if batch is not None:
        owner = (item.nodeid, str(batch.dimension))
    elif in_batch is not None:
        owner = (item.nodeid, str(in_batch[0].dimension))
    for pid in _children():
        rec.child_owner.setdefault(pid, owner)
    before = rec.state_before.pop(key, None)
    if batch is not None:  # a carrier's runs were noted one by one as they ran
        if outcome == "skipped" and batch.done == 0:
            # its set-up skipped it (a `skipif` mark, a fixture's skip): the carrier's set-up is
            # every run's, so every run is a skip, as in the replays' own runs
            for run in range(batch.runs):
                batch.add(run, "skipped", detail, 0.0)
        elif outcome != "passed":  # setup or teardown of the carrier failed: the batch is suspect
            batch.add(batch.done, "error", detail, 0.0)
        batch.emit(rec)
        return
    rec.ran(item.nodeid, outcome, before)
    if in_batch is not None:
        done_batch, run = in_batch
        done_batch.add(run, outcome, detail, seconds)
        if done_batch.done == done_batch.runs:
            done_batch.emit(rec)
    else:
        rec.measured_seconds.setdefault(item.nodeid, rec.call_seconds.get(key, seconds))
        if outcome in ("failed", "error"):
            rec.failed_pass.add(item.nodeid)
        rec.emit(
            "outcome",
            node_id=item.nodeid,
            repeat=repeat,
            outcome=outcome,
            seconds=round(seconds, 6),
            call_seconds=round(rec.call_seconds.pop(key, seconds), 6),
            cpu_seconds=round(cpu, 6),
            call_cpu_seconds=round(rec.call_cpu.pop(key, cpu), 6),
            fast=_fast(item),
            fresh=fresh_kind(item),
            detail=detail,
        )


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _recorder is None:
        return
    rec = _recorder
    # A process still running after every fixture was torn down was left behind by the test that
    # was running when it first appeared.
    for pid in sorted(_children()):
        owner = rec.child_owner.get(pid)
        if owner is not None:
            rec.emit("leftover", node_id=owner[0], repeat=owner[1], pid=pid)
        else:
            rec.emit("leftover", node_id=None, repeat=None, pid=pid)
    rec.emit("finish", exitstatus=int(exitstatus))
    skip_idle_summary(session.config.pluginmanager)
