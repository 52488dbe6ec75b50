import pytest

from textfit import pad, truncate


def test_short_text_unchanged():
    assert truncate("abc", 10) == "abc"
    assert truncate("abc", 3) == "abc"


def test_pad():
    assert pad("ab", 4) == "ab  "


def test_bad_width():
    with pytest.raises(ValueError):
        truncate("abc", 0)
