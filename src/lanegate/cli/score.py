"""`lanegate score --ledgers DIR`: read the three ledgers (and lint), write the report and summary."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from lanegate import git, source_encoding
from lanegate.cli.common import add_authorship_argument, parse_now
from lanegate.diff import DiffSummary, classify_diff
from lanegate.errors import UsageError
from lanegate.introspection import scan_diff
from lanegate.lanes.context import run_attempt_from_env
from lanegate.lanes.property.canary import planned_for_slot
from lanegate.ledgers.models import AuthorKind
from lanegate.model import Lane
from lanegate.policy import load_policy
from lanegate.pr_body import read_pr_body
from lanegate.reporting.json import write_report
from lanegate.reporting.markdown import MARKER, MarkdownReporter
from lanegate.reporting.text import mark, reason_line, verdict_line
from lanegate.scoring import ScoreInputs, ledgers_from_dir, lint_from_file, score
from lanegate.scoring.evidence import LintSlot, ShardProblem
from lanegate.sharding.collect import sharded_evidence

COMMAND = "score"
HELP = "score the property, fixture and flake ledgers of DIR; exit 0 only on pass"
REPORT = "score-report.json"
SUMMARY = "score-summary.md"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ledgers",
        type=Path,
        required=True,
        help="folder with property.json, fixture.json, flake.json",
    )
    parser.add_argument(
        "--lint",
        type=Path,
        default=None,
        help="lint report (json of `lanegate lint`); default DIR/lint.json when present",
    )
    parser.add_argument(
        "--now", default=None, help="the clock, ISO 8601 with a zone (default: now)"
    )
    add_authorship_argument(parser, "who wrote the diff (default: agent)")
    parser.add_argument(
        "--repo",
        type=Path,
        default=None,
        help="repository, for the policy and (with --base) the diff",
    )
    parser.add_argument(
        "--base", default=None, help="base ref: check the diff for changes to the gate's inputs"
    )
    parser.add_argument("--head", default="HEAD", help="head ref (default: HEAD)")
    parser.add_argument("--config", type=Path, default=None, help="policy file")
    parser.add_argument(
        "--run-attempt",
        type=int,
        default=None,
        help="the scorer's attempt (default: GITHUB_RUN_ATTEMPT or 1)",
    )
    parser.add_argument(
        "--allow-rerun",
        action="store_true",
        help="the caller's explicit opt-out: score a re-run (run_attempt > 1) with a warning "
        "instead of failing it (never the default)",
    )
    parser.add_argument(
        "--expect-jobs",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="require each ledger's job to be its lane's name (default: on when GITHUB_ACTIONS=true)",
    )
    parser.add_argument(
        "--pr-body",
        type=Path,
        default=None,
        help="file with the PR description, to re-check lease lines",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where to write the report and summary (default: DIR)",
    )
    parser.add_argument(
        "--plan",
        type=Path,
        default=None,
        help="shard plan (plan.json of `lanegate plan`): merge DIR's property and flake shard "
        "ledgers against the plan the scorer derives from --base (required with --plan)",
    )


def _ours_json(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            data = json.loads(handle.read(17 * 1024 * 1024))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "verdict" in data and "lanegate_version" in data


def _ours_markdown(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(MARKER)).decode("utf-8", "replace") == MARKER
    except OSError:
        return False


def _check_target(path: Path, ours: bool) -> None:
    if path.is_symlink():
        raise UsageError(f"{path}: is a symbolic link; refusing to write through it")
    if path.exists() and (not path.is_file() or not ours):
        raise UsageError(
            f"{path}: exists and is not a lanegate score output; refusing to overwrite it",
            hint="move it away or pass --out",
        )


def _write_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _expect_jobs(flag: bool | None) -> bool:
    if flag is not None:
        return flag
    return os.environ.get("GITHUB_ACTIONS") == "true"


def run(args: argparse.Namespace) -> int:
    folder: Path = args.ledgers
    if not folder.is_dir():
        raise UsageError(f"--ledgers {folder}: not a directory")
    out: Path = args.out or folder
    if not out.is_dir():
        raise UsageError(f"--out {out}: not a directory")
    report_path, summary_path = out / REPORT, out / SUMMARY
    _check_target(report_path, report_path.is_file() and _ours_json(report_path))
    _check_target(summary_path, summary_path.is_file() and _ours_markdown(summary_path))

    now = parse_now(args.now) or datetime.now(UTC)
    run_attempt = args.run_attempt if args.run_attempt is not None else run_attempt_from_env()
    if run_attempt < 1:
        raise UsageError(f"--run-attempt {run_attempt}: must be >= 1")
    repo = args.repo or Path(".")
    diff: DiffSummary | None = None
    if args.base is not None:
        repo = git.repo_root(repo)
        policy = load_policy(repo, args.config)
        diff = classify_diff(repo, args.base, policy, args.head)
    else:
        policy = load_policy(repo, args.config)
    # the policy decides budgets and ratios: say whose it is (the current directory's by default)
    where = "defaults (no lanegate.toml)" if policy.source == "defaults" else policy.source
    print(f"lanegate score: policy {where} of {repo.resolve()}", file=sys.stderr)

    lint: LintSlot | None = None
    if args.lint is not None:
        lint = lint_from_file(args.lint)
    elif (folder / "lint.json").exists():
        lint = lint_from_file(folder / "lint.json")
    pr_body = read_pr_body(args.pr_body) if args.pr_body is not None else None

    ledgers = ledgers_from_dir(folder)
    shard_problems: tuple[ShardProblem, ...] = ()
    if args.plan is not None:
        if diff is None:
            raise UsageError("--plan needs --base: the scorer derives the plan from the diff")
        sharded = sharded_evidence(repo, diff, policy, args.plan, folder, run_attempt)
        ledgers.update(sharded.slots)
        shard_problems = sharded.problems
    # the mutants the (merged) property ledger's draw plants, and the canaries its seed draws
    expected = (
        planned_for_slot(repo, diff, policy, ledgers.get(Lane.PROPERTY))
        if diff is not None
        else None
    )
    planned = None if expected is None else expected.mutants
    canaries = None if expected is None else expected.canaries
    if args.plan is not None:
        canaries = sharded.planned_canaries  # per shard, each with its own canary_seed

    inputs = ScoreInputs(
        ledgers=ledgers,
        policy=policy,
        now=now,
        authorship=AuthorKind(args.authorship),
        run_attempt=run_attempt,
        lint=lint,
        diff=diff,
        introspection=scan_diff(repo, diff) if diff is not None else (),
        encodings=source_encoding.scan_diff(repo, diff) if diff is not None else (),
        planned_mutants=planned,
        shard_problems=shard_problems,
        planned_canaries=canaries,
        expect_jobs=_expect_jobs(args.expect_jobs),
        allow_rerun=args.allow_rerun,
        pr_body=pr_body,
    )
    report = score(inputs)
    write_report(report_path, report)
    _write_text(summary_path, MarkdownReporter().render(report, inputs))

    print(verdict_line(report))
    for reason in report.fails:
        print(f"  fail  {reason_line(reason)}")
    for reason in report.warns:
        print(f"  {mark(reason)}  {reason_line(reason)}")
    print(f"report: {report_path}")
    print(f"summary: {summary_path}")
    return 0 if report.verdict == "pass" else 1
