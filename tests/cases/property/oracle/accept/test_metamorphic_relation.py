from hypothesis import given, strategies as st

from lanegate.oracles import idempotent

from mylib import take


@given(st.lists(st.integers()), st.integers(0, 10))
def test_limit_keeps_a_prefix(xs, n):
    idempotent(sorted, xs)
    out = take(xs, limit=n)
    full = take(xs)
    if len(full) <= n:
        assert out == full


def _check_limit(xs, n):
    out = take(xs, limit=n)
    full = take(xs)
    if len(full) <= n:
        assert out == full


@given(st.lists(st.integers()), st.integers(0, 10))
def test_limit_keeps_a_prefix_in_a_helper(xs, n):
    idempotent(sorted, xs)
    _check_limit(xs, n)
