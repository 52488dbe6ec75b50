from hypothesis import given, settings, strategies as st

from lanegate.oracles import idempotent
from tagging import normalize_tag


@settings(deadline=None)
@given(st.text(max_size=40), st.booleans())
def test_normalize_is_idempotent(tag, lower):
    idempotent(lambda t: normalize_tag(t, lower=lower), tag)
