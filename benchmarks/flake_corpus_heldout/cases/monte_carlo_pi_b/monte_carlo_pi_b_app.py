import random


def estimate_pi(samples, rng=None):
    rng = rng or random
    inside = sum(1 for _ in range(samples) if rng.random() ** 2 + rng.random() ** 2 <= 1.0)
    return 4 * inside / samples
