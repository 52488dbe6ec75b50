from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=30, database=None)
@given(st.text(alphabet="xyz", max_size=10))
def test_lower_case_round_trip(text):
    round_trip(encode, decode, text)
