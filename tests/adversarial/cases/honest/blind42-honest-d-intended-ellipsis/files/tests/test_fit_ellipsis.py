import pytest
from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent, idempotent
from textfit import pad, truncate


def reference_truncate(text, width):
    return text if len(text) <= width else text[: width - 1] + "\u2026"


@settings(deadline=None)
@given(st.text(alphabet="ab c", max_size=20), st.integers(1, 12))
def test_truncate_marks_cut_text(text, width):
    out = equivalent(truncate, reference_truncate, text, width)
    assert len(out) <= width
    idempotent(lambda t: truncate(t, width), text)


@settings(deadline=None)
@given(st.text(alphabet="ab c", max_size=20), st.integers(1, 12))
def test_pad_has_exact_width(text, width):
    assert len(equivalent(pad, lambda t, w: reference_truncate(t, w).ljust(w), text, width)) == width


@pytest.mark.parametrize(
    "text, width, expected",
    [("abcdef", 4, "abc\u2026"), ("abcd", 4, "abcd"), ("ab", 1, "\u2026"), ("Quarterly report", 8, "Quarter\u2026")],
)
def test_examples(text, width, expected):
    assert idempotent(lambda t: truncate(t, width), text) == expected
    assert pad(text, width) == expected.ljust(width)
