"""The default base of a local run: the merge base of HEAD with the repository's default branch.

The rule, first match wins: the remote default branch (`origin/HEAD`, then `upstream/HEAD`), then
`origin/main`, `origin/master`, `upstream/main`, `upstream/master`, then the local branch named by
`init.defaultBranch`, `main`, `master`. The base is the merge base of HEAD with that branch. When none
exists, or HEAD has no commit beyond it, there is nothing to judge: a `GitError` asks for `--base`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.errors import GitError

_REMOTE_HEADS = ("refs/remotes/origin/HEAD", "refs/remotes/upstream/HEAD")
_REMOTE_BRANCHES = ("origin/main", "origin/master", "upstream/main", "upstream/master")
_LOCAL_BRANCHES = ("main", "master")


@dataclass(frozen=True, slots=True)
class BaseChoice:
    """The ref the base came from, the merge base commit lanegate judges against, and why."""

    ref: str
    commit: str
    reason: str


def _exists(repo: Path, ref: str) -> bool:
    out = _quiet(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    return bool(out)


def _quiet(repo: Path, *args: str) -> str:
    return git.run_git(repo, *args, check=False).decode("utf-8", "replace").strip()


def candidates(repo: Path) -> list[tuple[str, str]]:
    """(ref, why) in the order the rule tries them."""
    found: list[tuple[str, str]] = []
    for symbolic in _REMOTE_HEADS:
        target = _quiet(repo, "symbolic-ref", "--quiet", "--short", symbolic)
        if target:
            found.append((target, f"{symbolic.removeprefix('refs/remotes/')} points at it"))
    found.extend((ref, "remote default-branch name") for ref in _REMOTE_BRANCHES)
    configured = _quiet(repo, "config", "--get", "init.defaultBranch")
    if configured:
        found.append((configured, "init.defaultBranch"))
    found.extend((ref, "local default-branch name") for ref in _LOCAL_BRANCHES)
    return found


def default_base(repo: Path) -> BaseChoice:
    """Pick the base by the documented rule, or explain why it cannot."""
    head = git.resolve_commit(repo, "HEAD")
    for ref, why in candidates(repo):
        if not _exists(repo, ref):
            continue
        merge_base = _quiet(repo, "merge-base", "HEAD", ref)
        if not merge_base:
            raise GitError(
                f"{repo}: HEAD and {ref} share no history",
                hint="pass --base REF with the branch this change will merge into",
            )
        if merge_base == head:
            raise GitError(
                f"{repo}: HEAD has no commits beyond {ref} ({why}): nothing to judge",
                hint="commit your change on a branch, or pass --base REF (e.g. --base HEAD~1)",
            )
        return BaseChoice(ref=ref, commit=merge_base, reason=f"merge base with {ref} ({why})")
    raise GitError(
        f"{repo}: cannot tell the default branch (no origin/HEAD, main or master)",
        hint="pass --base REF with the branch this change will merge into",
    )


def explicit_base(repo: Path, ref: str) -> BaseChoice:
    """`--base REF`: the merge base of HEAD with REF (a missing ref is a clear GitError)."""
    commit = git.resolve_commit(repo, ref)
    merge_base = _quiet(repo, "merge-base", "HEAD", commit)
    if not merge_base:
        raise GitError(f"{repo}: HEAD and {ref} share no history", hint="check --base")
    return BaseChoice(ref=ref, commit=merge_base, reason=f"merge base with --base {ref}")
