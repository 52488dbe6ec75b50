"""The GitHub REST API through PyGithub: check runs, the one sticky PR comment, pull-request facts.

This is the only module that imports PyGithub. Retries and request delays are settings (tests turn them
off); every PyGithub or transport failure becomes a `GitHubError`, and a write the token may not make
(403/404 on a fork PR's read-only token) becomes `WriteForbidden`, so that callers can degrade to the
job summary and exit code without ever turning the refusal into a pass.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from github.CheckRun import CheckRun
from github.Repository import Repository

from github import Auth, Github, GithubException, GithubRetry
from lanegate.authorship import PullRequestFacts
from lanegate.errors import GitHubError
from lanegate.github.limits import (
    ANNOTATIONS_PER_REQUEST,
    CHECK_RUN_TEXT_CHARS,
    COMMENT_BODY_CHARS,
    batches,
    truncate_visibly,
)

DEFAULT_API_URL = "https://api.github.com"
MAX_PR_FILES = 3000  # the REST API lists at most 3000 files of a pull request

AnnotationLevel = Literal["notice", "warning", "failure"]
Conclusion = Literal["success", "failure", "neutral", "cancelled", "action_required", "timed_out"]
T = TypeVar("T")


class WriteForbidden(GitHubError):
    """The token may read but not write (fork pull requests, `permissions` without checks/PRs)."""


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """How to reach the API. Defaults are production's: PyGithub's retry and its polite delays."""

    token: str
    api_url: str = DEFAULT_API_URL
    retries: bool = True
    seconds_between_requests: float | None = 0.25
    seconds_between_writes: float | None = 1.0
    timeout: int = 15
    per_page: int = 100

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ClientSettings:
        """GITHUB_TOKEN and GITHUB_API_URL from the environment; a missing token is a GitHubError."""
        env = os.environ if environ is None else environ
        token = env.get("GITHUB_TOKEN", "").strip()
        if not token:
            raise GitHubError("GITHUB_TOKEN is empty: cannot post a check run or a comment")
        api_url = env.get("GITHUB_API_URL", "").strip() or DEFAULT_API_URL
        if (
            env.get("LANEGATE_API_RETRIES") == "off"
        ):  # local API servers in tests: no retry, no sleeps
            overrides = {
                "retries": False,
                "seconds_between_requests": None,
                "seconds_between_writes": None,
                **overrides,
            }
        return cls(token=token, api_url=api_url.rstrip("/"), **overrides)


@dataclass(frozen=True, slots=True)
class Annotation:
    """One file/line annotation of a check run."""

    path: str
    start_line: int
    message: str
    title: str
    level: AnnotationLevel = "failure"
    end_line: int | None = None

    def as_json(self) -> dict[str, str | int]:
        return {
            "path": self.path,
            "start_line": self.start_line,
            "end_line": self.end_line or self.start_line,
            "annotation_level": self.level,
            "message": self.message[:64_000],
            "title": self.title[:255],
        }


@dataclass(frozen=True, slots=True)
class CheckRunRequest:
    """A completed check run to post: its verdict, its text, and its annotations."""

    name: str
    head_sha: str
    conclusion: Conclusion
    title: str
    summary: str
    text: str = ""
    annotations: tuple[Annotation, ...] = ()
    details_url: str | None = None


@dataclass(frozen=True, slots=True)
class PullRequestInfo:
    """What lanegate reads of a pull request: authorship facts, body, shas and changed files."""

    number: int
    facts: PullRequestFacts
    body: str | None
    author_association: str | None
    head_sha: str
    base_sha: str
    base_ref: str
    changed_files: tuple[str, ...] = field(default=())


@contextmanager
def _api(action: str) -> Iterator[None]:
    """Turn PyGithub and transport errors into GitHubError; 403 and 404 on writes into WriteForbidden."""
    try:
        yield
    except GithubException as exc:
        message = exc.data.get("message") if isinstance(exc.data, dict) else None
        detail = f"HTTP {exc.status}" + (f": {message}" if message else "")
        if exc.status in (401, 403, 404) and action.startswith("write"):
            raise WriteForbidden(
                f"GitHub refused to {action.removeprefix('write ')} ({detail})",
                hint="a fork PR's token is read-only; the verdict is in the job summary and exit code",
            ) from None
        raise GitHubError(
            f"GitHub API failed to {action.removeprefix('write ')} ({detail})"
        ) from None
    except (OSError, ValueError) as exc:  # connection refused, DNS, timeouts, TLS, malformed JSON
        raise GitHubError(f"GitHub API unreachable while trying to {action}: {exc}") from None


class GitHubClient:
    """A repository on GitHub, reached through PyGithub with the configured retry and delays."""

    def __init__(self, settings: ClientSettings, repo_slug: str) -> None:
        if repo_slug.count("/") != 1 or not all(repo_slug.split("/")):
            raise GitHubError(f"repository {repo_slug!r} is not owner/name")
        self._gh = Github(
            auth=Auth.Token(settings.token),
            base_url=settings.api_url,
            timeout=settings.timeout,
            per_page=settings.per_page,
            retry=GithubRetry() if settings.retries else None,
            seconds_between_requests=settings.seconds_between_requests,
            seconds_between_writes=settings.seconds_between_writes,
            lazy=True,  # no GET /repos/{slug} just to have an object to call methods on
        )
        self._repo: Repository = self._gh.get_repo(repo_slug)

    def close(self) -> None:
        self._gh.close()

    # --- check runs --------------------------------------------------------------------------------

    def post_check_run(self, request: CheckRunRequest) -> int:
        """Create one completed check run; annotations go 50 per request (create, then edits, each of
        which appends). Returns the check run's id."""
        summary = truncate_visibly(request.summary, CHECK_RUN_TEXT_CHARS)
        text = truncate_visibly(request.text, CHECK_RUN_TEXT_CHARS) if request.text else ""
        chunks = batches(len(request.annotations), ANNOTATIONS_PER_REQUEST)

        def output(chunk: range) -> dict[str, Any]:
            out: dict[str, Any] = {"title": request.title[:255], "summary": summary}
            if text:
                out["text"] = text
            out["annotations"] = [request.annotations[i].as_json() for i in chunk]
            return out

        last = len(chunks) == 1
        kwargs: dict[str, Any] = {"name": request.name, "head_sha": request.head_sha}
        if request.details_url:
            kwargs["details_url"] = request.details_url
        if last:
            kwargs.update(status="completed", conclusion=request.conclusion)
        else:  # completing early would let GitHub show a verdict before every annotation is attached
            kwargs.update(status="in_progress")
        with _api("write create a check run"):
            run: CheckRun = self._repo.create_check_run(output=output(chunks[0]), **kwargs)
        for index, chunk in enumerate(chunks[1:], start=2):
            edit: dict[str, Any] = {"output": output(chunk)}
            if index == len(chunks):
                edit.update(status="completed", conclusion=request.conclusion)
            with _api("write update a check run"):
                run.edit(**edit)
        return int(run.id)

    # --- the sticky comment ------------------------------------------------------------------------

    def upsert_comment(self, pr_number: int, marker: str, body: str) -> tuple[int, bool]:
        """Create or update the one comment carrying `marker` (an HTML comment) on the pull request.
        Returns (comment id, True when an existing comment was edited)."""
        if marker not in body:
            body = f"{marker}\n{body}"
        body = truncate_visibly(body, COMMENT_BODY_CHARS, "the job summary")
        with _api("read the pull request"):
            issue = self._repo.get_issue(pr_number)
        with _api("read the pull request's comments"):
            mine = [c for c in issue.get_comments() if marker in (c.body or "")]
        if mine:
            comment = mine[
                0
            ]  # the oldest: later duplicates (a race between two runs) are left alone
            with _api("write update the PR comment"):
                comment.edit(body)
            return int(comment.id), True
        with _api("write create the PR comment"):
            created = issue.create_comment(body)
        return int(created.id), False

    # --- pull request facts -----------------------------------------------------------------------

    def pull_request(self, number: int, *, with_files: bool = True) -> PullRequestInfo:
        """The PR's author, labels, body, shas and (paginated, capped at 3000) changed files."""
        with _api("read the pull request"):
            pr = self._repo.get_pull(number)
            labels = tuple(label.name for label in pr.labels)
            login = pr.user.login
            user_type = pr.user.type
        files: list[str] = []
        if with_files:
            with _api("read the pull request's files"):
                for changed in pr.get_files():
                    files.append(changed.filename)
                    if len(files) >= MAX_PR_FILES:
                        break
        with _api("read the pull request's commits"):
            messages = tuple(c.commit.message for c in _first(pr.get_commits(), 250))
        return PullRequestInfo(
            number=number,
            facts=PullRequestFacts(
                login=login, user_type=user_type, labels=labels, commit_messages=messages
            ),
            body=pr.body,
            author_association=getattr(pr, "author_association", None),
            head_sha=pr.head.sha,
            base_sha=pr.base.sha,
            base_ref=pr.base.ref,
            changed_files=tuple(files),
        )


def _first(items: Any, limit: int) -> Iterator[Any]:
    for index, item in enumerate(items):
        if index >= limit:
            return
        yield item


def with_client(settings: ClientSettings, repo_slug: str, use: Callable[[GitHubClient], T]) -> T:
    """Run `use` with a client and close its connection pool afterwards."""
    client = GitHubClient(settings, repo_slug)
    try:
        return use(client)
    finally:
        client.close()


def annotation_chunks(annotations: Sequence[Annotation]) -> list[list[Annotation]]:
    """The annotations as they are sent: at most 50 per request (for reports and tests)."""
    return [[annotations[i] for i in chunk] for chunk in batches(len(annotations))]
