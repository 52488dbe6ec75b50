import random


def jittered_delay(base):
    return base * (0.5 + random.random())


def test_jitter_is_centered():
    delays = [jittered_delay(1.0) for _ in range(100)]
    mean = sum(delays) / len(delays)
    assert 0.95 <= mean <= 1.05
    assert all(0.5 <= d < 1.5 for d in delays)
