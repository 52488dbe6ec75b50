"""`lanegate run`: every lane, lint and score on HEAD in one command, results in `.lanegate/`."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path

from lanegate import git
from lanegate.authorship import Authorship
from lanegate.cli.common import (
    add_authorship_argument,
    add_draw_argument,
    add_repo_arguments,
    add_sandbox_argument,
    authorship_from_args,
    out_dir,
    repo_and_policy,
)
from lanegate.errors import UsageError
from lanegate.lanes.context import job_from_env, run_attempt_from_env
from lanegate.ledgers.load import dump_bytes
from lanegate.ledgers.models import AuthorKind
from lanegate.pr_body import read_pr_body
from lanegate.reporting.terminal import make_display, render_table
from lanegate.run.base import default_base, explicit_base
from lanegate.run.orchestrate import (
    SUMMARY_FILE,
    RunInterrupted,
    RunRequest,
    RunResult,
    run_all,
)
from lanegate.sharding.slices import parse_shard

COMMAND = "run"
HELP = "run the property, fixture and flake lanes, lint and score in one command (into .lanegate/)"
EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_TERMINATED = 2, 3, 130, 143


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repo_arguments(parser)
    parser.add_argument(
        "--base",
        default=None,
        help="base ref (default: the merge base of HEAD with origin/HEAD, main or master)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(".lanegate"),
        help="output directory, relative to the repository (default: .lanegate/)",
    )
    parser.add_argument("--quiet", action="store_true", help="plain lines, no live display")
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="json prints score-report.json on stdout (progress stays on stderr)",
    )
    parser.add_argument(
        "--pr-body", type=Path, default=None, help="pull request description (for lease expiries)"
    )
    add_authorship_argument(
        parser, "who wrote the diff (default: unknown, judged as the agent's)", default=None
    )
    parser.add_argument(
        "--shard",
        metavar="K/N",
        default=None,
        help="run only shard K of N of the property and flake lanes (reproduces one shard job; "
        "the other shards are missing, so the verdict is fail)",
    )
    parser.add_argument(
        "--coverage-map",
        type=Path,
        default=None,
        metavar="PATH",
        help="a coverage map of the merge base for the property lane (a file, or a directory of "
        "maps) from a trusted default-branch run; missing, stale or unusable maps run the full "
        "baseline",
    )
    add_draw_argument(parser)
    add_sandbox_argument(parser)


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _color(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in os.environ


def print_result(result: RunResult, fmt: str) -> None:
    if fmt == "json":
        text = dump_bytes(result.report).decode("utf-8")
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    sys.stdout.write(
        render_table(result.report, _shown(result.report_path), color=_color(sys.stdout))
    )
    summary = result.report_path.with_name(SUMMARY_FILE)
    if summary.is_file():
        sys.stdout.write(f"summary: {_shown(summary)}\n")
    cost = result.overhead
    outside = cost.outside_children_seconds
    own = f", {outside:.1f}s of it in lanegate itself" if outside is not None else ""
    sys.stdout.write(
        f"took:    {cost.wall_seconds:.1f}s{own} "
        f"(CPU: lanegate {cost.own_cpu_seconds:.1f}s, tests {cost.child_cpu_seconds:.1f}s)\n"
    )


def _refuse_uncommitted(repo: Path) -> None:
    """lanegate judges HEAD's commit: a work tree that differs from it would be run as files on
    disk while the ledgers name the commit, and the fixture lane refuses it only after the others
    ran. Refused at once, naming the paths."""
    paths = git.uncommitted(repo)
    if not paths:
        return
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    raise UsageError(
        f"{repo}: uncommitted change{'s' if len(paths) != 1 else ''} to {shown}: lanegate judges "
        "the commit HEAD, not the files on disk",
        hint="commit them (git add -A && git commit) or stash them (git stash), then run again",
    )


def run(args: argparse.Namespace) -> int:
    shard = parse_shard(args.shard) if args.shard is not None else None
    if shard is not None and args.mutant_draw is not None:
        raise UsageError("--mutant-draw with --shard: a shard plants with its plan's draw")
    repo, policy = repo_and_policy(args)
    _refuse_uncommitted(repo)
    choice = explicit_base(repo, args.base) if args.base else default_base(repo)
    target = out_dir(repo, args.out)
    request = RunRequest(
        repo=repo,
        policy=policy,
        base=choice.commit,
        out_dir=target,
        now=datetime.now(UTC),
        authorship=(
            authorship_from_args(args)
            if args.authorship
            else Authorship(AuthorKind.AGENT, "local run: authorship unknown, treated as agent")
        ),
        run_attempt=run_attempt_from_env(),
        job=job_from_env(),
        pr_body=read_pr_body(args.pr_body) if args.pr_body is not None else None,
        sandboxed=not args.no_sandbox,
        shard=shard,
        coverage_map=args.coverage_map,
        mutant_draw=args.mutant_draw,
        config=args.config,
    )
    print(
        f"lanegate: judging HEAD against {choice.commit[:12]}, the {choice.reason}",
        file=sys.stderr,
    )
    display = make_display(sys.stderr, quiet=args.quiet)
    try:
        result = run_all(request, display)
    except KeyboardInterrupt as exc:
        display.close()  # restore the terminal before the last word
        print(
            f"lanegate: interrupted: child processes stopped, no ledger left in {_shown(target)}",
            file=sys.stderr,
        )
        terminated = isinstance(exc, RunInterrupted) and exc.signum == signal.SIGTERM
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    finally:
        display.close()
    print_result(result, args.format)
    for error in result.errors:
        print(f"lanegate: error: {error}", file=sys.stderr)
    for error in result.internal_errors:
        print(f"lanegate: internal error: {error} (rerun with LANEGATE_DEBUG=1)", file=sys.stderr)
    if result.internal_errors:
        return EXIT_INTERNAL
    if result.errors:
        return EXIT_USAGE
    return 0 if result.report.verdict == "pass" else 1
