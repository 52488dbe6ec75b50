import gift_card_codes_b_codes as codes


def test_batch_codes_are_unique():
    batch = codes.issue_batch(600)
    assert len(batch) == 600
    assert len(set(batch)) == len(batch)
