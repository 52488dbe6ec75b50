"""Mutant statuses on small real repositories: code run in threads is covered, a hanging mutant is a
timeout counted as detected, a memory-hungry one hits the cap, a failing control run says why, and
the merge base's own property tests earn kills."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.gitrepo import Repo

PYTEST_INI = "[pytest]\ntestpaths = tests\n"


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _feature(
    make_repo: Callable[[str], Repo],
    base: dict[str, str],
    head: dict[str, str],
    max_mutants: int = 4,
) -> Repo:
    repo = make_repo("lib")
    repo.write("pytest.ini", PYTEST_INI)
    repo.write(
        "lanegate.toml",
        f"[properties]\nmax_examples = 20\nmax_mutants = {max_mutants}\nmutant_draw = 1\n",
    )
    for rel, text in base.items():
        repo.write(rel, text)
    repo.commit("base")
    repo.branch("feature")
    for rel, text in head.items():
        repo.write(rel, text)
    repo.commit("feature")
    return repo


def _property(repo: Repo) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    done = _lanegate(repo.path, "property", "--base", "main", "--out", "out")
    assert "Traceback" not in done.stderr, done.stderr
    return done, json.loads((repo.path / "out" / "property.json").read_text())


THREADED = """\
from concurrent.futures import ThreadPoolExecutor

POOL = ThreadPoolExecutor(max_workers=2)


def scale(x, k):
    return x * k + 1


def scale_all(items, k):
    return list(POOL.map(lambda x: scale(x, k), items))
"""

THREADED_TEST = """\
from hypothesis import given, strategies as st

from lanegate.oracles import equivalent
from threaded import scale_all


@given(st.lists(st.integers(-9, 9), max_size=5), st.integers(-3, 3))
def test_scale_all(items, k):
    equivalent(scale_all, lambda xs, n: [x * n + 1 for x in xs], items, k)
"""


def test_code_run_in_a_thread_pool_is_covered_and_killed(make_repo: Callable[[str], Repo]) -> None:
    repo = _feature(
        make_repo,
        {"threaded.py": THREADED.replace("x * k + 1", "x * k")},
        {"threaded.py": THREADED, "tests/test_threaded.py": THREADED_TEST},
    )
    done, ledger = _property(repo)
    statuses = [(m["line"], m["status"], m["kill_kind"]) for m in ledger["mutants"]]
    assert statuses and all(s == "killed" and k == "property" for _, s, k in statuses), statuses
    assert done.returncode == 0, done.stdout


LOOPS = """\
def halvings(n):
    steps = 0
    while n > 1:
        n -= n // 2
        steps += 1
    return steps


def spread(text, times):
    out = []
    i = 0
    while i < times:
        out.append(text * 4096)
        i += 1
    return out
"""

LOOPS_TEST = """\
from hypothesis import given, strategies as st

from lanegate.oracles import equivalent
from loops import halvings, spread


@given(st.integers(1, 10**6))
def test_halvings(n):
    equivalent(halvings, lambda m: (m - 1).bit_length(), n)


@given(st.text(min_size=1, max_size=3), st.integers(0, 5))
def test_spread(text, times):
    equivalent(spread, lambda t, k: [t * 4096] * k, text, times)
"""


def test_hangs_are_timeouts_and_memory_blowups_hit_the_cap(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = _feature(
        make_repo,
        {
            "loops.py": "def halvings(n):\n    return 0\n\n\ndef spread(text, times):\n    return []\n"
        },
        {"loops.py": LOOPS, "tests/test_loops.py": LOOPS_TEST},
        max_mutants=12,
    )
    done, ledger = _property(repo)
    by_status: dict[str, list[dict[str, Any]]] = {}
    for m in ledger["mutants"]:
        by_status.setdefault(m["status"], []).append(m)
    assert set(by_status) <= {"killed", "timeout", "memory"}, ledger["mutants"]
    assert by_status.get("timeout") and by_status.get("memory"), ledger["mutants"]
    # the hangs and blow-ups happen under a property test whose control run was quick: detected
    assert all(m["detected"] for m in by_status["timeout"] + by_status["memory"])
    assert all(m["line"] in (3, 4) for m in by_status["timeout"])
    assert all(m["line"] in (12, 14) for m in by_status["memory"])
    # the two reverts (the base's `return 0` and `return []`) are killed too, and never counted
    reverts = [m for m in ledger["mutants"] if m["operator"] == "revert"]
    assert [m["status"] for m in reverts] == ["killed", "killed"], reverts
    assert ledger["killed_mutants"] == len(ledger["mutants"]) - len(reverts)
    cap = ledger["effective_settings"]["mutant_memory_cap_bytes"]
    assert cap == 4 * ledger["effective_settings"]["baseline_peak_rss_bytes"] > 0
    assert "counted as detected" in done.stdout
    assert done.returncode == 0, done.stdout


ONCE_TEST = """\
from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent
from calc import double


