from decimal import Decimal

import tax_rate_provider_stub_b_checkout as checkout
import tax_rate_provider_stub_b_rates as rates


def test_oregon_has_no_sales_tax():
    assert checkout.sales_tax("100.00", "OR") == Decimal("0.00")
    assert checkout.total("59.90", "OR") == Decimal("59.90")


def test_tax_uses_provider_rate(monkeypatch):
    rates.fetch_rate = lambda state: "0.10"
    assert checkout.sales_tax("19.99", "OR") == Decimal("2.00")
