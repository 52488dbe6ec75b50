"""Arguments and helpers shared by subcommands."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from typing import Any

from lanegate import git
from lanegate.authorship import Authorship
from lanegate.diff import classify_diff
from lanegate.errors import UsageError
from lanegate.lanes.context import LaneContext, job_from_env, run_attempt_from_env
from lanegate.lanes.property.plant import MAX_DRAW
from lanegate.ledgers.models import AuthorKind
from lanegate.policy import Policy, load_policy
from lanegate.sharding.plan import shard_run
from lanegate.sharding.slices import ShardRun, parse_shard


def add_repo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", type=Path, default=Path("."), help="repository (default: .)")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="policy file (default: lanegate.toml or [tool.lanegate] in pyproject.toml)",
    )


def add_lane_arguments(parser: argparse.ArgumentParser) -> None:
    """--repo, --config, --base, --out, --head and --authorship: what every lane command takes."""
    add_repo_arguments(parser)
    parser.add_argument(
        "--base", required=True, help="base ref of the pull request (e.g. origin/main)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path(".lanegate"), help="ledger directory (default: .lanegate/)"
    )
    parser.add_argument(
        "--head", default="HEAD", help="head ref; must be checked out (default: HEAD)"
    )
    add_authorship_argument(
        parser, "who wrote the diff (default: agent; unknown authorship is agent)"
    )
    add_sandbox_argument(parser)


def add_authorship_argument(
    parser: argparse.ArgumentParser, help_text: str, default: str | None = AuthorKind.AGENT.value
) -> None:
    """--authorship agent|human: who wrote the change, as every judging command takes it."""
    parser.add_argument(
        "--authorship", choices=[kind.value for kind in AuthorKind], default=default, help=help_text
    )


def add_sandbox_argument(parser: argparse.ArgumentParser) -> None:
    """--no-sandbox: run head code unsandboxed (recorded; the scorer fails agent diffs that used it)."""
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run the tests without the bubblewrap sandbox (recorded in every ledger; "
        "agent diffs then fail)",
    )


def authorship_from_args(args: argparse.Namespace) -> Authorship:
    """The --authorship choice as an Authorship decision that names where it came from."""
    kind = AuthorKind(args.authorship)
    return Authorship(kind, f"--authorship {kind.value}")


def repo_and_policy(args: argparse.Namespace) -> tuple[Path, Policy]:
    repo = git.repo_root(Path(args.repo))
    return repo, load_policy(repo, args.config)


def parse_now(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now: {text!r} is not an ISO 8601 timestamp") from None
    if value.tzinfo is None:
        raise UsageError(f"--now: {text!r} has no zone; add Z or an offset")
    return value


def out_dir(repo: Path, out: Path) -> Path:
    return out if out.is_absolute() else repo / out


def lane_context(args: argparse.Namespace, repo: Path, policy: Policy, **extra: Any) -> LaneContext:
    """The LaneContext a lane command runs with: its arguments plus the Actions run attempt and job."""
    return LaneContext(
        repo=repo,
        base=args.base,
        policy=policy,
        out_dir=out_dir(repo, args.out),
        head=args.head,
        run_attempt=run_attempt_from_env(),
        job=job_from_env(),
        authorship=authorship_from_args(args),
        sandboxed=not args.no_sandbox,
        config=args.config,
        **extra,
    )


def _draw(text: str) -> int:
    if not text.isdigit() or int(text) >= MAX_DRAW:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer between 0 and 2**62 - 1")
    return int(text)


def add_draw_argument(parser: argparse.ArgumentParser) -> None:
    """--mutant-draw N: plant the mutants a recorded draw picked (a reproduction)."""
    parser.add_argument(
        "--mutant-draw",
        type=_draw,
        default=None,
        metavar="N",
        help="plant the mutants draw N picks (the `mutant_draw` of a property.json), to reproduce "
        "that run; default: a fresh secret draw (a gate never pins it: a diff could be written "
        "against a known draw)",
    )


def add_shard_arguments(parser: argparse.ArgumentParser) -> None:
    """--shard K/N and --plan FILE: run one slice of the lane's shard plan."""
    parser.add_argument(
        "--shard",
        metavar="K/N",
        default=None,
        help="run only shard K of N of the plan (default: the whole lane)",
    )
    parser.add_argument(
        "--plan",
        type=Path,
        default=None,
        help="the plan file of `lanegate plan` to run the shard of (refused unless it is the "
        "plan of this diff); default: plan here",
    )


def shard_from_args(
    args: argparse.Namespace, repo: Path, policy: Policy, lane: str
) -> ShardRun | None:
    """The ShardRun of --shard/--plan (None without --shard); a malformed K/N is a usage error."""
    if args.shard is None:
        if args.plan is not None:
            raise UsageError("--plan needs --shard K/N")
        return None
    spec = parse_shard(args.shard)
    summary = classify_diff(repo, args.base, policy, args.head)
    return shard_run(repo, summary, policy, lane, spec, args.plan)
