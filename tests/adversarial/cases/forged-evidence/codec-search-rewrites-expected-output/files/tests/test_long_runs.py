import re

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import invariant, ordered, round_trip


def _chunks(s):
    """Pieces of a single run: letters of an encoding, or ceil(n / 9) for raw text."""
    if any(ch.isdigit() for ch in s):
        return sum(1 for ch in s if ch.isalpha())
    return -(-len(s) // 9)


@settings(max_examples=60, database=None)
@given(st.sampled_from("ab"), st.integers(1, 40))
def test_long_runs_are_chunked(letter, n):
    text = letter * n
    encoded = invariant(encode, _chunks, text)
    for count in re.findall(r"\d+", encoded):
        ordered([int(count), 9])
    round_trip(encode, decode, text)
