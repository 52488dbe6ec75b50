# expect: dead code
from hypothesis import given, strategies as st

from lanegate import oracles


@given(st.lists(st.integers()))
def test_sort(xs):
    return
    oracles.idempotent(sorted, xs)
