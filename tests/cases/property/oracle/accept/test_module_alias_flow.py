from hypothesis import given, strategies as st

import lanegate.oracles as o

from mylib import normalize


@given(st.text())
def test_normalize(raw):
    cleaned = raw.strip()
    o.idempotent(normalize, cleaned)


class TestOrder:
    @given(st.lists(st.integers()), st.lists(st.integers()))
    def test_total(self, a, b):
        pair = (a, b)
        for item in pair:
            o.ordered(sorted(item))
