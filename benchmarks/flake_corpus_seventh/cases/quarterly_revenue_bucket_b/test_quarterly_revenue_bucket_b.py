from datetime import datetime, timezone

import quarterly_revenue_bucket_b_revenue as revenue


def utc(*args):
    return datetime(*args, tzinfo=timezone.utc).timestamp()


def test_orders_bucketed_by_quarter():
    orders = [
        (utc(2026, 2, 14, 12, 0), "120.00"),
        (utc(2026, 3, 31, 22, 30), "80.00"),   # late on the last day of Q1
        (utc(2026, 4, 1, 3, 0), "45.50"),      # early on the first day of Q2
        (utc(2026, 5, 20, 9, 15), "10.00"),
    ]
    assert revenue.revenue_by_quarter(orders) == {"2026-Q1": 200, "2026-Q2": 55.5}
