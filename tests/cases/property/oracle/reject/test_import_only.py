# expect: imports an oracle but never calls it
from hypothesis import given, strategies as st

from lanegate.oracles import round_trip  # noqa: F401


@given(st.integers())
def test_int_text(x):
    assert int(str(x)) == x
