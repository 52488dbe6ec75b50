"""Hypothesis's default time limits in a replay, measured on the time the test did not spend waiting.

A Hypothesis test the project gave no deadline still has one: 200 ms an example, and 1 s of data
generation for its first draws (`HealthCheck.too_slow`). Those limits measure the test's own cost,
and a test that exceeds them on every run fails the project's own CI on every run: the lane must
see that. But on a loaded machine (a CI runner, the lane's replays side by side) a cheap example
waits for a CPU, and the wall clock charges the wait to the test: load, not the test, fails it.
Dropping the limits hides the first; keeping them as they are fails honest tests by the machine.

So a replay keeps the default limits and measures them as Hypothesis already measures them net of
garbage collection, net of the time the test's thread waited on the run queue too (Linux's
`/proc/thread-self/schedstat`: runnable, not running). That time is the machine's load and nothing
the test did; its own work, its sleeps and its waits on I/O all still count. Hypothesis subtracts
`gc_cumulative_time()` from both the deadline's run time and the draw times, so this module wraps
that one function where Hypothesis's modules bound it.

- A limit the test set itself (a deadline other than Hypothesis's default) is the test's own
  choice: it is timed on the clock as it is, load included, as in its CI (`timed`).
- In a run the lane itself delays (GIL stalls, preempting yields, a stopped process: `stress`,
  `deschedule`, an isolation run under stalls) a default limit sees no time at all: those runs
  judge the test's behaviour under delay, and the delay is the lane's. Not for a test that failed
  its run in the replay's pass: its own time may be what failed it (a stop that overlaps its own
  sleep would hide it from any subtraction), so its delayed runs time it as the pass did, and a
  test slower than the limits fails every run, as in its CI. (The stalled isolation runs come
  before the pass, so a thread-starting test slower than the limits may pass them.)
- A Hypothesis without `gc_cumulative_time` cannot be measured so: `install` says False, and the
  lane drops the default deadline as before.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

# where Hypothesis binds `gc_cumulative_time` by name (6.100+); each is patched once loaded
MODULES = (
    "hypothesis.internal.conjecture.junkdrawer",
    "hypothesis.core",
    "hypothesis.internal.conjecture.data",
    "hypothesis.stateful",
)
NAME = "gc_cumulative_time"
DEFAULT_DEADLINE = datetime.timedelta(milliseconds=200)
_SCHEDSTAT = "/proc/thread-self/schedstat"

_original: Callable[[], float] | None = None
_own_limit = False  # the running test set its own deadline: its limits see the clock as it is
_lane_delays = False  # the lane itself delays this run: a default limit sees no time


def run_queue_seconds() -> float:
    """Seconds the calling thread has spent runnable but not running (0.0 where Linux does not
    say): the part of its wall time that is the machine's load."""
    try:
        fd = os.open(_SCHEDSTAT, os.O_RDONLY)
    except OSError:
        return 0.0
    try:
        fields = os.read(fd, 128).split()
        return int(fields[1]) / 1e9 if len(fields) > 1 else 0.0
    except (OSError, ValueError):
        return 0.0
    finally:
        os.close(fd)


def _excluded() -> float:
    """What Hypothesis subtracts from a run's and a draw's time: garbage collection, and for a
    default limit the thread's run-queue wait (or, in a run the lane delays, all of it)."""
    assert _original is not None
    base = _original()
    if _own_limit:
        return base
    if _lane_delays:
        return base + time.perf_counter()
    return base + run_queue_seconds()


def install() -> bool:
    """Wrap `gc_cumulative_time` in every loaded Hypothesis module that binds it (call again once
    more of them are loaded: `hypothesis.stateful` is imported late). False when this Hypothesis
    has no such function (the caller then drops the default deadline instead)."""
    global _original
    junk = sys.modules.get(MODULES[0])
    if junk is None:
        return False
    if _original is None:
        found = getattr(junk, NAME, None)
        if not callable(found):
            return False
        _original = found
    for name in MODULES:
        module = sys.modules.get(name)
        if module is not None and getattr(module, NAME, None) is _original:
            setattr(module, NAME, _excluded)
    return True


def own_deadline(function: Any) -> bool:
    """Whether a Hypothesis test's settings carry a deadline of its own (neither Hypothesis's
    default nor none): one the project chose, timed as its CI times it."""
    function = getattr(function, "__func__", function)
    settings = getattr(function, "_hypothesis_internal_use_settings", None)
    deadline = getattr(settings, "deadline", None)
    return isinstance(deadline, datetime.timedelta) and deadline != DEFAULT_DEADLINE


@contextlib.contextmanager
def timed(*, own_limit: bool, lane_delays: bool) -> Iterator[None]:
    """How one run's default limits see time (module docstring), for the run's duration."""
    global _own_limit, _lane_delays
    saved = (_own_limit, _lane_delays)
    _own_limit, _lane_delays = own_limit, lane_delays
    try:
        yield
    finally:
        _own_limit, _lane_delays = saved
