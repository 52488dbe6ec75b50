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


def test_init_with_fixtures_writes_policy_and_lockfile(make_repo: Callable[[str], Repo]) -> None:
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
    assert data["fixtures"] == {"dir": "tests/data", "lockfile": "tests/data.lock.json"}
    assert data["properties"]["source_dirs"] == ["src"]
    policy = load_policy(repo.path)
    assert policy.properties.module == "lanegate.oracles"
    assert (repo.path / "tests/data.lock.json").is_file()
    assert "commit lanegate.toml and tests/data.lock.json on the default branch" in done.stdout
    check = _lanegate(repo.path, "lock", "--check")
    assert check.returncode == 0, check.stdout
    # locked bytes without a case to replay fail fixture-no-cases on every branch: say so now
    assert "declares no [[fixtures.cases]]" in check.stdout
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
