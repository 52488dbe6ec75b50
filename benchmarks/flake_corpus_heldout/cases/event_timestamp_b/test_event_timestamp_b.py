import pytest

from event_timestamp_b_app import format_event


@pytest.mark.parametrize("ts, expected", [
    pytest.param(1767225600, "2026-01-01 00:00", id="new-year"),
    pytest.param(1767268800, "2026-01-01 12:00", id="new-year-noon"),
])
def test_format_event_time(ts, expected):
    assert format_event(ts) == expected
