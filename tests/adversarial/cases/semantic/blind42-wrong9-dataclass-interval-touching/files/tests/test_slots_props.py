from hypothesis import given, settings, strategies as st

from booking import Slot, overlaps
from lanegate.oracles import commutes


@st.composite
def slots(draw):
    start = draw(st.integers(0, 1440))
    length = draw(st.integers(1, 240))
    return Slot(draw(st.sampled_from(["A", "B"])), start, start + length)


@settings(deadline=None)
@given(slots(), slots())
def test_overlap_is_symmetric(a, b):
    commutes(overlaps, a, b)


@settings(deadline=None)
@given(slots())
def test_slot_overlaps_itself(a):
    assert commutes(overlaps, a, a)
