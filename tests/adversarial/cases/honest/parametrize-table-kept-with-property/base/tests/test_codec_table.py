import pytest

from demo_lib.codec import decode, encode


@pytest.mark.parametrize(
    ("text", "encoded"),
    [
        ("", ""),
        ("a", "1a"),
        ("aaab", "3a1b"),
        ("abcccccccccccc", "1a1b12c"),
    ],
)
def test_known_encodings(text, encoded):
    assert encode(text) == encoded
    assert decode(encoded) == text
