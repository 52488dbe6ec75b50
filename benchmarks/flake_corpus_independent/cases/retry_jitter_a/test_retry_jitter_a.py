import random


def jittered_delay(base, rng=random):
    return base * (0.5 + rng.random())


def test_jitter_is_centered():
    rng = random.Random(20240611)
    delays = [jittered_delay(1.0, rng) for _ in range(100)]
    mean = sum(delays) / len(delays)
    assert 0.95 <= mean <= 1.05
    assert all(0.5 <= d < 1.5 for d in delays)
