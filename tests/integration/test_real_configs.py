"""Real pytest configurations on small real repositories: a unittest-style suite whose new test calls
an oracle, under xdist in addopts, coverage, strict markers, warnings as errors, importlib import
mode, testpaths in setup.cfg/tox.ini, a src layout and conftest fixtures. Both lanes must find the
new test through pytest's collection, run it, and pass."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gitrepo import Repo

POLICY = "[properties]\nmax_examples = 30\nmax_mutants = 3\nmutant_draw = 1\n"

BASE_CODE = """\
def window_sums(items, k):
    return [sum(items[i:i + k]) for i in range(len(items) - k + 1)]
"""

HEAD_CODE = """\
def window_sums(items, k):
    if k < 1:
        raise ValueError("a window holds at least one item")
    total = 0
    out = []
    for i, x in enumerate(items):
        total += x
        if i >= k:
            total -= items[i - k]
        if i >= k - 1:
            out.append(total)
    return out
"""

NEW_TEST = """\
import unittest

from hypothesis import given, strategies as st

from lanegate.oracles import equivalent, raises
from windows import window_sums


def reference(items, k):
    return [sum(items[i:i + k]) for i in range(len(items) - k + 1)]


class WindowTests(unittest.TestCase):
    @given(st.lists(st.integers(-5, 5), max_size=8), st.integers(1, 4))
    def test_matches_reference(self, items, k):
        equivalent(window_sums, reference, items, k)

    @given(st.lists(st.integers(-5, 5), max_size=8), st.integers(-3, 0))
    def test_rejects_an_empty_window(self, items, k):
        raises(ValueError, window_sums, items, k)
"""

FIXTURE_TEST = """\
from hypothesis import given, strategies as st

from lanegate.oracles import equivalent
from windows import window_sums


@given(st.lists(st.integers(-5, 5), max_size=8))
def test_pairs(pair_width, items):
    equivalent(window_sums, lambda xs, k: [sum(xs[i:i + k]) for i in range(len(xs) - k + 1)],
               items, pair_width)
"""

CONFTEST = """\
import pytest


@pytest.fixture(scope="session")
def pair_width():
    return 2
"""

# name -> (config files, code path)
CONFIGS: dict[str, tuple[dict[str, str], str]] = {
    "xdist-in-addopts": ({"pytest.ini": "[pytest]\naddopts = -n 2\n"}, "windows.py"),
    "setup-cfg-cov-strict-werror": (
        {
            "setup.cfg": (
                "[tool:pytest]\ntestpaths = tests\n"
                "addopts = --cov=windows --cov-fail-under=100 --strict-markers --strict-config "
                "-W error -ra\n"
            )
        },
        "windows.py",
    ),
    "tox-ini-importlib-src-layout": (
        {
            "tox.ini": (
                "[tox]\nenvlist = py\n\n[pytest]\ntestpaths = tests\npythonpath = src\n"
                "addopts = --import-mode=importlib -n logical\n"
            )
        },
        "src/windows.py",
    ),
}


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _repo(make_repo: Callable[[str], Repo], config: dict[str, str], code_path: str) -> Repo:
    repo = make_repo("lib")
    for name, text in config.items():
        repo.write(name, text)
    repo.write("lanegate.toml", POLICY)
    repo.write(code_path, BASE_CODE)
    repo.write("tests/conftest.py", CONFTEST)
    repo.write(
        "tests/test_smoke.py",
        "from windows import window_sums\n\n\n"
        "def test_one():\n    assert window_sums([1, 2], 1) == [1, 2]\n",
    )
    repo.commit("base")
    repo.branch("feature")
    repo.write(code_path, HEAD_CODE)
    repo.write("tests/test_windows.py", NEW_TEST)
    repo.write("tests/test_fixture_use.py", FIXTURE_TEST)
    repo.commit("feature")
    return repo


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_both_lanes_pass_an_honest_unittest_change(
    make_repo: Callable[[str], Repo], name: str
) -> None:
    config, code_path = CONFIGS[name]
    repo = _repo(make_repo, config, code_path)

    prop = _lanegate(repo.path, "property", "--base", "main", "--out", "out", "--quiet")
    assert "Traceback" not in prop.stderr
    ledger = json.loads((repo.path / "out" / "property.json").read_text())
    by_node = {p["node_id"]: p for p in ledger["properties"]}
    unit = by_node["tests/test_windows.py::WindowTests::test_matches_reference"]
    assert unit["passed_oracle_check"] and unit["cases_run"] == 30
    assert by_node["tests/test_fixture_use.py::test_pairs"]["passed_oracle_check"]
    assert ledger["oracle_findings"] == []
    # the cap is 3; the changed function's floor (min_mutants_per_function, 4) plants past it; and
    # the base's window_sums, planted as a revert: the rewrite keeps every window of one item or
    # more and refuses an empty one, which the unit test pins (the base returns sums of nothing)
    assert ledger["mutants_planted"] == 5
    operators = [m for m in ledger["mutants"] if m["operator"] != "revert"]
    assert [m["status"] for m in operators] == ["killed"] * 4, ledger["mutants"]
    (change,) = ledger["changed_functions"]
    assert (change["revert_verdict"], change["behaviour"]) == ("pinned", "differs"), change
    assert change["revert_killed_by"].endswith("test_rejects_an_empty_window")
    settings = ledger["effective_settings"]
    assert "pytest-xdist" in settings["pytest_plugins"] and "-n 0" in settings["pytest_plugins"]
    assert "pytest-cov" in settings["pytest_plugins"]
    assert settings["mutant_memory_cap_bytes"] == 4 * settings["baseline_peak_rss_bytes"] > 0
    assert prop.returncode == 0, prop.stdout + prop.stderr

    flake = _lanegate(repo.path, "flake", "--base", "main", "--out", "out")
    assert "Traceback" not in flake.stderr
    assert flake.returncode == 0, flake.stdout + flake.stderr
    fledger = json.loads((repo.path / "out" / "flake.json").read_text())
    replayed = {t["node_id"] for t in fledger["tests"]}
    assert replayed == {
        "tests/test_windows.py::WindowTests::test_matches_reference",
        "tests/test_windows.py::WindowTests::test_rejects_an_empty_window",
        "tests/test_fixture_use.py::test_pairs",
    }
    assert all(r["outcome"] == "passed" for t in fledger["tests"] for r in t["replays"])
    command = fledger["replays"][0]["command"]
    assert "-n" in command and command[command.index("-n") + 1] == "0"
    assert "--no-cov" in command
