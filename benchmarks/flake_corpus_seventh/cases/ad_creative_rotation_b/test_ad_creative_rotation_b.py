import random

import ad_creative_rotation_b_rotation as rotation

CAMPAIGN = [("banner-blue", 1), ("banner-red", 1), ("video-15s", 1)]


def test_rotation_is_roughly_even():
    rot = rotation.Rotation(CAMPAIGN)
    counts = rot.simulate(300)
    assert sum(counts.values()) == 300
    assert min(counts[name] for name, _ in CAMPAIGN) >= 85, counts


def test_zero_weight_never_shown():
    rot = rotation.Rotation([("a", 1), ("b", 0)], rng=random.Random(1))
    assert rot.simulate(50)["b"] == 0
