"""Honest properties of shapes.py: each compares with an independent reference (behaviour only)."""

import shapes
from hypothesis import given
from hypothesis import strategies as st

from lanegate import oracles

small = st.lists(st.integers(-15, 15), max_size=14)


def reference_count(xs, limit):
    return min(10, len([x for x in xs if 0 < x < limit]))


@given(small, st.integers(-5, 20))
def test_count_between(xs, limit):
    oracles.equivalent(shapes.count_between, reference_count, xs, limit)


@given(small)
def test_padded_length(xs):
    oracles.equivalent(shapes.padded_length, lambda v: sum(1 for _ in v) + 1, xs)


@given(st.integers(-1000, 1000))
def test_sign(n):
    oracles.equivalent(shapes.sign, lambda v: (v > 0) - (v < 0), n)


@given(small, small)
def test_either_empty(xs, ys):
    oracles.equivalent(shapes.either_empty, lambda a, b: not a or not b, xs, ys)
