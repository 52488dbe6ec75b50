"""Scheduling stress for one test run, inside the replay's pytest process, at no CPU cost.

A busy CI machine shows a test's timing assumptions by descheduling it: a sleep-based timeout, a
TTL, a `join(timeout)` or a thread race then goes the other way. `Stalls` reproduces that without
stress processes burning the CPU budget (the approach of the Shaker tool, with the noise made
in-process): a daemon thread repeatedly takes the GIL and sleeps in C while holding it (`usleep`
through `ctypes.PyDLL`, which does not release the GIL), so every Python thread of the process stops
for a seeded 5-30 ms stretch, then lets go for a seeded 2-15 ms gap; the GIL switch interval is 1 us
between stalls, so threads interleave at nearly every bytecode (the
stall itself runs at the normal interval: a thread waiting for the GIL wakes once per interval). The seed is recorded per run.

The stall thread is started with `_thread`, never registered with `threading`: a test that checks
it left no thread behind (`threading.enumerate()`, `active_count()`) must not see the lane's own
(a false positive the fresh flake corpus found: `assert ['lanegate-stress'] == []`).
"""

from __future__ import annotations

import _thread
import ctypes
import random
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, cast

from lanegate.lanes.flake.dimensions import GAP_RANGE, STALL_RANGE, SWITCH_INTERVAL

_LIBC: ctypes.PyDLL | None = None


def _usleep() -> Callable[[int], Any] | None:
    global _LIBC
    if _LIBC is None:
        try:
            _LIBC = ctypes.PyDLL(None)
        except OSError:  # no C library to call: the switch interval alone still shakes threads
            return None
    try:
        return cast(Callable[[int], Any], _LIBC.usleep)
    except AttributeError:
        return None


class Stalls:
    """A context manager: GIL stalls and a tiny switch interval while the block runs."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.stop = threading.Event()  # an Event registers no thread: safe to wait on from `_run`
        self.running = _thread.allocate_lock()  # held by the stall thread until it ends
        self.started = False
        self.saved_interval = sys.getswitchinterval()

    def _run(self) -> None:
        try:
            self._stall()
        finally:
            self.running.release()

    def _stall(self) -> None:
        usleep = _usleep()
        # The first stall lands inside the test: at once (the GIL changes hands within microseconds
        # at this switch interval, so even a 10 us test is cut) or after a seeded delay.
        if self.rng.random() < 0.5:
            self.stop.wait(self.rng.uniform(0.0, 0.003))
        while not self.stop.is_set():
            hold = self.rng.uniform(*STALL_RANGE)
            if usleep is not None:
                # A thread waiting for the GIL wakes every switch interval: at 1 us it would spin
                # through the whole stall, so the stall itself runs at the normal interval.
                sys.setswitchinterval(self.saved_interval)
                usleep(int(hold * 1_000_000))
                sys.setswitchinterval(SWITCH_INTERVAL)
            self.stop.wait(self.rng.uniform(*GAP_RANGE))

    def __enter__(self) -> Stalls:
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.running.acquire()
        _thread.start_new_thread(self._run, ())
        self.started = True
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop.set()
        if self.started:
            with self.running:  # the stall thread has ended (it releases the lock last)
                pass
        sys.setswitchinterval(self.saved_interval)
