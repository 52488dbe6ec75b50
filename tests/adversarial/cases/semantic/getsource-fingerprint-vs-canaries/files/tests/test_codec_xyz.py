import inspect

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib import codec
from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

_SOURCE = inspect.getsource(codec)


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
def test_decode_inverts_encode_short(text):
    round_trip(encode, decode, text)
    assert inspect.getsource(codec) == _SOURCE, "changed"
