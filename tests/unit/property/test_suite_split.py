"""The suite runs once: the base's unchanged test files run traced only in the base suite's trusted
process, whose records drive which tests each mutant runs; the head's process runs the diff's test
files. Real git repositories, real sandboxed pytest runs (the join itself also as a property)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import base_suite, run_lane, runner
from lanegate.lanes.property.base_suite import BaseSuite
from lanegate.lanes.property.baseline import Baseline
from lanegate.lanes.property.map_select import full
from lanegate.lanes.property.suite_split import head_pass, join, split_suite
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import PropertyLedger
from lanegate.policy import Policy
from tests.gitrepo import Repo

CALC = "def add(a, b):\n    return a + b\n"
REFACTORED = (
    "def add(a, b):\n    total = a\n    total += b\n    return total\n\n\n"
    "def double(x):\n    return x * 2\n"
)
BASE_TESTS = (
    "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_add_zero():\n    assert add(0, 7) == 7\n"
)
OTHER_TESTS = "def test_unrelated():\n    assert [1, 2][::-1] == [2, 1]\n"
BASE_ADD = "tests/test_calc.py::test_add"
# a new test module of the diff that rewrites the record of its own process when it is imported: it
# claims the base's test_add failed and called nothing, so that the mutants of add would get no
# base test to run (forging it again while the tests run reaches the mutant workers' control run
# too, where a failed control makes every mutant `error`: a fail)
FORGER = (
    "import sys\n\nfrom hypothesis import given, strategies as st\n\nfrom calc import double\n"
    "from lanegate import oracles\n\n\n"
    "def _forge():\n"
    "    plugin = sys.modules.get('lanegate.lanes.property.plugin')\n"
    "    recorder = getattr(plugin, '_active_recorder', None)\n"
    "    if recorder is not None:\n"
    f"        recorder.tests[{BASE_ADD!r}] = {{'outcome': 'failed', 'covered': [],\n"
    "            'duration': 0.0, 'settings': None, 'cases_run': 0, 'cases_failed': 1}\n\n\n"
    "_forge()\n\n\n"
    "@given(st.integers())\n"
    "def test_double_is_add_to_itself(x):\n"
    "    oracles.equivalent(double, lambda v: v + v, x)\n"
)


@pytest.fixture
def repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("split")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", BASE_TESTS)
    repo.write("tests/test_other.py", OTHER_TESTS)
    repo.commit("base")
    repo.branch("agent")
    return repo


@pytest.fixture
def records(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Baseline]]]:
    """Every record a lane's head and base-suite processes wrote (the real runs, observed)."""
    seen: list[tuple[str, Baseline]] = []
    real = runner.run_baseline

    def observed(where: str) -> Callable[..., Baseline]:
        def run(*args: Any, **kwargs: Any) -> Baseline:
            answer = real(*args, **kwargs)
            seen.append((where, answer))
            return answer

        return run

    monkeypatch.setattr(runner, "run_baseline", observed("head"))
    monkeypatch.setattr(base_suite, "run_baseline", observed("base"))
    yield seen


def _lane(repo: Repo, tmp_path: Path) -> PropertyLedger:
    ctx = LaneContext(repo=repo.path, base="main", policy=Policy(), out_dir=tmp_path / "out")
    outcome = run_lane(ctx, workers=1)
    return load_file(PropertyLedger, "property", outcome.ledger_path).value


def test_each_unchanged_base_test_runs_once_and_its_trusted_trace_picks_the_mutants_tests(
    repo: Repo, tmp_path: Path, records: list[tuple[str, Baseline]]
) -> None:
    repo.write("calc.py", REFACTORED)
    repo.write("tests/test_double.py", FORGER)
    repo.commit("refactor add, add double, and a test module that forges its process's record")
    ledger = _lane(repo, tmp_path)

    # one pass: every test was collected (and run) in exactly one of the lane's two processes
    where: dict[str, list[str]] = {}
    for name, record in records:
        for node_id in record.collection.node_ids:
            where.setdefault(node_id, []).append(name)
    base_ids = {
        BASE_ADD,
        "tests/test_calc.py::test_add_zero",
        "tests/test_other.py::test_unrelated",
    }
    assert {n: where.get(n) for n in base_ids} == {n: ["base"] for n in base_ids}
    assert where["tests/test_double.py::test_double_is_add_to_itself"] == ["head"]
    assert len(records) == 2
    # the head's record holds the forged entry (the forger did run), never the test itself
    head = next(r for name, r in records if name == "head")
    assert head.tests[BASE_ADD]["outcome"] == "failed"

    # the forged entry never reached the baseline: the base's test_add passed, and the mutants of
    # add ran it (it kills them all: nothing else of the run calls add)
    assert ledger.baseline.dropped_head_entries == (BASE_ADD,)
    assert {r.node_id: r.outcome for r in ledger.base_tests}[BASE_ADD] == "passed"
    add_mutants = [m for m in ledger.mutants if m.function == "add"]
    assert add_mutants
    assert all(m.status != "no_tests" for m in add_mutants), add_mutants
    killers = {m.killed_by for m in add_mutants if m.status == "killed"}
    assert killers and killers <= {BASE_ADD, "tests/test_calc.py::test_add_zero"}, add_mutants

    # the ledger says what ran where
    assert ledger.baseline.traced_at_head == 1
    assert ledger.baseline.traced_in_base_suite == 3
    assert ledger.baseline.shared_test_files == 2
    assert ledger.baseline.split_reason == ""
    assert ledger.baseline.selected_tests == 4


