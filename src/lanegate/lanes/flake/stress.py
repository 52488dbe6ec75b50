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

`Preemption` is the other half of the dimension: the 1 us switch interval, and the CPU yielded
(`os.sched_yield` with the GIL released) at a seeded share of the function calls of the test's
thread and of every thread it starts. The switch interval alone needs a second free CPU: on one,
a thread waiting for the GIL cannot ask for it until the kernel schedules it, a few milliseconds
later, so a race in a 3 ms loop showed in about one run in six with the other CPU busy (a sibling
replay) against five in six idle. A yield at a call boundary is a switch CPython may make there
anyway, so a test that fails under it can fail on some machine.
"""

from __future__ import annotations

import _thread
import ctypes
import os
import random
import sys
import threading
from collections.abc import Callable
from types import FrameType, TracebackType
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


def _yield_cpu() -> None:
    sched_yield = getattr(os, "sched_yield", None)
    if sched_yield is not None:
        sched_yield()  # releases the GIL: another thread runs before this one goes on
    else:  # pragma: no cover - every POSIX system the sandbox runs on has sched_yield
        import time

        time.sleep(0)


class Preemption:
    """A context manager: a 1 us switch interval, and the CPU yielded at one function call in
    `every` (seeded) in this thread and in every thread started while the block runs."""

    def __init__(self, seed: int, every: int) -> None:
        self.rng = random.Random(seed)
        self.every = max(1, every)
        self.active = False
        self.saved_interval = sys.getswitchinterval()
        self.saved_profile: Any = None
        self.saved_thread_profile: Any = None

    def _hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.active:
            # a thread the test left running drops the hook at its next call, costing nothing more
            sys.setprofile(None)
            return
        if event in ("call", "c_call") and self.rng.random() * self.every < 1.0:
            _yield_cpu()

    def __enter__(self) -> Preemption:
        self.saved_profile = sys.getprofile()
        self.saved_thread_profile = threading.getprofile()
        self.active = True
        sys.setswitchinterval(SWITCH_INTERVAL)
        threading.setprofile(self._hook)
        sys.setprofile(self._hook)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.active = False
        sys.setprofile(self.saved_profile)
        threading.setprofile(self.saved_thread_profile)
        sys.setswitchinterval(self.saved_interval)
