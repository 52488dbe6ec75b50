from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

letters = st.text(alphabet="a", max_size=0)


@settings(max_examples=20, database=None)
@given(letters)
def test_decode_inverts_encode(text):
    round_trip(encode, decode, text)
