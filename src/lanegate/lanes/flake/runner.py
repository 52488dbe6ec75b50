"""`run_lane` for the flake lane: select, plan, replay, assemble, evaluate leases, write flake.json."""

from __future__ import annotations

import dataclasses
import secrets
import tempfile
from pathlib import Path

from lanegate.diff import Change, classify_diff
from lanegate.errors import RunnerError
from lanegate.lanes import pytest_plugins
from lanegate.lanes.collect_failure import import_hint
from lanegate.lanes.collection import Collection, changed_test_files
from lanegate.lanes.context import (
    LaneContext,
    LaneOutcome,
    ProgressEvent,
    envelope,
    lane_sandbox,
)
from lanegate.lanes.flake.budget import plan_batches, with_floors
from lanegate.lanes.flake.collect import collect, collection_of
from lanegate.lanes.flake.execute import (
    ReplayRun,
    ReplaySpec,
    check_refusal,
    pinned_env,
    pytest_command,
    recorded_command,
    run_replay,
    side_by_side,
)
from lanegate.lanes.flake.leases import evaluate_leases, load_leases
from lanegate.lanes.flake.outcomes import Details, assemble, describe_disagreement, measured_costs
from lanegate.lanes.flake.plan import Plan, ReplayPin, make_plan
from lanegate.lanes.flake.select import Selection, select_tests
from lanegate.lanes.flake.suite import BaseCollection, collect_suite
from lanegate.ledgers.load import write_document
from lanegate.ledgers.models import (
    FLAKE_WRITER,
    Dimension,
    FlakeLedger,
    FlakeTest,
    Outcome,
    PrivilegeCondition,
    ReplayRecord,
)
from lanegate.model import Reason, Severity
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox, probe
from lanegate.scoring import lane_reasons
from lanegate.scoring.flake_power import aftermath, culprits
from lanegate.sharding.ledger_file import write_shard_ledger
from lanegate.sharding.slices import ShardRun

LANE = "flake"
LEDGER_NAME = "flake.json"


def replay_spec(selection: Selection, plan: Plan, pin: ReplayPin, policy: Policy) -> ReplaySpec:
    """The command and pinned environment of one replay of the plan."""
    forbidden = policy.lane.forbidden_pytest_plugins
    argv = pytest_command(selection.pytest_args, forbidden)
    return ReplaySpec(pin.replay, recorded_command(pinned_env(pin, plan, forbidden), argv))


def replay_specs(selection: Selection, plan: Plan, policy: Policy) -> list[ReplaySpec]:
    """The command and pinned environment of every replay of the plan."""
    return [replay_spec(selection, plan, pin, policy) for pin in plan.pins]


def _records(
    plan: Plan, specs: list[ReplaySpec], runs: list[ReplayRun]
) -> tuple[ReplayRecord, ...]:
    out = []
    pins = {pin.replay: pin for pin in plan.pins}
    for spec, run in zip(specs, runs, strict=True):
        pin = pins[spec.replay]
        out.append(
            ReplayRecord(
                replay=pin.replay,
                command=spec.command,
                hash_seed=pin.hash_seed,
                order=str(pin.order),
                order_seed=pin.order_seed,
                tz=pin.tz,
                in_process_repeats=pin.repeats,
                exit_code=max(-255, min(255, run.exit_code)) if run.exit_code is not None else None,
                seconds=round(run.seconds, 3),
                timed_out=run.timed_out,
                privileged=pin.privileged,
            )
        )
    return tuple(out)


def _uncollected(test: FlakeTest, collection: Collection, repo: Path) -> FlakeTest:
    """`test` with why it has no outcome when pytest could not collect its file (the exception
    line, and a fix for an import the sandbox lacks)."""
    path = test.node_id.split("::", 1)[0]
    if not collection.failed(path) or any(r.outcome is Outcome.PASSED for r in test.replays):
        return test
    why = collection.error_of(path) or "see pytest's collection error"
    hint = import_hint(why, repo)
    detail = f"pytest cannot collect {path} in the sandbox: {why}" + (f"; {hint}" if hint else "")
    return dataclasses.replace(test, detail=detail[:1000])


def _problems(ledger: FlakeLedger, details: Details, reasons: list[Reason]) -> tuple[str, ...]:
    """The scorer's errors, each non-deterministic test first named with the run that disagreed and
    its pins (the scorer's own message lists every outcome; this one says which run and why)."""
    notes = aftermath(ledger.tests, culprits(ledger.tests))
    flaky = [t for t in ledger.tests if not t.deterministic and not _leaks(t)]
    out = [
        "non-deterministic: " + describe_disagreement(t, details) + notes.get(t.node_id, "")
        for t in flaky
    ]
    shown = {t.node_id for t in flaky}
    out += [
        f"[{r.rule_id}] {r.message}"
        for r in reasons
        if r.severity is Severity.ERROR
        and not (r.rule_id == "flake-nondeterministic" and r.location and r.location.note in shown)
    ]
    return tuple(out)


