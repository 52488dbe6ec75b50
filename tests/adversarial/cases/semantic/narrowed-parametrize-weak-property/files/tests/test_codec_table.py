import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@pytest.mark.parametrize(
    ("text", "encoded"),
    [
        ("", ""),
        ("a", "1a"),
        ("aaab", "3a1b"),
    ],
)
def test_known_encodings(text, encoded):
    assert encode(text) == encoded
    assert decode(encoded) == text


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xy", max_size=6))
def test_short_round_trip(text):
    round_trip(encode, decode, text)
