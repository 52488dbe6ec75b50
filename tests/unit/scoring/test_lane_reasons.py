"""`lane_reasons`: what a lane CLI uses to decide its exit code, one ledger at a time."""

from __future__ import annotations

from datetime import datetime

import pytest

from lanegate.errors import UsageError
from lanegate.ledgers.models import AuthorKind, Outcome
from lanegate.model import Lane, Severity
from lanegate.scoring import RULES, TABLE, Scope, lane_reasons
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace as r


def _errors(ledger: object, **kwargs: object) -> list[str]:
    reasons = lane_reasons(
        ledger,  # type: ignore[arg-type]
        policy=samples.POLICY,
        now=samples.NOW,
        authorship=kwargs.pop("authorship", AuthorKind.AGENT),  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )
    return [x.rule_id for x in reasons if x.severity is Severity.ERROR]


@pytest.mark.parametrize(
    "ledger", [samples.property_ledger(), samples.fixture_ledger(), samples.flake_ledger()]
)
def test_sample_ledgers_would_pass(ledger: object) -> None:
    assert _errors(ledger) == []
    assert _errors(ledger, pr_body=samples.PR_BODY, run_attempt=1, expect_jobs=True) == []


def test_property_failure_is_an_error_of_the_property_lane() -> None:
    ledger = r(samples.property_ledger(), cases_run=0, properties=())
    reasons = lane_reasons(
        ledger, policy=samples.POLICY, now=samples.NOW, authorship=AuthorKind.AGENT
    )
    assert {x.rule_id for x in reasons} == {"property-no-cases"}
    assert all(x.lane is Lane.PROPERTY for x in reasons)


def test_flake_disagreement_and_provenance_rows_apply_to_one_ledger() -> None:
    test = samples.flake_test("t.py::t", (Outcome.PASSED, Outcome.FAILED, Outcome.PASSED))
    ledger = r(samples.flake_ledger(), tests=(test,), deterministic=False, run_attempt=2)
    assert set(_errors(ledger)) == {"flake-nondeterministic", "run-attempt"}
    assert "run-attempt-mismatch" in _errors(ledger, run_attempt=1)


def test_wrong_writer_and_patch_job_fail_a_lane() -> None:
    ledger = r(samples.fixture_ledger(), writer="someone", job="patch")
    assert set(_errors(ledger)) == {"ledger-writer", "ledger-from-patch-job"}
    assert "ledger-wrong-job" in _errors(r(samples.fixture_ledger(), job="x"), expect_jobs=True)


def test_lease_on_touched_test_is_ignored_only_for_agents() -> None:
    ledger = r(samples.flake_ledger(), leases=(samples.lease(touched_by_diff=True),))
    assert _errors(ledger) == ["flake-lease-touched"]
    human = r(ledger, authorship=AuthorKind.HUMAN)
    assert _errors(human, authorship=AuthorKind.HUMAN) == []


def test_naive_now_is_refused() -> None:
    with pytest.raises(UsageError):
        lane_reasons(
            samples.property_ledger(),
            policy=samples.POLICY,
            now=datetime(2026, 1, 1),
            authorship=AuthorKind.AGENT,
        )


def test_lane_reasons_covers_every_slot_and_lane_row_but_no_run_row() -> None:
    lane_scopes = {Scope.SLOT, Scope.PROPERTY, Scope.FIXTURE, Scope.FLAKE}
    run_rows = {row.rule_id for row in TABLE if row.scope not in lane_scopes}
    assert "lint-retry-construct" in run_rows and "ledger-writer" not in run_rows
    assert all(RULES[rid].scope is Scope.RUN for rid in run_rows)


def test_lane_reasons_agree_with_the_scorer_on_every_case() -> None:
    """What a lane CLI predicts is exactly what `score` says about that ledger (same context)."""
    from lanegate.scoring import LoadedLedger, evaluate
    from tests.unit.scoring.cases import CASES

    lane_scopes = {Scope.SLOT, Scope.PROPERTY, Scope.FIXTURE, Scope.FLAKE}
    compared = 0
    for case in CASES.values():
        for scenario in (*case.trips, *case.passes):
            inputs = scenario.inputs()
            reasons = evaluate(inputs)
            for lane in (Lane.PROPERTY, Lane.FIXTURE, Lane.FLAKE):
                slot = inputs.slot(lane)
                if not isinstance(slot, LoadedLedger):
                    continue
                by_scorer = [
                    x for x in reasons if x.lane is lane and RULES[x.rule_id].scope in lane_scopes
                ]
                predicted = lane_reasons(
                    slot.value,
                    policy=inputs.policy,
                    now=inputs.now,
                    authorship=inputs.authorship,
                    pr_body=inputs.pr_body,
                    run_attempt=inputs.run_attempt,
                    expect_jobs=inputs.expect_jobs,
                    allow_rerun=inputs.allow_rerun,
                    path=slot.path,
                )
                assert predicted == by_scorer
                compared += 1
    assert compared > 300
