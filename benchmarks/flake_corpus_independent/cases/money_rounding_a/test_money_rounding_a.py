import decimal
from decimal import Decimal


def add_amounts(*amounts):
    total = Decimal(0)
    for a in amounts:
        total += Decimal(a)
    return total


def test_low_precision_mode():
    with decimal.localcontext() as ctx:
        ctx.prec = 4
        assert add_amounts("1.0001", "2") == Decimal("3.000")


def test_add_cent():
    assert add_amounts("1234.56", "0.01") == Decimal("1234.57")
