import pytest
from hypothesis import given, settings, strategies as st

from durations import format_duration, parse_duration
from lanegate.oracles import round_trip


@settings(deadline=None)
@given(st.integers(0, 10**9))
def test_format_parse_round_trip(seconds):
    round_trip(format_duration, parse_duration, seconds)


@settings(deadline=None)
@given(st.integers(0, 10**6), st.sampled_from("xyzw"))
def test_unknown_unit_is_rejected(number, unit):
    text = f"{number}{unit}"
    with pytest.raises((ValueError, KeyError)):
        round_trip(parse_duration, format_duration, text)
