"""Publishing aggregate counts with noise (a simple differential-privacy style mechanism)."""
import random


def noisy_count(true_count, sigma=1.5, rng=random):
    return max(0, round(true_count + rng.gauss(0, sigma)))
