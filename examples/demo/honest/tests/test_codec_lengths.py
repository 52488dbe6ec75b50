from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

# Long runs: counts of two or more digits must survive the round trip too.
runs = st.lists(st.tuples(st.sampled_from("xyz"), st.integers(1, 30)), max_size=4)


@settings(database=None)
@given(runs)
def test_decode_inverts_encode_on_long_runs(pairs):
    text = "".join(letter * count for letter, count in pairs)
    round_trip(encode, decode, text)
