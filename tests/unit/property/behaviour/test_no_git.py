"""`Sandbox.git=False`: no git dir inside, neither the tree's `.git` nor, for a worktree, the git dir
its `.git` file points to (which the read-only root would otherwise show)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanegate.sandbox import open_sandbox
from tests.gitrepo import Repo, git

PROBE = """import os, sys
for path in sys.argv[1:]:
    print(path, os.path.exists(path) and bool(os.listdir(path)) if os.path.isdir(path)
          else os.path.exists(path))
"""


def _seen(repo: Path, paths: list[Path], *, git_dir: bool) -> list[str]:
    with open_sandbox(repo, git=git_dir) as sandbox:
        command = sandbox.command(
            [sys.executable, "-c", PROBE, *map(str, paths)], env=sandbox.environment(), cwd=repo
        )
        done = subprocess.run(command.argv, env=command.env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[1::2]


def test_no_git_dir_inside(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.py", "x = 1\n")
    repo.commit()
    assert _seen(repo.path, [repo.path / ".git"], git_dir=True) == ["True"]
    assert _seen(repo.path, [repo.path / ".git"], git_dir=False) == ["False"]


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A folder outside the ones every sandbox covers (/tmp, /run, $HOME): as a checkout's is."""
    folder = Path(tempfile.mkdtemp(prefix="lanegate-test-", dir="/var/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_worktree_s_git_dir_is_covered_too(outside_tmp: Path) -> None:
    main = Repo(outside_tmp / "main")
    main.write("a.py", "x = 1\n")
    main.commit()
    worktree = outside_tmp / "wt"
    git(main.path, "worktree", "add", "-q", str(worktree))
    objects = (main.path / ".git" / "objects").resolve()
    assert (worktree / ".git").is_file()
    assert _seen(worktree, [objects], git_dir=True) == ["True"]
    assert _seen(worktree, [worktree / ".git", objects], git_dir=False) == ["False", "False"]