def test_a_changed_base_test_file_is_traced_at_head_in_its_head_version(
    repo: Repo, tmp_path: Path, records: list[tuple[str, Baseline]]
) -> None:
    repo.write("calc.py", REFACTORED)
    repo.write(
        "tests/test_calc.py",
        BASE_TESTS + "\n\ndef test_double():\n    from calc import double\n\n"
        "    assert double(4) == 8\n",
    )
    repo.commit("a test added to a base test file")
    ledger = _lane(repo, tmp_path)
    heads = [r for name, r in records if name == "head"]
    bases = [r for name, r in records if name == "base"]
    assert len(heads) == len(bases) == 1
    # the changed file runs in both: its base version judges the head, its head version is traced
    assert set(heads[0].tests) == {BASE_ADD, "tests/test_calc.py::test_add_zero",
                                   "tests/test_calc.py::test_double"}  # fmt: skip
    assert set(bases[0].tests) == {
        BASE_ADD,
        "tests/test_calc.py::test_add_zero",
        "tests/test_other.py::test_unrelated",
    }
    assert ledger.baseline.traced_at_head == 3
    assert ledger.baseline.traced_in_base_suite == 1
    assert ledger.baseline.shared_test_files == 1
    double = [m for m in ledger.mutants if m.function == "double"]
    assert double and all(m.status != "no_tests" for m in double), double


def test_a_changed_helper_beside_the_base_tests_shares_nothing(
    make_repo: Callable[[str], Repo], tmp_path: Path, records: list[tuple[str, Baseline]]
) -> None:
    repo = make_repo("helper")
    repo.write("calc.py", CALC)
    repo.write("tests/values.py", "PAIR = (2, 3)\n")
    repo.write(
        "tests/test_calc.py",
        "from calc import add\nfrom tests.values import PAIR\n\n\n"
        "def test_add():\n    assert add(*PAIR) == 5\n",
    )
    repo.write("tests/__init__.py", "")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", REFACTORED)
    repo.write("tests/values.py", "PAIR = (2, 3)\nEXTRA = 1\n")
    repo.commit("refactor, helper touched")
    ledger = _lane(repo, tmp_path)
    assert "tests/values.py" in ledger.baseline.split_reason
    assert ledger.baseline.shared_test_files == 0
    assert ledger.baseline.traced_in_base_suite == 0
    assert ledger.baseline.traced_at_head == 1
    heads = [r for name, r in records if name == "head"]
    assert set(heads[0].tests) == {BASE_ADD}


# the join, as a property: whatever the two processes write, a shared file's tests come from the
# base suite's record only, every other file's from the head's only

_FILES = ["tests/test_a.py", "tests/test_b.py", "tests/test_c.py", "tests/test_new.py"]
_NODES = st.sampled_from(_FILES).flatmap(
    lambda f: st.sampled_from(["x", "y", "z"]).map(lambda t: f"{f}::test_{t}")
)
_ENTRY = st.fixed_dictionaries(
    {
        "outcome": st.sampled_from(["passed", "failed", "skipped"]),
        "duration": st.floats(0, 5),
        "covered": st.lists(st.sampled_from(["/r/calc.py:1", "/r/calc.py:4"]), max_size=2),
    }
)
_RECORD = st.dictionaries(_NODES, _ENTRY, max_size=8)


def _baseline(tests: dict[str, Any], seconds: float, rss: int) -> Baseline:
    record = {"tests": tests, "collected": list(tests), "peak_rss_bytes": rss, "profile": "x"}
    return Baseline(("python", "-m", "pytest"), 0, record, seconds)


@given(
    head=_RECORD,
    base=_RECORD,
    restored=st.sets(st.sampled_from(_FILES[:3])),
    seconds=st.tuples(st.floats(0, 50), st.floats(0, 50)),
)
def test_the_join_reads_each_file_from_one_process_only(
    head: dict[str, Any],
    base: dict[str, Any],
    restored: set[str],
    seconds: tuple[float, float],
) -> None:
    suite = BaseSuite(tuple(_FILES[:3]), tuple(sorted(restored)))
    split = split_suite(suite)
    assert split.shared == set(_FILES[:3]) - restored
    joined = join(_baseline(head, seconds[0], 10), _baseline(base, seconds[1], 20), split)
    tests = joined.baseline.tests
    for node_id in {*head, *base}:
        shared = node_id.split("::")[0] in split.shared
        expected = (base if shared else head).get(node_id)
        assert tests.get(node_id) == expected, node_id
    assert set(joined.dropped) == {n for n in head if n.split("::")[0] in split.shared}
    assert joined.at_head + joined.in_base_suite == len(tests)
    assert joined.baseline.peak_rss == 20
    assert joined.baseline.overhead >= 0
    assert set(joined.baseline.collection.node_ids) == set(tests)


def test_a_changed_helper_makes_the_head_run_everything() -> None:
    split = split_suite(BaseSuite(("tests/test_a.py",), (), ("tests/strategies.py",)))
    assert split.shared == frozenset()
    assert "tests/strategies.py" in split.reason
    plan = head_pass(split, full("no coverage map given"))
    assert plan is not None and plan.ignored == () and plan.selection == ()


def test_the_head_run_ignores_every_shared_file() -> None:
    split = split_suite(
        BaseSuite(("-p_test.py", "tests/test_a.py", "tests/test_b.py"), ("tests/test_b.py",))
    )
    plan = head_pass(split, full("no coverage map given"))
    assert plan is not None
    assert plan.ignored == ("-p_test.py", "tests/test_a.py")
