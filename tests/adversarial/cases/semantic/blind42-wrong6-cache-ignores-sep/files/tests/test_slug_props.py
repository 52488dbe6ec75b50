from hypothesis import given, settings, strategies as st

from lanegate.oracles import idempotent
from slugs import slugify


@settings(deadline=None)
@given(st.text(max_size=60))
def test_slugify_is_idempotent(text):
    slug = idempotent(slugify, text)
    assert slug == slug.strip("-")
