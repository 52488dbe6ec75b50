from decimal import Decimal

import invoice_decimal_rounding_context_a_money as money


def test_vat_rounds_half_even():
    # 23.45 * 10 % = 2.345: the default context's banker's rounding gives 2.34 (the tax office's rule)
    assert money.vat("23.45", Decimal("0.10")) == Decimal("2.34")


def test_invoice_total():
    assert money.money_total(["1.005", "2.000"]) == Decimal("3.01")
