from hypothesis import given, strategies as st

from tests import oracles as house
from tests.oracles import check_ledger
from lanegate.oracles import commutes

from mylib import merge


def check_merge(a, b):
    commutes(merge, a, b)


@given(st.dictionaries(st.text(), st.integers()))
def test_ledger(entries):
    check_ledger(entries)


@given(st.integers(), st.integers())
def test_house(a, b):
    house.balanced(a, b)


@given(st.sets(st.integers()), st.sets(st.integers()))
def test_merge_commutes(a, b):
    check_merge(a, b)
