"""Currency helpers for the checkout: VAT in cents, display rates with few digits."""
from decimal import Decimal, localcontext


def vat(net, rate="0.19"):
    return (Decimal(net) * Decimal(rate)).quantize(Decimal("0.01"))


def display_rate(base, quote):
    return Decimal(quote) / Decimal(base)
