from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=20, database=None)
@given(st.lists(st.tuples(st.sampled_from("xyz"), st.integers(1, 30)), max_size=4))
def test_round_trip_long_runs(pairs):
    round_trip(encode, decode, "".join(char * n for char, n in pairs))
