from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib import codec
from lanegate.oracles import equivalent, round_trip


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
def test_decode_inverts_encode_short(text):
    round_trip(codec.encode, codec.decode, text)


@settings(max_examples=20, database=None)
@given(st.integers(-1000, 1000))
def test_helpers(n):
    equivalent(codec.double, lambda v: v + v, n)
    equivalent(codec.successor, lambda v: v - -1, n)
    equivalent(codec.is_negative, lambda v: v != abs(v), n)
