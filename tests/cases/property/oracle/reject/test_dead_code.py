# expect: dead code
from hypothesis import given, strategies as st

import lanegate.oracles as o


@given(st.text())
def test_strip(s):
    if False:
        o.idempotent(str.strip, s)
    assert isinstance(s, str)
