import random
import statistics

from sample_mean_b_app import mean


def test_mean_matches_statistics():
    data = [random.uniform(0, 100) for _ in range(7)]
    assert mean(data) == statistics.fmean(data)
