"""Calendar runs: the clock moved ahead to the next month end, leap day, year end or midnight, in a
zone where the local date and the UTC date differ there."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.flake import clock
from lanegate.lanes.flake.budget import CALENDAR_RUNS, CLOCK_REPLAY, RunCost, _split
from lanegate.lanes.flake.dimensions import CALENDAR_POSITIONS, Dimension, run_pins

# position -> (local month, day predicate, hour, minute, UTC date differs from the local date)
EXPECTED = {
    "month-end-31": (lambda t: t.tm_mday == 31, 23, 30, True),
    "jan-31": (lambda t: (t.tm_mon, t.tm_mday) == (1, 31), 12, 0, False),
    "31-before-30": (lambda t: t.tm_mday == 31 and t.tm_mon in (3, 5, 8, 10), 12, 0, False),
    "month-start": (lambda t: t.tm_mday == 1, 0, 30, True),
    "feb-29": (lambda t: (t.tm_mon, t.tm_mday) == (2, 29), 12, 0, False),
    "feb-28-common": (lambda t: (t.tm_mon, t.tm_mday) == (2, 28) and t.tm_year % 4, 23, 30, True),
    "year-end": (lambda t: (t.tm_mon, t.tm_mday) == (12, 31), 23, 30, True),
    "year-end-noon": (lambda t: (t.tm_mon, t.tm_mday) == (12, 31), 12, 0, False),
    "year-start": (lambda t: (t.tm_mon, t.tm_mday) == (1, 1), 0, 30, True),
    "month-end-30": (lambda t: t.tm_mday == 30 and t.tm_mon in (4, 6, 9, 11), 12, 0, False),
    "midnight": (lambda t: True, 23, 59, False),
}


@contextmanager
def _zone(tz: str) -> Iterator[None]:
    saved = os.environ.get("TZ")
    os.environ["TZ"] = tz
    time.tzset()
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = saved
        time.tzset()


def test_every_position_is_known_and_expected() -> None:
    assert [p for p, _ in CALENDAR_POSITIONS] == list(EXPECTED)
    assert clock.calendar_offset("no-such-position", 1.0e9) == 0.0


@settings(max_examples=60, deadline=None)
@given(
    real=st.floats(
        datetime(2001, 1, 1, tzinfo=UTC).timestamp(), datetime(2090, 1, 1, tzinfo=UTC).timestamp()
    ),
    index=st.integers(0, len(CALENDAR_POSITIONS) - 1),
)
def test_a_calendar_run_lands_ahead_on_its_position_in_its_zone(real: float, index: int) -> None:
    position, zone = CALENDAR_POSITIONS[index]
    holds, hour, minute, utc_differs = EXPECTED[position]
    with _zone(zone):
        offset = clock.calendar_offset(position, real)
        at = real + offset
        local = time.localtime(at)
    assert offset > 0  # never behind: a test comparing with a time it took earlier stays honest
    assert holds(local) and (local.tm_hour, local.tm_min) == (hour, minute), (position, local)
    assert local[:3] != tuple(time.gmtime(at)[:3]) if utc_differs else True
    # the day before the target's local day was not the position yet (it is the next one)
    assert offset < 9 * 366 * 86400


def test_a_test_that_reads_the_clock_gets_every_position_once() -> None:
    cost = RunCost(
        node_id="t.py::test_a", seconds=0.01, cpu=0.01, fast=True, risks=frozenset({"clock"})
    )
    calendar = [e for e in _split(cost, 20) if e[1] is Dimension.CALENDAR]
    assert calendar == [(CLOCK_REPLAY, Dimension.CALENDAR, CALENDAR_RUNS)]
    plain = RunCost(node_id="t.py::test_b", seconds=0.01, cpu=0.01, fast=True, risks=frozenset())
    assert not [e for e in _split(plain, 20) if e[1] is Dimension.CALENDAR]
    pins = [run_pins(Dimension.CALENDAR, run, 7) for run in range(CALENDAR_RUNS)]
    assert [(p.calendar, p.tz) for p in pins] == list(CALENDAR_POSITIONS)
    feb_29 = [p for p in pins if p.calendar == "feb-29"][0]
    assert "clock moved ahead to the next feb-29 position" in feb_29.describe()
