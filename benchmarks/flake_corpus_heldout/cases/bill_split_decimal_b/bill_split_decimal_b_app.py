from decimal import ROUND_DOWN, Decimal, getcontext

CENT = Decimal("0.01")


def split_bill(total, people):
    share = (total / people).quantize(CENT, rounding=ROUND_DOWN)
    shares = [share] * people
    shares[0] += total - share * people
    return shares


def estimate(total, people):
    return +(total / people)
