import re

import pytest

from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent, idempotent
from slugs import slugify


def reference_slugify(text, sep):
    return sep.join(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)


@settings(deadline=None)
@given(st.text(alphabet="Ab 1-_!", max_size=20), st.lists(st.sampled_from(["-", "_", "", "--"]), min_size=1, max_size=4))
def test_cached_slugify_agrees_for_every_separator(text, seps):
    for sep in seps:
        equivalent(slugify, reference_slugify, text, sep)
    idempotent(slugify, text)


@pytest.mark.parametrize("text", ["Cache Key Check", "another Title 2"])
def test_separator_is_part_of_the_key(text):
    first = equivalent(slugify, reference_slugify, text, "-")
    assert equivalent(slugify, reference_slugify, text, "_") == first.replace("-", "_")
    assert equivalent(slugify, reference_slugify, text, "-") == first
