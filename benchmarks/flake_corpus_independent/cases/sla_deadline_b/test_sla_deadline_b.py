from datetime import date, timedelta


def add_business_days(start, n):
    d = start
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def test_deadline_three_days_out():
    today = date.today()
    deadline = add_business_days(today, 3)
    assert deadline.weekday() < 5
    assert (deadline - today).days == 3
