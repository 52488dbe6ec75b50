"""`lanegate run` on a work tree that differs from HEAD: one line at once, naming the paths and the
fix, before any lane runs (it used to run every lane, then blame a missing fixture ledger)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.gitrepo import Repo, git


def _run(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", "run", "--base", "main", "--quiet"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("r")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("old_name.py", "X = 1\n")
    repo.write(".gitignore", ".lanegate/\n")
    repo.commit("base")
    repo.branch("feature")
    repo.write(
        "tests/test_calc.py", "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    )
    repo.commit("a test")
    return repo


def test_uncommitted_changes_are_refused_at_once_by_name(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = _repo(make_repo)
    repo.write("calc.py", "def add(a, b):\n    return a - b\n")  # modified, not staged
    git(repo.path, "mv", "old_name.py", "new_name.py")  # staged rename
    repo.write("notes.txt", "untracked files are not HEAD's either, but never in a ledger\n")
    done = _run(repo.path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr == (
        f"lanegate: error: {repo.path}: uncommitted changes to calc.py, new_name.py: lanegate "
        "judges the commit HEAD, not the files on disk (hint: commit them (git add -A && git "
        "commit) or stash them (git stash), then run again)\n"
    )
    assert not (repo.path / ".lanegate").exists()


def test_a_clean_tree_with_untracked_files_is_judged(make_repo: Callable[[str], Repo]) -> None:
    repo = _repo(make_repo)
    repo.write("notes.txt", "an untracked file\n")
    done = _run(repo.path)
    assert "uncommitted" not in done.stderr
    assert (repo.path / ".lanegate" / "score-report.json").is_file(), done.stderr
