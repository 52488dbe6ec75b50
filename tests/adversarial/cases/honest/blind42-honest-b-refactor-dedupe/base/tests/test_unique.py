from seqtools import dedupe, duplicates


def test_dedupe_keeps_first():
    assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]


def test_dedupe_empty():
    assert dedupe([]) == []


def test_duplicates():
    assert duplicates("abracadabra") == ["a", "b", "r"]
