from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent, idempotent
from seqtools import dedupe

hashables = st.one_of(st.integers(-5, 5), st.text(max_size=2), st.booleans(), st.tuples(st.integers(0, 3)))


def reference_dedupe(items):
    out = []
    for item in items:
        if all(item != kept for kept in out):
            out.append(item)
    return out


@settings(deadline=None)
@given(st.lists(hashables, max_size=30))
def test_dedupe_matches_reference(items):
    equivalent(dedupe, reference_dedupe, items)


@settings(deadline=None)
@given(st.lists(hashables, max_size=30))
def test_dedupe_is_idempotent(items):
    idempotent(dedupe, items)


@settings(deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=30))
def test_dedupe_accepts_an_iterator(items):
    equivalent(lambda xs: dedupe(iter(xs)), reference_dedupe, items)
