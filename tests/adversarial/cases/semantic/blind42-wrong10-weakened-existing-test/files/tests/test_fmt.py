from hypothesis import given, settings, strategies as st

from lanegate.oracles import monotonic
from report import percent


def as_number(text):
    return float(text.rstrip("%"))


@settings(deadline=None)
@given(st.integers(0, 1000), st.integers(0, 1000), st.integers(1, 1000))
def test_percent_grows_with_part(a, b, whole):
    monotonic(lambda part: as_number(percent(part, whole)), a, b)
    assert percent(a, whole).endswith("%")


def test_percent_of_nothing():
    assert percent(5, 0) == "n/a"
