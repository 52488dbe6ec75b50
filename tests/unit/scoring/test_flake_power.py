from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.ledgers.models import Dimension, Outcome
from lanegate.scoring.flake_power import min_detectable_rate, power_of
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
