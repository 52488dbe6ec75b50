"""The one traced baseline run of the suite: counted cases, effective settings, durations, coverage."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate import treewalk
from lanegate.errors import RunnerError
from lanegate.lanes import pytest_plugins
from lanegate.lanes.collection import Collection
from lanegate.lanes.property import observe
from lanegate.lanes.property.mutate_run import PLUGIN, child_env
from lanegate.lanes.property.standby import Standby, new_scratch
from lanegate.policy import Policy
from lanegate.sandbox import OUTPUT_HINT, Sandbox, sandbox_python
from lanegate.sandbox.outbox import read_record

STOP_CHECK_SECONDS = 0.05  # how often a run that may be stopped looks at its stop event
ALWAYS_BLOCKED = ("randomly", "cacheprovider", "rerunfailures", "flaky", "pytest_retry", "retry")


@dataclass(frozen=True, slots=True)
class Baseline:
    """What the baseline run recorded, and the command that reproduces it."""

    command: tuple[str, ...]
    exit_code: int
    record: dict[str, Any]
    seconds: float
    # seconds outside tests when known apart from `seconds` (a baseline joined from two processes)
    outside_tests: float | None = None

    @property
    def overhead(self) -> float:
        """Seconds the baseline process spent outside tests (start-up, collection): a per-run cost."""
        if self.outside_tests is not None:
            return self.outside_tests
        spent = sum(float(t.get("duration", 0.0)) for t in self.tests.values())
        return max(0.0, self.seconds - spent)

    @property
    def peak_rss(self) -> int:
        """The baseline process's peak resident memory in bytes (0 where unknown)."""
        return int(self.record.get("peak_rss_bytes", 0) or 0)

    @property
    def collection(self) -> Collection:
        """What pytest collected in the baseline run (node ids in its order) and failed to collect."""
        collected = self.record.get("collected")
        ids = [str(n) for n in collected] if isinstance(collected, list) else list(self.tests)
        errors = [str(e) for e in self.record.get("collect_errors", [])]
        details = self.record.get("collect_error_details")
        known = details if isinstance(details, dict) else {}
        pairs = tuple((e, str(known[e])[:300]) for e in errors if isinstance(known.get(e), str))
        return Collection(tuple(dict.fromkeys(ids)), tuple(errors), pairs)

    @property
    def tests(self) -> dict[str, dict[str, Any]]:
        tests: dict[str, dict[str, Any]] = self.record.get("tests", {})
        return tests


def log_tail(path: Path, lines: int = 5, limit: int = 16384) -> list[str]:
    """The last `lines` non-empty lines of a (possibly huge) log, reading at most `limit` bytes."""
    with path.open("rb") as handle:
        handle.seek(0, os.SEEK_END)
        handle.seek(max(0, handle.tell() - limit))
        text = handle.read().decode("utf-8", "replace")
    return [line[:300] for line in text.strip().splitlines() if line.strip()][-lines:]


def pytest_flags(policy: Policy) -> list[str]:
    """Flags every test process of the lane gets: retry plugins and reordering off, our plugin on."""
    blocked = list(dict.fromkeys([*ALWAYS_BLOCKED, *policy.lane.forbidden_pytest_plugins]))
    flags: list[str] = []
    for name in blocked:
        flags += ["-p", f"no:{name}"]
    flags += [
        *pytest_plugins.extra_args(),
        "-p",
        PLUGIN,
        f"--lanegate-seed={policy.properties.seed}",  # not --hypothesis-seed: it imports Hypothesis
        f"--lanegate-max-examples={policy.properties.max_examples}",
    ]
    return flags


