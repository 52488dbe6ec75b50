"""The default base of a local run: the merge base of HEAD with the repository's default branch.

The rule, first match wins: the remote default branch (`origin/HEAD`, then `upstream/HEAD`), then
`origin/main`, `origin/master`, `upstream/main`, `upstream/master`, then the local branch named by
`init.defaultBranch`, `main`, `master`. The base is the merge base of HEAD with that branch. When none
exists, or HEAD has no commit beyond it, there is nothing to judge: a `GitError` asks for `--base`.
Each candidate is looked up by its full ref name (`refs/remotes/origin/main`, `refs/heads/main`):
a pushed branch called `origin/main` is never taken for the remote's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.errors import AmbiguousRefError, GitError

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
    """Whether the full ref name `ref` names a commit (an ambiguous one is an error, never a no)."""
    try:
        git.resolve_commit(repo, ref)
    except AmbiguousRefError:
        raise
    except GitError:
        return False
    return True


def _quiet(repo: Path, *args: str) -> str:
    return git.run_git(repo, *args, check=False).decode("utf-8", "replace").strip()


def candidates(repo: Path) -> list[tuple[str, str, str]]:
    """(full ref name, shown name, why) in the order the rule tries them."""
    found: list[tuple[str, str, str]] = []
    for symbolic in _REMOTE_HEADS:
        target = _quiet(repo, "symbolic-ref", "--quiet", symbolic)
        if target.startswith("refs/"):
            shown = target.removeprefix("refs/remotes/")
            found.append((target, shown, f"{symbolic.removeprefix('refs/remotes/')} points at it"))
    found.extend(
        (f"refs/remotes/{ref}", ref, "remote default-branch name") for ref in _REMOTE_BRANCHES
    )
    configured = _quiet(repo, "config", "--get", "init.defaultBranch")
    if configured:
        found.append((f"refs/heads/{configured}", configured, "init.defaultBranch"))
    found.extend((f"refs/heads/{ref}", ref, "local default-branch name") for ref in _LOCAL_BRANCHES)
    return found


def default_base(repo: Path) -> BaseChoice:
    """Pick the base by the documented rule, or explain why it cannot."""
    head = git.resolve_commit(repo, "HEAD")
    for full, ref, why in candidates(repo):
        if not _exists(repo, full):
            continue
        merge_base = _quiet(repo, "merge-base", head, git.resolve_commit(repo, full))
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
    merge_base = _quiet(repo, "merge-base", git.resolve_commit(repo, "HEAD"), commit)
    if not merge_base:
        raise GitError(f"{repo}: HEAD and {ref} share no history", hint="check --base")
    return BaseChoice(ref=ref, commit=merge_base, reason=f"merge base with --base {ref}")
