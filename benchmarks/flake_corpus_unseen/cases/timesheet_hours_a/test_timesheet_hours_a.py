import random

from timesheet_hours_a_timesheet import hours, hours_from_minutes


def test_weekly_total_matches_minutes():
    units = [random.randint(1, 9) for _ in range(4)]   # four bookings this week
    entries = [u / 10 for u in units]
    assert hours(entries) == hours_from_minutes(6 * sum(units)), entries
