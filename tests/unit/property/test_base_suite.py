"""The base's tests judge the head's code: restored where the diff touched them, alone in their
process, with real git repositories and real sandboxed pytest runs."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from lanegate.diff import classify_diff
from lanegate.errors import RunnerError
from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import run_lane
from lanegate.lanes.property.base_suite import (
    base_suite,
    run_base_suite,
    stage_base_overlays,
    stage_base_suite,
)
from lanegate.lanes.property.map_select import BaselineChoice, BaselineMode
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import PropertyLedger
from lanegate.policy import Policy
from lanegate.sandbox import open_sandbox
from tests.gitrepo import Repo

CALC = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return a + b + (a == 2)\n"
TESTS = (
    "import pytest\n\nfrom calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
    "@pytest.mark.parametrize('a, b, c', [(1, 1, 2), (2, 2, 4)])\n"
    "def test_param(a, b, c):\n    assert add(a, b) == c\n\n\n"
    "def test_base_skip():\n    pytest.skip('skipped at base too')\n"
)


def _outcomes(repo: Repo) -> dict[str, str]:
    summary = classify_diff(repo.path, "main", Policy())
    with open_sandbox(repo.path) as sandbox:
        answer = run_base_suite(repo.path, summary, Policy(), sandbox=sandbox)
    suite, runs = answer.suite, answer.runs
    assert suite.files == ("tests/test_calc.py",)
    return {run.node_id: run.outcome for run in runs}


@pytest.fixture
def repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("r")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", TESTS)
    repo.commit("base")
    repo.branch("agent")
    return repo


def test_an_honest_refactor_passes_every_base_test(repo: Repo) -> None:
    repo.write("calc.py", "def add(a, b):\n    total = a\n    total += b\n    return total\n")
    repo.commit("refactor")
    outcomes = _outcomes(repo)
    assert outcomes == {
        "tests/test_calc.py::test_add": "passed",
        "tests/test_calc.py::test_param[1-1-2]": "passed",
        "tests/test_calc.py::test_param[2-2-4]": "passed",
        "tests/test_calc.py::test_base_skip": "skipped",
    }


def test_a_wrong_change_fails_the_test_that_catches_it(repo: Repo) -> None:
    repo.write("calc.py", WRONG)
    repo.commit("wrong")
    assert _outcomes(repo)["tests/test_calc.py::test_param[2-2-4]"] == "failed"


def test_deleting_the_catching_test_does_not_help(repo: Repo) -> None:
    repo.write("calc.py", WRONG)
    repo.remove("tests/test_calc.py")
    repo.commit("wrong, test deleted")
    assert _outcomes(repo)["tests/test_calc.py::test_param[2-2-4]"] == "failed"


def test_weakening_or_narrowing_the_test_does_not_help(repo: Repo) -> None:
    repo.write("calc.py", WRONG)
    narrowed = TESTS.replace("[(1, 1, 2), (2, 2, 4)]", "[(1, 1, 2)]").replace(
        "assert add(2, 3) == 5", "assert add(2, 3)"
    )
    repo.write("tests/test_calc.py", narrowed)
    repo.commit("wrong, test narrowed")
    assert _outcomes(repo)["tests/test_calc.py::test_param[2-2-4]"] == "failed"


def test_a_new_test_module_cannot_swallow_base_failures(repo: Repo) -> None:
    repo.write("calc.py", WRONG)
    repo.write(
        "tests/test_aaa_swallow.py",
        "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n\n\n"
        "def test_placeholder():\n    pass\n",
    )
    repo.commit("wrong, with a swallowing module")
    outcomes = _outcomes(repo)
    assert outcomes["tests/test_calc.py::test_param[2-2-4]"] == "failed"
    assert not any("swallow" in node for node in outcomes)


def test_a_skip_raised_by_changed_code_is_not_a_pass(repo: Repo) -> None:
    repo.write(
        "calc.py",
        "import pytest\n\n\ndef add(a, b):\n    if a == 2:\n        pytest.skip('not today')\n"
        "    return a + b\n",
    )
    repo.commit("skip from the code under test")
    outcomes = _outcomes(repo)
    assert outcomes["tests/test_calc.py::test_param[2-2-4]"] == "skipped-from-code"
    assert outcomes["tests/test_calc.py::test_base_skip"] == "skipped"


def test_a_base_file_that_no_longer_imports_is_an_error(repo: Repo) -> None:
    repo.write("calc.py", "def plus(a, b):\n    return a + b\n")
    repo.commit("renamed the function")
    outcomes = _outcomes(repo)
    assert outcomes.get("tests/test_calc.py") == "error", outcomes


@pytest.mark.parametrize("testpaths", ["tests", "tests/", "./tests", "te*"])
def test_files_outside_the_bases_testpaths_are_not_its_suite(
    make_repo: Callable[[str], Repo], testpaths: str
) -> None:
    repo = make_repo("tp")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", TESTS)
    # a benchmark the project never runs (its plugin is not installed): not part of the base suite
    repo.write("bench/test_speed.py", "import pytest_codspeed\n\ndef test_speed():\n    pass\n")
    repo.write("pytest.ini", f"[pytest]\ntestpaths = {testpaths}\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", "def add(a, b):\n    return b + a\n")
    repo.commit("honest")
    assert set(_outcomes(repo).values()) == {"passed", "skipped"}


def test_without_testpaths_every_test_file_is_in_the_suite(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("all")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", TESTS)
    repo.write("bench/test_speed.py", "import pytest_codspeed\n\ndef test_speed():\n    pass\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", "def add(a, b):\n    return b + a\n")
    repo.commit("honest")
    summary = classify_diff(repo.path, "main", Policy())
    assert base_suite(repo.path, summary).files == ("bench/test_speed.py", "tests/test_calc.py")


def test_the_lane_runs_the_base_tests_alongside_its_baseline_with_the_same_outcomes(
    repo: Repo, tmp_path: Path
) -> None:
    # a wrong change and a new property test that passes on it: only a base test catches it
    repo.write("calc.py", WRONG)
    repo.write(
        "tests/test_new.py",
        "from hypothesis import given, strategies as st\n\nfrom calc import add\n"
        "from lanegate import oracles\n\n\n@given(st.integers(), st.integers())\n"
        "def test_add_commutes(a, b):\n    oracles.commutes(add, a, b)\n",
    )
    repo.commit("wrong")
    alone = _outcomes(repo)
    timings: dict[str, float] = {}
    ctx = LaneContext(repo=repo.path, base="main", policy=Policy(), out_dir=tmp_path / "out")
    outcome = run_lane(ctx, workers=1, timings=timings)
    ledger = load_file(PropertyLedger, "property", outcome.ledger_path).value
    assert {run.node_id: run.outcome for run in ledger.base_tests} == alone
    assert alone["tests/test_calc.py::test_param[2-2-4]"] == "failed"
    assert not outcome.would_pass
    # submitted before the baseline started: waiting for it after the baseline took less than
    # its whole run (run one after the other, the wait would be all of it)
    assert timings["base_suite_wait"] < timings["base_suite"]


def test_a_stopped_base_run_is_killed_and_never_answers(
    make_repo: Callable[[str], Repo],
) -> None:
    # the lane unwinding (an error in the baseline beside it, Ctrl-C) must not wait this test out
    repo = make_repo("slow")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", "import time\n\n\ndef test_slow():\n    time.sleep(120)\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", WRONG)
    repo.commit("wrong")
    summary = classify_diff(repo.path, "main", Policy())
    stop = threading.Event()
    stop.set()
    with open_sandbox(repo.path) as sandbox, pytest.raises(RunnerError, match="stopped"):
        run_base_suite(repo.path, summary, Policy(), sandbox=sandbox, stop=stop)


def test_a_file_that_no_longer_imports_leaves_the_other_files_outcomes_standing(
    make_repo: Callable[[str], Repo],
) -> None:
    # one process runs every base file: a collection error is that file's, the others still run
    repo = make_repo("two")
    repo.write("calc.py", CALC + "\n\ndef sub(a, b):\n    return a - b\n")
    repo.write("tests/test_calc.py", TESTS)
    repo.write(
        "tests/test_sub.py",
        "from calc import sub\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n",
    )
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", WRONG)  # sub is gone: test_sub.py no longer imports
    repo.commit("sub removed, add wrong")
    summary = classify_diff(repo.path, "main", Policy())
    with open_sandbox(repo.path) as sandbox:
        runs = run_base_suite(repo.path, summary, Policy(), sandbox=sandbox).runs
    outcomes = {run.node_id: run.outcome for run in runs}
    assert outcomes["tests/test_sub.py"] == "error", outcomes
    assert outcomes["tests/test_calc.py::test_param[1-1-2]"] == "passed", outcomes
    assert outcomes["tests/test_calc.py::test_param[2-2-4]"] == "failed", outcomes


def test_the_base_overlays_follow_from_the_diff_whichever_tests_the_map_selects(
    make_repo: Callable[[str], Repo],
) -> None:
    # staged before the map is read (the base suite's process starts on them): every base test
    # file the diff touched is mounted back, even one the map's selection leaves out, as in a
    # full run; the selection only narrows what runs
    repo = make_repo("staged")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", TESTS)
    repo.write("tests/test_other.py", "def test_other():\n    assert True\n")
    repo.write("tests/helpers.py", "LIMIT = 1\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", WRONG)
    repo.write("tests/test_calc.py", "def test_gone():\n    pass\n")
    repo.write("tests/test_other.py", "def test_other():\n    assert 1\n")
    repo.write("tests/helpers.py", "LIMIT = 2\n")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    suite = base_suite(repo.path, summary)
    files = stage_base_overlays(repo.path, summary, suite)
    try:
        staged_bytes = {dest: src.read_bytes() for dest, src in files.overlays.items()}
        assert staged_bytes == {
            repo.path / "tests/test_calc.py": TESTS.encode(),
            repo.path / "tests/test_other.py": b"def test_other():\n    assert True\n",
            repo.path / "tests/helpers.py": b"LIMIT = 1\n",
        }
        choice = BaselineChoice(
            BaselineMode.COVERAGE_MAP,
            "map",
            node_ids=frozenset({"tests/test_other.py::test_other"}),
        )
        staged = stage_base_suite(repo.path, summary, suite, choice, overlays=files)
        assert staged is not None
        assert staged.wanted == {"tests/test_other.py"}
        assert staged.selection == ("tests/test_other.py",)
        assert staged.overlays == files.overlays
        # a selection of no base file runs nothing, and the staged files stay the caller's
        nothing = BaselineChoice(BaselineMode.COVERAGE_MAP, "map", node_ids=frozenset({"x.py::t"}))
        assert stage_base_suite(repo.path, summary, suite, nothing, overlays=files) is None
        assert files.staging.is_dir()
        staged.close()  # the answer owns them
        assert not files.staging.exists()
    finally:
        files.close()
    files.close()  # a second close does nothing


def test_every_base_python_file_of_the_tests_is_listed_with_the_digest_it_must_have(
    make_repo: Callable[[str], Repo],
) -> None:
    import hashlib

    repo = make_repo("digests")
    repo.write("calc.py", CALC)
    repo.write("conftest.py", "")
    repo.write("tests/test_calc.py", TESTS)
    repo.write("tests/helpers.py", "LIMIT = 1\n")
    repo.write("tests/data/expected.json", "{}\n")
    repo.write("pkg/test_inline.py", "def test_inline():\n    pass\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", WRONG)
    repo.write("tests/helpers.py", "LIMIT = 2\n")  # restored: its base bytes are the ones to see
    repo.write("tests/test_new.py", "def test_new():\n    pass\n")  # the head's: not the base's
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    suite = base_suite(repo.path, summary)
    assert suite.protected == (
        "conftest.py",
        "pkg/test_inline.py",
        "tests/helpers.py",
        "tests/test_calc.py",
    )
    files = stage_base_overlays(repo.path, summary, suite)
    try:

        def digest(text: str) -> str:
            return hashlib.sha256(text.encode()).hexdigest()

        assert files.digests == {
            "conftest.py": digest(""),
            "pkg/test_inline.py": digest("def test_inline():\n    pass\n"),
            "tests/helpers.py": digest("LIMIT = 1\n"),
            "tests/test_calc.py": digest(TESTS),
        }
    finally:
        files.close()


TABLE_TEST = (
    "from pathlib import Path\n\nfrom calc import add\n\n\n"
    "def test_table():\n"
    "    for line in (Path(__file__).parent / 'data' / 'table.txt').read_text().splitlines():\n"
    "        a, b, c = map(int, line.split())\n"
    "        assert add(a, b) == c\n"
)


@pytest.fixture
def table_repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("table")
    repo.write("calc.py", CALC)
    repo.write("tests/test_table.py", TABLE_TEST)
    repo.write("tests/data/table.txt", "1 1 2\n2 2 4\n")
    repo.commit("base")
    repo.branch("agent")
    return repo


def test_the_base_tests_read_the_base_data_of_their_folder(table_repo: Repo) -> None:
    # the diff rewrites the expected outputs a base test reads, and adds a file beside them
    table_repo.write("calc.py", WRONG)
    table_repo.write("tests/data/table.txt", "1 1 2\n")
    table_repo.write("tests/data/extra.txt", "added\n")
    table_repo.commit("wrong, table narrowed")
    summary = classify_diff(table_repo.path, "main", Policy())
    suite = base_suite(table_repo.path, summary)
    assert (suite.frozen, suite.data, suite.added) == (
        ("tests",),
        ("tests/data/table.txt",),
        ("tests/data/extra.txt",),
    )
    with open_sandbox(table_repo.path) as sandbox:
        answer = run_base_suite(table_repo.path, summary, Policy(), sandbox=sandbox)
    assert {r.node_id: r.outcome for r in answer.runs} == {
        "tests/test_table.py::test_table": "failed"
    }


def test_a_module_the_diff_adds_beside_the_tests_cannot_stand_in_for_the_code(
    table_repo: Repo,
) -> None:
    # red-team pass 9: tests/calc.py, a correct copy the diff added, came first on sys.path for
    # the base test (pytest puts its folder there), which then passed against the copy
    table_repo.write("calc.py", WRONG)
    table_repo.write("tests/calc.py", CALC)
    table_repo.write("tests/test_new.py", "def test_new():\n    pass\n")
    table_repo.commit("wrong, with a stand-in beside the tests")
    summary = classify_diff(table_repo.path, "main", Policy())
    suite = base_suite(table_repo.path, summary)
    assert suite.added == ("tests/calc.py", "tests/test_new.py")
    with open_sandbox(table_repo.path) as sandbox:
        answer = run_base_suite(table_repo.path, summary, Policy(), sandbox=sandbox)
    assert {r.node_id: r.outcome for r in answer.runs} == {
        "tests/test_table.py::test_table": "failed"
    }


def test_code_under_test_cannot_rewrite_the_data_a_base_test_reads(table_repo: Repo) -> None:
    table_repo.write(
        "calc.py",
        WRONG + "\nimport os, pathlib\n_t = pathlib.Path(__file__).parent / 'tests'\n"
        "for _act in (lambda: (_t / 'data' / 'table.txt').write_text('1 1 2\\n'),\n"
        "             lambda: os.rename(_t, _t.with_name('moved'))):\n"
        "    try:\n        _act()\n    except OSError:\n        pass\n"
        "if not (_t / 'data').exists():\n"
        "    (_t / 'data').mkdir(parents=True)\n"
        "    (_t / 'data' / 'table.txt').write_text('1 1 2\\n')\n",
    )
    table_repo.commit("wrong, table rewritten at import")
    summary = classify_diff(table_repo.path, "main", Policy())
    with open_sandbox(table_repo.path) as sandbox:
        answer = run_base_suite(table_repo.path, summary, Policy(), sandbox=sandbox)
    assert {r.node_id: r.outcome for r in answer.runs} == {
        "tests/test_table.py::test_table": "failed"
    }
    assert (table_repo.path / "tests" / "data" / "table.txt").read_text() == "1 1 2\n2 2 4\n"


@pytest.mark.parametrize(
    ("code", "v2", "outcome"),
    [(CALC, "1 1 2\n2 2 4\n", "passed"), (WRONG, "1 1 2\n", "failed")],
    ids=["honest-retarget", "hostile-retarget"],
)
def test_a_data_link_of_the_base_is_restored_as_what_it_reads(
    make_repo: Callable[[str], Repo], code: str, v2: str, outcome: str
) -> None:
    # red-team pass 8: a link restored as a file holding the link's own text failed an honest
    # diff that only pointed the link at an identical file
    repo = make_repo("linked")
    repo.write("calc.py", CALC)
    repo.write("tests/test_table.py", TABLE_TEST)
    repo.write("tests/data/v1.txt", "1 1 2\n2 2 4\n")
    (repo.path / "tests" / "data" / "table.txt").symlink_to("v1.txt")
    repo.commit("base")
    repo.branch("agent")
    repo.write("calc.py", code)
    repo.write("tests/data/v2.txt", v2)
    (repo.path / "tests" / "data" / "table.txt").unlink()
    (repo.path / "tests" / "data" / "table.txt").symlink_to("v2.txt")
    repo.commit("point the table at v2")
    summary = classify_diff(repo.path, "main", Policy())
    with open_sandbox(repo.path) as sandbox:
        answer = run_base_suite(repo.path, summary, Policy(), sandbox=sandbox)
    assert {r.node_id: r.outcome for r in answer.runs} == {
        "tests/test_table.py::test_table": outcome
    }
