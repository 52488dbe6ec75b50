import datetime

from happy_hour_pricing_b_pricing import price


def test_regular_price_without_discount():
    assert price(10.0) == 10.0
