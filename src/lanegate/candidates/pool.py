"""Candidates' runs, side by side: one forked process per candidate, at most `jobs` at a time.

A candidate's run is a whole `lanegate run` (`run.orchestrate.run_all`) in a process of its own,
forked from the batch after lanegate's modules are imported (they are imported once, not once per
candidate). Its own process because a run owns process-wide state: it is the subreaper of its
tests' processes, it stops every descendant on an interrupt, and it reaps orphans; two runs in one
process would stop and reap each other's. Each writes its outcome into a file of the batch's working
folder (hidden from every sandbox), read once the process has exited.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from lanegate.errors import LanegateError
from lanegate.lanes.context import ProgressEvent
from lanegate.policy import load_policy
from lanegate.run import children
from lanegate.run.orchestrate import RunRequest, run_all

EXIT_OK, EXIT_ERROR, EXIT_INTERRUPTED = 0, 3, 130


@dataclass(frozen=True, slots=True)
class CandidateJob:
    """One candidate's run: its name (its folder), the ref as given, its commit and its tree."""

    name: str
    ref: str
    commit: str
    tree: Path
    out_dir: Path
    hidden: tuple[Path, ...]
    # the run's own temporary folder (its TMPDIR), inside a folder hidden from every sandbox: a
    # lane's staged files and replay outcomes are seen by no other candidate, whatever TMPDIR is
    temp: Path


@dataclass(frozen=True, slots=True)
class CandidateOutcome:
    """How a candidate's run ended: the verdict (None: no score report), errors, and its cost."""

    job: CandidateJob
    verdict: str | None
    errors: tuple[str, ...]
    wall_seconds: float
    cpu_seconds: float


class _Lines:
    """A display for one candidate among several: one line per finished step, named."""

    def __init__(self, name: str, stream: TextIO) -> None:
        self._name = name
        self._stream = stream

    def step_started(self, step: str) -> None:
        """Nothing: lines of parallel candidates would interleave."""

    def progress(self, event: ProgressEvent) -> None:
        """Nothing (see step_started)."""

    def step_finished(self, step: str, state: str, summary: str) -> None:
        self._stream.write(f"lanegate: [{self._name}] {step}: {state}: {summary[:160]}\n")
        self._stream.flush()

    def close(self) -> None:
        """Nothing to restore."""


def _child(job: CandidateJob, template: RunRequest, result_file: Path) -> int:
    """Run one candidate (in the forked process); write its outcome; the exit code."""
    payload: dict[str, object]
    code = EXIT_OK
    try:
        job.temp.mkdir(parents=True, exist_ok=True)
        os.environ["TMPDIR"] = str(job.temp)
        tempfile.tempdir = None  # `tempfile` reads TMPDIR again
        request = replace(
            template,
            repo=job.tree,
            policy=load_policy(job.tree),
            out_dir=job.out_dir,
            hidden=job.hidden,
        )
        result = run_all(request, _Lines(job.name, sys.stderr))
        cost = result.overhead
        payload = {
            "verdict": result.report.verdict,
            "errors": [*result.errors, *result.internal_errors],
            "wall_seconds": cost.wall_seconds,
            "cpu_seconds": cost.own_cpu_seconds + cost.child_cpu_seconds,
        }
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except LanegateError as exc:
        payload = {"verdict": None, "errors": [exc.diagnostic()]}
    except Exception as exc:  # a bug must cost this candidate its verdict, never the batch
        if os.environ.get("LANEGATE_DEBUG") == "1":
            traceback.print_exc()
        payload = {"verdict": None, "errors": [f"internal error: {type(exc).__name__}: {exc}"]}
        code = EXIT_ERROR
    result_file.write_text(json.dumps(payload), encoding="utf-8")
    return code


def _fork(job: CandidateJob, template: RunRequest, result_file: Path) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = EXIT_ERROR
    try:  # the child never returns into the batch's code
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        code = _child(job, template, result_file)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _outcome(job: CandidateJob, result_file: Path, status: int, wall: float) -> CandidateOutcome:
    try:
        data = json.loads(result_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        code = os.waitstatus_to_exitcode(status)
        why = f"the candidate's run ended ({code}) without an outcome"
        return CandidateOutcome(job, None, (why,), wall, 0.0)
    verdict = data.get("verdict")
    return CandidateOutcome(
        job,
        verdict if verdict in ("pass", "fail") else None,
        tuple(str(e) for e in data.get("errors", [])),
        float(data.get("wall_seconds", wall)),
        float(data.get("cpu_seconds", 0.0)),
    )


def run_candidates(
    jobs: Sequence[CandidateJob],
    template: RunRequest,
    results: Path,
    *,
    at_once: int,
    on_done: Callable[[CandidateOutcome], None] | None = None,
) -> list[CandidateOutcome]:
    """Run every job, at most `at_once` at a time; outcomes in the jobs' order.

    The batch is its processes' subreaper (orphaned sandbox processes come back to it, and their
    CPU with them); it waits for any process, so it also reaps those."""
    results.mkdir(parents=True, exist_ok=True)
    waiting = list(jobs)
    running: dict[int, tuple[CandidateJob, float]] = {}
    done: dict[str, CandidateOutcome] = {}
    try:
        while waiting or running:
            while waiting and len(running) < max(1, at_once):
                job = waiting.pop(0)
                running[_fork(job, template, results / f"{job.name}.json")] = (
                    job,
                    time.monotonic(),
                )
            pid, status = os.waitpid(-1, 0)
            if pid not in running:
                continue  # an orphan re-parented to the batch: reaped
            job, started = running.pop(pid)
            outcome = _outcome(
                job, results / f"{job.name}.json", status, time.monotonic() - started
            )
            done[job.name] = outcome
            if on_done is not None:
                on_done(outcome)
    except BaseException:
        for pid in running:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        for pid in list(running):
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        children.stop_descendants()
        raise
    children.reap_exited()
    return [done[job.name] for job in jobs]