def run_baseline(
    repo: Path,
    policy: Policy,
    trace: Sequence[Path],
    *,
    observe_mode: str = "callback",
    selection: Sequence[str] = (),
    env: dict[str, str] | None = None,
    sandbox: Sandbox,
    overlays: Mapping[Path, Path] | None = None,
    removed: Sequence[str] = (),
    frozen: Sequence[str] = (),
    extra_flags: Sequence[str] = (),
    keep: Mapping[str, Sequence[str]] | None = None,
    ignore: Sequence[str] = (),
    record_oracles: bool = False,
    stop: threading.Event | None = None,
    standby: Standby | None = None,
    protect: Mapping[str, str] | None = None,
) -> Baseline:
    """Run the suite once (or `selection`) under the plugin, in `sandbox`; its output goes to a file
    (bounded by the sandbox's file limit) and the record is read only after the process exits.

    `keep` (`{"node_ids": [...], "files": [...]}`) keeps only those tests of the collected files;
    `ignore`: files (relative to `repo`) pytest does not collect, as `--ignore` would.
    `record_oracles` also records, per test, the lines that called a trusted oracle (a tracer on
    every call: only the run that judges the new tests pays for it). `overlays`, `removed` and
    `frozen` change the sandbox's copy of the tree (see `Sandbox.command`). `stop`, once set, kills the run (a lane
    that is unwinding must not wait for a run beside it to finish). `standby`: the process, already
    started in its own sandbox with these `overlays` and `removed` and the default environment
    (see `standby`), that this run sends its arguments to instead of starting one; its seconds
    count from its start, so a mutant's timeout allows at least what a process started here would
    have needed. `protect`: path (relative to `repo`) -> SHA-256 of the files the process imports
    only from bytes with that digest (`protected`)."""
    if standby is not None:
        if env is not None or observe_mode != "callback":
            raise RunnerError("a standby test process runs with the default environment only")
        if (
            dict(overlays or {}) != standby.overlays
            or tuple(removed) != standby.removed
            or tuple(frozen) != standby.frozen
        ):
            raise RunnerError("a standby test process was started over another tree")
        scratch = standby.scratch
        storage = standby.storage
        environ = standby.env
    else:
        scratch, storage = new_scratch()
        environ = child_env(env, storage, sandbox)
    record_path = scratch / "baseline.json"
    if observe_mode == "files":
        environ.update(observe.FILES_ENV)
    flags = pytest_flags(policy)
    extra = [
        f"--lanegate-observe={observe_mode}",
        f"--lanegate-trace={os.pathsep.join(str(p) for p in trace)}",
        "-q",
        *extra_flags,
    ]
    if ignore:
        ignore_path = scratch / "ignore.json"
        ignore_path.write_text(json.dumps(list(ignore)), encoding="utf-8")
        extra.append(f"--lanegate-ignore={ignore_path}")
    if keep is not None:
        keep_path = scratch / "keep.json"
        keep_path.write_text(json.dumps({k: list(v) for k, v in keep.items()}), encoding="utf-8")
        extra.append(f"--lanegate-select={keep_path}")
    if protect:
        protect_path = scratch / "protect.json"
        protect_path.write_text(json.dumps(dict(protect), sort_keys=True), encoding="utf-8")
        extra.append(f"--lanegate-protect={protect_path}")
    if record_oracles:
        extra.append(f"--lanegate-oracle-module={policy.properties.module}")
    arguments = [*flags, *extra, *selection, f"--lanegate-out={record_path}"]
    log_path = scratch / "output.log"
    if standby is not None:
        started = standby.started
        proc = standby.begin(arguments)
    else:
        sandboxed = sandbox.command(
            [sandbox_python(), "-m", "pytest", *arguments],
            env=environ,
            cwd=repo,
            writable=[scratch],
            overlays=overlays,
            removed=removed,
            frozen=frozen,
        )
        started = time.perf_counter()
        with log_path.open("wb") as log:
            proc = subprocess.Popen(
                sandboxed.argv,
                cwd=repo,
                env=sandboxed.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
    deadline = time.monotonic() + policy.lane.max_wall_seconds
    while True:
        left = deadline - time.monotonic()
        try:
            proc.wait(timeout=max(0.0, left if stop is None else min(left, STOP_CHECK_SECONDS)))
            break
        except subprocess.TimeoutExpired:
            stopped = stop is not None and stop.is_set()
            if not stopped and time.monotonic() < deadline:
                continue
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        treewalk.rmtree(scratch, ignore_errors=True)
        if stopped:
            raise RunnerError("the test run was stopped: the lane is unwinding")
        raise RunnerError(
            f"the baseline test run exceeded lane.max_wall_seconds={policy.lane.max_wall_seconds}"
        )
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # nothing of the run outlives it
    seconds = time.perf_counter() - started
    cut = sandbox.output_passed("the baseline test run (pytest)", log_path)
    if cut is not None:
        treewalk.rmtree(scratch, ignore_errors=True)
        raise RunnerError(cut, hint=OUTPUT_HINT)
    if not record_path.is_file():
        tail = log_tail(log_path)
        treewalk.rmtree(scratch, ignore_errors=True)
        raise RunnerError(
            f"pytest {sandbox.explain_exit(proc.returncode)} without running the lane plugin: "
            + " | ".join(tail),
            hint="check that pytest and hypothesis are installed in this interpreter",
        )
    try:
        record = read_record(record_path)
        if proc.returncode in (
            3,
            4,
        ):  # pytest's internal error or usage error: the record is partial
            lines = log_tail(log_path, lines=40)
            lines = [ln for ln in lines if ln.startswith(("INTERNALERROR>", "ERROR"))] or lines
            raise RunnerError(
                f"the baseline test run stopped with pytest exit {proc.returncode}: "
                + (lines[-1].strip() if lines else "no output"),
                hint="run the suite with the recorded command to see pytest's full message",
            )
    finally:
        treewalk.rmtree(scratch, ignore_errors=True)
    shown = ["python", "-m", "pytest", *flags, *selection]
    return Baseline(tuple(shown), proc.returncode, record, seconds)
