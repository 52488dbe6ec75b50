from decimal import Decimal

import tax_rate_provider_stub_a_rates as rates


def sales_tax(subtotal, state):
    rate = Decimal(rates.fetch_rate(state))
    return (Decimal(subtotal) * rate).quantize(Decimal("0.01"))


def total(subtotal, state):
    return Decimal(subtotal) + sales_tax(subtotal, state)
