"""flake-nondeterministic says what disagreed: the outcomes when they differ, and when every run
ended alike (the lane marked the test because its failures differed, or no run completed), that,
never "outcomes disagree" over a list of identical outcomes."""

from __future__ import annotations

from lanegate.ledgers.models import AuthorKind, FlakeTest, Outcome
from lanegate.model import Severity
from lanegate.scoring import lane_reasons
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace

NODE = "tests/test_calc.py::test_order"
DIFFERS = "replay 2 run 1 (hash seed 7) failed with 'KeyError: b'; replay 0 with 'KeyError: a'"


def _messages(test: FlakeTest) -> list[str]:
    ledger = replace(samples.flake_ledger(), tests=(test,), deterministic=False, leases=())
    reasons = lane_reasons(
        ledger, policy=samples.POLICY, now=samples.NOW, authorship=AuthorKind.AGENT
    )
    return [
        r.message
        for r in reasons
        if r.severity is Severity.ERROR and r.rule_id == "flake-nondeterministic"
    ]


def test_outcomes_that_differ_are_listed() -> None:
    test = samples.flake_test(NODE, (Outcome.PASSED, Outcome.FAILED, Outcome.PASSED))
    [message] = _messages(test)
    assert message.startswith(f"{NODE}: outcomes disagree across replays (r0.0=passed, r1.0=failed")


def test_all_failed_but_differently_says_how() -> None:
    test = samples.flake_test(NODE, (Outcome.FAILED,) * 3)
    [message] = _messages(replace(test, deterministic=False, reproduce=DIFFERS))
    assert message == f"{NODE}: failed in all 33 runs, but not the same way: {DIFFERS}"
    assert "disagree across replays" not in message


def test_all_errored_is_no_disagreement_but_an_incomplete_replay() -> None:
    test = replace(samples.flake_test(NODE, (Outcome.ERROR,) * 3), deterministic=False)
    assert _messages(test) == []  # no run completed, so none can disagree
    ledger = replace(samples.flake_ledger(), tests=(test,), deterministic=False, leases=())
    reasons = lane_reasons(
        ledger, policy=samples.POLICY, now=samples.NOW, authorship=AuthorKind.AGENT
    )
    assert any(r.rule_id == "flake-test-failed" and NODE in r.message for r in reasons), reasons
