"""Room bookings as half-open minute ranges [start, end)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Slot:
    room: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end <= self.start:
            raise ValueError("a slot must end after it starts")


def overlaps(a: Slot, b: Slot) -> bool:
    """Whether two bookings of one room share a minute; back-to-back bookings do not."""
    return a.room == b.room and max(a.start, b.start) <= min(a.end, b.end)


def conflicts(wanted: Slot, booked: Sequence[Slot]) -> list[Slot]:
    return [slot for slot in booked if overlaps(wanted, slot)]
