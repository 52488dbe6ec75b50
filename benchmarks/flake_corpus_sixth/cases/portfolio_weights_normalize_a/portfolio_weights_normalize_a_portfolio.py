"""Random long-only portfolios for the backtest's Monte Carlo baseline."""
import random


def normalize(raw):
    total = sum(raw)
    return [w / total for w in raw]


def random_portfolio(n, rng=random):
    return normalize([rng.random() for _ in range(n)])
