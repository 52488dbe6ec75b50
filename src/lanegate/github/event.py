"""The pull_request event payload at GITHUB_EVENT_PATH, read into authorship facts, body and shas."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate.authorship import PullRequestFacts
from lanegate.errors import GitHubError, LanegateError
from lanegate.ledgers.load import parse_json_bytes

MAX_EVENT_BYTES = 25 * 1024 * 1024  # GitHub caps webhook payloads at 25 MB


@dataclass(frozen=True, slots=True)
class PullRequestEvent:
    """What a pull_request (or pull_request_target) payload says about its pull request."""

    number: int
    facts: PullRequestFacts
    body: str | None
    head_sha: str
    base_sha: str
    base_ref: str
    repo_slug: str | None
    head_repo_slug: str | None

    @property
    def from_fork(self) -> bool:
        """True when the head branch lives in another repository (its token is read-only)."""
        return self.head_repo_slug is not None and self.head_repo_slug != self.repo_slug


def _field(
    data: Mapping[str, Any], dotted: str, kind: type, where: str, *, optional: bool = False
) -> Any:
    value: Any = data
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            if optional:
                return None
            raise GitHubError(f"{where}: field {dotted!r} is missing")
        value = value[part]
    if value is None and optional:
        return None
    if kind is int and isinstance(value, bool):
        raise GitHubError(f"{where}: field {dotted!r} is a bool, expected int")
    if not isinstance(value, kind):
        raise GitHubError(
            f"{where}: field {dotted!r} is {type(value).__name__}, expected {kind.__name__}"
        )
    return value


def parse_event(payload: Any, where: str) -> PullRequestEvent:
    """A pull_request payload -> PullRequestEvent; anything else is a GitHubError naming the field."""
    if not isinstance(payload, Mapping):
        raise GitHubError(f"{where}: the event payload is not a JSON object")
    if "pull_request" not in payload:
        raise GitHubError(f"{where}: not a pull_request event (no 'pull_request' field)")
    pr = _field(payload, "pull_request", Mapping, where)
    labels_raw = _field(pr, "labels", list, where, optional=True) or []
    labels: list[str] = []
    for index, label in enumerate(labels_raw):
        labels.append(_field(label, "name", str, f"{where}: pull_request.labels[{index}]"))
    login = _field(pr, "user.login", str, where, optional=True)
    user_type = _field(pr, "user.type", str, where, optional=True)
    body = _field(pr, "body", str, where, optional=True)
    return PullRequestEvent(
        number=_field(pr, "number", int, where),
        facts=PullRequestFacts(login=login, user_type=user_type, labels=tuple(labels)),
        body=body,
        head_sha=_field(pr, "head.sha", str, where),
        base_sha=_field(pr, "base.sha", str, where),
        base_ref=_field(pr, "base.ref", str, where),
        repo_slug=_field(payload, "repository.full_name", str, where, optional=True)
        or _field(pr, "base.repo.full_name", str, where, optional=True),
        head_repo_slug=_field(pr, "head.repo.full_name", str, where, optional=True),
    )


def read_event(path: Path) -> PullRequestEvent:
    """Read and parse an event file (strict JSON, bounded size)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GitHubError(f"{path}: cannot read the event payload ({exc.strerror})") from None
    if len(data) > MAX_EVENT_BYTES:
        raise GitHubError(f"{path}: {len(data)} bytes, over the {MAX_EVENT_BYTES}-byte cap")
    try:
        payload = parse_json_bytes(data, str(path))
    except LanegateError as exc:  # the message already names the file
        raise GitHubError(str(exc)) from None
    return parse_event(payload, str(path))


def event_from_env(environ: Mapping[str, str] | None = None) -> PullRequestEvent | None:
    """The pull request of the current run, or None outside a pull_request run."""
    env = os.environ if environ is None else environ
    path = env.get("GITHUB_EVENT_PATH", "")
    if not path or env.get("GITHUB_EVENT_NAME", "pull_request") not in (
        "pull_request",
        "pull_request_target",
    ):
        return None
    return read_event(Path(path))
