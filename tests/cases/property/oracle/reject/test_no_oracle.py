# expect: calls no oracle
from hypothesis import given, strategies as st


@given(st.integers())
def test_abs(x):
    assert abs(x) >= 0
