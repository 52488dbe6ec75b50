import pytest

import currency_formatter_registry_init_b_money as money


@pytest.fixture
def app():
    money.bootstrap()


def test_bootstrap_registers_default_currencies():
    money.bootstrap()
    assert {"EUR", "USD", "JPY"} <= set(money._FORMATTERS)


def test_euro_prices_use_german_separators(app):
    assert money.format_price("1234.5", "EUR") == "1.234,50 \u20ac"
    assert money.format_price("0.99", "EUR") == "0,99 \u20ac"
