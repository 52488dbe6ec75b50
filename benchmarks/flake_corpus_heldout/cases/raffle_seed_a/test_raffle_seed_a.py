import random

from raffle_seed_a_app import pick_winner, sample_ids


def test_sample_ids():
    rng = random.Random(2024)
    assert len(set(sample_ids(3, rng))) == 3


def test_pick_winner():
    rng = random.Random(2024)
    sample_ids(3, rng)
    assert pick_winner(["ann", "bob", "cy", "dee"], rng) == "cy"
