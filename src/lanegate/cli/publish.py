"""`lanegate publish`: a score report to the job summary, a check run and the sticky PR comment."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from lanegate.errors import GitHubError, UsageError
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import ScoreReport

if TYPE_CHECKING:  # PyGithub and actions-toolkit cost ~1 s to import: only `publish` pays it
    from lanegate.github.event import PullRequestEvent
    from lanegate.github.publish import PublishResult

COMMAND = "publish"
HELP = "publish a score report: job summary, check run and sticky PR comment; exit 0 only on pass"
MAX_PRINTED_ANNOTATIONS = 50


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--report", type=Path, required=True, help="score-report.json")
    parser.add_argument(
        "--summary",
        type=Path,
        default=None,
        help="Markdown summary (default: score-summary.md beside the report, else rendered)",
    )
    parser.add_argument("--repo-slug", default=None, help="owner/name (default: GITHUB_REPOSITORY)")
    parser.add_argument("--pr", type=int, default=None, help="pull request number (default: event)")
    parser.add_argument(
        "--head-sha", default=None, help="commit for the check run (default: event)"
    )
    parser.add_argument(
        "--event", type=Path, default=None, help="event payload (GITHUB_EVENT_PATH)"
    )
    parser.add_argument(
        "--no-api", action="store_true", help="only the job summary and exit code: no API calls"
    )
    parser.add_argument(
        "--no-api-retries",
        action="store_true",
        help="turn off PyGithub's retry and request delays (tests and local API servers)",
    )


def _summary_text(args: argparse.Namespace, report: ScoreReport) -> str:
    from lanegate.github.report_view import render_summary

    path: Path | None = args.summary
    if path is None and (args.report.parent / "score-summary.md").is_file():
        path = args.report.parent / "score-summary.md"
    if path is None:
        return render_summary(report)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--summary {path}: cannot read it ({exc})") from None


def _event(args: argparse.Namespace) -> PullRequestEvent | None:
    from lanegate.github.event import event_from_env, read_event

    if args.event is not None:
        return read_event(args.event)
    try:
        return event_from_env()
    except GitHubError as exc:  # a broken payload must not stop the summary: say so, go on degraded
        print(f"lanegate publish: degraded: {exc.diagnostic()}", file=sys.stderr)
        return None


def _post(args: argparse.Namespace, report: ScoreReport, summary: str) -> PublishResult:
    from lanegate.github.client import ClientSettings, with_client
    from lanegate.github.publish import PublishResult, publish_report

    if args.no_api:
        return PublishResult(
            degraded=True, problems=("--no-api: check run and comment not posted",)
        )
    event = _event(args)
    slug = args.repo_slug or os.environ.get("GITHUB_REPOSITORY") or (event and event.repo_slug)
    pr = args.pr if args.pr is not None else (event.number if event else None)
    head = args.head_sha or (event.head_sha if event else None)
    if not slug:
        return PublishResult(degraded=True, problems=("no repository slug: nothing posted",))
    try:
        settings = ClientSettings.from_env()
    except GitHubError as exc:
        return PublishResult(degraded=True, problems=(exc.diagnostic(),))
    if args.no_api_retries:
        settings = replace(
            settings, retries=False, seconds_between_requests=None, seconds_between_writes=None
        )
    server = os.environ.get("GITHUB_SERVER_URL", "").rstrip("/")
    run_id = os.environ.get("GITHUB_RUN_ID")
    details = f"{server}/{slug}/actions/runs/{run_id}" if server and run_id else None
    try:
        return with_client(
            settings,
            slug,
            lambda client: publish_report(
                client, report, summary, head_sha=head, pr_number=pr, details_url=details
            ),
        )
    except GitHubError as exc:
        return PublishResult(degraded=True, problems=(exc.diagnostic(),))


def run(args: argparse.Namespace) -> int:
    from lanegate.github import actions

    report = load_file(ScoreReport, "score-report", args.report).value
    summary = _summary_text(args, report)
    actions.append_summary(summary)
    printed = 0
    for reason in report.fails:
        if printed >= MAX_PRINTED_ANNOTATIONS:
            break
        actions.annotate(
            actions.Annotation(
                level="error",
                message=reason.message + (f" Fix: {reason.fix}" if reason.fix else ""),
                title=f"lanegate/{reason.rule_id}",
                path=reason.path,
                line=reason.line,
            )
        )
        printed += 1
    result = _post(args, report, summary)
    for problem in result.problems:
        print(f"lanegate publish: degraded: {problem}", file=sys.stderr)
    if result.degraded:
        actions.append_summary(
            "> lanegate could not post everything to GitHub (read-only token, fork PR, or API "
            "unreachable); this summary and the job's exit code carry the verdict.\n"
        )
    actions.set_output("verdict", report.verdict)
    actions.set_output("degraded", "true" if result.degraded else "false")
    if result.check_run_id is not None:
        actions.set_output("check-run-id", str(result.check_run_id))
    print(
        f"lanegate publish: verdict {report.verdict}"
        + (f"; check run {result.check_run_id}" if result.check_run_id is not None else "")
        + (f"; comment {result.comment_id}" if result.comment_id is not None else "")
    )
    return 0 if report.verdict == "pass" else 1
