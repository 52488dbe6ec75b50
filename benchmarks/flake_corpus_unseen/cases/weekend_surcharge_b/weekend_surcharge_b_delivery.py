"""Courier delivery prices (cents)."""
from datetime import date

BASE_CENTS = 499
WEEKEND_SURCHARGE_CENTS = 300


def delivery_price(on=None, express=False):
    day = on or date.today()
    price = BASE_CENTS + (500 if express else 0)
    if day.weekday() >= 5:
        price += WEEKEND_SURCHARGE_CENTS
    return price
