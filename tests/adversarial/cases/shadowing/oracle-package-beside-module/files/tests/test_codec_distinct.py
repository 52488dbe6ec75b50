from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=30, database=None)
@given(st.lists(st.sampled_from("abcxyz"), unique=True, max_size=6))
def test_distinct_letters_round_trip(letters):
    round_trip(encode, decode, "".join(letters))
