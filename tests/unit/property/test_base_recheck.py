"""Base tests that fail at head, re-run on the base's own code: real git repositories, real sandboxed
pytest runs. A failure is excused only when the base fails the same way in every run; nothing the head
wrote (code, conftest, configuration, a deleted data file, a changed dependency pin) reaches the run."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.diff import classify_diff
from lanegate.lanes.property.base_recheck import (
    RECHECKED,
    _refusal,
    environment_input,
    judge,
    signature,
)
from lanegate.lanes.property.base_recheck import recheck_at_base as recheck
from lanegate.lanes.property.base_suite import run_base_suite
from lanegate.ledgers.models import BaseRecheck, BaseTestRun
from lanegate.policy import Policy
from lanegate.sandbox import open_sandbox
from lanegate.sandbox.interpreter import TESTS_PYTHON_ENV
from tests.gitrepo import Repo

CALC = "def add(a, b):\n    return a + b\n"
# test_env_broken fails at the base in every environment (as attrs' test_wrapped_annotation does in
# this one): its first assertion exercises the code, its second can never hold
TESTS = (
    "import os\nfrom pathlib import Path\n\nfrom calc import add\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_env_broken():\n    assert add(1, 1) == 2\n"
    "    assert os.environ.get('LANEGATE_NEVER_SET') == 'x'\n\n\n"
    "def test_table():\n"
    "    text = (Path(__file__).parent / 'data' / 'table.txt').read_text()\n"
    "    assert add(*map(int, text.split())) == 7\n"
)


@pytest.fixture
def repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("r")
    repo.write("calc.py", CALC)
    repo.write("tests/test_calc.py", TESTS)
    repo.write("tests/data/table.txt", "3 4\n")
    repo.write("requirements.txt", "hypothesis\n")
    repo.commit("base")
    repo.branch("agent")
    return repo


def _rechecks(repo: Repo) -> dict[str, BaseRecheck]:
    policy = Policy()
    summary = classify_diff(repo.path, "main", policy)
    with open_sandbox(repo.path) as sandbox:
        runs = run_base_suite(repo.path, summary, policy, sandbox=sandbox).runs
        found = recheck(repo.path, summary, policy, runs, sandbox=sandbox)
    failing = {r.node_id for r in runs if r.outcome in RECHECKED}
    assert {r.node_id for r in found} == failing  # every failure at head is rechecked, no other
    return {r.node_id.split("::")[-1]: r for r in found}


def test_a_test_failing_at_base_too_is_pre_existing(repo: Repo) -> None:
    repo.write("calc.py", "def add(a, b):\n    total = a\n    total += b\n    return total\n")
    repo.commit("honest refactor")
    found = _rechecks(repo)
    assert set(found) == {"test_env_broken"}
    broken = found["test_env_broken"]
    assert broken.verdict == "pre-existing", broken
    assert broken.base_outcomes == ("failed", "failed", "failed")  # authorship.min_replays runs
    assert broken.base_detail == broken.head_detail != ""


def test_a_test_the_diff_broke_passes_at_base(repo: Repo) -> None:
    repo.write("calc.py", "def add(a, b):\n    return a + b + (a == 2)\n")
    repo.commit("wrong")
    found = _rechecks(repo)
    assert found["test_add"].verdict == "passes-at-base"
    assert found["test_add"].base_outcomes == ("passed",)  # a pass decides: no more runs


def test_failing_at_base_differently_is_not_excused(repo: Repo) -> None:
    # the head breaks add: test_env_broken now fails on its first assertion, not its second
    repo.write("calc.py", "def add(a, b):\n    return a - b\n")
    repo.commit("wrong everywhere")
    found = _rechecks(repo)
    assert found["test_env_broken"].verdict == "differs-at-base", found["test_env_broken"]
    assert found["test_env_broken"].base_outcomes == ("failed", "failed", "failed")


SABOTAGE = (
    "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _sabotage(request):\n"
    "    if request.node.name == 'test_add':\n        raise RuntimeError('sabotaged')\n"
)


def test_a_conftest_of_the_head_does_not_reach_the_base_run(repo: Repo) -> None:
    # attack: make a base test fail at head through the head's own conftest, hoping the base run
    # picks the conftest up too and the failure is excused as pre-existing (at the top: one the
    # diff adds in a test folder is left out of the base suite's process altogether, below)
    repo.write("conftest.py", SABOTAGE)
    repo.write("pytest.ini", "[pytest]\naddopts = -p no:doctest\n")
    repo.commit("sabotage")
    found = _rechecks(repo)
    assert found["test_add"].head_outcome == "error"
    assert found["test_add"].verdict == "passes-at-base", found["test_add"]


def test_a_conftest_the_head_adds_in_a_test_folder_never_reaches_the_base_suite(
    repo: Repo,
) -> None:
    repo.write("tests/conftest.py", SABOTAGE)
    repo.commit("sabotage beside the tests")
    assert "test_add" not in _rechecks(repo)  # it passed at head: nothing to recheck


def test_a_data_file_the_head_deleted_is_back_for_the_base_suite(repo: Repo) -> None:
    # the base suite runs with the base's data of its test folders: the test the deletion would
    # have broken passes at head, and nothing is left to recheck for it
    repo.remove("tests/data/table.txt")
    repo.write("calc.py", CALC + "\n\ndef sub(a, b):\n    return a - b\n")
    repo.commit("deletes the data a base test reads")
    assert "test_table" not in _rechecks(repo)


def test_a_head_module_shadowing_the_code_is_gone_at_base(repo: Repo) -> None:
    # attack: the head adds a package `calc/` that wins over calc.py (a package beats a module of
    # the same name on one sys.path entry) and breaks test_add at base too if it stayed in the copy
    repo.write("calc/__init__.py", "def add(a, b):\n    return 0\n")
    repo.commit("shadow")
    found = _rechecks(repo)
    assert found["test_add"].verdict == "passes-at-base", found["test_add"]


def test_a_diff_changing_a_dependency_file_gets_no_recheck(repo: Repo) -> None:
    repo.write("calc.py", "def add(a, b):\n    return b + a\n")
    repo.write("requirements.txt", "hypothesis==6.0\n")
    repo.commit("honest, with a changed pin")
    found = _rechecks(repo)
    broken = found["test_env_broken"]
    assert broken.verdict == "not-checked" and broken.base_outcomes == ()
    assert "requirements.txt" in broken.reason


def test_a_tests_venv_the_head_built_gets_no_recheck(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `lanegate install` ran the head's build into that venv: what it left there runs at base too
    venv = tmp_path / "tests-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (venv / "bin" / "python").symlink_to(sys.executable)
    repo.write("calc.py", "def add(a, b):\n    return b + a\n")
    repo.commit("honest")
    summary = classify_diff(repo.path, "main", Policy())
    monkeypatch.setenv(TESTS_PYTHON_ENV, str(venv / "bin" / "python"))
    assert "LANEGATE_TESTS_PYTHON" in _refusal(summary)
    monkeypatch.delenv(TESTS_PYTHON_ENV)
    assert _refusal(summary) == ""


def test_a_collection_error_at_head_that_collects_at_base(repo: Repo) -> None:
    repo.write("calc.py", "def plus(a, b):\n    return a + b\n")
    repo.commit("renamed the function")
    found = _rechecks(repo)
    assert found["tests/test_calc.py"].verdict == "passes-at-base", found


@pytest.mark.parametrize(
    "path",
    ["requirements-dev.txt", "pkg/pyproject.toml", "setup.py", "src/_speedups.c", "uv.lock"],
)
def test_environment_inputs(path: str) -> None:
    assert environment_input(path)


@pytest.mark.parametrize("path", ["src/calc.py", "tests/test_calc.py", "README.md", "data/x.json"])
def test_not_environment_inputs(path: str) -> None:
    assert not environment_input(path)


HEAD = BaseTestRun(node_id="t.py::t", outcome="failed", restored=False, detail="t.py:3: Error")
OUTCOMES = st.lists(
    st.tuples(
        st.sampled_from(["failed", "error", "passed", "skipped", "missing"]),
        st.sampled_from(["t.py:3: Error", "t.py:4: Error", "", "t.py:3: Error at 0x7f00"]),
    ),
    min_size=1,
    max_size=3,
)


@given(OUTCOMES)
def test_only_the_same_failure_in_every_run_is_pre_existing(
    outcomes: list[tuple[str, str]],
) -> None:
    verdict, reason = judge(HEAD, outcomes, 3)
    same = all(signature(o, d) == signature(HEAD.outcome, HEAD.detail) for o, d in outcomes)
    assert (verdict == "pre-existing") == (same and len(outcomes) == 3)
    assert reason
    if outcomes[0][0] not in RECHECKED:
        assert verdict == "passes-at-base"
    elif any(o not in RECHECKED for o, _ in outcomes):
        assert verdict == "flaky-at-base"  # failed, then passed: never an excuse


def test_addresses_do_not_tell_failures_apart() -> None:
    assert signature("failed", "x at 0x7f1234: Error") == signature("failed", "x at 0xdead: Error")
    assert signature("failed", "t.py:3: Error") != signature("error", "t.py:3: Error")
