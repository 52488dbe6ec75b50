import random

from raffle_seed_b_app import pick_winner, sample_ids


def test_sample_ids():
    random.seed(2024)
    assert len(set(sample_ids(3))) == 3


def test_pick_winner():
    assert pick_winner(["ann", "bob", "cy", "dee"]) == "cy"
