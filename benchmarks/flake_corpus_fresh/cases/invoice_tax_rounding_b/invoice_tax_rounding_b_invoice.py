import random
from decimal import ROUND_HALF_UP, Decimal

CATALOG = [1.15, 2.35, 4.45, 0.85, 9.99, 12.50, 3.05, 7.25]
TAX = "1.1"


def random_basket(k=3):
    return random.choices(CATALOG, k=k)


def invoice_total(prices):
    total = sum(Decimal(str(p)) for p in prices) * Decimal(TAX)
    return float(total.quantize(Decimal("0.01"), ROUND_HALF_UP))


def accounting_total(prices):
    total = sum(Decimal(str(p)) for p in prices) * Decimal(TAX)
    return float(total.quantize(Decimal("0.01"), ROUND_HALF_UP))
