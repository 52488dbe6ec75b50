import math
import random

from monte_carlo_pi_a_app import estimate_pi


def test_pi_estimate_is_close():
    assert abs(estimate_pi(2000, random.Random(12345)) - math.pi) < 0.05
