"""Post a score report to GitHub (check run, sticky comment), degrading to summary and exit code."""

from __future__ import annotations

from dataclasses import dataclass

from lanegate.errors import GitHubError
from lanegate.github.client import GitHubClient, WriteForbidden
from lanegate.github.report_view import COMMENT_MARKER, check_run_request, comment_body
from lanegate.ledgers.models import ScoreReport


@dataclass(frozen=True, slots=True)
class PublishResult:
    """What reached GitHub. `degraded` means part of it did not: the verdict is then carried only by
    the job summary and the exit code, and is never changed by the failure."""

    check_run_id: int | None = None
    comment_id: int | None = None
    comment_updated: bool = False
    degraded: bool = False
    problems: tuple[str, ...] = ()


def publish_report(
    client: GitHubClient,
    report: ScoreReport,
    summary: str,
    *,
    head_sha: str | None,
    pr_number: int | None,
    details_url: str | None = None,
) -> PublishResult:
    """Post the check run (when a head sha is known) and the sticky comment (when a PR is known).
    A refused write (read-only token) or an unreachable API is recorded, not raised."""
    problems: list[str] = []
    check_id: int | None = None
    comment_id: int | None = None
    updated = False
    forbidden = False
    if head_sha:
        try:
            check_id = client.post_check_run(
                check_run_request(report, head_sha, summary, details_url)
            )
        except WriteForbidden as exc:
            forbidden = True
            problems.append(exc.diagnostic())
        except GitHubError as exc:
            problems.append(exc.diagnostic())
    else:
        problems.append("no head sha: check run not posted")
    if (
        pr_number is not None and not forbidden
    ):  # one refusal is enough to know the token is read-only
        try:
            comment_id, updated = client.upsert_comment(
                pr_number, COMMENT_MARKER, comment_body(summary, details_url)
            )
        except GitHubError as exc:
            problems.append(exc.diagnostic())
    elif pr_number is not None:
        problems.append("PR comment skipped: the token is read-only")
    return PublishResult(
        check_run_id=check_id,
        comment_id=comment_id,
        comment_updated=updated,
        degraded=bool(problems),
        problems=tuple(problems),
    )
