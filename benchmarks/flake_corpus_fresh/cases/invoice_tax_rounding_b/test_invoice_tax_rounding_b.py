from invoice_tax_rounding_b_invoice import accounting_total, invoice_total, random_basket


def test_invoice_total_matches_accounting():
    basket = random_basket()
    assert invoice_total(basket) == accounting_total(basket), basket
