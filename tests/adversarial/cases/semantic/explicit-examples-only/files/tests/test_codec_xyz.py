
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(max_examples=20, database=None, phases=[Phase.explicit])
@given(st.text(alphabet="xyz"))
@example("")
@example("x")
@example("xxxxxxxxxxxx")
@example("xyzzy")
@example("yyyyyyyyyyy")
def test_decode_inverts_encode_examples(text):
    round_trip(encode, decode, text)
