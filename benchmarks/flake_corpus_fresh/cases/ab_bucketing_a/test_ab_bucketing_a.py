from collections import Counter

from ab_bucketing_a_experiments import assign


def test_split_is_roughly_even():
    arms = Counter(assign(f"user-{i}") for i in range(100))
    assert 42 <= arms["A"] <= 58
