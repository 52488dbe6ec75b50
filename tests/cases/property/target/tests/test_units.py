import ledgermath as lm


def test_fee_example():
    assert lm.apply_fee(10000, 25) == 25


def test_is_round():
    assert lm.is_round(300)
    assert not lm.is_round(301)
