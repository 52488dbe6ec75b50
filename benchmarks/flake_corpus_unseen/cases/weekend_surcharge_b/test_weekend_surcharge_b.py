from datetime import date

from weekend_surcharge_b_delivery import delivery_price


def test_standard_delivery_price():
    assert delivery_price() == 499
    assert delivery_price(express=True) == 999


def test_saturday_surcharge():
    assert delivery_price(date(2026, 12, 5)) == 799
