import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

pytest.importorskip("a_module_no_machine_has_installed")


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=40))
def test_decode_inverts_encode(text):
    round_trip(encode, decode, text)
