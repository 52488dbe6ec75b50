"""One scoring run in one process: the property, fixture and flake lanes, then lint, then the scorer.

Lanes write into a staging directory; only a finished run is moved into the output directory (see
`outdir`). An interrupt (Ctrl-C, SIGTERM; see `interrupt`) stops every child process, deletes the staging
directory and re-raises, so no partial ledger is ever left where a later `lanegate score` could read it.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from lanegate import scoring, source_encoding
from lanegate._version import __version__
from lanegate.authorship import Authorship
from lanegate.diff import classify_diff
from lanegate.errors import LanegateError, LedgerError
from lanegate.introspection import scan_diff
from lanegate.lanes.context import LaneContext, LaneOutcome, ProgressEvent, usable_cpus
from lanegate.lanes.flake.suite import BaseCollection
from lanegate.lanes.property.canary import planned_for_slot
from lanegate.lanes.property.plant import policy_draw
from lanegate.ledgers.load import read_bytes, write_document
from lanegate.ledgers.models import ScoreReport
from lanegate.model import Lane
from lanegate.policy import Policy
from lanegate.reporting.markdown import MarkdownReporter
from lanegate.reporting.terminal import Display
from lanegate.reporting.text import split_warns
from lanegate.run import children, outdir
from lanegate.run.interrupt import RunInterrupted, stop_children_on_signal
from lanegate.sandbox import refuse_commands
from lanegate.scoring.evidence import LEDGER_FILES, FailureKind, LoadFailure, ShardProblem
from lanegate.sharding.collect import merged_from_dir
from lanegate.sharding.plan import PLAN_NAME, SHARDED_LANES, ShardPlan, build_plan, write_plan
from lanegate.sharding.slices import ShardRun, ShardSpec
from lanegate.workflow_lint.gate import lint_gate

LANES = ("property", "fixture", "flake")
# how long an interrupted run waits for its lane threads once their processes are stopped
LANE_STOP_SECONDS = 10.0
REPORT_FILE = "score-report.json"
SUMMARY_FILE = "score-summary.md"
LINT_FILE = "lint.json"

LaneRunner = Callable[[LaneContext], LaneOutcome]


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What one run judges: HEAD of `repo` against `base` (a commit), under `policy`."""

    repo: Path
    policy: Policy
    base: str
    out_dir: Path
    now: datetime
    authorship: Authorship
    run_attempt: int = 1
    job: str = "local"
    pr_body: str | None = None
    sandboxed: bool = True
    # run only this shard of the property and flake lanes (both planned in `shard.count` shards)
    shard: ShardSpec | None = None
    # a coverage map of the merge base for the property lane (a file or a directory of maps)
    coverage_map: Path | None = None
    # the property lane's mutant draw, to reproduce a run (None: the policy's, or a fresh secret)
    mutant_draw: int | None = None
    # the explicit policy file (--config), if any
    config: Path | None = None
    # folders the head's tests must not see besides the output directory (`lanegate candidates`:
    # the source repository and the other candidates' trees and ledgers)
    hidden: tuple[Path, ...] = ()
    # the base's whole-suite collection made once for a batch (the flake lane's base side)
    base_collection: BaseCollection | None = None


@dataclass(frozen=True, slots=True)
class StepTiming:
    """How long one step took, and what it said."""

    step: str
    seconds: float
    state: str
    summary: str


@dataclass(frozen=True, slots=True)
class Overhead:
    """Where the time went: wall clock, and how much of it had a child process (the tests) running."""

    wall_seconds: float
    child_wall_seconds: float | None
    own_cpu_seconds: float
    child_cpu_seconds: float

    @property
    def outside_children_seconds(self) -> float | None:
        """Wall time spent in lanegate itself, with no child process running."""
        if self.child_wall_seconds is None:
            return None
        return max(0.0, self.wall_seconds - self.child_wall_seconds)


@dataclass(frozen=True, slots=True)
class RunResult:
    """A finished run: the report, where it was written, and how each step went."""

    report: ScoreReport
    report_path: Path
    files: tuple[Path, ...]
    steps: tuple[StepTiming, ...]
    overhead: Overhead

    @property
    def errors(self) -> tuple[str, ...]:
        """`<lane> lane: <message>` for each lane that could not run (bad input or configuration)."""
        return tuple(f"{s.step} lane: {s.summary}" for s in self.steps if s.state == "error")

    @property
    def internal_errors(self) -> tuple[str, ...]:
        """`<lane> lane: <message>` for each lane that crashed (a lanegate bug)."""
        return tuple(
            f"{s.step} lane: {s.summary}" for s in self.steps if s.state == "internal-error"
        )


def lane_runner(lane: str) -> LaneRunner:
    """The shared entry point `lanegate.lanes.<lane>.run_lane`."""
    module = importlib.import_module(f"lanegate.lanes.{lane}")
    runner: LaneRunner = module.run_lane
    return runner


def _forwarding(display: Display, lane: str) -> Callable[[ProgressEvent], None]:
    def sink(event: ProgressEvent) -> None:
        display.progress(event if event.lane else replace(event, lane=lane))

    return sink


