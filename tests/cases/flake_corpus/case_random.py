"""Randomness: unseeded use of the global `random` module (flaky) and seeded or exact look-alikes."""

import random


def test_coin_flip_heads():
    assert random.random() < 0.5


def test_dice_even():
    assert random.randint(1, 6) % 2 == 0


def test_choice_first_colour():
    assert random.choice(["red", "blue"]) == "red"


def test_shuffle_keeps_head():
    items = [1, 2, 3]
    random.shuffle(items)
    assert items[0] in (1, 2)


def test_sample_contains_zero():
    assert 0 in random.sample(range(4), 2)


def test_getrandbits_low_bit():
    assert random.getrandbits(8) & 1 == 0


def test_seeded_instance_is_stable():
    rng = random.Random(1234)
    assert rng.random() == random.Random(1234).random()


def test_random_below_one():
    assert 0.0 <= random.random() < 1.0


def test_shuffle_is_permutation():
    items = list(range(10))
    random.shuffle(items)
    assert sorted(items) == list(range(10))


def test_choice_from_one():
    assert random.choice(["only"]) == "only"


def test_randint_in_range():
    assert 1 <= random.randint(1, 6) <= 6
