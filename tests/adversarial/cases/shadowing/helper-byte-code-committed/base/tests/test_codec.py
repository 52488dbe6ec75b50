from hypothesis import given, settings

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip
from strategies import letters


@settings(max_examples=20, database=None)
@given(letters)
def test_decode_inverts_encode(text):
    round_trip(encode, decode, text)
