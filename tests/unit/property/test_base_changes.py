"""Edits of the trusted oracle: a base test changed, narrowed, removed or rebound by the diff is named
with both versions; new tests and helpers added beside the base's are not."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from lanegate.diff import classify_diff
from lanegate.lanes.property.base_changes import base_test_changes
from lanegate.lanes.property.base_suite import base_suite
from lanegate.policy import Policy
from tests.gitrepo import Repo

_COUNTER = itertools.count()
BASE = """import pytest
from hypothesis import given, strategies as st

from calc import add

small = st.integers(0, 10)


@pytest.mark.parametrize(("a", "b", "total"), [(1, 2, 3), (2, 2, 4), (10, -3, 7)])
def test_table(a, b, total):
    assert add(a, b) == total


@given(small, small)
def test_commutes(a, b):
    assert add(a, b) == add(b, a)


class TestAdd:
    def test_zero(self):
        assert add(0, 5) == 5
"""


def _changes(make_repo: Callable[[str], Repo], head: str | None) -> list[tuple[str, str]]:
    repo = make_repo(f"r{next(_COUNTER)}")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("tests/test_calc.py", BASE)
    repo.commit("base")
    repo.branch("agent")
    if head is None:
        repo.remove("tests/test_calc.py")
    else:
        repo.write("tests/test_calc.py", head)
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    found = base_test_changes(repo.path, summary, ["tests/test_calc.py"])
    return [(c.test or f"line {c.line}", c.what) for c in found]


def test_a_parametrize_row_removed_is_a_changed_test(make_repo: Callable[[str], Repo]) -> None:
    head = BASE.replace(", (10, -3, 7)]", "]")
    assert _changes(make_repo, head) == [("tests/test_calc.py::test_table", "changed at head")]


def test_a_narrowed_strategy_and_a_rebinding_are_module_changes(
    make_repo: Callable[[str], Repo],
) -> None:
    narrowed = BASE.replace("st.integers(0, 10)", "st.integers(0, 0)")
    assert _changes(make_repo, narrowed) == [
        ("line 6", "a module-level statement of the base is gone or changed at head")
    ]
    rebound = BASE + "\nsmall = st.just(0)\n"
    assert _changes(make_repo, rebound) == [
        ("line 23", "a new statement at head rebinds small of the base")
    ]


def test_removed_methods_decorators_and_files_are_named(make_repo: Callable[[str], Repo]) -> None:
    skipped = BASE.replace("@given(small, small)", "@pytest.mark.skip\n@given(small, small)")
    assert _changes(make_repo, skipped) == [
        ("tests/test_calc.py::test_commutes", "changed at head")
    ]
    gone = BASE.replace("    def test_zero(self):\n        assert add(0, 5) == 5\n", "    pass\n")
    assert ("tests/test_calc.py::TestAdd::test_zero", "removed at head") in _changes(
        make_repo, gone
    )
    assert _changes(make_repo, None) == [("line 1", "deleted or moved by the diff")]


def test_new_tests_helpers_and_formatting_are_not_changes(
    make_repo: Callable[[str], Repo],
) -> None:
    head = BASE.replace("def test_table(a, b, total):", "def test_table(a,b,total):  # table")
    head += "\n\ndef _double(x):\n    return add(x, x)\n\n\n@given(small)\ndef test_double(x):\n"
    head += "    assert _double(x) == 2 * x\n"
    assert _changes(make_repo, head) == []


def test_a_changed_helper_beside_the_tests_is_restored_and_named(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("helper")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write(
        "tests/strategies.py",
        "from hypothesis import strategies as st\n\nsmall = st.integers(0, 10)\n",
    )
    repo.write(
        "tests/test_calc.py", "from strategies import small\n\n\ndef test_x():\n    assert small\n"
    )
    repo.commit("base")
    repo.branch("agent")
    repo.write(
        "tests/strategies.py", "from hypothesis import strategies as st\n\nsmall = st.just(0)\n"
    )
    repo.write("tests/new_helper.py", "VALUE = 1\n")
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    suite = base_suite(repo.path, summary)
    assert suite.helpers == ("tests/strategies.py",)  # the new helper has no base version
    found = base_test_changes(repo.path, summary, suite.restored, suite.helpers)
    assert [(c.path, c.what) for c in found] == [
        ("tests/strategies.py", "a module the base's tests share (beside them) is changed at head")
    ]


def test_a_changed_test_is_shown_from_the_line_that_differs(
    make_repo: Callable[[str], Repo],
) -> None:
    # a change deep in a long test: the excerpts start where base and head part, so the bound on
    # their length never cuts the change off (and the scorer quotes two different lines)
    long_body = "".join(f"    assert add({n}, 0) == {n}\n" for n in range(40))
    base = BASE + "\n\ndef test_long():\n" + long_body
    repo = make_repo(f"r{next(_COUNTER)}")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("tests/test_calc.py", base)
    repo.commit("base")
    repo.branch("agent")
    repo.write("tests/test_calc.py", base.replace("add(39, 0) == 39", "add(39, 0) >= 0"))
    repo.commit("agent")
    summary = classify_diff(repo.path, "main", Policy())
    (change,) = base_test_changes(repo.path, summary, ["tests/test_calc.py"])
    assert change.test == "tests/test_calc.py::test_long"
    assert change.base.splitlines()[0].strip() == "assert add(39, 0) == 39"
    assert change.head.splitlines()[0].strip() == "assert add(39, 0) >= 0"
