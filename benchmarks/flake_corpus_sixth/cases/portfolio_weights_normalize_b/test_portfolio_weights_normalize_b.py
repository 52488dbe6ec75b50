import pytest

import portfolio_weights_normalize_b_portfolio as portfolio


def test_random_portfolio_weights_sum_to_one():
    weights = portfolio.random_portfolio(5)
    assert all(w >= 0 for w in weights)
    assert sum(weights) == 1.0
