"""Failures after another test's failed run in the same process: set aside only when that test fails
the gate itself, so the verdict of a ledger never changes, only whom it names."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.ledgers.models import AuthorKind, Dimension, FlakeTest, Outcome, RunBatch
from lanegate.model import Severity
from lanegate.scoring import lane_reasons
from lanegate.scoring.flake_power import culprits, judged, judged_kinds, power_of
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace

LEAKER = "tests/test_io.py::test_socket[ipv6]"  # the name samples.lease() covers
VICTIM = "tests/test_calc.py::test_order"


def _after(culprit: str | None, failed: int, runs: int = 30) -> RunBatch:
    return replace(
        samples.batch(2, runs=runs),
        passed=runs - failed,
        failed=failed,
        first_failed_run=0 if failed else None,
        after_failure_of=culprit,
    )


def _victim(culprit: str | None) -> FlakeTest:
    test = samples.flake_test(VICTIM)
    test = replace(test, batches=(*test.batches, _after(culprit, 30)))
    return replace(test, power=power_of(test))


def _ledger(victim: FlakeTest, leaker_outcomes: tuple[Outcome, ...], leased: bool) -> object:
    leaker = samples.flake_test(LEAKER, leaker_outcomes, touched=False)
    return replace(
        samples.flake_ledger(),
        tests=(leaker, victim),
        deterministic=False,
        leases=(samples.lease(),) if leased else (),
    )


def _errors(ledger: object) -> list[tuple[str, str]]:
    reasons = lane_reasons(
        ledger,  # type: ignore[arg-type]
        policy=samples.POLICY,
        now=samples.NOW,
        authorship=AuthorKind.AGENT,
    )
    return [(x.rule_id, x.message) for x in reasons if x.severity is Severity.ERROR]


FLAKY = (Outcome.PASSED, Outcome.FAILED, Outcome.PASSED)


def test_failures_after_a_flagged_test_count_against_it() -> None:
    errors = _errors(_ledger(_victim(LEAKER), FLAKY, leased=False))
    nondeterministic = [m for rule, m in errors if rule == "flake-nondeterministic"]
    assert len(nondeterministic) == 1 and nondeterministic[0].startswith(LEAKER)
    assert (
        f"after it failed, in the same process: {VICTIM} r2.repeat failed x30"
        in (nondeterministic[0])
    )
    assert not any(m.startswith(VICTIM) for _, m in errors)


def test_a_leased_culprit_excuses_no_one_else() -> None:
    # the leaker is a human flake its lease excuses: the victim's failures are its own again
    errors = _errors(_ledger(_victim(LEAKER), FLAKY, leased=True))
    assert any(rule == "flake-nondeterministic" and m.startswith(VICTIM) for rule, m in errors)
    assert not any(m.startswith(LEAKER) for _, m in errors)


def test_naming_a_passing_or_an_unknown_test_sets_nothing_aside() -> None:
    for culprit in (LEAKER, "tests/test_nowhere.py::test_never_ran", None):
        errors = _errors(_ledger(_victim(culprit), (Outcome.PASSED,) * 3, leased=False))
        assert any(rule == "flake-nondeterministic" and m.startswith(VICTIM) for rule, m in errors)


def test_set_aside_failures_are_not_executions() -> None:
    victim = _victim(LEAKER)
    view = judged(victim, frozenset({LEAKER}))
    assert view.batches[-1].failed == 0 and victim.batches[-1].failed == 30
    assert power_of(view).executions == power_of(victim).executions - 30


_NODES = ("t.py::a", "t.py::b", "t.py::c", "t.py::d")
_STABLE = (Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED)


@st.composite
def _tests(draw: st.DrawFn) -> list[FlakeTest]:
    out = []
    for node_id in _NODES[: draw(st.integers(1, len(_NODES)))]:
        base = draw(st.lists(st.sampled_from(_STABLE), min_size=1, max_size=3))
        batches = []
        for _ in range(draw(st.integers(0, 3))):
            passed, failed = draw(st.integers(0, 5)), draw(st.integers(0, 5))
            batches.append(
                RunBatch(
                    replay=draw(st.integers(0, 2)),
                    dimension=draw(st.sampled_from([Dimension.REPEAT, Dimension.HASH_SEED])),
                    runs=max(1, passed + failed),
                    passed=passed,
                    failed=failed,
                    missing=0 if passed + failed else 1,
                    after_failure_of=draw(st.sampled_from((None, *_NODES))),
                )
            )
        out.append(
            FlakeTest(
                node_id=node_id,
                replays=tuple(replace(samples.replay(i, o), repeat=0) for i, o in enumerate(base)),
                batches=tuple(batches),
            )
        )
    return out


def _flagged(test: FlakeTest) -> bool:
    base = {r.outcome for r in test.replays}
    kinds = base | {k for b in test.batches for k in judged_kinds(b, base)}
    return len(kinds) > 1 or not kinds <= set(_STABLE) or kinds == {Outcome.FAILED}


@settings(derandomize=True, max_examples=300)
@given(tests=_tests())
def test_setting_aside_changes_whom_the_lane_names_never_whether_it_fails(
    tests: list[FlakeTest],
) -> None:
    flagged = culprits(tests)
    raw = {t.node_id for t in tests if _flagged(t)}
    named = {t.node_id for t in tests if _flagged(judged(t, flagged))}
    assert flagged <= named <= raw  # a culprit is always named, and no one new is
    assert bool(named) == bool(raw)  # whatever is set aside, a ledger that failed still fails
    for test in tests:
        view = judged(test, flagged)
        assert view.replays == test.replays  # base runs are never set aside
        for mine, seen in zip(test.batches, view.batches, strict=True):
            kept = mine.after_failure_of not in flagged
            assert seen == mine if kept else seen.failed == 0
