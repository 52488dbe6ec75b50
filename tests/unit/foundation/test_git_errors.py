"""A git failure names what git said, not a guess (issue 47: "not inside a git repository" was
printed for any empty answer of `rev-parse`, inside a valid repository too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate import git
from lanegate.errors import GitError
from tests.gitrepo import Repo


def _broken_config(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write("a.txt", "a\n")
    repo.commit("base")
    config = repo.path / ".git" / "config"
    config.write_text(config.read_text() + "[broken\n")  # git refuses to read it
    return repo


def test_repo_root_shows_gits_own_message(tmp_path: Path) -> None:
    repo = _broken_config(tmp_path)
    with pytest.raises(GitError) as exc:
        git.repo_root(repo.path)
    text = str(exc.value)
    assert "bad config line" in text and "not inside a git repository" not in text
    assert "\n" not in text


def test_repo_root_outside_a_repository_says_so(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / ".git").write_text("gitdir: /nonexistent\n")  # stops git's search here
    with pytest.raises(GitError, match="not inside a git repository"):
        git.repo_root(tmp_path / "plain")


def test_resolve_commit_and_merge_base_show_gits_own_message(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "ok")
    repo.write("a.txt", "a\n")
    head = repo.commit("base")
    assert git.resolve_commit(repo.path, "main") == head
    with pytest.raises(GitError, match="is not a commit in this repository"):
        git.resolve_commit(repo.path, "no-such-branch")
    broken = _broken_config(tmp_path / "b")
    with pytest.raises(GitError, match="bad config line"):
        git.resolve_commit(broken.path, "main")
    with pytest.raises(GitError, match="bad config line"):
        git.merge_base(broken.path, head, head)
