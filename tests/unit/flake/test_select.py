from __future__ import annotations

from lanegate.diff import classify_diff
from lanegate.lanes.flake.select import discover_tests, select_module, select_tests
from lanegate.policy import Policy

MODULE = """\
import random
import threading
import time

STATE = []
NAMES = {"alpha": 1, "beta": 2}


def helper():
    return random.random()


def test_first():
    STATE.append(1)


@decorated
def test_second():
    assert helper() < 2


class TestGroup:
    def test_method(self):
        assert time.time() > 0

    def not_a_test(self):
        pass


def test_third():
    t = threading.Thread(target=print)
    assert id(t) != id(STATE)


def test_last():
    assert {"a": 1} == {"a": 1}
    assert "".join({"x", "y"}) and set(NAMES) and frozenset(["p", "q", "p"])
"""


def test_discover_in_source_order_with_spans_and_risks() -> None:
    tests = discover_tests(MODULE, "t.py")
    assert [t.node_id for t in tests] == [
        "t.py::test_first",
        "t.py::test_second",
        "t.py::TestGroup::test_method",
        "t.py::test_third",
        "t.py::test_last",
    ]
    second = tests[1]
    assert MODULE.splitlines()[second.first_line - 1] == "@decorated"
    assert second.risks == frozenset({"random"})  # through the helper it calls
    assert tests[2].risks == frozenset({"clock"})
    assert tests[3].risks == frozenset({"threads", "identity"})
    assert tests[0].risks == frozenset()
    assert tests[4].risks == frozenset()
    assert set(tests[4].str_sets) == {("x", "y"), ("alpha", "beta"), ("p", "q")}
    assert tests[0].str_sets == ()


def test_changed_test_selects_every_test_before_it() -> None:
    line = MODULE.splitlines().index("    def test_method(self):") + 2
    selected = select_module("t.py", MODULE, frozenset({line}))
    assert [(s.node_id, s.touched) for s in selected] == [
        ("t.py::test_first", False),
        ("t.py::test_second", False),
        ("t.py::TestGroup::test_method", True),
    ]
    assert not any(s.whole_module for s in selected)


def test_changes_outside_tests_select_nothing_and_new_files_select_all() -> None:
    assert select_module("t.py", MODULE, frozenset({5})) == []
    everything = select_module("t.py", MODULE, None)
    assert len(everything) == 5 and all(s.touched and s.whole_module for s in everything)


def test_unparsable_module_is_run_whole() -> None:
    (only,) = select_module("t.py", "def test_x(:\n", None)
    assert only.node_id == "t.py" and only.touched


def test_select_from_a_real_diff(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo("r")
    repo.write("tests/test_mod.py", MODULE)
    repo.write("tests/test_gone.py", "def test_gone():\n    pass\n")
    repo.write("src/lib.py", "X = 1\n")
    repo.commit("base")
    repo.branch("feature")
    repo.write("tests/test_mod.py", MODULE.replace("assert helper() < 2", "assert helper() < 3"))
    repo.write("tests/test_new.py", "def test_new():\n    pass\n")
    repo.write("tests/conftest.py", "X = 1\n")
    repo.remove("tests/test_gone.py")
    repo.write("src/lib.py", "X = 2\n")
    repo.commit("feature")
    diff = classify_diff(repo.path, "main", Policy())
    selection = select_tests(repo.path, diff)
    assert selection.node_ids == (
        "tests/test_mod.py::test_first",
        "tests/test_mod.py::test_second",
        "tests/test_new.py::test_new",
    )
    assert selection.touched_ids == {
        "tests/test_mod.py::test_second",
        "tests/test_new.py::test_new",
    }
    assert selection.pytest_args == (
        "tests/test_mod.py::test_first",
        "tests/test_mod.py::test_second",
        "tests/test_new.py",
    )
