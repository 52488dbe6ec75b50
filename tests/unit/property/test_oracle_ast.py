"""The AST oracle check: tautology cases it must reject, honest tests it must accept, aliasing."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.lanes.property.oracle_ast import OracleModule, check_source

CASES = Path(__file__).resolve().parents[2] / "cases" / "property" / "oracle"
REJECT = sorted((CASES / "reject").glob("test_*.py"))
ACCEPT = sorted((CASES / "accept").glob("test_*.py"))
HOUSE = OracleModule.from_policy("tests/oracles.py", None)


def _check(path: Path):
    return check_source(path.name, path.read_text(encoding="utf-8"), HOUSE)


def test_case_counts() -> None:
    assert len(REJECT) >= 6 and len(ACCEPT) >= 4


@pytest.mark.parametrize("case", REJECT, ids=lambda p: p.stem)
def test_rejects_tautologies(case: Path) -> None:
    expected = case.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    verdict = _check(case)
    assert verdict.checked, "the case must define a test"
    assert not verdict.passed
    assert len(verdict.rejections) == len(verdict.checked)
    for rejection in verdict.rejections:
        assert expected in rejection.reason, rejection
        assert rejection.path == case.name and rejection.line > 1 and rejection.test


@pytest.mark.parametrize("case", ACCEPT, ids=lambda p: p.stem)
def test_accepts_oracle_calls(case: Path) -> None:
    verdict = _check(case)
    assert verdict.rejections == ()
    assert verdict.checked and set(verdict.checked) == verdict.passed


def test_only_changed_tests_are_checked() -> None:
    source = (CASES / "reject" / "test_no_oracle.py").read_text(encoding="utf-8")
    source += "\n\n@given(st.integers())\ndef test_new(x):\n    assert x == x + 0\n"
    last = len(source.splitlines())
    verdict = check_source("t.py", source, HOUSE, frozenset({last}))
    assert verdict.checked == ("test_new",)
    assert [r.test for r in verdict.rejections] == ["test_new"]


def test_star_import_and_full_dotted_call() -> None:
    source = (
        "from lanegate.oracles import *\nimport lanegate.oracles\n\n"
        "def test_a(x):\n    idempotent(abs, x)\n\n"
        "def test_b(y):\n    lanegate.oracles.commutes(max, y, 3)\n"
    )
    verdict = check_source("t.py", source, HOUSE)
    assert verdict.passed == {"test_a", "test_b"}


def test_unrelated_module_with_same_function_name_is_not_an_oracle() -> None:
    source = "from mylib import round_trip\n\ndef test_a(x):\n    round_trip(str, int, x)\n"
    verdict = check_source("t.py", source, HOUSE)
    assert "calls no oracle" in verdict.rejections[0].reason


def test_syntax_error_is_a_rejection_not_a_crash() -> None:
    verdict = check_source("t.py", "def test_a(:\n", HOUSE)
    assert verdict.rejections and "cannot parse" in verdict.rejections[0].reason


def test_new_file_without_tests_is_rejected() -> None:
    verdict = check_source("test_empty.py", "import os\n", HOUSE)
    assert [r.reason for r in verdict.rejections] == [
        "pytest collects no test from this new test file"
    ]


def test_dotted_policy_module() -> None:
    module = OracleModule.from_policy("acme.testing.laws", None)
    source = "from acme.testing import laws\n\ndef test_a(v):\n    laws.anything(v)\n"
    assert check_source("t.py", source, module).passed == {"test_a"}


UNITTEST_STYLE = """\
import unittest

from hypothesis import given, strategies as st

from lanegate.oracles import round_trip


class ChunkTests(unittest.TestCase):
    @given(st.lists(st.integers()))
    def test_round_trip(self, xs):
        round_trip(xs, list, list)

    def test_plain(self):
        self.assertEqual([1], [1])


def check_it():
    assert True
"""


def test_collected_node_ids_decide_what_is_a_test() -> None:
    ids = (
        "t.py::ChunkTests::test_plain",
        "t.py::ChunkTests::test_round_trip",
        "t.py::check_it",
    )
    verdict = check_source("t.py", UNITTEST_STYLE, HOUSE, None, ids)
    assert verdict.checked == ("ChunkTests.test_plain", "ChunkTests.test_round_trip", "check_it")
    assert verdict.passed == {"ChunkTests.test_round_trip"}
    assert {r.test for r in verdict.rejections} == {"ChunkTests.test_plain", "check_it"}
    # pytest's default names alone would not see the unittest class nor check_it
    assert check_source("t.py", UNITTEST_STYLE, HOUSE).checked == ()


def test_parametrized_ids_are_one_function_and_nothing_collected_is_rejected() -> None:
    source = "def test_a(n):\n    pass\n"
    verdict = check_source("t.py", source, HOUSE, None, ("t.py::test_a[1]", "t.py::test_a[2]"))
    assert verdict.checked == ("test_a",)
    empty = check_source("test_x.py", source, HOUSE, None, ())
    assert [r.reason for r in empty.rejections] == [
        "pytest collects no test from this new test file"
    ]


def test_a_test_without_an_oracle_names_each_oracle_module_once() -> None:
    source = "def test_a(x):\n    assert abs(x) >= 0\n"
    builtin = OracleModule.from_policy("lanegate.oracles", None)
    (rejection,) = check_source("t.py", source, builtin).rejections
    assert rejection.reason == "calls no oracle (lanegate.oracles)"
    (rejection,) = check_source("t.py", source, HOUSE).rejections
    assert rejection.reason == "calls no oracle (lanegate.oracles or tests/oracles.py)"
