from datetime import datetime

from dst_duration_b_app import hours_between


def test_day_has_24_hours():
    assert hours_between(datetime(2026, 3, 29), datetime(2026, 3, 30)) == 24
