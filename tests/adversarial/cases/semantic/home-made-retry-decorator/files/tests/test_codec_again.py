from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip
from support import persistent


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
@persistent(3)
def test_round_trip_persistently(text):
    round_trip(encode, decode, text)
