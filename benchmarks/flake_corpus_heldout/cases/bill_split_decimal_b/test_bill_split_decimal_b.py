from decimal import Decimal, localcontext

from bill_split_decimal_b_app import estimate, split_bill


def test_split_bill_adds_up():
    shares = split_bill(Decimal("100.00"), 3)
    assert sum(shares) == Decimal("100.00")
    assert shares[1] == Decimal("33.33")


def test_estimate_mode():
    with localcontext() as ctx:
        ctx.prec = 3
        assert estimate(Decimal("100.00"), 3) == Decimal("33.3")
