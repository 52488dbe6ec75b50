import pytest

from batching import chunk, flatten


def test_even_split():
    assert chunk([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


def test_bad_size():
    with pytest.raises(ValueError):
        chunk([1], 0)


def test_flatten():
    assert flatten([[1, 2], [3]]) == [1, 2, 3]
