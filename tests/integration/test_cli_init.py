"""`lanegate init` on real repositories: the policy it writes loads, fixtures get locked, and the
first `lanegate run` of an honest branch passes without further setup."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from lanegate.policy import load_policy
from tests.gitrepo import Repo


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_init_names_a_data_folder_without_locking_it_and_a_branch_passes_the_fixture_lane(
    make_repo: Callable[[str], Repo],
) -> None:
    # init cannot declare replay cases, and a locked folder without one fails every pull request
    # (fixture-no-cases): the folder is named in comments, the policy allows none, and says why
    repo = make_repo("r")
    repo.write("src/pkg/__init__.py", "")
    repo.write("tests/data/a.txt", "alpha\n")
    repo.write("tests/data/sub/b.bin", b"\x00\x01")
    repo.commit("base")
    done = _lanegate(repo.path, "init")
    assert done.returncode == 0, done.stdout + done.stderr
    text = (repo.path / "lanegate.toml").read_text()
    assert text.startswith("# lanegate policy")
    data = tomllib.loads(text)
    assert data["fixtures"] == {"allow_none": True}
    assert '# dir = "tests/data"' in text and '# lockfile = "tests/data.lock.json"' in text
    assert data["properties"]["source_dirs"] == ["src"]
    policy = load_policy(repo.path)
    assert policy.properties.module == "lanegate.oracles"
    assert not (repo.path / "tests/data.lock.json").exists()
    assert "2 file(s) in tests/data, not locked: the fixture lane needs replay cases" in done.stdout
    assert "commit lanegate.toml on the default branch" in done.stdout
    repo.commit("lanegate init")
    repo.branch("feature")
    repo.write("src/pkg/__init__.py", "X = 1\n")
    repo.commit("feature")
    fixture = _lanegate(repo.path, "fixture", "--base", "main")
    assert fixture.returncode == 0, fixture.stdout + fixture.stderr
    assert "would pass" in fixture.stdout + fixture.stderr
    again = _lanegate(repo.path, "init")
    assert again.returncode == 2 and "a lanegate policy exists already" in again.stderr
    assert "Traceback" not in again.stderr


def test_first_run_after_init_passes_an_honest_branch(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("calc.py", "def double(x):\n    return x * 3\n")
    repo.write(
        "tests/test_calc.py",
        "from calc import double\n\n\ndef test_zero():\n    assert double(0) == 0\n",
    )
    repo.commit("base")
    done = _lanegate(repo.path, "init")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "allow_none = true" in (repo.path / "lanegate.toml").read_text()
    repo.commit("lanegate init")
    repo.branch("feature")
    repo.write("calc.py", "def double(x):\n    return x * 2\n")
    repo.write(
        "tests/test_double.py",
        "from hypothesis import given, strategies as st\n\nfrom lanegate.oracles import equivalent\n"
        "from calc import double\n\n\n@given(st.integers())\ndef test_double(x):\n"
        "    equivalent(double, lambda y: y + y, x)\n",
    )
    repo.commit("agent: fix double")
    run = _lanegate(repo.path, "run", "--base", "main", "--quiet")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "verdict: PASS" in run.stdout
