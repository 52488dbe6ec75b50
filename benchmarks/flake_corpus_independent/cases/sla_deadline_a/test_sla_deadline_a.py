from datetime import date, timedelta


def add_business_days(start, n):
    d = start
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def test_deadline_three_days_out():
    assert add_business_days(date(2024, 6, 3), 3) == date(2024, 6, 6)   # Mon -> Thu
    assert add_business_days(date(2024, 6, 5), 3) == date(2024, 6, 10)  # Wed -> Mon
    deadline = add_business_days(date.today(), 3)
    assert deadline.weekday() < 5
    assert 3 <= (deadline - date.today()).days <= 5
