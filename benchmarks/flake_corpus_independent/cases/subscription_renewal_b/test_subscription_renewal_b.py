from datetime import date


def renewal_date(start):
    if start.month == 12:
        return start.replace(year=start.year + 1, month=1)
    return start.replace(month=start.month + 1)


def test_renewal_is_next_month():
    today = date.today()
    r = renewal_date(today)
    assert (r.year * 12 + r.month) - (today.year * 12 + today.month) == 1
    assert r.day == today.day