def _plan(request: RunRequest) -> ShardPlan | None:
    if request.shard is None:
        return None
    summary = classify_diff(request.repo, request.base, request.policy)
    count = request.shard.count
    return build_plan(
        request.repo,
        summary,
        request.policy,
        property_shards=count,
        flake_shards=count,
        draw=policy_draw(request.policy),
    )


def _runner(lane: str, request: RunRequest, plan: ShardPlan | None) -> LaneRunner:
    """The lane's `run_lane`, given this request's shard of it and (property) its coverage map."""
    runner = lane_runner(lane)
    options: dict[str, object] = {}
    if plan is not None and request.shard is not None and lane in SHARDED_LANES:
        lane_plan = plan.lane(lane)
        options["shard"] = ShardRun(
            request.shard, lane_plan.digest, lane_plan.slice(request.shard), plan.mutant_draw
        )
    if lane == "property" and request.coverage_map is not None:
        options["coverage_map"] = request.coverage_map
    if lane == "flake" and request.base_collection is not None:
        options["base_collection"] = request.base_collection
    if lane == "property" and request.mutant_draw is not None and request.shard is None:
        options["draw"] = request.mutant_draw
    if not options:
        return runner
    configured: Callable[..., LaneOutcome] = runner

    def run_configured(ctx: LaneContext) -> LaneOutcome:
        return configured(ctx, **options)

    return run_configured


def _run_lanes(
    request: RunRequest, staging: Path, display: Display, plan: ShardPlan | None = None
) -> list[StepTiming]:
    """The three lanes' steps, in `LANES` order.

    Sandboxed, with more than one CPU, the lanes run side by side, a thread each: every lane's test
    processes run in sandboxes of its own (a private copy of the tree, /tmp, PID and network
    namespace, the staging directory hidden), so they meet only on the CPU, as the reusable
    workflow's lane jobs would on one runner. Unsandboxed they would share the checkout (the fixture
    lane makes fixtures read-only in it), so they run one after another."""
    if not request.sandboxed or usable_cpus() < 2:
        return [_lane_step(lane, request, staging, display, plan) for lane in LANES]
    steps: dict[str, StepTiming] = {}

    def run(lane: str) -> None:
        steps[lane] = _lane_step(lane, request, staging, display, plan)

    threads = [
        threading.Thread(target=run, args=(lane,), name=f"lanegate-{lane}", daemon=True)
        for lane in LANES
    ]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException:  # an interrupt: no lane may start another process, then all stop
        refuse_commands()
        children.stop_descendants()
        deadline = time.monotonic() + LANE_STOP_SECONDS
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        raise
    return [
        steps.get(lane)
        or StepTiming(lane, 0.0, "internal-error", "the lane's thread ended without an outcome")
        for lane in LANES
    ]


def _lane_step(
    lane: str, request: RunRequest, staging: Path, display: Display, plan: ShardPlan | None
) -> StepTiming:
    """Run one lane to its outcome; a lane's error or crash is its step's state, never the run's."""
    ctx = LaneContext(
        repo=request.repo,
        base=request.base,
        policy=request.policy,
        out_dir=staging,
        run_attempt=request.run_attempt,
        job=request.job,
        now=request.now,
        authorship=request.authorship,
        pr_body=request.pr_body,
        progress=_forwarding(display, lane),
        version=__version__,
        sandboxed=request.sandboxed,
        config=request.config,
        hidden=request.hidden,
    )
    display.step_started(lane)
    started = time.monotonic()
    try:
        outcome = _runner(lane, request, plan)(ctx)
    except LanegateError as exc:  # the lane wrote no ledger: the scorer fails it as missing
        message, state = exc.diagnostic(), "error"
    except Exception as exc:  # a bug in one lane must not cost the others their evidence
        if os.environ.get("LANEGATE_DEBUG") == "1":
            traceback.print_exc()
        message, state = f"{type(exc).__name__}: {exc}", "internal-error"
    else:
        state, message = ("pass" if outcome.would_pass else "fail"), outcome.summary
    display.step_finished(lane, state, message)
    return StepTiming(lane, time.monotonic() - started, state, message)


def _run_lint(request: RunRequest, staging: Path, display: Display) -> StepTiming:
    display.step_started("lint")
    started = time.monotonic()
    result = lint_gate(
        request.repo, base=request.base, policy=request.policy, today=request.now.date()
    )
    report = result.to_report(__version__)
    write_document(staging / LINT_FILE, report, "lint")
    count = len(result.gating)
    state = "fail" if count else "pass"
    summary = f"{count} finding(s) in {report.files_scanned} file(s)"
    if len(result.findings) > count:
        summary += f", {len(result.findings) - count} in Lane A (reported only)"
    display.step_finished("lint", state, summary)
    return StepTiming("lint", time.monotonic() - started, state, summary)


def _shown(request: RunRequest, name: str) -> str:
    """Where a file will live once the run is committed, as the report should name it."""
    final = request.out_dir / name
    try:
        return final.relative_to(request.repo).as_posix()
    except ValueError:
        return str(final)


