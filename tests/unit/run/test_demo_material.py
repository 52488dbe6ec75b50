"""The shipped demo bundle matches examples/demo/, names real rule ids, and judging is exact."""

from __future__ import annotations

from datetime import UTC, datetime

from lanegate.demo import bundle
from lanegate.demo.scenario import heads, judge
from lanegate.ledgers.models import SCHEMA_VERSION, ReportReason, ScoreReport
from lanegate.scoring import RULES


def test_shipped_bundle_is_in_sync_with_examples_demo() -> None:
    assert bundle.main([]) == 0, "run: python -m lanegate.demo.bundle --write"


def test_every_expected_rule_id_is_a_decision_table_row() -> None:
    for head in heads(bundle.load_shipped()):
        assert head.expected_rule_ids <= set(RULES), head.name


def _report(verdict: str, *rule_ids: str) -> ScoreReport:
    return ScoreReport(
        schema_version=SCHEMA_VERSION,
        utc=datetime(2026, 1, 1, tzinfo=UTC),
        verdict=verdict,
        lane_name="demo",
        lanegate_version="0",
        run_attempt=1,
        base_commit=None,
        head_commit=None,
        fails=tuple(
            ReportReason(
                lane="gate", rule_id=r, severity="error", message="m", path=None, line=None, fix=""
            )
            for r in rule_ids
        ),
        warns=(),
        lanes=(),
        ledgers=(),
    )


def test_judging_is_exact_in_both_directions() -> None:
    agent = next(h for h in heads(bundle.load_shipped()) if h.name == "agent")
    ids = sorted(agent.expected_rule_ids)
    assert judge(agent, _report("fail", *ids)).as_expected
    missing = judge(agent, _report("fail", *ids[1:]))
    assert not missing.as_expected and missing.missing == {ids[0]}
    extra = judge(agent, _report("fail", *ids, "ledger-missing"))
    assert not extra.as_expected and extra.unexpected == {"ledger-missing"}
    assert not judge(agent, _report("pass", *ids)).as_expected
