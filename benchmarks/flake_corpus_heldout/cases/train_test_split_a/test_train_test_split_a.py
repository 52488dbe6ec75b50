from train_test_split_a_app import split


def test_split_has_both_parts():
    train, test = split(list(range(10)))
    assert train and test
    assert sorted(train + test) == list(range(10))
