import pytest
from hypothesis import given, settings, strategies as st

from stats import mean, median


def test_mean_simple():
    assert mean([1, 2, 3, 4]) == 2.5


def test_median_odd():
    assert median([3, 1, 2]) == 2
    assert median([5]) == 5


def test_empty_raises():
    with pytest.raises(ValueError):
        median([])
    with pytest.raises(ValueError):
        mean([])


@settings(deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=1))
def test_mean_between_min_and_max(xs):
    assert min(xs) <= mean(xs) <= max(xs)
