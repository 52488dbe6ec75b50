from decimal import Decimal, getcontext

from bill_split_decimal_a_app import estimate, split_bill


def test_split_bill_adds_up():
    shares = split_bill(Decimal("100.00"), 3)
    assert sum(shares) == Decimal("100.00")
    assert shares[1] == Decimal("33.33")


def test_estimate_mode():
    getcontext().prec = 3
    assert estimate(Decimal("100.00"), 3) == Decimal("33.3")
