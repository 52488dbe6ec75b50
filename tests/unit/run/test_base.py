"""The default base of `lanegate run`: the merge base with the default branch, or a clear error."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lanegate.errors import GitError
from lanegate.run.base import default_base, explicit_base
from tests.gitrepo import Repo, git


def test_merge_base_with_local_main(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("a.txt", "1")
    base = repo.commit("base")
    repo.branch("feature")
    repo.write("a.txt", "2")
    repo.commit("change")
    repo.checkout("main")
    repo.write("b.txt", "main moved on")
    repo.commit("main moves")
    repo.checkout("feature")
    choice = default_base(repo.path)
    assert choice.commit == base
    assert choice.ref == "main"


def test_origin_head_wins_over_local_branches(make_repo: Callable[[str], Repo]) -> None:
    origin = make_repo("origin")
    origin.write("a.txt", "1")
    origin.commit("base")
    origin.branch("trunk")
    origin.write("a.txt", "2")
    trunk = origin.commit("trunk")
    clone = origin.path.parent / "clone"
    git(origin.path.parent, "clone", "-q", "-b", "trunk", str(origin.path), str(clone))
    git(clone, "checkout", "-q", "-b", "feature")
    (clone / "c.txt").write_text("x")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "feature")
    choice = default_base(clone)
    assert choice.ref == "origin/trunk"
    assert choice.commit == trunk


def test_on_the_default_branch_itself_there_is_nothing_to_judge(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("r")
    repo.write("a.txt", "1")
    repo.commit("base")
    with pytest.raises(GitError, match="no commits beyond main"):
        default_base(repo.path)


def test_no_default_branch_asks_for_base(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    git(repo.path, "checkout", "-q", "-b", "work")
    repo.write("a.txt", "1")
    repo.commit("only")
    git(repo.path, "branch", "-D", "main") if "main" in git(repo.path, "branch") else None
    with pytest.raises(GitError, match="cannot tell the default branch") as info:
        default_base(repo.path)
    assert "--base" in info.value.diagnostic()


def test_explicit_base_missing_is_a_clear_error(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("a.txt", "1")
    repo.commit("base")
    with pytest.raises(GitError, match="'nope' is not a commit"):
        explicit_base(repo.path, "nope")
