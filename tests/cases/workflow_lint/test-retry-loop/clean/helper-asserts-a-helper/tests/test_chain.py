"""A helper that asserts another helper's result fails on the first failure: each round of a loop
is one more check, not a retry."""

import random


def attempt(seed):
    try:
        assert random.Random(seed).random() < 2
        return True
    except AssertionError:
        return False


def check(seed):
    assert attempt(seed)


def checked(seed):
    ok = attempt(seed)
    assert ok
    return seed


def test_every_seed_checked():
    for seed in range(5):
        check(seed)


def test_every_seed_checked_and_kept():
    assert [checked(seed) for seed in range(5)] == list(range(5))
