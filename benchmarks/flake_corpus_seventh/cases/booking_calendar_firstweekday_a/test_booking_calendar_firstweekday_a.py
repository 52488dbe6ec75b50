import calendar

import booking_calendar_firstweekday_a_grid as grid


def test_month_grid_starts_monday():
    rows = grid.month_grid(2026, 12)  # 1 December 2026 is a Tuesday
    assert rows[0] == [0, 1, 2, 3, 4, 5, 6]
    assert grid.week_header()[0] == "Mo"


def test_us_grid_starts_sunday():
    calendar.setfirstweekday(calendar.SUNDAY)
    rows = grid.month_grid(2026, 12)
    assert rows[0] == [0, 0, 1, 2, 3, 4, 5]
