from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from lanegate.errors import LeaseError
from lanegate.lanes.flake.leases import evaluate_leases, load_leases, parse_leases, pr_body_leases
from lanegate.ledgers.models import (
    FLAKE_WRITER,
    AuthorKind,
    FlakeLedger,
    LeaseEvaluation,
    SuiteCollection,
)
from lanegate.model import Severity
from lanegate.policy import Policy
from lanegate.scoring import lane_reasons
from tests.unit.scoring.samples import SANDBOX

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
EXPIRES = "2026-07-01T00:00:00Z"
TEST_ID = "tests/test_old.py::test_timing"


def lease(**over: object) -> dict[str, object]:
    value: dict[str, object] = {
        "test_id": TEST_ID,
        "class": "timing",
        "leased_at": "2026-05-01T00:00:00Z",
        "expires_at": EXPIRES,
        "root_cause_hash": None,
        "max_reruns": 2,
        "reruns_used": 1,
    }
    value.update(over)
    return value


def doc(*leases: dict[str, object]) -> bytes:
    return json.dumps({"schema_version": 1, "leases": list(leases)}).encode()


def body(test_id: str = TEST_ID, when: str = EXPIRES) -> str:
    return f"Fixes the parser.\n\nlanegate-lease: {test_id} expires {when}\n"


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"expires_at": "2026-07-01T00:00:00"}, "expires_at"),
        ({"leased_at": "yesterday"}, "leased_at"),
        ({"root_cause_hash": "not-a-hash"}, "root_cause_hash"),
        ({"reruns_used": -1}, "reruns_used"),
        ({"max_reruns": True}, "max_reruns"),
        ({"expires_at": "2026-04-01T00:00:00Z"}, "expires_at"),
        ({"test_id": "  "}, "test_id"),
        ({"owner": "me"}, "owner"),
    ],
)
def test_malformed_lease_is_one_line_naming_the_field(over: dict[str, object], field: str) -> None:
    with pytest.raises(LeaseError) as info:
        parse_leases(doc(lease(**over)), "flake_leases.json")
    message = info.value.diagnostic()
    assert "\n" not in message
    assert message.startswith("flake_leases.json")
    assert field in message


def test_duplicate_and_invalid_json_are_errors() -> None:
    with pytest.raises(LeaseError, match="leased twice"):
        parse_leases(doc(lease(), lease()), "flake_leases.json")
    with pytest.raises(LeaseError, match="invalid JSON"):
        parse_leases(b"{", "flake_leases.json")


def test_class_and_reruns_are_kept_for_the_scorer() -> None:
    parsed = parse_leases(doc(lease(**{"class": "network", "reruns_used": 5})), "f.json")
    assert parsed.leases[0].lease_class == "network"
    assert parsed.leases[0].reruns_used == 5


def test_pr_body_lines() -> None:
    shown = pr_body_leases(body() + "lanegate-lease: other::t expires soon\n")
    assert shown[TEST_ID] == [datetime(2026, 7, 1, tzinfo=UTC)]
    assert shown["other::t"] == [None]
    assert pr_body_leases("no leases here") == {}


def _evaluate(
    pr_body: str | None, touched: tuple[str, ...] = (), **over: object
) -> LeaseEvaluation:
    (evaluation,) = evaluate_leases(parse_leases(doc(lease(**over)), "f.json"), touched, pr_body)
    return evaluation


def test_evaluation_matching_body_untouched() -> None:
    evaluation = _evaluate(body())
    assert evaluation.pr_body_checked
    assert evaluation.pr_body_expires_at == evaluation.expires_at
    assert not evaluation.touched_by_diff


def test_evaluation_other_date_missing_line_no_body_touched() -> None:
    assert _evaluate(body(when="2026-08-01T00:00:00Z")).pr_body_expires_at == datetime(
        2026, 8, 1, tzinfo=UTC
    )
    assert _evaluate("nothing").pr_body_expires_at is None
    unchecked = _evaluate(None)
    assert not unchecked.pr_body_checked and unchecked.pr_body_expires_at is None
    assert _evaluate(body(), touched=(TEST_ID + "[1]",)).touched_by_diff


def ledger_with(evaluation: LeaseEvaluation, authorship: AuthorKind) -> FlakeLedger:
    return FlakeLedger(
        schema_version=1,
        writer=FLAKE_WRITER,
        lane_name="agent-score",
        suite_id="agent-score:flake",
        run_attempt=1,
        base_commit="a" * 40,
        head_commit="b" * 40,
        lanegate_version="0.1.0",
        job="local",
        created_utc=NOW,
        sandbox=SANDBOX,
        authorship=authorship,
        deterministic=True,
        min_replays=3,
        replays=(),
        tests=(),
        leases=(evaluation,),
        suite=SuiteCollection(ran=True, head_tests=2, base_tests=2),
    )


def rules(
    pr_body: str | None,
    touched: tuple[str, ...] = (),
    authorship: AuthorKind = AuthorKind.AGENT,
    **over: object,
) -> dict[str, Severity]:
    evaluation = _evaluate(pr_body, touched, **over)
    reasons = lane_reasons(
        ledger_with(evaluation, authorship),
        policy=Policy(),
        now=NOW,
        authorship=authorship,
        pr_body=pr_body,
        run_attempt=1,
    )
    return {r.rule_id: r.severity for r in reasons}


def test_active_lease_shown_in_body_is_a_warning_only() -> None:
    assert rules(body()) == {"flake-lease-active": Severity.WARNING}


def test_every_lease_rule_fails() -> None:
    expired = "2026-05-15T00:00:00Z"
    assert rules(body(), **{"class": "network"})["flake-lease-class"] is Severity.ERROR
    assert rules(body(when=expired), expires_at=expired)["flake-lease-expired"] is Severity.ERROR
    assert rules(body(), reruns_used=3)["flake-lease-reruns"] is Severity.ERROR
    assert rules(body(), touched=(TEST_ID,))["flake-lease-touched"] is Severity.ERROR
    assert rules(body(when="2026-08-01T00:00:00Z"))["flake-lease-not-in-pr"] is Severity.ERROR
    assert rules("no line")["flake-lease-not-in-pr"] is Severity.ERROR
    assert rules(None)["flake-lease-not-in-pr"] is Severity.ERROR


def test_expired_with_root_cause_and_human_touch_do_not_fail() -> None:
    expired = "2026-05-15T00:00:00Z"
    cause = "sha256:" + "ab" * 32
    assert not rules(body(when=expired), expires_at=expired, root_cause_hash=cause)
    human = rules(body(), touched=(TEST_ID,), authorship=AuthorKind.HUMAN)
    assert "flake-lease-touched" not in human


def test_load_from_commit_and_work_tree(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo("r")
    assert load_leases(repo.path, "flake_leases.json") is None
    repo.write("flake_leases.json", doc(lease()).decode())
    sha = repo.commit("leases")
    from_commit = load_leases(repo.path, "flake_leases.json", sha)
    from_tree = load_leases(repo.path, "flake_leases.json")
    assert from_commit is not None and from_tree is not None
    assert from_commit.leases[0].expires_at == datetime(2026, 7, 1, tzinfo=UTC)
    assert from_commit == from_tree
