from datetime import datetime, timezone

import support_desk_hours_a_desk as desk


def test_desk_open_on_weekday_afternoon():
    assert desk.is_open(datetime(2026, 12, 7, 15, 0, tzinfo=timezone.utc))      # Monday
    assert not desk.is_open(datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc))  # Saturday
