"""A deschedule run stops the whole process once and lets it go; a run that ends first cancels it.
Both are seen through SIGCONT, which the kernel sends the process exactly when it is continued."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanegate.lanes.flake.deschedule import descheduled
from lanegate.lanes.flake.dimensions import DESCHEDULE_RANGE, Dimension, run_pins


def _children() -> set[int]:
    out: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        out.update(int(p) for p in (task / "children").read_text().split())
    return out


@pytest.fixture
def continued() -> Iterator[threading.Event]:
    event = threading.Event()
    old = signal.signal(signal.SIGCONT, lambda *_: event.set())
    try:
        yield event
    finally:
        signal.signal(signal.SIGCONT, old)


def test_the_process_is_stopped_and_continued_inside_the_block(
    continued: threading.Event,
) -> None:
    before = _children()
    with descheduled(0.0, 0.1):
        # the stop is due at once: the block outlasts it (it ends when SIGCONT was handled). Short
        # sleeps, not `continued.wait()`: the kernel may deliver SIGCONT to another thread (an
        # xdist worker has execnet's), and then a main thread blocked in a lock is never woken
        # to run the handler until its wait times out
        deadline = time.monotonic() + 30.0
        while not continued.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert continued.is_set()
    assert _children() == before  # the helper was reaped


def test_a_block_that_ends_before_the_stop_cancels_it(continued: threading.Event) -> None:
    before = _children()
    with descheduled(60.0, 0.1):
        pass
    assert not continued.is_set() and _children() == before


def test_a_block_that_raises_still_reaps_the_helper() -> None:
    before = _children()
    with pytest.raises(AssertionError, match="the test failed"), descheduled(60.0, 0.1):
        raise AssertionError("the test failed")
    assert _children() == before


def test_deschedule_pins_are_seeded_recorded_and_described() -> None:
    pins = [run_pins(Dimension.DESCHEDULE, run, 7) for run in range(8)]
    assert pins == [run_pins(Dimension.DESCHEDULE, run, 7) for run in range(8)]
    assert pins != [run_pins(Dimension.DESCHEDULE, run, 8) for run in range(8)]
    for pin in pins:
        assert pin.deschedule is not None
        share, hold = pin.deschedule
        assert 0.0 <= share <= 1.0 and DESCHEDULE_RANGE[0] <= hold <= DESCHEDULE_RANGE[1]
    assert "process stopped 0." in pins[0].describe()
