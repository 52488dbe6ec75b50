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
    assert [r.reason for r in verdict.rejections] == ["new test file defines no test function"]


def test_dotted_policy_module() -> None:
    module = OracleModule.from_policy("acme.testing.laws", None)
    source = "from acme.testing import laws\n\ndef test_a(v):\n    laws.anything(v)\n"
    assert check_source("t.py", source, module).passed == {"test_a"}
