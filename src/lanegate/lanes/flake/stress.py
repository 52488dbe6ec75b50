"""Scheduling stress for one test run, inside the replay's pytest process, burning no CPU.

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
(`os.sched_yield` with the GIL released) at a random share of the function calls of every thread
the test starts, never of the test's own thread. The switch interval alone
needs a second free CPU: on one, a thread waiting for the GIL cannot ask for it until the kernel
schedules it, a few milliseconds later, so a race in a 3 ms loop showed in about one run in six
with the other CPU busy (a sibling replay) against five in six idle. A yield at a call boundary is
a switch CPython may make there anyway, so a test that fails under it can fail on some machine.
The test's own thread is left alone: it is the one that waits with a deadline (`join(timeout)`, a
poll until a worker is done), and under a loaded machine each of its yields can give the CPU away
for a scheduler slice (a stable poll-until-done test failed once at load 8 when its thread starved
for 20 ms); a race with a worker still gets its interleavings from the worker's yields.
"""

from __future__ import annotations

import _thread
import ctypes
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any, cast

from lanegate.lanes.flake.dimensions import GAP_RANGE, STALL_RANGE, SWITCH_INTERVAL

# A preempting run yields at most this often: a yield can also hand the CPU to another process on
# it (a sibling replay) for a scheduler slice, so an unbounded count could time out a correct
# test's `join(timeout)`; a race's interleavings are in the first hundreds of its threads' calls.
MAX_YIELDS = 1000

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


def _sleep_zero() -> None:
    time.sleep(0)


# releases the GIL and lets the kernel run another thread first: on one CPU the thread waiting for
# the GIL gets it now, not a scheduler tick later
_yield_cpu: Callable[[], object] = getattr(os, "sched_yield", _sleep_zero)


class Preemption:
    """A context manager: a 1 us switch interval and the CPU yielded at random at one function call
    in `every` (at most `MAX_YIELDS` times) in every thread started while the block runs (on 3.12+
    every other thread too), never in the thread that entered it. A test that runs a profiler of
    its own keeps it: its run gets the switch interval alone."""

    def __init__(self, seed: int, every: int) -> None:
        self.rng = random.Random(seed)
        self.every = max(1, every)
        self.left = MAX_YIELDS
        self.pid = os.getpid()
        self.active = False
        self.hooked = False
        self.saved_interval = sys.getswitchinterval()

    def _hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.active:
            # a thread the test left running drops the hook at its next call, costing nothing more
            sys.setprofile(None)
            return
        if event not in ("call", "c_call") or self.rng.random() * self.every >= 1.0:
            return
        if self.left <= 0:
            return
        if os.getpid() != self.pid:  # a forked child: the run is not its own
            self.active = False
            return
        self.left -= 1
        _yield_cpu()

    def __enter__(self) -> Preemption:
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.hooked = sys.getprofile() is None and threading.getprofile() is None
        if self.hooked:
            self.active = True
            every_thread = getattr(threading, "setprofile_all_threads", None)  # 3.12+
            (every_thread or threading.setprofile)(self._hook)
            sys.setprofile(None)  # this thread (on 3.12+ hooked with the rest) never yields
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.active = False
        try:
            sys.setswitchinterval(self.saved_interval)
        finally:
            if self.hooked:
                try:
                    sys.setprofile(None)
                finally:
                    threading.setprofile(None)
