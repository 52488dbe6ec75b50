"""`lanegate flake --base REF`: replay the diff's new and changed tests; `--replay N` repeats one."""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from lanegate.cli.common import (
    add_lane_arguments,
    add_shard_arguments,
    lane_context,
    out_dir,
    parse_now,
    repo_and_policy,
    shard_from_args,
)
from lanegate.errors import UsageError
from lanegate.lanes.base_policy import trusted_sandbox
from lanegate.lanes.context import ProgressEvent
from lanegate.lanes.flake.execute import ReplaySpec, check_refusal, run_replay
from lanegate.lanes.flake.pins import RANDOM_SEED_VAR
from lanegate.lanes.flake.runner import LEDGER_NAME, run_lane
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import FlakeLedger, Outcome
from lanegate.pr_body import read_pr_body
from lanegate.sandbox import Sandbox, open_sandbox
from lanegate.sharding.ledger_file import shard_file_name, shard_from_file
from lanegate.sharding.slices import parse_shard

COMMAND = "flake"
HELP = "replay new and changed tests under varied hash seed, order, zone and repeats (flake.json)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_lane_arguments(parser)
    add_shard_arguments(parser)
    parser.add_argument("--pr-body", type=Path, default=None, help="file holding the PR body")
    parser.add_argument("--now", default=None, help="ISO 8601 time to judge leases at")
    parser.add_argument(
        "--replay",
        type=int,
        default=None,
        metavar="N",
        help="rerun replay N of the existing flake.json exactly and print its outcomes",
    )


def _progress(event: ProgressEvent) -> None:
    if event.total:
        print(f"flake: {event.message} ({event.done}/{event.total})", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    repo, policy = repo_and_policy(args)
    out = out_dir(repo, args.out)
    if args.replay is not None:
        ledger_file = out / LEDGER_NAME
        if args.shard is not None:
            ledger_file = out / shard_file_name("flake", parse_shard(args.shard))
        limits = trusted_sandbox(repo, args.base, args.head, policy, args.config)
        with open_sandbox(repo, limits, enabled=not args.no_sandbox) as box:
            return _rerun(repo, ledger_file, args.replay, policy.lane.max_wall_seconds, box)
    shard = shard_from_args(args, repo, policy, "flake")
    pr_body = read_pr_body(args.pr_body) if args.pr_body is not None else None
    ctx = lane_context(
        args,
        repo,
        policy,
        now=parse_now(args.now) or datetime.now(UTC),
        pr_body=pr_body,
        progress=_progress,
    )
    outcome = run_lane(ctx, shard=shard)
    verdict = "pass" if outcome.would_pass else "FAIL"
    print(f"flake: {verdict}: {outcome.summary} -> {outcome.ledger_path}")
    for problem in outcome.problems:
        print(f"  - {problem}")
    return 0 if outcome.would_pass else 1


def _read_ledger(path: Path) -> FlakeLedger:
    if path.name == LEDGER_NAME:
        return load_file(FlakeLedger, "flake", path).value
    ledger = shard_from_file(path).ledger
    if not isinstance(ledger, FlakeLedger):
        raise UsageError(f"{path}: not a flake shard ledger")
    return ledger


def _rerun(repo: Path, path: Path, number: int, wall_seconds: float, sandbox: Sandbox) -> int:
    ledger = _read_ledger(path)
    record = next((r for r in ledger.replays if r.replay == number), None)
    if record is None:
        known = ", ".join(str(r.replay) for r in ledger.replays) or "none"
        raise UsageError(f"--replay {number}: {path} has no such replay (has: {known})")
    spec = ReplaySpec(record.replay, record.command)
    with tempfile.TemporaryDirectory(prefix="lanegate-flake-") as work:
        run = run_replay(repo, spec, wall_seconds, Path(work), sandbox=sandbox)
    check_refusal(run)
    recorded = {
        (t.node_id, o.repeat): o.outcome
        for t in ledger.tests
        for o in t.replays
        if o.replay == number
    }
    now: dict[tuple[str, int], Outcome] = {}
    for line in run.lines:
        if line.get("kind") == "outcome":
            key = (str(line.get("node_id")), int(line.get("repeat", 0)))
            try:
                now[key] = Outcome(str(line.get("outcome")))
            except ValueError:
                now[key] = Outcome.ERROR
    print(
        f"replay {number}: PYTHONHASHSEED={record.hash_seed} order={record.order}"
        f" order_seed={record.order_seed} TZ={record.tz}"
        f" random_seed={spec.env.get(RANDOM_SEED_VAR, '?')}"
    )
    same = True
    for key in sorted(set(recorded) | set(now)):
        got = now.get(key, Outcome.TIMEOUT if run.timed_out else Outcome.MISSING)
        was = recorded.get(key)
        mark = "" if got is was else f"  (recorded: {was.value if was else 'absent'})"
        same = same and got is was
        print(f"  {got.value:<8} {key[0]} run {key[1] + 1}{mark}")
    recorded_batches = {
        (t.node_id, str(b.dimension)): _counts(b.passed, b.failed, b.error, b.skipped)
        for t in ledger.tests
        for b in t.batches
        if b.replay == number
    }
    now_batches = {
        (str(line.get("node_id")), str(line.get("dimension"))): _counts(
            *(
                int(line.get("counts", {}).get(k, 0))
                for k in ("passed", "failed", "error", "skipped")
            )
        )
        for line in run.lines
        if line.get("kind") == "batch" and isinstance(line.get("counts"), dict)
    }
    after = {
        (str(line.get("node_id")), str(line.get("dimension"))): str(line["after_failure_of"])
        for line in run.lines
        if line.get("kind") == "batch" and isinstance(line.get("after_failure_of"), str)
    }
    for batch_key in sorted(set(recorded_batches) | set(now_batches)):
        got_counts = now_batches.get(batch_key, "missing")
        was_counts = recorded_batches.get(batch_key, "absent")
        mark = "" if got_counts == was_counts else f"  (recorded: {was_counts})"
        same = same and got_counts == was_counts
        if batch_key in after:
            mark += f"  (after a failed run of {after[batch_key]} left the process changed)"
        print(f"  {batch_key[1]} batch of {batch_key[0]}: {got_counts}{mark}")
    print("reproduced the recorded outcomes" if same else "outcomes differ from the ledger")
    return 0 if same else 1


def _counts(passed: int, failed: int, error: int, skipped: int) -> str:
    parts = [
        f"{n} {name}"
        for name, n in (
            ("passed", passed),
            ("failed", failed),
            ("error", error),
            ("skipped", skipped),
        )
        if n
    ]
    return ", ".join(parts) or "no runs"
