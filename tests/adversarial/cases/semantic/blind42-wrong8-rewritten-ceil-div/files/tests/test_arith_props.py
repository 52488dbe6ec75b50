from fractions import Fraction
import math

from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent
from paging import ceil_div


@settings(deadline=None)
@given(st.integers(-10**12, 10**12), st.integers(1, 10**6))
def test_ceil_div_matches_exact_ceiling(a, b):
    equivalent(ceil_div, lambda x, y: math.ceil(Fraction(x, y)), a, b)
