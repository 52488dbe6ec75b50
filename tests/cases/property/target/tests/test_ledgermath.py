from hypothesis import given, settings
from hypothesis import strategies as st

import ledgermath as lm
from lanegate import oracles

amounts = st.lists(st.integers(min_value=-10**6, max_value=10**6), max_size=8)


@given(amounts)
def test_amounts_round_trip(xs):
    oracles.round_trip(lm.encode_amounts, lm.decode_amounts, xs)


@given(st.integers(-50, 50), st.integers(-20, 0), st.integers(0, 20))
def test_clamp_stays_in_range(x, lo, hi):
    got = lm.clamp(x, lo, hi)
    oracles.schema({"got": got}, ["got"], types={"got": int})
    oracles.ordered([lo, got, hi])
    oracles.idempotent(lambda v: lm.clamp(v, lo, hi), x)


@given(st.text(alphabet="abC ", max_size=12))
def test_normalize_idempotent(name):
    oracles.idempotent(lm.normalize, name)


@given(st.lists(st.integers(0, 100), max_size=8))
def test_running_total_monotonic(xs):
    totals = lm.running_total(xs)
    oracles.ordered(totals)
    oracles.invariant(lm.running_total, len, xs)
    oracles.equivalent(lambda v: lm.running_total(v)[-1:], lambda v: [sum(v)] if v else [], xs)


@given(st.integers(0, 1000), st.integers(1, 9))
def test_split_evenly(total, parts):
    shares = lm.split_evenly(total, parts)
    oracles.equivalent(sum, lambda s: total, shares)
    oracles.ordered(sorted(shares))
    assert max(shares) - min(shares) <= 1


@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 500))
def test_fee_monotonic(a, b, bps):
    oracles.monotonic(lambda amount: lm.apply_fee(amount, bps), a, b)


@settings(max_examples=20)
@given(st.integers(0, 30))
def test_count_up(n):
    oracles.equivalent(lm.count_up, lambda v: v, n)
