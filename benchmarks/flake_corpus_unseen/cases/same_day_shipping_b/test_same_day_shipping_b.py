from datetime import date, datetime

from same_day_shipping_b_shipping import checkout_promise, dispatch_date


def test_order_placed_now_ships_today():
    now = datetime(2026, 3, 10, 11, 45)
    promise = checkout_promise(now)
    assert promise["dispatch"] == now.date()


def test_late_order_ships_next_day():
    assert dispatch_date(datetime(2026, 3, 10, 18, 5)) == date(2026, 3, 11)
