import os

from currency_env_b_money import format_price


def test_price_formatted_in_default_currency():
    assert format_price(1234.5) == "$1,234.50"


def test_price_formatted_in_euro(monkeypatch):
    os.environ["SHOP_CURRENCY"] = "EUR"
    assert format_price(3) == "\u20ac3.00"
