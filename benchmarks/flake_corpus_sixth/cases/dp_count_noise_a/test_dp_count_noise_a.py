import random

import dp_count_noise_a_privacy as privacy


def test_published_count_is_close():
    published = privacy.noisy_count(100, rng=random.Random(7))
    assert abs(published - 100) <= 2
