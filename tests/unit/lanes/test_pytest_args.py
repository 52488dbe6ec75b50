"""A repository path or node id on a lane's pytest command line is never read as an option or as a
file of more arguments.

pytest reads `@FILE` as a file of arguments (argparse's `fromfile_prefix_chars`, after `--` too), so
a diff adding `@x/test_a.py` beside a file `x/test_a.py::test_a` holding `--collect-only` would
have had pytest take that line as an option of the lane's own run. The runs here are real pytest in
the real sandbox, and plain pytest given the bare name shows the injection the prefix prevents.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.flake.execute import pytest_command
from lanegate.lanes.property.baseline import run_baseline
from lanegate.lanes.pytest_args import path_argument
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

NODE = "@x/test_a.py::test_a"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "@x").mkdir(parents=True)
    (repo / "x").mkdir()
    (repo / "@x" / "test_a.py").write_text("def test_a():\n    pass\n", encoding="utf-8")
    # what pytest would read as more arguments for `@x/test_a.py::test_a`
    (repo / "x" / "test_a.py::test_a").write_text("--collect-only\n", encoding="utf-8")
    return repo


def test_a_name_pytest_would_read_as_more_gets_a_leading_dot_slash() -> None:
    assert path_argument("@x/test_a.py::test_a") == "./@x/test_a.py::test_a"
    assert path_argument("-odd_test.py") == "./-odd_test.py"
    assert path_argument("tests/test_a.py::test_b[@x]") == "tests/test_a.py::test_b[@x]"
    assert path_argument("./@x") == "./@x"


@given(st.text(alphabet="@-./abc:", min_size=1, max_size=12))
def test_no_argument_starts_with_a_character_pytest_reads_as_more(path: str) -> None:
    argument = path_argument(path)
    assert not argument.startswith(("-", "@"))
    assert argument.removeprefix("./") == path or argument == path


def test_the_flake_lanes_replay_names_each_test_with_the_prefix() -> None:
    command = pytest_command([NODE, "tests/test_b.py"], [])
    assert command[command.index("--") + 1 :] == ("./" + NODE, "tests/test_b.py")


def test_a_lane_run_of_such_a_test_runs_it_and_reads_no_options_from_the_repo(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    baseline = run_baseline(
        repo, load_policy(repo), [], selection=[path_argument(NODE)], sandbox=open_sandbox(repo)
    )
    assert baseline.exit_code == 0, baseline.record
    assert baseline.tests[NODE]["outcome"] == "passed"


def test_plain_pytest_given_the_bare_name_reads_the_repos_file_as_options(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--", NODE],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert "1 passed" not in done.stdout
    assert "test_a" in done.stdout  # listed by --collect-only, not run
