from decimal import Decimal, getcontext, localcontext

import fx_decimal_context_a_fx as fx


def test_vat_is_rounded_to_cents():
    assert fx.vat("12345.67") == Decimal("2345.68")
    assert fx.vat("0.99") == Decimal("0.19")


def test_rate_display_has_four_significant_digits():
    getcontext().prec = 4
    assert fx.display_rate("1", "1.234567") == Decimal("1.235")
