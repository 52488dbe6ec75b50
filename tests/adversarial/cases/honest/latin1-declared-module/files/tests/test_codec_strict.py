
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

import pytest

from demo_lib.codec import decode, encode


def rejects(text):
    try:
        decode(text)
    except ValueError:
        return True
    return False


@settings(max_examples=30, database=None)
@given(st.lists(st.tuples(st.sampled_from("abcxyz"), st.integers(1, 30)), max_size=5))
def test_round_trip_still_holds(pairs):
    round_trip(encode, decode, "".join(c * n for c, n in pairs))


@settings(max_examples=30, database=None)
@given(st.text(alphabet="abc", max_size=10), st.integers(1, 99))
def test_trailing_count_rejected(text, n):
    equivalent(rejects, lambda s: True, encode(text) + str(n))
    equivalent(rejects, lambda s: False, encode(text))
