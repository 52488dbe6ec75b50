from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from oracles import round_trips


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
def test_runs_round_trip(text):
    round_trips(encode, decode, text)
