"""A ref lanegate is given names exactly one thing (red team: an agent's branch `origin/main`, i.e.
`refs/heads/origin/main`, beat the remote's `refs/remotes/origin/main` in git's shorthand lookup,
and `--base origin/main` then judged the head against the agent's own commit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate import git
from lanegate.cli.main import main
from lanegate.diff import classify_diff
from lanegate.errors import AmbiguousRefError
from lanegate.policy import Policy
from lanegate.run.base import default_base, explicit_base
from tests.gitrepo import Repo
from tests.gitrepo import git as run


def _hijacked(tmp_path: Path) -> tuple[Repo, str, str]:
    """A clone-like repository: the remote's main at one commit, the agent's branch
    `refs/heads/origin/main` at another (the relaxed one), HEAD on a feature branch."""
    repo = Repo(tmp_path / "repo")
    repo.write("a.txt", "1\n")
    trusted = repo.commit("base")
    run(repo.path, "update-ref", "refs/remotes/origin/main", trusted)
    repo.branch("feature")
    repo.write("b.txt", "agent\n")
    agent = repo.commit("the agent's base")
    run(repo.path, "update-ref", "refs/heads/origin/main", agent)
    repo.write("c.txt", "change\n")
    repo.commit("change")
    return repo, trusted, agent


def test_a_branch_shadowing_a_remote_branch_is_refused(tmp_path: Path) -> None:
    repo, trusted, _ = _hijacked(tmp_path)
    with pytest.raises(AmbiguousRefError) as info:
        git.resolve_commit(repo.path, "origin/main")
    text = info.value.diagnostic()
    assert "refs/heads/origin/main" in text and "refs/remotes/origin/main" in text
    assert "full ref name" in text and "\n" not in text
    # the full name is the fix that works, with or without a suffix
    assert git.resolve_commit(repo.path, "refs/remotes/origin/main") == trusted
    assert git.resolve_commit(repo.path, "refs/remotes/origin/main^{commit}") == trusted


def test_a_full_ref_name_is_exact_even_beside_a_branch_spelling_it(tmp_path: Path) -> None:
    repo, trusted, agent = _hijacked(tmp_path)
    run(repo.path, "update-ref", "refs/heads/refs/remotes/origin/main", agent)
    assert git.resolve_commit(repo.path, "refs/remotes/origin/main") == trusted
    assert explicit_base(repo.path, "refs/remotes/origin/main").commit == trusted


def test_every_resolving_caller_refuses_it(tmp_path: Path) -> None:
    repo, _, _ = _hijacked(tmp_path)
    with pytest.raises(AmbiguousRefError):
        explicit_base(repo.path, "origin/main")
    with pytest.raises(AmbiguousRefError):
        classify_diff(repo.path, "origin/main", Policy())
    with pytest.raises(AmbiguousRefError):
        classify_diff(repo.path, "refs/remotes/origin/main", Policy(), head="origin/main")
    with pytest.raises(AmbiguousRefError):
        git.merge_base(repo.path, "origin/main", "HEAD")


def test_the_cli_says_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = _hijacked(tmp_path)
    code = main(["diff", "--repo", str(repo.path), "--base", "origin/main"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert "ambiguous" in err and "refs/remotes/origin/main" in err and len(err.splitlines()) == 1


def test_the_default_base_takes_the_remote_branch_by_its_full_name(tmp_path: Path) -> None:
    repo, trusted, agent = _hijacked(tmp_path)
    choice = default_base(repo.path)
    assert choice.commit == trusted != agent
    assert choice.ref == "origin/main"


def test_a_tag_and_a_branch_of_one_name_are_ambiguous(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.txt", "1\n")
    first = repo.commit("one")
    repo.write("a.txt", "2\n")
    second = repo.commit("two")
    run(repo.path, "tag", "release", first)
    run(repo.path, "branch", "release", second)
    with pytest.raises(AmbiguousRefError, match="refs/tags/release.*refs/heads/release"):
        git.resolve_commit(repo.path, "release~0")
    assert git.resolve_commit(repo.path, "refs/tags/release") == first


def test_a_hex_branch_name_that_is_also_a_commit_prefix_is_ambiguous(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.txt", "1\n")
    honest = repo.commit("one")
    repo.write("a.txt", "2\n")
    other = repo.commit("two")
    prefix = honest[:8]
    run(repo.path, "update-ref", f"refs/heads/{prefix}", other)
    with pytest.raises(AmbiguousRefError, match="commit id"):
        git.resolve_commit(repo.path, prefix)
    assert git.resolve_commit(repo.path, honest) == honest  # a full id is the object


def test_a_branch_called_head_makes_head_ambiguous(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.txt", "1\n")
    first = repo.commit("one")
    repo.write("a.txt", "2\n")
    repo.commit("two")
    run(repo.path, "update-ref", "refs/heads/HEAD", first)
    with pytest.raises(AmbiguousRefError, match="refs/heads/HEAD"):
        git.resolve_commit(repo.path, "HEAD")


def test_ordinary_names_resolve_as_before(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.txt", "1\n")
    first = repo.commit("one")
    repo.write("a.txt", "2\n")
    second = repo.commit("two")
    run(repo.path, "update-ref", "refs/remotes/origin/main", first)
    run(repo.path, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    assert git.resolve_commit(repo.path, "main") == second
    assert git.resolve_commit(repo.path, "HEAD~1") == first
    assert git.resolve_commit(repo.path, "@~1") == first
    assert git.resolve_commit(repo.path, "origin/main") == first
    assert git.resolve_commit(repo.path, "origin") == first  # refs/remotes/origin/HEAD
    assert git.resolve_commit(repo.path, first[:10]) == first
    assert git.resolve_commit(repo.path, "main@{0}") == second