def privilege_condition(sandbox: Sandbox) -> PrivilegeCondition:
    """Whether a replay can keep root's file-permission override here (`ran` then means it will),
    or why not: only in the sandbox (it grants the override to one replay and drops it in the
    others), only where lanegate runs as root (`probe.privilege`)."""
    if not sandbox.enabled:
        return PrivilegeCondition(
            ran=False,
            detail="the sandbox is off: every replay ran with lanegate's own privileges",
        )
    why = probe.privilege()
    return PrivilegeCondition(ran=not why, detail=why)


def _leaks(test: FlakeTest) -> bool:
    return test.exposed_by is Dimension.STATE_LEAK


def _replays_named(specs: list[ReplaySpec]) -> str:
    """`replay 2` for one replay, `replays 2-3` for a run of them (as the progress line says it)."""
    first, last = specs[0].replay, specs[-1].replay
    return f"replay {first}" if first == last else f"replays {first}-{last}"


def run_lane(
    ctx: LaneContext,
    *,
    shard: ShardRun | None = None,
    base_collection: BaseCollection | None = None,
) -> LaneOutcome:
    """Replay the diff's new and changed tests under varied pins and write `flake.json`; with
    `shard`, only the tests of the slice's test files, into `flake-shard-K-of-N.json`.
    `base_collection`: the base's whole-suite collection made once for a batch of heads."""
    policy = ctx.policy
    forbidden = policy.lane.forbidden_pytest_plugins
    diff = classify_diff(ctx.repo, ctx.base, policy, ctx.head)
    changed = changed_test_files(ctx.repo, diff)
    files = [f.path for f in changed]
    only = None if shard is None else frozenset(shard.items)
    if shard is not None and only is not None:
        stray = sorted(only - set(files))
        if stray:
            raise RunnerError(f"shard {shard.spec}: {stray[0]} is not a test file of this diff")
        files = [f for f in files if f in only]
    # Every file added: the selection is every test of every file, handed to pytest as the file
    # paths, which is what the collection runs too, so replay 1 collects (one process fewer).
    added_only = all(f.change is Change.ADDED for f in changed if f.path in files)
    leases = load_leases(ctx.repo, policy.flake.leases_file, diff.head_commit)
    specs: list[ReplaySpec] = []
    runs: list[ReplayRun] = []
    with (
        lane_sandbox(ctx) as sandbox,
        tempfile.TemporaryDirectory(prefix="lanegate-flake-") as work,
    ):
        plan_seed = secrets.token_hex(16)
        first: ReplayRun | None = None
        if added_only and files:
            # replay 1's pins do not depend on the selection (`make_plan`: its hash seed is the
            # first candidate whatever the string sets; no extra tests before replay 2)
            pin = make_plan(Selection(()), policy.authorship.min_replays, plan_seed).pins[0]
            spec = ReplaySpec(
                pin.replay,
                recorded_command(
                    pinned_env(pin, Plan(pins=(pin,), extra_tests=()), forbidden),
                    pytest_command(files, forbidden),
                ),
            )
            count = max(3, policy.authorship.min_replays)
            ctx.progress(ProgressEvent(LANE, "replay 1", "replay", 0, count))
            first = run_replay(
                ctx.repo, spec, policy.lane.max_wall_seconds, Path(work), sandbox=sandbox
            )
            check_refusal(first)
            collection = collection_of(first)
        else:
            ctx.progress(ProgressEvent(LANE, "collect", "replay", 0, 0))
            collection = collect(
                ctx.repo,
                files,
                forbidden,
                policy.lane.max_wall_seconds,
                Path(work),
                sandbox=sandbox,
            )
        suite = collect_suite(
            ctx.repo,
            diff.merge_base,
            diff.files,
            forbidden,
            policy.lane.max_wall_seconds,
            sandbox=sandbox,
            shared=base_collection,
        )
        selection = select_tests(ctx.repo, diff, collection, only)
        privilege = privilege_condition(sandbox)
        # drawn here, never derived from the head commit (its hash is the agent's choice); every
        # replay's pins are recorded, so `lanegate flake --replay N` still reproduces it exactly
        plan = make_plan(
            selection, policy.authorship.min_replays, plan_seed, privilege=privilege.ran
        )
        if first is not None and selection.tests:
            if plan.pins[0] != pin or not set(selection.pytest_args) <= set(files):
                raise RunnerError("replay 1 ran other pins or tests than the plan's replay 1")
            specs.append(spec)
            runs.append(first)
        pins = plan.pins if selection.tests else ()
        if pins and not runs:  # replay 1 runs alone: it measures what every test costs
            spec = replay_spec(selection, plan, pins[0], policy)
            specs.append(spec)
            ctx.progress(ProgressEvent(LANE, "replay 1", "replay", 0, len(pins)))
            run = run_replay(
                ctx.repo, spec, policy.lane.max_wall_seconds, Path(work), sandbox=sandbox
            )
            check_refusal(run)
            runs.append(run)
        if len(pins) > len(runs):
            # Replay 1 measured every test: spend the repetition budget on the later replays.
            costs = with_floors(
                measured_costs(runs[0], selection), len(pins), policy.flake.detect_rate
            )
            plan = plan.with_batches(plan_batches(costs, policy.flake.repeat_budget_seconds))
            later = [replay_spec(selection, plan, pin, policy) for pin in pins[len(runs) :]]
            specs.extend(later)
            ctx.progress(ProgressEvent(LANE, _replays_named(later), "replay", len(runs), len(pins)))
            for run in side_by_side(
                ctx.repo, later, policy.lane.max_wall_seconds, Path(work), sandbox=sandbox
            ):
                check_refusal(run)
                runs.append(run)
    # Every replay process (and its group) has exited and been killed by now.
    tests, details = assemble(selection, plan, runs) if runs else ((), {})
    tests = tuple(_uncollected(t, collection, ctx.repo) for t in tests)
    touched_ids = [t.node_id for t in tests if t.touched_by_diff] + list(selection.touched_ids)
    records = _records(plan, specs, runs)
    ledger = FlakeLedger(
        **envelope(
            ctx,
            writer=FLAKE_WRITER,
            suite_id=f"{policy.lane.name}:flake",
            base_commit=diff.base_commit,
            head_commit=diff.head_commit,
            sandbox=sandbox,
        ),
        authorship=ctx.authorship.kind,
        deterministic=all(t.deterministic for t in tests),
        min_replays=policy.authorship.min_replays,
        replays=records,
        tests=tests,
        leases=evaluate_leases(leases, touched_ids, ctx.pr_body),
        suite=suite,
        privilege=privilege
        if not privilege.ran or any(r.privileged for r in records)
        else PrivilegeCondition(ran=False, detail="no privileged replay ran: no test to replay"),
    )
    if shard is None:
        ledger_path = ctx.out_dir / LEDGER_NAME
        write_document(ledger_path, ledger, "flake")
    else:
        ledger_path = write_shard_ledger(ctx.out_dir, LANE, shard.spec, shard.plan_digest, ledger)
    reasons = lane_reasons(
        ledger,
        policy=policy,
        now=ctx.now,
        authorship=ctx.authorship.kind,
        pr_body=ctx.pr_body,
        run_attempt=ctx.run_attempt,
        path=str(ledger_path),
    )
    fails = _problems(ledger, details, reasons)
    warns = [r for r in reasons if r.severity is Severity.WARNING]
    unstable = sum(1 for t in tests if not t.deterministic and not _leaks(t))
    leaking = sum(1 for t in tests if _leaks(t))
    weakest = max(tests, key=lambda t: t.power.min_detectable_rate, default=None)
    power = (
        f"; every test would have shown a flake failing >= "
        f"{weakest.power.min_detectable_rate:.1%} of its runs ({weakest.power.executions} "
        f"executions of {weakest.node_id})"
        if weakest is not None
        else ""
    )
    summary = (
        f"{len(tests)} tests x {len(runs)} replays: {unstable} non-deterministic"
        + (f", {leaking} leaking state into their own later runs" if leaking else "")
        + (f", {len(warns)} warnings" if warns else "")
        + power
        if tests
        else f"no new or changed tests to replay (pytest collected {len(collection.node_ids)} "
        "test(s) from the diff's test files; none is changed or reaches a changed line)"
    )
    if shard is not None:
        summary = f"shard {shard.spec}: {summary}"
    notes = pytest_plugins.notes()
    if notes:  # the recorded commands carry the arguments; the summary says why
        summary += "; pytest plugins: " + "; ".join(notes)
    ctx.progress(ProgressEvent(LANE, "done", "replay", len(runs), len(pins)))
    return LaneOutcome(LANE, ledger_path, not fails, summary, fails)
