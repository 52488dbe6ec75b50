"""`lanegate property --base REF`: run the property lane and write DIR/property.json (or replay a mutant)."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from lanegate.cli.common import (
    add_draw_argument,
    add_lane_arguments,
    add_shard_arguments,
    lane_context,
    repo_and_policy,
    shard_from_args,
)
from lanegate.errors import UsageError
from lanegate.lanes.context import (
    ProgressEvent,
)
from lanegate.lanes.property import run_lane
from lanegate.lanes.property.replay import replay_mutant

COMMAND = "property"
HELP = "check oracles, count Hypothesis cases, plant mutants on changed lines, write property.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_lane_arguments(parser)
    add_shard_arguments(parser)
    parser.add_argument(
        "--replay",
        metavar="MUTANT_ID",
        default=None,
        help="rebuild one mutant from its id, rerun its tests with the same seed, print the outcome",
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: cores)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument(
        "--coverage-map",
        type=Path,
        default=None,
        metavar="PATH",
        help="a coverage map of the merge base (a file, or a directory of maps) from a trusted "
        "default-branch run; missing, stale or unusable maps run the full baseline",
    )
    add_draw_argument(parser)


def _progress(event: ProgressEvent) -> None:
    total = f" [{event.done}/{event.total} {event.unit}]" if event.total else ""
    print(f"property: {event.message}{total}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    repo, policy = repo_and_policy(args)
    if args.replay is not None:
        replayed = replay_mutant(
            repo,
            args.base,
            policy,
            args.replay,
            head=args.head,
            sandboxed=not args.no_sandbox,
            config=args.config,
        )
        original = replayed.source.decode("utf-8", "replace").splitlines(keepends=True)
        mutated = replayed.mutated.decode("utf-8", "replace").splitlines(keepends=True)
        path = replayed.spec.path
        sys.stdout.writelines(
            difflib.unified_diff(original, mutated, f"a/{path}", f"b/{path}", n=1)
        )
        result = replayed.result
        print(f"{replayed.spec.id} {replayed.spec.operator} {path}:{replayed.spec.line}")
        print(f"tests: {len(replayed.tests)} ({', '.join(replayed.tests[:5]) or 'none'})")
        print(
            f"status: {result.status}"
            + (f" by {result.killed_by} ({result.kill_kind})" if result.killed_by else "")
        )
        if result.detail:
            print(f"detail: {result.detail}")
        return 0
    shard = shard_from_args(args, repo, policy, "property")
    if shard is not None and args.mutant_draw is not None:
        raise UsageError("--mutant-draw with --shard: a shard plants with its plan's draw")
    ctx = lane_context(args, repo, policy, progress=(lambda e: None) if args.quiet else _progress)
    outcome = run_lane(
        ctx,
        workers=args.workers,
        shard=shard,
        coverage_map=args.coverage_map,
        draw=args.mutant_draw,
    )
    print(outcome.summary)
    for problem in outcome.problems:
        print(f"  fail: {problem}")
    print(f"wrote {outcome.ledger_path}")
    return 0 if outcome.would_pass else 1
