import pytest

from booking import Slot, conflicts, overlaps


def test_overlap():
    assert overlaps(Slot("A", 600, 660), Slot("A", 630, 700))


def test_disjoint():
    assert not overlaps(Slot("A", 600, 660), Slot("A", 700, 760))


def test_other_room():
    assert not overlaps(Slot("A", 600, 660), Slot("B", 600, 660))


def test_conflicts():
    booked = [Slot("A", 0, 30), Slot("A", 100, 130)]
    assert conflicts(Slot("A", 20, 40), booked) == [Slot("A", 0, 30)]


def test_empty_slot_rejected():
    with pytest.raises(ValueError):
        Slot("A", 5, 5)
