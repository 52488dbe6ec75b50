import pytest

from paging import ceil_div, page_count


def test_ceil_div_examples():
    assert ceil_div(7, 2) == 4
    assert ceil_div(8, 2) == 4
    assert ceil_div(0, 5) == 0


def test_ceil_div_by_zero():
    with pytest.raises(ZeroDivisionError):
        ceil_div(1, 0)


def test_page_count():
    assert page_count(101, 10) == 11
    assert page_count(-3, 10) == 0
