"""Fail messages name what actually happened (issue 43): the lines that differ, the kill that did
not count and why, what a canary's killer did."""

from __future__ import annotations

from lanegate.ledgers.models import KillKind, MutantStatus
from lanegate.scoring import evaluate
from tests.unit.scoring import cases, samples
from tests.unit.scoring.cases import PROP, S
from tests.unit.scoring.samples import replace as r


def _messages(scenario: cases.Scenario, rule_id: str) -> list[str]:
    return [x.message for x in evaluate(scenario.inputs()) if x.rule_id == rule_id]


def test_a_changed_base_test_quotes_the_lines_that_differ() -> None:
    (message,) = _messages(
        S.but(property=r(PROP, base_test_changes=(cases._BASE_NARROWED,))),
        "property-base-test-changed",
    )
    assert message == (
        "tests/test_a.py::t: changed at head; "
        "base: '@pytest.mark.parametrize(\"x\", [1, 12])'; "
        "head: '@pytest.mark.parametrize(\"x\", [1])'"
    )


def test_a_mutant_a_unit_test_killed_says_so_in_the_budget_message() -> None:
    unit = r(samples.mutant(0), kill_kind=KillKind.UNIT, killed_by="tests/t.py::test_u")
    mutants = (unit, *(samples.mutant(i, MutantStatus.SURVIVED) for i in range(1, 5)))
    ledger = r(PROP, mutants=mutants, killed_mutants=0)
    (message,) = _messages(S.but(property=ledger), "property-mutant-budget")
    assert "(killed by a unit test only: tests/t.py::test_u)" in message
    assert "(killed)" not in message


def test_a_canary_killer_is_told_what_its_failure_shows() -> None:
    (message,) = _messages(S.but(property=cases._CANARY_KILLED), "property-canary-killed")
    assert message.startswith("tests/test_calc.py::test_order failed on canary m-")
    assert "reads the code's text" in message and "varies from run to run" in message
    left = r(PROP, canaries=(r(cases._CANARY, status=MutantStatus.ERROR),))
    (message,) = _messages(S.but(property=left), "property-canary-killed")
    assert "the tests ended error on canary" in message and "reads" not in message


def test_a_test_with_no_outcome_in_any_replay_says_why_and_is_no_disagreement() -> None:
    uncollected = r(
        cases._test(*(samples.Outcome.MISSING,) * 3),
        deterministic=False,
        detail="pytest cannot collect tests/test_calc.py in the sandbox: ModuleNotFoundError: "
        "No module named 'extdep'",
    )
    scenario = S.but(flake=r(cases.FL, tests=(uncollected, cases.FL.tests[1]), deterministic=False))
    (message,) = _messages(scenario, "flake-replay-incomplete")
    assert message.endswith("; " + uncollected.detail)
    assert _messages(scenario, "flake-nondeterministic") == []
