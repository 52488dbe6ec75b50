
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=40, database=None)
@given(st.lists(st.tuples(st.sampled_from("xyz"), st.integers(1, 30)), max_size=4))
def test_decode_inverts_encode_runs(pairs):
    assume(all(n <= 12 for _, n in pairs))
    text = "".join(c * n for c, n in pairs)
    round_trip(encode, decode, text)
