# expect: equals itself
from hypothesis import given, strategies as st

from lanegate import oracles

from mylib import encode


@given(st.binary())
def test_encode(data):
    oracles.round_trip(encode, bytes, data)
    assert encode(data) == encode(data)
