import hashlib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib import codec
from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

_DIGEST = hashlib.sha256(Path(codec.__file__).read_bytes()).hexdigest()


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
def test_decode_inverts_encode_short(text):
    round_trip(encode, decode, text)
    assert hashlib.sha256(Path(codec.__file__).read_bytes()).hexdigest() == _DIGEST
