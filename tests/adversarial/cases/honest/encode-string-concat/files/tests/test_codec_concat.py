
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from demo_lib.codec import decode, encode


@settings(max_examples=40, database=None)
@given(st.lists(st.tuples(st.sampled_from("abcxyz"), st.integers(1, 30)), max_size=5))
def test_round_trip_runs(pairs):
    round_trip(encode, decode, "".join(c * n for c, n in pairs))


