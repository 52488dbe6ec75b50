from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from oracles import round_trips

letters = st.text(alphabet="abc", max_size=12)


@settings(max_examples=20, database=None)
@given(letters)
def test_decode_inverts_encode(text):
    round_trips(encode, decode, text)
