# expect: function under test itself
from hypothesis import given, strategies as st

from lanegate.oracles import idempotent

from mylib import normalize


@given(st.text())
def test_normalize(s):
    idempotent(normalize, s)
    expected = normalize(s)
    assert normalize(s) == expected
