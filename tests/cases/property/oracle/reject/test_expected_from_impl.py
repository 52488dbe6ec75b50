# expect: with the very call it checks
from hypothesis import given, strategies as st

from lanegate.oracles import idempotent

from mylib import normalize


@given(st.text())
def test_normalize(s):
    idempotent(normalize, s)
    expected = normalize(s)
    assert normalize(s) == expected
