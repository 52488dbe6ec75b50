"""A base test that fails on the base's own code too: `lanegate run` passes an honest head with the
failure reported apart (ledger, warning, output), and a head that breaks another base test still
fails. Real git repository, real sandboxed pytest runs, the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.gitrepo import Repo

BASE_TESTS = (
    "import os\n\nfrom calc import add\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_env_broken():\n    assert os.environ.get('LANEGATE_NEVER_SET') == 'x'\n"
)
DOUBLE = "\n\ndef double(x):\n    return x * 2\n"
NEW_TEST = (
    "from hypothesis import given, strategies as st\n\n"
    "from lanegate.oracles import equivalent\nfrom calc import double\n\n\n"
    "@given(st.integers(-100, 100))\ndef test_double(x):\n"
    "    equivalent(double, lambda v: v + v, x)\n"
)


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )


def _repo(make_repo: Callable[[str], Repo], calc: str) -> Repo:
    repo = make_repo("pre")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("tests/test_calc.py", BASE_TESTS)
    repo.write(
        "lanegate.toml", "[fixtures]\nallow_none = true\n\n[properties]\nmax_examples = 30\n"
    )
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", calc)
    repo.write("tests/test_double.py", NEW_TEST)
    repo.commit("agent: double")
    return repo


def test_an_honest_head_passes_beside_a_pre_existing_failure(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = _repo(make_repo, "def add(a, b):\n    return a + b\n" + DOUBLE)
    done = _lanegate(repo.path, "run", "--base", "main", "--out", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    ledger = json.loads((repo.path / "out" / "property.json").read_text(encoding="utf-8"))
    (recheck,) = ledger["base_rechecks"]
    assert recheck["node_id"] == "tests/test_calc.py::test_env_broken"
    assert recheck["verdict"] == "pre-existing" and recheck["base_outcomes"] == ["failed"] * 3
    report = json.loads((repo.path / "out" / "score-report.json").read_text(encoding="utf-8"))
    assert report["verdict"] == "pass"
    assert [w["rule_id"] for w in report["warns"]] == ["property-base-test-pre-existing"]
    assert "test_env_broken" in report["warns"][0]["message"]
    assert "pre-existing" in done.stdout + done.stderr  # said by the run, not only in the ledger


def test_a_head_breaking_a_base_test_still_fails(make_repo: Callable[[str], Repo]) -> None:
    repo = _repo(make_repo, "def add(a, b):\n    return a + b + (a == 2)\n" + DOUBLE)
    done = _lanegate(repo.path, "property", "--base", "main", "--out", "out")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "tests/test_calc.py::test_add: failed at head" in done.stdout
    assert "passes-at-base" in done.stdout
    ledger = json.loads((repo.path / "out" / "property.json").read_text(encoding="utf-8"))
    verdicts = {r["node_id"]: r["verdict"] for r in ledger["base_rechecks"]}
    assert verdicts == {
        "tests/test_calc.py::test_add": "passes-at-base",
        "tests/test_calc.py::test_env_broken": "pre-existing",
    }
