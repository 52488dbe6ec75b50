# expect: with itself as its own reference
from hypothesis import given, strategies as st

from lanegate import oracles

from mylib import fast_sort


@given(st.lists(st.integers()))
def test_fast_sort(xs):
    oracles.equivalent(fast_sort, fast_sort, xs)