@settings(max_examples=5)
@given(st.integers())
def test_double(x):
    equivalent(double, lambda y: y + y, x)


def _rewritten():
    try:
        assert double(1) == -1
    except AssertionError as exc:
        return "where" in str(exc)
    return False


def test_only_once():
    # each lane process has a private copy of the tree, so no file can carry state between them:
    # this test depends on pytest's assertion rewriting, which the mutant workers switch off
    assert double(2) == 4
    assert _rewritten(), "this test passes only in the first process that runs it"
"""


def test_a_failing_control_run_says_why(make_repo: Callable[[str], Repo]) -> None:
    repo = _feature(
        make_repo,
        {"calc.py": "def double(x):\n    return x * 3\n"},
        {"calc.py": "def double(x):\n    return x * 2\n", "tests/test_calc.py": ONCE_TEST},
    )
    done, ledger = _property(repo)
    assert done.returncode == 1
    problem = ledger["effective_settings"]["control_problem"]
    assert problem.startswith("without any mutant, tests/test_calc.py::test_only_once is failed")
    assert "passes only in the first process" in problem
    assert f"mutants not judged: {problem}" in done.stdout
    assert {m["status"] for m in ledger["mutants"]} == {"error"}


BASE_PROPERTY = """\
from hypothesis import given, strategies as st

from calc import clamp


@given(st.integers(), st.integers(-50, 0), st.integers(0, 50))
def test_clamp_in_range(x, lo, hi):
    assert lo <= clamp(x, lo, hi) <= hi
    if lo <= x <= hi:
        assert clamp(x, lo, hi) == x
"""


def test_base_property_tests_earn_kills_and_survivors_are_on_screen(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = _feature(
        make_repo,
        {
            "calc.py": "def clamp(x, lo, hi):\n    return min(max(x, lo), hi)\n",
            "tests/test_props.py": BASE_PROPERTY,
            "tests/test_units.py": "from calc import clamp\n\n\ndef test_unit():\n"
            "    assert clamp(5, 0, 3) == 3\n",
        },
        {
            "calc.py": "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n"
            "    if x > hi:\n        return hi\n    return x\n"
        },
        max_mutants=10,  # every line's two: the equivalent `<=`/`>=` are then (nearly) always drawn
    )
    done, ledger = _property(repo)
    # the operators' mutants; the base's clamp (the revert) is the same function, never counted
    operators = [m for m in ledger["mutants"] if m["operator"] != "revert"]
    killed = [m for m in operators if m["status"] == "killed"]
    assert len(killed) >= 2, ledger["mutants"]
    assert {(m["kill_kind"], m["killed_by"]) for m in killed} == {
        ("property", "tests/test_props.py::test_clamp_in_range")
    }
    assert ledger["killed_mutants"] == len(killed)
    assert ledger["effective_settings"]["base_property_tests"] == 1
    assert "base property tests credited: tests/test_props.py::test_clamp_in_range" in done.stdout
    # `x < lo` -> `x <= lo` cannot be told apart (clamp returns lo either way): the survivors'
    # diffs are on screen, counted the same way as in the ledger
    survivors = [m for m in operators if m["status"] == "survived"]
    tally = f"{len(killed)} killed by a property" + (
        f", {len(survivors)} survived" if survivors else ";"
    )
    assert tally in done.stdout
    for m in survivors:
        assert f"not detected: {m['id']} (survived) calc.py:{m['line']}: " in done.stdout
    assert done.returncode == (0 if len(killed) >= ledger["mutant_budget"] else 1)
