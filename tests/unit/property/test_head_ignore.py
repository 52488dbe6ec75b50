"""The head's run leaves the shared base files out with `--lanegate-ignore` (a set lookup), exactly
as pytest's `--ignore` would, and no file it names is imported.

pytest compares every collected path with every `--ignore` value, so leaving out the thousands of
shared files of a big suite cost minutes of collection (3,000 files: 70 s) and could outgrow argv.
Real pytest runs in the real sandbox, through `run_baseline`, against a plain pytest with the
same files given as `--ignore`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lanegate.lanes.property.baseline import run_baseline
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

IGNORED = ("tests/test_shared.py", "-p_test.py", "tests/deep/test_deep.py")


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "tests" / "deep").mkdir(parents=True)
    boom = "raise RuntimeError('an ignored file was imported')\n"
    for path in IGNORED:
        (repo / path).write_text(boom, encoding="utf-8")
    (repo / "tests" / "test_kept.py").write_text("def test_kept():\n    pass\n", "utf-8")
    (repo / "tests" / "deep" / "test_also.py").write_text("def test_also():\n    pass\n", "utf-8")
    (repo / "test_top.py").write_text("def test_top():\n    pass\n", encoding="utf-8")
    return repo


def _plain_ignore(repo: Path) -> set[str]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--co",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
        ]
        + [f"--ignore={path}" for path in IGNORED],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line for line in done.stdout.splitlines() if "::" in line}


def test_the_ignored_files_are_left_out_as_pytests_ignore_leaves_them(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    baseline = run_baseline(repo, load_policy(repo), [], ignore=IGNORED, sandbox=open_sandbox(repo))
    collected = set(baseline.collection.node_ids)
    assert collected == {
        "tests/test_kept.py::test_kept",
        "tests/deep/test_also.py::test_also",
        "test_top.py::test_top",
    }
    assert not baseline.collection.errors
    assert collected == _plain_ignore(repo)


def test_without_the_list_every_file_is_collected(tmp_path: Path) -> None:
    # the same tree with nothing ignored: the files that raise are collected (and fail), so the
    # first test's passing is the ignore list's doing
    repo = _repo(tmp_path)
    baseline = run_baseline(repo, load_policy(repo), [], sandbox=open_sandbox(repo))
    assert {e.split("::")[0] for e in baseline.collection.errors} >= {"tests/test_shared.py"}


def test_an_ignore_list_that_is_not_a_list_of_paths_stops_the_run_by_name(tmp_path: Path) -> None:
    # never a run that quietly collects the files it was told to leave out
    repo = _repo(tmp_path)
    for text in ('{"tests/test_shared.py": 1}', "[1, 2]", "not json"):
        listed = tmp_path / "ignore.json"
        listed.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider"]
            + ["-p", "lanegate.lanes.property.plugin", f"--lanegate-ignore={listed}"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 4, (text, done.stdout, done.stderr)
        assert f"{listed}: --lanegate-ignore:" in done.stderr, (text, done.stderr)
