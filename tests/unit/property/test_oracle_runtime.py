"""Runtime oracle evidence: the baseline run records which lines called a trusted oracle, and a test
whose checked oracle call never runs (a condition never true, a replaced oracle) reaches none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lanegate.lanes.property import oracle_ast
from lanegate.lanes.property.baseline import run_baseline
from lanegate.lanes.property.runner import OracleCheck, oracle_reached
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox
from tests.unit.property.test_canaries import CANARY_TARGET

EVASIONS = """
import lanegate.oracles
from hypothesis import given
from hypothesis import strategies as st

import shapes
from lanegate import oracles


def _check(n):
    oracles.equivalent(shapes.sign, lambda v: (v > 0) - (v < 0), n)


@given(st.integers(-50, 50))
def test_honest(n):
    oracles.equivalent(shapes.sign, lambda v: (v > 0) - (v < 0), n)


@given(st.integers(-50, 50))
def test_through_helper(n):
    _check(n)


@given(st.integers(-50, 50))
def test_never_true(n):
    assert shapes.sign(n) in (-1, 0, 1)
    if n > 10**9:
        oracles.equivalent(shapes.sign, lambda v: (v > 0) - (v < 0), n)


@given(st.integers(-50, 50))
def test_early_return(n):
    if n < 1000:
        return
    oracles.equivalent(shapes.sign, lambda v: (v > 0) - (v < 0), n)


@given(st.integers(-50, 50))
def test_forged_elsewhere(n):
    oracles.idempotent(abs, 1)  # reached, but on a constant: not the checked call
    if n > 10**9:
        oracles.equivalent(shapes.sign, lambda v: (v > 0) - (v < 0), n)


def _lenient(f, reference, *args):
    return None


@given(st.integers(-50, 50))
def test_replaced(n):
    saved = lanegate.oracles.equivalent
    lanegate.oracles.equivalent = _lenient
    try:
        lanegate.oracles.equivalent(shapes.sign, lambda v: -v, n)
    finally:
        lanegate.oracles.equivalent = saved


@given(st.text(max_size=5))
def test_builtins_only(text):
    oracles.idempotent(str.lower, text)
"""
WANT = {
    "test_honest": True,
    "test_through_helper": True,
    "test_never_true": False,
    "test_early_return": False,
    "test_replaced": False,
    "test_forged_elsewhere": False,
    "test_builtins_only": True,
}


@pytest.fixture
def target(tmp_path: Path) -> Path:
    dest = tmp_path / "canary_target"
    shutil.copytree(CANARY_TARGET, dest, ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "tests" / "test_evasions.py").write_text(EVASIONS, encoding="utf-8")
    (dest / "lanegate.toml").write_text('[properties]\nmodule = "lanegate.oracles"\n')
    return dest


def test_static_sites_follow_helpers() -> None:
    custom = oracle_ast.OracleModule.from_policy("lanegate.oracles", None)
    verdict = oracle_ast.check_source("tests/test_evasions.py", EVASIONS, custom)
    assert set(WANT) <= verdict.passed  # every evasion passes the syntax check
    helper_line = EVASIONS.splitlines().index("def _check(n):") + 2
    assert (helper_line, helper_line) in verdict.sites["test_through_helper"]


def test_only_the_tests_that_run_their_oracle_reach_it(target: Path) -> None:
    policy = load_policy(target)
    baseline = run_baseline(
        target, policy, [target / "shapes.py"], sandbox=open_sandbox(target), record_oracles=True
    )
    custom = oracle_ast.OracleModule.from_policy("lanegate.oracles", None)
    verdict = oracle_ast.check_source("tests/test_evasions.py", EVASIONS, custom)
    check = OracleCheck(
        new_test_files=("tests/test_evasions.py",),
        test_files=("tests/test_evasions.py",),
        passed=frozenset(f"tests/test_evasions.py::{n}" for n in verdict.passed),
        rejections=(),
        sites={
            f"tests/test_evasions.py::{n}": ("tests/test_evasions.py", s)
            for n, s in verdict.sites.items()
        },
    )
    got = {}
    for name in WANT:
        node = f"tests/test_evasions.py::{name}"
        entry = baseline.tests[node]
        assert entry["outcome"] == "passed", (name, entry)
        got[name] = oracle_reached(target, check, node, entry.get("oracle_calls")) > 0
    assert got == WANT


def test_a_test_that_calls_no_project_code_reaches_none(target: Path) -> None:
    """Calls into the project's own files count whether or not they are traced for coverage; a
    property on builtins counts none (what `property-no-code-reached` fails)."""
    policy = load_policy(target)
    for trace in ([], [target / "shapes.py"]):
        baseline = run_baseline(
            target, policy, trace, sandbox=open_sandbox(target), record_oracles=True
        )
        calls = {
            name: baseline.tests[f"tests/test_evasions.py::{name}"].get("code_calls")
            for name in ("test_honest", "test_through_helper", "test_builtins_only")
        }
        assert calls["test_honest"] > 0 and calls["test_through_helper"] > 0, (trace, calls)
        assert calls["test_builtins_only"] == 0, (trace, calls)
