"""Who wrote a diff (SPEC 1): agent when a configured rule says so, or when authorship cannot be told."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from lanegate.ledgers.models import AuthorKind
from lanegate.policy import AuthorshipPolicy


@dataclass(frozen=True, slots=True)
class Authorship:
    """The decision and the rule that made it."""

    kind: AuthorKind
    reason: str


@dataclass(frozen=True, slots=True)
class PullRequestFacts:
    """What is known of the pull request; `login` None means it could not be told."""

    login: str | None = None
    user_type: str | None = None
    labels: Sequence[str] = ()
    commit_messages: Sequence[str] = ()


def _glob(text: str, pattern: str) -> bool:
    """Case-insensitive glob where only `*` and `?` are wildcards: `*[bot]` means a literal `[bot]`
    suffix (fnmatch alone would read `[bot]` as "one of b, o, t")."""
    return fnmatchcase(text.casefold(), pattern.casefold().replace("[", "[[]"))


def _trailer_lines(messages: Iterable[str]) -> list[str]:
    lines: list[str] = []
    for message in messages:
        lines.extend(line.strip() for line in message.splitlines() if ":" in line)
    return lines


def decide(policy: AuthorshipPolicy, facts: PullRequestFacts) -> Authorship:
    """Agent if a label, login glob, bot account or commit trailer says so; human only when a known
    human login wrote it and no agent rule matched; otherwise agent (unknown is agent)."""
    labels = {label.casefold() for label in facts.labels}
    for label in policy.agent_labels:
        if label.casefold() in labels:
            return Authorship(AuthorKind.AGENT, f"label {label!r}")
    login = facts.login
    if login is not None:
        for pattern in policy.agent_logins:
            if _glob(login, pattern):
                return Authorship(AuthorKind.AGENT, f"author {login!r} matches {pattern!r}")
    if facts.user_type == "Bot":
        return Authorship(AuthorKind.AGENT, "author account type is Bot")
    for line in _trailer_lines(facts.commit_messages):
        for pattern in policy.agent_trailers:
            if _glob(line, pattern):
                return Authorship(AuthorKind.AGENT, f"commit trailer {line!r} matches {pattern!r}")
    if login is not None and any(_glob(login, p) for p in policy.human_logins):
        return Authorship(AuthorKind.HUMAN, f"author {login!r} is a listed human")
    if login is None:
        return Authorship(AuthorKind.AGENT, "authorship unknown: treated as agent")
    return Authorship(AuthorKind.AGENT, f"author {login!r} is not a listed human: treated as agent")
