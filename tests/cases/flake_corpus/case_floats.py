"""Float summation order: totals that depend on hash order, test order or shuffling, and exact ones."""

import math
import random

WEIGHTS = {"alpha": 0.1, "beta": 0.2, "gamma": 0.3}
RUNNING = [0.0]


def test_sum_over_set_of_keys():
    assert sum(WEIGHTS[k] for k in set(WEIGHTS)) == 0.1 + 0.2 + 0.3


def test_running_total_once():
    RUNNING[0] += 0.1
    RUNNING[0] += 0.2
    assert RUNNING[0] == 0.30000000000000004


def test_shuffled_sum_exact():
    values = [0.1, 0.2, 0.3]
    random.shuffle(values)
    assert sum(values) == 0.6000000000000001


def test_fsum_over_set():
    assert math.fsum(WEIGHTS[k] for k in set(WEIGHTS)) == math.fsum([0.1, 0.2, 0.3])


def test_sorted_sum_over_set():
    assert sum(WEIGHTS[k] for k in sorted(WEIGHTS)) == 0.1 + 0.2 + 0.3


def test_shuffled_sum_isclose():
    values = [0.1, 0.2, 0.3]
    random.shuffle(values)
    assert math.isclose(sum(values), 0.6)
