"""One head the batch cannot judge (a commit given again, nothing beyond the base, another fork
point) is rejected with a reason naming it, never the batch; the batch's merge base is the one most
heads share, so no single head chooses it. On real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.candidates.batch import resolve_heads
from lanegate.errors import LanegateError
from tests.gitrepo import Repo


def _repo(tmp_path: Path) -> tuple[Repo, dict[str, str]]:
    repo = Repo(tmp_path / "repo")
    repo.write("m.py", "x = 1\n")
    old = repo.commit("old base")
    repo.write("m.py", "x = 2\n")
    main = repo.commit("base")
    commits = {"old": old, "main": main}
    for name, start in (("a", "main"), ("b", "main"), ("c", "main"), ("stale", old)):
        repo.branch(name, start)
        repo.write(f"{name}.py", f"{name} = 1\n")
        commits[name] = repo.commit(name)
        repo.checkout("main")
    return repo, commits


def test_bad_heads_are_rejected_each_with_its_reason_and_the_rest_judged(tmp_path: Path) -> None:
    repo, commits = _repo(tmp_path)
    heads = ("stale", "a", "b", "a", "main", "c")
    resolved = resolve_heads(repo.path, "main", heads)
    assert resolved.merge_base == commits["main"]  # three heads share it, one does not
    assert resolved.commits == tuple(commits[h] for h in heads)
    assert set(resolved.rejected) == {0, 3, 4}
    assert "forked from" in resolved.rejected[0] and "rebase" in resolved.rejected[0]
    assert "same commit as candidate a" in resolved.rejected[3]
    assert "nothing to judge" in resolved.rejected[4]


def test_the_first_head_does_not_choose_the_merge_base(tmp_path: Path) -> None:
    repo, commits = _repo(tmp_path)
    resolved = resolve_heads(repo.path, "main", ("stale", "a", "b"))
    assert resolved.merge_base == commits["main"] and set(resolved.rejected) == {0}
    # a tie: the base commit itself wins, else the earliest given; the other is rejected
    tie = resolve_heads(repo.path, "main", ("stale", "a"))
    assert tie.merge_base == commits["main"] and set(tie.rejected) == {0}
    older = resolve_heads(
        repo.path, commits["old"], ("a", "stale")
    )  # against `old`, both fork there
    assert older.merge_base == commits["old"] and not older.rejected


def test_a_head_that_does_not_resolve_is_a_usage_error(tmp_path: Path) -> None:
    repo, _ = _repo(tmp_path)
    with pytest.raises(LanegateError):
        resolve_heads(repo.path, "main", ("a", "no-such-branch"))
