from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xy", max_size=6))
def test_fast_decode_round_trip(text):
    round_trip(encode, decode, text)