def _evidence(
    request: RunRequest, staging: Path
) -> tuple[dict[Lane, scoring.LedgerSlot], scoring.LintSlot]:
    """Load the staged ledgers and lint report, named by their final paths (staging is transient)."""
    ledgers: dict[Lane, scoring.LedgerSlot] = {}
    for lane, name in LEDGER_FILES.items():
        shown = _shown(request, name)
        if not (staging / name).exists():
            ledgers[lane] = LoadFailure(FailureKind.MISSING, f"{shown}: file not found", shown)
            continue
        try:
            ledgers[lane] = scoring.ledger_from_bytes(lane, read_bytes(staging / name), shown)
        except LedgerError as exc:
            ledgers[lane] = LoadFailure(FailureKind.INVALID, exc.diagnostic(), shown)
    try:
        lint = scoring.lint_from_bytes(read_bytes(staging / LINT_FILE), _shown(request, LINT_FILE))
    except LedgerError as exc:
        lint = LoadFailure(FailureKind.INVALID, exc.diagnostic(), _shown(request, LINT_FILE))
    return ledgers, lint


def _score(
    request: RunRequest, staging: Path, display: Display, plan: ShardPlan | None = None
) -> tuple[ScoreReport, StepTiming]:
    display.step_started("score")
    started = time.monotonic()
    ledgers, lint = _evidence(request, staging)
    shard_problems: tuple[ShardProblem, ...] = ()
    if plan is not None:  # one shard alone: the others are missing, so this never passes
        sharded = merged_from_dir(staging, plan, request.run_attempt)
        ledgers.update(sharded.slots)
        shard_problems = sharded.problems
    diff = classify_diff(request.repo, request.base, request.policy)
    expected = planned_for_slot(request.repo, diff, request.policy, ledgers.get(Lane.PROPERTY))
    inputs = scoring.ScoreInputs(
        ledgers=ledgers,
        policy=request.policy,
        now=request.now,
        authorship=request.authorship.kind,
        run_attempt=request.run_attempt,
        lint=lint,
        diff=diff,
        introspection=scan_diff(request.repo, diff),
        encodings=source_encoding.scan_diff(request.repo, diff),
        planned_mutants=expected.mutants,
        shard_problems=shard_problems,
        planned_canaries=expected.canaries,
        pr_body=request.pr_body,
        version=__version__,
    )
    report = scoring.score(inputs)
    write_document(staging / REPORT_FILE, report, "score-report")
    summary_text = MarkdownReporter().render(report, inputs)
    (staging / SUMMARY_FILE).write_text(summary_text, encoding="utf-8")
    warnings, notes = split_warns(report)
    summary = f"{len(report.fails)} fail(s), {len(warnings)} warning(s)" + (
        f", {len(notes)} follow-up(s)" if notes else ""
    )
    display.step_finished("score", report.verdict, summary)
    return report, StepTiming("score", time.monotonic() - started, report.verdict, summary)


def _cpu_seconds() -> tuple[float, float]:
    """CPU seconds of this process and of its reaped children (zeros where `resource` is missing)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0, 0.0
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def run_all(request: RunRequest, display: Display) -> RunResult:
    """Run every step; on success move the outputs into place, on any exit before that leave none."""
    with stop_children_on_signal():
        return _run_all(request, display)


def _run_all(request: RunRequest, display: Display) -> RunResult:
    children.become_subreaper()
    refuse_commands(False)  # a run stopped before this one in the same process refused them
    out = outdir.claim(request.out_dir)
    staging = outdir.new_staging(out)
    clock = children.ChildClock()
    cpu_before = _cpu_seconds()
    started = time.monotonic()
    clock.start()
    try:
        plan = _plan(request)
        if plan is not None:
            write_plan(staging / PLAN_NAME, plan)
        steps = _run_lanes(request, staging, display, plan)
        steps.append(_run_lint(request, staging, display))
        report, step = _score(request, staging, display, plan)
        steps.append(step)
        files = outdir.commit(out, staging)
    except BaseException:
        with outdir.signals_held():  # a second Ctrl-C must not cut the clean-up short
            children.stop_descendants()
            outdir.discard(staging)
        raise
    finally:
        child_wall = clock.stop()
        out.release()
    wall = time.monotonic() - started
    children.reap_exited()  # the sandboxes' inits, orphaned to us: their CPU is the tests'
    cpu_after = _cpu_seconds()
    overhead = Overhead(
        wall_seconds=wall,
        child_wall_seconds=child_wall if clock.available else None,
        own_cpu_seconds=cpu_after[0] - cpu_before[0],
        child_cpu_seconds=cpu_after[1] - cpu_before[1],
    )
    return RunResult(
        report=report,
        report_path=request.out_dir / REPORT_FILE,
        files=tuple(files),
        steps=tuple(steps),
        overhead=overhead,
    )


__all__ = ["RunInterrupted", "RunRequest", "RunResult", "run_all"]
