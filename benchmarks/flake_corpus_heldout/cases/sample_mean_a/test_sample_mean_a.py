import math
import random
import statistics

from sample_mean_a_app import mean


def test_mean_matches_statistics():
    data = [random.uniform(0, 100) for _ in range(7)]
    assert math.isclose(mean(data), statistics.fmean(data), rel_tol=1e-12)
