import math
import random

PRICES = [0.3, 1.25, 3.3, 12.0, 7.77]


def basket_total(prices):
    return math.fsum(prices)


def test_total_independent_of_order():
    items = PRICES[:]
    random.shuffle(items)
    assert basket_total(items) == basket_total(PRICES)
