import calendar
from datetime import date


def renewal_date(start):
    year, month = (start.year + 1, 1) if start.month == 12 else (start.year, start.month + 1)
    day = min(start.day, calendar.monthrange(year, month)[1])
    return date(year, month, day)


def test_renewal_is_next_month():
    for start, expected in [(date(2024, 1, 31), date(2024, 2, 29)), (date(2023, 12, 15), date(2024, 1, 15)),
                            (date.today(), None)]:
        r = renewal_date(start)
        assert (r.year * 12 + r.month) - (start.year * 12 + start.month) == 1
        if expected:
            assert r == expected
