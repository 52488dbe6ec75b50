"""Run planted mutants: worker processes, only the covering tests, a timeout from the baseline.

Each worker is a small fork server (`python -m lanegate.lanes.property.fork_server`): it imports pytest
and Hypothesis once, then forks one child per mutant. The child puts an import hook first on `sys.meta_path`
that serves the mutated source of one file (the user's files are never rewritten), runs the covering
tests (oracle-checked property tests first, `-x`), and writes its record outside the repository. A child
that outlives its timeout is killed with its process group: status `timeout`, never a kill. Without
`os.fork` (Windows) each mutant runs as its own `python -m pytest` process instead: slower, same answers.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import secrets
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate import treewalk
from lanegate.errors import RunnerError
from lanegate.lanes.context import usable_cpus
from lanegate.lanes.property.running import running_test
from lanegate.lanes.pytest_args import path_argument
from lanegate.ledgers.models import KillKind, MutantStatus
from lanegate.sandbox import Sandbox, sandbox_python
from lanegate.sandbox.outbox import read_record

PLUGIN = "lanegate.lanes.property.plugin"
SERVER = "lanegate.lanes.property.fork_server"  # what each worker runs, in its sandbox
MAX_ANSWER_CHARS = 4096
MAX_CAUSE_CHARS = 300  # a kill's one-line cause, as the ledger bounds it
TIMEOUT_FACTOR = 3.0
TIMEOUT_FLOOR_SECONDS = 2.0
_CONTROL = "control"


@dataclass(frozen=True, slots=True)
class MutantJob:
    """One mutant to run: the mutated file, the tests to run (in order), and its timeout."""

    id: str
    path: Path
    source: str
    tests: tuple[str, ...]
    timeout: float
    function: str = "<module>"
    function_line: int = 0
    # the covering tests' baseline seconds: with fork workers the timeout's overhead term is then
    # re-derived from the control run (a forked child's real set-up), see `fork_timeout`
    tests_seconds: float | None = None
    # the file's unmutated source: given, the mutant is also written into the sandbox's copy of the
    # file on disk for its child (where reading the source sees it), and put back afterwards
    original: str | None = None


@dataclass(frozen=True, slots=True)
class MutantResult:
    """What the tests did to one mutant."""

    id: str
    status: MutantStatus
    killed_by: str | None
    kill_kind: KillKind | None
    seconds: float
    detail: str = ""
    detected: bool = False


def timeout_for(tests_seconds: float, overhead_seconds: float) -> float:
    """Per-mutant wall clock: 3x the covering tests' baseline time, plus the baseline process's own
    overhead (start-up and collection, an upper bound of a forked child's setup), plus 2 s. Both are
    measured on this machine in this run, so CPU contention stretches them alike instead of turning
    slow-but-correct mutants into timeouts."""
    return TIMEOUT_FACTOR * tests_seconds + overhead_seconds + TIMEOUT_FLOOR_SECONDS


CHILD_OVERHEAD_FACTOR = 2.0
# a forked child imports and starts nothing: its floor only absorbs scheduling jitter
FORK_TIMEOUT_FLOOR_SECONDS = 1.0


def fork_timeout(job: MutantJob, child_overhead: float | None) -> float:
    """The timeout of a mutant run in a forked child: the baseline rule, with the overhead term
    replaced by twice the set-up seconds the control child really spent (collection and session
    finish, measured in this run) and a 1 s floor, when that is smaller than the baseline rule."""
    if child_overhead is None or job.tests_seconds is None:
        return job.timeout
    tighter = (
        TIMEOUT_FACTOR * job.tests_seconds
        + CHILD_OVERHEAD_FACTOR * child_overhead
        + FORK_TIMEOUT_FLOOR_SECONDS
    )
    return min(job.timeout, tighter)


def child_env(base: Mapping[str, str] | None, storage: Path, sandbox: Sandbox) -> dict[str, str]:
    """The environment of every test process: what of `base` (default: lanegate's own) head code
    may see (`Sandbox.environment`), its own Hypothesis storage, no bytecode litter in the repo."""
    env = sandbox.environment(base)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(storage)
    env.setdefault("PYTHONHASHSEED", "0")
    return env


# --- the lane side ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Answer:
    exit: int | None
    timed_out: bool
    seconds: float
    over_memory: bool = False
    peak_rss: int = 0


class _Worker:
    """One worker: a fork server process, or direct subprocesses where fork is missing."""

    def __init__(
        self,
        repo: Path,
        env: dict[str, str],
        use_fork: bool,
        err: Path,
        sandbox: Sandbox,
        scratch: Path,
    ) -> None:
        self.err = err
        self.repo = repo
        self.env = env
        self.sandbox = sandbox
        self.scratch = scratch
        self.init_args: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        if use_fork:
            # started early (see WorkerPool): the imports overlap the baseline run
            server = self.sandbox.command(
                [sandbox_python(), "-m", SERVER, "--serve"],
                env=env,
                cwd=repo,
                writable=[scratch],
            )
            with err.open("wb") as errors:
                self.proc = subprocess.Popen(
                    server.argv,
                    cwd=repo,
                    env=server.env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=errors,
                    text=True,
                    start_new_session=True,
                )

    def start(self, init_args: list[str]) -> None:
        """Send the pytest arguments: the server configures pytest and preloads the test modules."""
        self.init_args = init_args
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        preload = sorted({str(self.repo / t.split("::")[0]) for t in init_args if "::" in t})
        init = {"args": init_args, "preload": preload, "contained": self.sandbox.enabled}
        self.proc.stdin.write(json.dumps(init) + "\n")
        self.proc.stdin.flush()

    def run(
        self,
        ident: str,
        tests: Sequence[str],
        mutant: Path | None,
        out: Path,
        log: Path,
        timeout: float,
        memory_cap: int = 0,
    ) -> _Answer:
        if self.proc is None:
            args = [*self.init_args, f"--lanegate-out={out}"]
            if mutant is not None:
                args.append(f"--lanegate-mutant={mutant}")
            return self._run_direct([*args, *(path_argument(t) for t in tests)], log, timeout)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        job = {
            "id": ident,
            "tests": list(tests),
            "mutant": None if mutant is None else str(mutant),
            "out": str(out),
            "log": str(log),
            "timeout": timeout,
            "memory_cap": memory_cap,
        }
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        # the answer pipe is inherited by the forked children (head code): read one bounded line,
        # and anything but the server's own answer shape is a broken worker, never a verdict
        line = self.proc.stdout.readline(MAX_ANSWER_CHARS)
        if not line:
            self.proc.wait()
            raise RunnerError(f"a mutant worker exited {self.proc.returncode} before answering")
        try:
            answer = json.loads(line)
            if answer["id"] != ident:
                # a line a child wrote into the answer pipe it inherits: the answers no longer
                # follow the jobs, so none of this worker's can be trusted
                raise RunnerError(f"a mutant worker answered for {answer['id']!r}, not {ident}")
            return _Answer(
                answer["exit"],
                bool(answer["timed_out"]),
                float(answer["seconds"]),
                bool(answer.get("over_memory", False)),
                int(answer.get("peak_rss", 0)),
            )
        except (ValueError, KeyError, TypeError):
            raise RunnerError(f"a mutant worker answered garbage for {ident}") from None

    def _run_direct(self, args: list[str], log: Path, timeout: float) -> _Answer:
        started = time.perf_counter()
        direct = self.sandbox.command(
            [sandbox_python(), "-m", "pytest", *args],
            env=self.env,
            cwd=self.repo,
            writable=[self.scratch],
        )
        with log.open("wb") as out:
            proc = subprocess.Popen(
                direct.argv,
                cwd=self.repo,
                env=direct.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            try:
                code: int | None = proc.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                code, timed_out = None, True
        return _Answer(code, timed_out, time.perf_counter() - started)

    def close(self) -> None:
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # nothing a mutant left behind outlives it


@dataclass(frozen=True, slots=True)
class Limits:
    """What a mutant child may spend: its wall clock and its resident memory (0: no cap), and what
    the unmutated control spent on the same tests (seconds per test, peak resident bytes)."""

    timeout: float
    memory_cap: int
    control_seconds: dict[str, float]
    control_peak_rss: int


def _stopped(
    job: MutantJob,
    answer: _Answer,
    record_path: Path,
    property_tests: frozenset[str],
    limits: Limits,
) -> MutantResult:
    """A child killed at its wall clock or memory cap; detected (Stryker's convention) when the
    test that was running is a property test and the control ran the same tests within half the
    limit."""
    running = running_test(record_path)
    if answer.over_memory:
        status = MutantStatus.MEMORY
        inside = 0 < limits.control_peak_rss * 2 <= limits.memory_cap
        detail = (
            f"resident memory passed the cap of {limits.memory_cap // 2**20} MiB "
            f"(control peak {limits.control_peak_rss // 2**20} MiB)"
        )
    else:
        status = MutantStatus.TIMEOUT
        spent = [limits.control_seconds.get(t) for t in job.tests]
        inside = all(t is not None for t in spent) and (
            2 * sum(t for t in spent if t is not None) <= limits.timeout
        )
        detail = f"no verdict within {limits.timeout:.1f} s"
    detected = inside and running is not None and running in property_tests
    if running is not None:
        detail += f" while {running} ran"
    return MutantResult(job.id, status, None, None, answer.seconds, detail, detected)


def _classify(
    job: MutantJob,
    answer: _Answer,
    record_path: Path,
    property_tests: frozenset[str],
    limits: Limits | None = None,
) -> MutantResult:
    if answer.timed_out or answer.over_memory:
        return _stopped(
            job,
            answer,
            record_path,
            property_tests,
            limits or Limits(job.timeout, 0, {}, 0),
        )
    if not record_path.is_file():
        return MutantResult(
            job.id,
            MutantStatus.ERROR,
            None,
            None,
            answer.seconds,
            f"the test process exited {answer.exit} without a record",
        )
    try:
        record = read_record(record_path)
    except RunnerError as exc:
        return MutantResult(
            job.id, MutantStatus.ERROR, None, None, answer.seconds, exc.diagnostic()
        )
    tests: dict[str, Any] = record.get("tests", {})
    failing = [t for t in job.tests if tests.get(t, {}).get("outcome") in ("failed", "error")]
    if not failing and record.get("collect_errors"):
        # the mutant broke the import of a test file: credited to the first selected test of that file
        broken = [e.split("::")[0] for e in record["collect_errors"]]
        failing = [t for t in job.tests if t.split("::")[0] in broken] or list(job.tests[:1])
    if failing:
        first = failing[0]
        kind = KillKind.PROPERTY if first in property_tests else KillKind.UNIT
        cause = str(tests.get(first, {}).get("detail", "")) or _collect_cause(record, first)
        return MutantResult(
            job.id, MutantStatus.KILLED, first, kind, answer.seconds, cause[:MAX_CAUSE_CHARS]
        )
    ran = [t for t in job.tests if tests.get(t, {}).get("outcome") == "passed"]
    if answer.exit == 0 and len(ran) == len(job.tests):
        return MutantResult(job.id, MutantStatus.SURVIVED, None, None, answer.seconds)
    return MutantResult(
        job.id,
        MutantStatus.ERROR,
        None,
        None,
        answer.seconds,
        f"pytest exited {answer.exit}; {len(ran)} of {len(job.tests)} tests passed",
    )


def _collect_cause(record: dict[str, Any], test: str) -> str:
    """The one-line cause of the collection error of `test`'s file, when that is what failed it."""
    causes = record.get("collect_causes", {})
    cause = causes.get(test.split("::")[0], "") if isinstance(causes, dict) else ""
    return f"collection: {cause}" if cause else ""


class WorkerPool:
    """Worker processes started before they are needed, with their scratch dir and environment."""

    def __init__(
        self, repo: Path, count: int, env: dict[str, str] | None = None, *, sandbox: Sandbox
    ) -> None:
        self.scratch = Path(tempfile.mkdtemp(prefix="lanegate-mutants-"))
        self.use_fork = hasattr(os, "fork")
        # only a sandbox's private copy of the tree may receive a mutant on disk
        self.contained = sandbox.enabled
        self.workers = []
        # each worker's sandbox can write only its own folder: one mutant's tests cannot reach
        # another worker's job files or records
        for i in range(max(1, count)):
            folder = self.scratch / f"worker-{i}"
            (folder / "hypothesis").mkdir(parents=True)
            environ = child_env(env, folder / "hypothesis", sandbox)
            self.workers.append(
                _Worker(repo, environ, self.use_fork, folder / "worker.err", sandbox, folder)
            )

    def close(self, keep_scratch: bool = False) -> None:
        """Stop every worker and remove the scratch dir (kept when LANEGATE_DEBUG is set)."""
        for worker in self.workers:
            worker.close()
        if not keep_scratch and not os.environ.get("LANEGATE_DEBUG"):
            treewalk.rmtree(self.scratch, ignore_errors=True)


def run_mutants(
    repo: Path,
    jobs: Sequence[MutantJob],
    base_args: Sequence[str],
    property_tests: frozenset[str],
    *,
    workers: int | None = None,
    env: dict[str, str] | None = None,
    control_timeout: float = 180.0,
    on_done: Callable[[MutantResult], None] | None = None,
    keep_scratch: bool = False,
    pool: WorkerPool | None = None,
    timings: dict[str, float] | None = None,
    sandbox: Sandbox | None = None,
    memory_cap: int = 0,
    order_seed: int | None = None,
) -> tuple[list[MutantResult], str | None]:
    """Run every job; returns results in job order and a problem when the unmutated control failed.

    `memory_cap` (bytes, 0: none) kills a forked child whose resident memory passes it: status
    `memory`, like a timeout never a kill, counted as detected under the same conditions.

    A control job (no mutant, every selected test) runs first: if the tests fail without any mutant in
    a worker, no failure under a mutant can be a kill, so every mutant becomes `error`. `timings`, when
    given, receives seconds per phase (worker setup wait, control run, mutants by status, wall).
    """
    phase_started = time.perf_counter()
    times: dict[str, float] = {} if timings is None else timings
    if not jobs:
        if pool is not None:
            pool.close(keep_scratch)
        return [], None
    if pool is None:
        if sandbox is None:
            raise RunnerError("run_mutants needs a worker pool or a sandbox to start one in")
        pool = WorkerPool(repo, min(workers or usable_cpus(), len(jobs)), env, sandbox=sandbox)
    scratch = pool.scratch
    use_fork = pool.use_fork
    union = tuple(dict.fromkeys(t for job in jobs for t in job.tests))
    todo: queue.Queue[tuple[str, MutantJob | None]] = queue.Queue()
    # the control is dealt round-robin to every worker, so that no core idles while it runs
    parts = max(1, min(len(pool.workers), len(union)))
    controls = {f"{_CONTROL}-{i}": union[i::parts] for i in range(parts) if union[i::parts]}
    for ident in controls:
        todo.put((ident, None))
    # dealt in a shuffled order: the position of a job tells the tests nothing about it (canaries
    # are planted among the real mutants); `order_seed` None draws the order from the OS
    order = list(jobs)
    (random.SystemRandom() if order_seed is None else random.Random(order_seed)).shuffle(order)
    for job in order:
        todo.put((job.id, job))
    results: dict[str, MutantResult] = {}
    control: list[str] = []
    lock = threading.Lock()
    # every mutant waits for the control run, so that every mutant's timeout follows one rule (the
    # control's measured child set-up) whichever worker runs it: statuses cannot depend on timing
    control_done = threading.Event()
    if not controls:
        control_done.set()
    control_setups: list[float] = []
    child_overhead: list[float] = []
    control_seconds: dict[str, float] = {}
    control_peak: list[int] = []

    # no terminal reporter (the plugin unregisters it in mutant mode; `-p no:terminal` would make a
    # repository's `-ra` in addopts an unknown option); plain asserts: no rewriting per child.
    init_args = [
        *base_args,
        "--assert=plain",
        "--lanegate-mode=mutant",
        "--lanegate-out=" + str(scratch / "unused.json"),  # every job names its own
        "-x",
    ]
    if use_fork:
        init_args += [path_argument(t) for t in union]

    def work(worker: _Worker) -> None:
        try:
            _work(worker)
        except Exception as exc:  # noqa: BLE001 - recorded as the control problem, never a pass
            control_done.set()
            errs = sorted(scratch.glob("worker-*/worker.err"))
            tail = errs[0].read_text("utf-8", "replace").strip().splitlines()[-1:] if errs else []
            with lock:
                control.append(
                    f"a mutant worker failed: {type(exc).__name__}: {exc} {' '.join(tail)}".strip()
                )

    def _note(key: str, seconds: float) -> None:
        with lock:
            times[key] = times.get(key, 0.0) + seconds

    def _work(worker: _Worker) -> None:
        worker.start(init_args)
        first = True
        try:
            while True:
                try:
                    ident, job = todo.get_nowait()
                except queue.Empty:
                    return
                record = worker.scratch / f"{ident}.json"
                log = worker.scratch / f"{ident}.log"
                if job is None:
                    part = controls[ident]
                    asked = time.perf_counter()
                    answer = worker.run(ident, part, None, record, log, control_timeout, memory_cap)
                    if first:  # what the fork server's own set-up still cost after the baseline
                        _note("worker_setup_wait", time.perf_counter() - asked - answer.seconds)
                        first = False
                    _note("control", answer.seconds)
                    problem = _control_problem(answer, record, part, memory_cap)
                    with lock:
                        if problem:
                            control.append(problem)
                        else:
                            control_seconds.update(_durations(record))
                            control_peak.append(answer.peak_rss)
                        control_setups.append(
                            _setup_seconds(answer, record) if not problem else 0.0
                        )
                        if len(control_setups) == len(controls):
                            if use_fork and not control:
                                child_overhead.append(max(control_setups))
                                times["control_child_setup"] = child_overhead[0]
                            control_done.set()
                    continue
                control_done.wait()
                if not job.tests:
                    result = MutantResult(
                        job.id,
                        MutantStatus.NO_TESTS,
                        None,
                        None,
                        0.0,
                        "no test calls the mutated function",
                    )
                else:
                    # what the worker (head code) sees has one shape for every mutant, canary or
                    # real: a fresh random handle instead of the ledger id, the same keys
                    ident = "m-" + secrets.token_hex(8)
                    record = worker.scratch / f"{ident}.json"
                    log = worker.scratch / f"{ident}.log"
                    mutant_file = worker.scratch / f"{ident}.mutant.json"
                    on_disk = pool.contained and job.original is not None
                    mutant_file.write_text(
                        json.dumps(
                            {
                                "path": str(job.path),
                                "source": job.source,
                                "function": job.function,
                                "function_line": job.function_line,
                                "on_disk": on_disk,
                                "original": job.original if on_disk else None,
                            }
                        ),
                        encoding="utf-8",
                    )
                    asked = time.perf_counter()
                    timeout = fork_timeout(job, child_overhead[0] if child_overhead else None)
                    answer = worker.run(
                        ident, job.tests, mutant_file, record, log, timeout, memory_cap
                    )
                    if first:
                        _note("worker_setup_wait", time.perf_counter() - asked - answer.seconds)
                        first = False
                    limits = Limits(
                        timeout, memory_cap, control_seconds, max(control_peak, default=0)
                    )
                    result = _classify(job, answer, record, property_tests, limits)
                    _note(f"mutant_{result.status}", answer.seconds)
                    _note(f"mutant_{result.status}_count", 1)
                with lock:
                    results[job.id] = result
                if on_done is not None:
                    on_done(result)
        finally:
            worker.close()

    threads = [
        threading.Thread(target=work, args=(worker,), daemon=True) for worker in pool.workers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    pool.close(keep_scratch)
    times["mutants_wall"] = time.perf_counter() - phase_started
    for job in jobs:  # a worker that died leaves its jobs without a verdict: error, never a pass
        results.setdefault(
            job.id,
            MutantResult(job.id, MutantStatus.ERROR, None, None, 0.0, "the worker stopped"),
        )
    if control:
        failed = [
            MutantResult(j.id, MutantStatus.ERROR, None, None, results[j.id].seconds, control[0])
            if results[j.id].status is not MutantStatus.NO_TESTS
            else results[j.id]
            for j in jobs
        ]
        return failed, control[0]
    return [results[j.id] for j in jobs], None


def _setup_seconds(answer: _Answer, record_path: Path) -> float:
    """Seconds a forked child spent outside its tests' own durations (collection, session finish)."""
    record = read_record(record_path)
    spent = sum(float(t.get("duration", 0.0)) for t in record.get("tests", {}).values())
    return max(0.0, answer.seconds - spent)


def _durations(record_path: Path) -> dict[str, float]:
    record = json.loads(record_path.read_text(encoding="utf-8"))
    return {t: float(e.get("duration", 0.0)) for t, e in record.get("tests", {}).items()}


def _control_problem(
    answer: _Answer, record_path: Path, tests: tuple[str, ...], memory_cap: int = 0
) -> str | None:
    """Why the unmutated control run cannot vouch for the mutants (None: it can): it timed out,
    passed the memory cap, wrote no record, or a test did not pass, named with its one-line cause."""
    if answer.timed_out:
        return "the unmutated control run timed out in a worker"
    if answer.over_memory:
        return f"the unmutated control run passed the memory cap of {memory_cap // 2**20} MiB"
    if not record_path.is_file():
        return f"the unmutated control run exited {answer.exit} without a record"
    try:
        record = read_record(record_path)
    except RunnerError as exc:
        return f"the unmutated control run left an unusable record: {exc.diagnostic()}"
    outcomes = record.get("tests", {})
    bad = [t for t in tests if outcomes.get(t, {}).get("outcome") != "passed"]
    if bad:
        entry = outcomes.get(bad[0], {})
        outcome = entry.get("outcome", "not run")
        cause = str(entry.get("detail", "")).strip()
        more = f" ({len(bad) - 1} more)" if len(bad) > 1 else ""
        return (
            f"without any mutant, {bad[0]} is {outcome} in a worker (control run)"
            + (f": {cause}" if cause else "")
            + more
        )
    return None
