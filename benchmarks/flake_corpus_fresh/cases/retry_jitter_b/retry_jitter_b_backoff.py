import random


def delays(attempts, base=0.1, cap=2.0, rng=random):
    out = []
    for i in range(attempts):
        d = min(cap, base * 2 ** i)
        out.append(d + rng.uniform(0, d))
    return out
