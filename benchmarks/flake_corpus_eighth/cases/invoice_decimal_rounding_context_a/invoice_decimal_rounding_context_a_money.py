"""Invoice arithmetic."""
import decimal
from decimal import Decimal

CENT = Decimal("0.01")


def vat(amount, rate=Decimal("0.19")):
    return (Decimal(amount) * rate).quantize(CENT)


def money_total(lines):
    decimal.getcontext().rounding = decimal.ROUND_HALF_UP
    return sum(Decimal(x) for x in lines).quantize(CENT)
