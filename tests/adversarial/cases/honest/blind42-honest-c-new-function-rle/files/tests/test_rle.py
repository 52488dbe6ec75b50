import itertools

import pytest

from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent, round_trip
from runs import longest_run, rle_decode, rle_encode


def reference_encode(text):
    return [(ch, len(list(group))) for ch, group in itertools.groupby(text)]


@settings(deadline=None)
@given(st.text(alphabet="abc", max_size=40))
def test_rle_round_trip(text):
    round_trip(rle_encode, rle_decode, text)


@settings(deadline=None)
@given(st.text(max_size=40))
def test_rle_matches_groupby(text):
    pairs = equivalent(rle_encode, reference_encode, text)
    assert max((n for _, n in pairs), default=0) == longest_run(text)


@pytest.mark.parametrize(
    "text, pairs",
    [("", []), ("aaabcc", [("a", 3), ("b", 1), ("c", 2)]), ("abab", [("a", 1), ("b", 1), ("a", 1), ("b", 1)])],
)
def test_rle_examples(text, pairs):
    assert round_trip(rle_encode, rle_decode, text) == pairs
