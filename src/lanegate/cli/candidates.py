"""`lanegate candidates --base REF HEAD...`: judge many candidate heads against one base."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from lanegate import git
from lanegate.authorship import Authorship
from lanegate.candidates.batch import BatchRequest, combine_runs, judge_candidates
from lanegate.candidates.pool import CandidateOutcome
from lanegate.candidates.promotion import promote
from lanegate.cli.common import add_authorship_argument, out_dir
from lanegate.errors import UsageError
from lanegate.lanes.context import job_from_env, run_attempt_from_env, usable_cpus
from lanegate.ledgers.load import dump_bytes
from lanegate.ledgers.models import AuthorKind

COMMAND = "candidates"
HELP = "judge many candidate heads against one base (the base's work done once), rank survivors"


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer from 1 to 64")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("heads", nargs="+", metavar="HEAD", help="candidate head refs or commits")
    parser.add_argument("--repo", type=Path, default=Path("."), help="repository (default: .)")
    parser.add_argument("--base", required=True, help="base ref every candidate is judged against")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(".lanegate-candidates"),
        help="output folder, relative to the repository (default: .lanegate-candidates/): "
        "candidates.json, candidates.md and one folder of ledgers per candidate",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        help="candidates judged at once (default: the usable CPUs)",
    )
    parser.add_argument(
        "--shared-map",
        action="store_true",
        help="faster, NOT equal to a separate run: build the base's coverage map once and run "
        "only the base tests it maps to each candidate's changed functions (a head that breaks a "
        "base test through shared state can pass); the report says so (selection)",
    )
    parser.add_argument(
        "--no-shared-map",
        action="store_true",
        help="the default: each candidate runs the full baseline, as a separate `lanegate run`",
    )
    add_authorship_argument(parser, "who wrote the candidates (default: agent)")
    parser.add_argument(
        "--from-runs",
        type=Path,
        default=None,
        metavar="DIR",
        help="combine runs made elsewhere instead of running: the i-th HEAD's ledgers are in "
        "DIR/<i> (from 1), as the lane-b-candidates workflow downloads them",
    )
    parser.add_argument(
        "--promote",
        metavar="SHA",
        default=None,
        help="then write promotion.json for this survivor (a head commit or its prefix)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="json prints candidates.json on stdout (progress stays on stderr)",
    )


def _say(outcome: CandidateOutcome) -> None:
    verdict = outcome.verdict or "error"
    print(
        f"lanegate: candidate {outcome.job.ref} ({outcome.job.commit[:12]}): {verdict} "
        f"in {outcome.wall_seconds:.1f}s",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> int:
    repo = git.repo_root(Path(args.repo))
    kind = AuthorKind(args.authorship)
    request = BatchRequest(
        repo=repo,
        base=args.base,
        heads=tuple(args.heads),
        out_dir=out_dir(repo, args.out),
        jobs=args.jobs or usable_cpus(),
        now=datetime.now(UTC),
        authorship=Authorship(kind, f"--authorship {kind.value}"),
        run_attempt=run_attempt_from_env(),
        job=job_from_env(),
        shared_map=args.shared_map and not args.no_shared_map,
    )
    if args.from_runs is not None:
        result = combine_runs(
            repo, args.base, request.heads, args.from_runs, request.out_dir, request.now
        )
    else:
        result = judge_candidates(request, on_done=_say)
    report = result.report
    if args.format == "json":
        sys.stdout.write(dump_bytes(report).decode("utf-8"))
    else:
        sys.stdout.write(result.markdown_path.read_text(encoding="utf-8"))
        print(f"report: {result.report_path}")
    if args.promote is not None:
        if not report.survivors:
            raise UsageError(f"--promote {args.promote}: no candidate survived")
        path = promote(result.report_path.parent, args.promote, request.now)
        print(f"promotion: {path}", file=sys.stderr)
    return 0 if report.survivors else 1
