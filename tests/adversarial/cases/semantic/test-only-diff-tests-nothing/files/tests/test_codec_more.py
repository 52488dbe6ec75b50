from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import idempotent


@settings(max_examples=20, database=None)
@given(st.text(alphabet="abc", max_size=12))
def test_decode_is_stable(text):
    idempotent(str.lower, text)
