from datetime import date

from weekend_surcharge_a_delivery import delivery_price


def test_standard_delivery_price():
    tuesday = date(2026, 12, 1)
    assert delivery_price(tuesday) == 499
    assert delivery_price(tuesday, express=True) == 999


def test_saturday_surcharge():
    assert delivery_price(date(2026, 12, 5)) == 799
