import itertools

import pytest

from hypothesis import example, given, settings, strategies as st

from batching import chunk, flatten
from lanegate.oracles import equivalent, round_trip


def reference_chunk(items, size):
    it = iter(items)
    return [list(b) for b in iter(lambda: tuple(itertools.islice(it, size)), ())]


@settings(deadline=None)
@given(st.lists(st.integers(), max_size=50), st.integers(1, 8))
@example([1, 2, 3, 4, 5], 2)
@example([1, 2], 5)
@example([], 3)
def test_chunk_matches_reference(items, size):
    equivalent(chunk, reference_chunk, items, size)


@settings(deadline=None)
@given(st.lists(st.integers(), max_size=50), st.integers(1, 8))
def test_chunk_keeps_every_item(items, size):
    round_trip(lambda xs: chunk(xs, size), flatten, items)


@pytest.mark.parametrize(
    "items, size, batches",
    [([1, 2, 3, 4, 5], 2, [[1, 2], [3, 4], [5]]), ([1, 2], 5, [[1, 2]]), ([1, 2, 3], 1, [[1], [2], [3]])],
)
def test_short_tail_is_kept(items, size, batches):
    assert round_trip(lambda xs: chunk(xs, size), flatten, items) == batches
