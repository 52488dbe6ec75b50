# expect: only on constants
from hypothesis import given, strategies as st

from lanegate import oracles


@given(st.integers())
def test_codec(x):
    oracles.round_trip(str, int, 5)
