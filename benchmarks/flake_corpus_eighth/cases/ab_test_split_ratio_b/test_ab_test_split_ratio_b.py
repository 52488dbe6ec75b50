import ab_test_split_ratio_b_ab as ab


def test_split_is_roughly_even():
    arms = [ab.arm("pricing-page", uid) for uid in range(200)]
    assert 90 <= arms.count("A") <= 110, arms.count("A")
