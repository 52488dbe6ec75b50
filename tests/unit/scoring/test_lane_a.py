"""The Lane A column (SPEC 10): a diff a human owns is scored by each row's Lane A entry."""

from __future__ import annotations

import pytest

from lanegate.github.report_view import render_summary
from lanegate.model import Severity
from lanegate.reporting.markdown import MarkdownReporter
from lanegate.reporting.text import TextReporter
from lanegate.scoring import RULES, TABLE, evaluate, score
from lanegate.scoring.table import Column
from tests.unit.scoring import cases
from tests.unit.scoring.cases import CASES, LANE_A_CASES, S, human

_SEVERITY = {Column.FAIL: Severity.ERROR, Column.WARN: Severity.WARNING, Column.NOTE: Severity.NOTE}


@pytest.mark.parametrize("rule_id", [row.rule_id for row in TABLE if row.lane_a_check is None])
def test_a_lane_b_trip_scored_as_human_follows_the_lane_a_column(rule_id: str) -> None:
    row = RULES[rule_id]
    column = row.lane_a_column
    for n, scenario in enumerate(CASES[rule_id].trips):
        fired = [r for r in evaluate(human(scenario).inputs()) if r.rule_id == rule_id]
        if column is Column.NONE:
            assert not fired, (n, fired)
        else:
            assert fired, f"trip {n} of {rule_id} did not fire for a human diff"
            assert {r.severity for r in fired} == {_SEVERITY[column]}, (n, fired)


@pytest.mark.parametrize("rule_id", sorted(LANE_A_CASES))
def test_lane_a_cases(rule_id: str) -> None:
    row, case = RULES[rule_id], LANE_A_CASES[rule_id]
    severity = _SEVERITY[row.lane_a_column]
    for n, scenario in enumerate(case.trips):
        fired = [r for r in evaluate(scenario.inputs()) if r.rule_id == rule_id]
        assert fired and {r.severity for r in fired} == {severity}, (n, fired)
        report = score(scenario.inputs())
        if severity is Severity.ERROR:
            assert any(f.rule_id == rule_id for f in report.fails)
        else:  # a note or a warning is listed, and never fails the gate on its own
            assert any(w.rule_id == rule_id and w.severity == severity.value for w in report.warns)
            assert not [f for f in report.fails if f.rule_id == rule_id]
    for n, scenario in enumerate(case.passes):
        reasons = evaluate(scenario.inputs())
        assert not [r for r in reasons if r.rule_id == rule_id], (n, reasons)
        if case.passes_fully:
            assert score(scenario.inputs()).verdict == "pass", n


def test_a_note_is_a_follow_up_and_the_human_gate_passes() -> None:
    report = score(human(S.but(property=cases._NO_ORACLE)).inputs())
    assert report.verdict == "pass"
    assert [(w.rule_id, w.severity) for w in report.warns] == [("property-missing-oracle", "note")]


@pytest.mark.parametrize(
    ("rule_id", "scenario"),
    [
        ("property-mutant-budget", S.but(property=cases._UNIT_ONLY)),
        ("property-function-budget", S.but(property=cases._UNIT_ONLY)),
        ("property-base-test-failed", S.but(property=cases._HUMAN_CHANGED_BASE_TEST)),
        ("flake-nondeterministic", cases._leased_flake(touched=True)),
        ("property-missing-oracle", S.but(property=cases._NO_ORACLE)),
    ],
)
def test_an_agent_diff_with_the_same_evidence_keeps_the_lane_b_fail(
    rule_id: str, scenario: cases.Scenario
) -> None:
    report = score(scenario.inputs())
    assert report.verdict == "fail"
    assert any(f.rule_id == rule_id for f in report.fails), report.fails
    assert score(human(scenario).inputs()).verdict == "pass" or rule_id == "flake-nondeterministic"


def test_a_ledger_written_for_an_agent_keeps_lane_b_under_a_human_scorer() -> None:
    # the scorer sees a human diff, but the flake lane judged the diff as an agent's
    scenario = human(cases._leased_flake(touched=True)).but(flake=cases._leased_flake(True).flake)
    fired = {r.rule_id: r.severity for r in evaluate(scenario.inputs())}
    assert fired.get("flake-nondeterministic") is Severity.ERROR


def test_every_lane_a_entry_differs_from_lane_b_or_is_left_out() -> None:
    for row in TABLE:
        assert row.lane_a is None or row.lane_a is not row.lane_b_column, row.rule_id


def test_every_report_view_lists_a_note_as_a_follow_up() -> None:
    scenario = human(S.but(property=cases._NO_ORACLE))
    report = score(scenario.inputs())
    assert "### Follow-ups" in render_summary(report)
    assert "### Warnings" not in render_summary(report)
    assert "### Follow-ups" in MarkdownReporter().render(report, scenario.inputs())
    text = TextReporter().render(report, scenario.inputs())
    assert "(0 fails, 0 warnings, 1 follow-up)" in text
    assert "  note  property-missing-oracle  tests/test_new.py:3  " in text
