from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

settings.register_profile("quick", max_examples=1, database=None)
settings.load_profile("quick")


@given(st.text(alphabet="xyz", max_size=40))
def test_decode_inverts_encode(text):
    round_trip(encode, decode, text)
