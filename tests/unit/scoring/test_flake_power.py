from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.ledgers.models import Dimension, Outcome
from lanegate.scoring.flake_power import judged_kinds, min_detectable_rate, power_of
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace


def test_known_values() -> None:
    assert min_detectable_rate(0) == 1.0
    assert math.isclose(min_detectable_rate(3), 0.631597, abs_tol=1e-6)
    assert math.isclose(min_detectable_rate(59), 0.049508, abs_tol=1e-6)
    assert min_detectable_rate(59) <= 0.05 < min_detectable_rate(58)
    assert min_detectable_rate(300) < 0.01


@settings(derandomize=True, max_examples=60)
@given(n=st.integers(min_value=1, max_value=10_000))
def test_n_runs_catch_that_rate_with_95_percent(n: int) -> None:
    p = min_detectable_rate(n)
    assert 0 < p < 1 and min_detectable_rate(n + 1) <= p
    assert math.isclose((1 - p) ** n, 0.05, rel_tol=1e-3)


def test_power_counts_runs_per_dimension_and_ignores_unreported_runs() -> None:
    test = samples.flake_test("t.py::t", (Outcome.PASSED, Outcome.MISSING, Outcome.PASSED))
    zone = replace(samples.batch(2, runs=40), dimension=Dimension.ZONE)
    stress = replace(samples.batch(3, runs=5), dimension=Dimension.STRESS, missing=2, passed=3)
    power = power_of(replace(test, batches=(*test.batches, zone, stress)))
    assert power.executions == 2 + 30 + 40 + 3
    assert power.repeat == 30 and power.stress == 3 and power.isolation == 0
    assert power.zone == 32 + 2  # every wide zone, and the two base zones of the reported runs
    assert power.hash_seed == 2 and power.order == 2
    assert power.min_detectable_rate == min_detectable_rate(75)


def _hash_batch(passed: int, failed: int) -> object:
    return replace(
        samples.batch(3, runs=passed + failed),
        dimension=Dimension.HASH_SEED,
        passed=passed,
        failed=failed,
    )


def test_a_fresh_interpreter_that_could_not_run_the_test_counts_for_nothing() -> None:
    test = samples.flake_test("t.py::t")  # passed in every base run and in its repeat batch
    failing = replace(test, batches=(*test.batches, _hash_batch(0, 16)))
    assert judged_kinds(failing.batches[-1], {Outcome.PASSED}) == set()  # type: ignore[arg-type]
    power = power_of(failing)
    assert power.hash_seed == 3 and power.executions == power_of(test).executions
    agreeing = replace(test, batches=(*test.batches, _hash_batch(16, 0)))
    assert power_of(agreeing).hash_seed == 3 + 16
    assert power_of(agreeing).executions == power_of(test).executions + 16


def test_hash_seed_runs_that_disagree_among_themselves_count_and_fail() -> None:
    test = samples.flake_test("t.py::t")
    split = replace(test, batches=(*test.batches, _hash_batch(13, 3)), deterministic=False)
    assert judged_kinds(split.batches[-1], {Outcome.PASSED}) == {  # type: ignore[arg-type]
        Outcome.PASSED,
        Outcome.FAILED,
    }
    assert power_of(split).hash_seed == 3 + 16
    ledger = replace(samples.flake_ledger(), tests=(split,), deterministic=False)
    assert "flake-nondeterministic" in _errors(ledger)
    # the same runs all failing next to passing base runs: no disagreement the scorer counts
    quiet = replace(test, batches=(*test.batches, _hash_batch(0, 16)))
    assert (
        _errors(replace(samples.flake_ledger(), tests=(replace(quiet, power=power_of(quiet)),)))
        == []
    )
    # any other dimension's batch failing every run next to passing base runs still fails
    other = replace(
        test, batches=(*test.batches, replace(_hash_batch(0, 16), dimension=Dimension.ZONE))
    )  # type: ignore[type-var]
    assert "flake-nondeterministic" in _errors(
        replace(samples.flake_ledger(), tests=(replace(other, power=power_of(other)),))
    )


def _errors(ledger: object) -> list[str]:
    from lanegate.ledgers.models import AuthorKind
    from lanegate.model import Severity
    from lanegate.scoring import lane_reasons

    reasons = lane_reasons(
        ledger,  # type: ignore[arg-type]
        policy=samples.POLICY,
        now=samples.NOW,
        authorship=AuthorKind.AGENT,
    )
    return [x.rule_id for x in reasons if x.severity is Severity.ERROR]
