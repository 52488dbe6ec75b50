from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent
from stats import median


@settings(deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=1), st.randoms())
def test_median_ignores_order_and_stays_in_range(xs, rnd):
    shuffled = list(xs)
    rnd.shuffle(shuffled)
    m = equivalent(median, lambda v: median(sorted(v)), shuffled)
    assert min(xs) <= m <= max(xs)
