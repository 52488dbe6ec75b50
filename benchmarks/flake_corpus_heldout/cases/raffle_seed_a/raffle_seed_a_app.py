import random


def sample_ids(k, rng=random):
    return rng.sample(range(10000), k)


def pick_winner(entries, rng=random):
    return rng.choice(entries)
