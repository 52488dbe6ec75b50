"""The files the property lane plants mutants in are the head commit's, read from the work tree."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from lanegate.diff import classify_diff
from lanegate.errors import RunnerError
from lanegate.lanes.property.runner import _working_tree_matches
from lanegate.policy import Policy
from tests.gitrepo import Repo


@pytest.fixture
def repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("tree")
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("base")
    repo.branch("agent")
    return repo


def test_the_head_commits_bytes_are_the_sources(repo: Repo) -> None:
    repo.write("pkg/calc.py", "def add(a, b):\n    return b + a\n")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    sources = _working_tree_matches(repo.path, summary, ["pkg/calc.py"])
    assert sources == {"pkg/calc.py": b"def add(a, b):\n    return b + a\n"}
    (repo.path / "pkg/calc.py").write_text("def add(a, b):\n    return 0\n")  # not committed
    with pytest.raises(RunnerError, match="the working tree differs"):
        _working_tree_matches(repo.path, summary, ["pkg/calc.py"])


def test_a_module_that_is_a_link_is_named_as_one(repo: Repo) -> None:
    # red-team pass 7: a link to /etc/passwd was refused as "the working tree differs"
    os.symlink("/etc/passwd", repo.path / "pkg/evil.py")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    with pytest.raises(RunnerError, match=r"pkg/evil.py: a symbolic link \(to /etc/passwd\)"):
        _working_tree_matches(repo.path, summary, ["pkg/evil.py"])
