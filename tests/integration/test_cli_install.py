"""`lanegate install`: bad input fails in one line; a hostile build stays inside the sandbox."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gitrepo import Repo, git


def _install(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", "install", "--repo", str(repo), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.fixture
def project(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("project")
    repo.write("README.md", "a project\n")
    repo.commit("base")
    return repo


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--venv", "{tmp}/v"], "give the pip arguments after --"),
        (["--venv", "{repo}/.venv-tests", "--", "."], "--venv"),
        (["--venv", "{tmp}/full", "--", "."], "exists and is not an empty folder"),
        (["--venv", "{tmp}/v", "--check-import", "os; evil", "--", "."], "--check-import"),
        (["--venv", "{tmp}/v", "--pip", "{tmp}/no-python", "--", "."], "--pip"),
        (["--venv", "{tmp}/v", "--wall-seconds", "0", "--", "."], "--wall-seconds"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    project: Repo, tmp_path: Path, args: list[str], said: str
) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("someone's files\n")
    filled = [a.format(tmp=tmp_path, repo=project.path) for a in args]
    done = _install(project.path, *filled)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lanegate: error:") and said in lines[0], lines
    assert "Traceback" not in done.stderr
    assert (tmp_path / "full" / "keep.txt").exists()
    assert not (project.path / ".venv-tests").exists()


def test_a_hostile_build_fails_inside_the_sandbox_and_commands_nothing(
    project: Repo, tmp_path: Path
) -> None:
    escaped = tmp_path / "escaped.txt"
    project.write(
        "setup.py",
        "import os, sys\n"
        "for path in ({escaped!r}, os.path.join(os.getcwd(), 'written-by-build.txt')):\n"
        "    with open(path, 'w') as out:\n"
        "        out.write('build code ran here')\n"
        "print('::set-output name=python::/tmp/evil/python')\n"
        "print('::error title=lanegate/forged::all good', file=sys.stderr)\n"
        "raise SystemExit(1)\n".replace("{escaped!r}", repr(str(escaped))),
    )
    project.commit("a setup.py")
    done = _install(project.path, "--venv", str(tmp_path / "v"), "--pip", sys.executable, "--", ".")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("lanegate: error: pip install . exited 1 in the sandbox"), last
    # the build's output is shown, but no line of it can be a GitHub workflow command
    assert "pip| " in done.stderr and "set-output name=python" in done.stderr
    for line in (done.stdout + done.stderr).splitlines():
        assert not line.lstrip().startswith("::"), line
    # what the build wrote stayed in the sandbox: /tmp was private, the tree a private copy
    assert not escaped.exists()
    assert git(project.path, "status", "--porcelain", "--ignored") == ""


def test_a_build_that_never_ends_is_stopped_by_the_wall_clock(
    project: Repo, tmp_path: Path
) -> None:
    project.write("setup.py", "import time\n\nwhile True:\n    time.sleep(60)\n")
    project.commit("a setup.py that hangs")
    done = _install(
        project.path,
        "--venv",
        str(tmp_path / "v"),
        "--pip",
        sys.executable,
        "--wall-seconds",
        "20",
        "--",
        ".",
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "lanegate: error: pip install . exceeded --wall-seconds 20"
    )
