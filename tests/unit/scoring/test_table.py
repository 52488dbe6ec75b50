"""Every decision-table row has a scenario that trips it and one that passes it."""

from __future__ import annotations

import pytest

from lanegate.model import Severity
from lanegate.scoring import RULES, TABLE, evaluate, score
from tests.unit.scoring.cases import CASES, S


def test_the_sample_run_passes_without_any_reason() -> None:
    inputs = S.inputs()
    assert evaluate(inputs) == []
    report = score(inputs)
    assert report.verdict == "pass"
    assert report.fails == () and report.warns == ()


def test_every_case_names_a_row() -> None:
    assert set(CASES) <= set(RULES), sorted(set(CASES) - set(RULES))


@pytest.mark.parametrize("rule_id", [row.rule_id for row in TABLE])
def test_row_trips(rule_id: str) -> None:
    assert rule_id in CASES, f"add tripping and passing scenarios for {rule_id} to cases.py"
    row = RULES[rule_id]
    for n, scenario in enumerate(CASES[rule_id].trips):
        reasons = evaluate(scenario.inputs())
        fired = [r for r in reasons if r.rule_id == rule_id]
        assert fired, f"trip scenario {n} did not fire {rule_id}: {reasons}"
        assert all(r.severity is row.severity for r in fired)
        assert all(r.fix == row.fix and r.message for r in fired)
        report = score(scenario.inputs())
        if row.severity is Severity.ERROR:
            assert report.verdict == "fail"
            assert any(f.rule_id == rule_id for f in report.fails)
        else:
            assert any(w.rule_id == rule_id for w in report.warns)


@pytest.mark.parametrize("rule_id", [row.rule_id for row in TABLE])
def test_row_passes(rule_id: str) -> None:
    case = CASES[rule_id]
    assert case.passes
    for n, scenario in enumerate(case.passes):
        reasons = evaluate(scenario.inputs())
        assert not [r for r in reasons if r.rule_id == rule_id], f"pass scenario {n}: {reasons}"
        if case.passes_fully:
            report = score(scenario.inputs())
            assert report.verdict == "pass", (n, report.fails)
