import datetime

from happy_hour_pricing_a_pricing import price


def test_regular_price_without_discount():
    assert price(10.0, now=datetime.datetime(2024, 5, 2, 11, 15)) == 10.0
