import pytest
from hypothesis import given, settings, strategies as st

import durations
from durations import format_duration, parse_duration, parse_or_default
from lanegate.oracles import equivalent, round_trip


@settings(deadline=None)
@given(st.integers(0, 10**9))
def test_format_parse_round_trip(seconds):
    round_trip(format_duration, parse_duration, seconds)


@settings(deadline=None)
@given(st.integers(0, 10**6), st.sampled_from("xyzwM"), st.integers())
def test_unknown_unit_is_a_value_error_of_its_own(number, unit, default):
    text = f"{number}{unit}"
    with pytest.raises(durations.UnknownUnit) as info:
        parse_duration(text)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == f"unknown unit {unit!r} in {text!r}"
    equivalent(lambda t: parse_or_default(t, default), lambda t: default, text)
