"""Known retry actions as `owner/repo[/path]` patterns, matched case-insensitively on any ref.

A pattern is `owner/repo` (the repository's root action), `owner/repo/path` (one action inside it) or
`owner/repo/**` (any action of the repository). Refs are never part of a pattern: a tag, branch or
commit SHA all match. Extend `RETRY_ACTIONS` with a new pattern and a docs line; nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Uses:
    """A remote `uses:` reference split into its parts (all lower-cased except `ref`)."""

    owner: str
    repo: str
    path: str
    ref: str

    @property
    def slug(self) -> str:
        return f"{self.owner}/{self.repo}" + (f"/{self.path}" if self.path else "")


@dataclass(frozen=True, slots=True)
class ActionPattern:
    """`owner/repo`, `owner/repo/path` or `owner/repo/**`; `why` says what the action does."""

    pattern: str
    why: str

    def matches(self, uses: Uses) -> bool:
        owner, repo, *rest = self.pattern.lower().split("/")
        if (owner, repo) != (uses.owner, uses.repo):
            return False
        path = "/".join(rest)
        return path == "**" or path == uses.path


RETRY_ACTIONS: tuple[ActionPattern, ...] = (
    ActionPattern("nick-fields/retry", "re-runs its command until it passes (max_attempts)"),
    ActionPattern(
        "nick-invision/retry", "old name of nick-fields/retry: re-runs its command until it passes"
    ),
    ActionPattern("nick-fields/retry-action", "spelling of nick-fields/retry seen in workflows"),
    ActionPattern(
        "Wandalen/wretry.action/**",
        "re-runs a command or a wrapped action until it passes (attempt_limit)",
    ),
    ActionPattern("ultralytics/actions/retry", "re-runs its run script until it passes (retries)"),
    ActionPattern(
        "cytopia/shell-command-retry-action", "re-runs a shell command until it passes (retries)"
    ),
    ActionPattern(
        "ghostsecurity/retry-action", "re-runs its command until it passes (retry-count)"
    ),
)

# actions that run a script against the GitHub API; their `script` input is checked for re-run calls
SCRIPT_ACTIONS: tuple[ActionPattern, ...] = (
    ActionPattern("actions/github-script", "runs JavaScript with an authenticated Octokit client"),
)


def parse_uses(text: str) -> Uses | None:
    """`owner/repo[/path]@ref` -> Uses; None for local (`./x`), `docker://` or malformed references."""
    text = text.strip()
    if text.startswith(("./", "../", "docker://", "/")) or "@" not in text:
        return None
    slug, _, ref = text.partition("@")
    parts = [p for p in slug.split("/") if p]
    if len(parts) < 2 or not ref:
        return None
    return Uses(parts[0].lower(), parts[1].lower(), "/".join(parts[2:]).lower(), ref)


def _by_repository(
    patterns: tuple[ActionPattern, ...],
) -> dict[tuple[str, str], tuple[ActionPattern, ...]]:
    index: dict[tuple[str, str], tuple[ActionPattern, ...]] = {}
    for pattern in patterns:
        owner, repo = pattern.pattern.lower().split("/")[:2]
        index[(owner, repo)] = (*index.get((owner, repo), ()), pattern)
    return index


_RETRY_INDEX = _by_repository(RETRY_ACTIONS)


def match_retry_action(text: str) -> ActionPattern | None:
    """The retry-action pattern a `uses:` value matches, if any."""
    if "/" not in text or "@" not in text or text.lstrip().startswith("./"):
        return None
    uses = parse_uses(text)
    if uses is None:
        return None
    candidates = _RETRY_INDEX.get((uses.owner, uses.repo), ())
    return next((p for p in candidates if p.matches(uses)), None)


def is_script_action(text: str) -> bool:
    uses = parse_uses(text)
    return uses is not None and any(p.matches(uses) for p in SCRIPT_ACTIONS)
