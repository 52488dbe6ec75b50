import math

from monte_carlo_pi_b_app import estimate_pi


def test_pi_estimate_is_close():
    assert abs(estimate_pi(2000) - math.pi) < 0.05
