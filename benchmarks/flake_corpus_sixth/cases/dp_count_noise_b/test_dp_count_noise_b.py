import random

import dp_count_noise_b_privacy as privacy


def test_published_count_is_close():
    published = privacy.noisy_count(100)
    assert abs(published - 100) <= 2
