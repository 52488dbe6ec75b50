"""The stall thread shakes the test's threads but is invisible to a test that counts threads."""

from __future__ import annotations

import cProfile
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from lanegate.lanes.flake.stress import MAX_YIELDS, Preemption, Stalls


def test_a_test_that_checks_for_leftover_threads_sees_none_of_the_lanes() -> None:
    before = threading.enumerate()
    with Stalls(seed=7):
        time.sleep(0.05)  # the stall thread has run its first stalls by now
        assert threading.enumerate() == before
        assert threading.active_count() == len(before)
    assert threading.enumerate() == before


def test_the_stall_thread_ends_with_the_block_and_the_interval_is_restored() -> None:
    saved = sys.getswitchinterval()
    stalls = Stalls(seed=3)
    with stalls:
        time.sleep(0.02)
    assert not stalls.running.locked()  # released only as the thread's last act
    assert sys.getswitchinterval() == saved


RACE_ON_ONE_CPU = textwrap.dedent(
    """
    import os, sys, threading
    from lanegate.lanes.flake.stress import Preemption

    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    def race():
        counter = [0]

        def pause():
            return None

        def bump():
            for _ in range(2000):
                value = counter[0]
                pause()
                counter[0] = value + 1

        threads = [threading.Thread(target=bump) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return counter[0]

    lost = 0
    for run in range(10):
        with Preemption(seed=run, every=int(sys.argv[1])):
            lost += race() != 4000
    print(lost)
    """
)


def test_preemption_shows_a_race_on_one_cpu() -> None:
    # one CPU: a thread waiting for the GIL cannot ask for it before the kernel runs it, so a
    # sub-millisecond loop mostly runs whole (with the hook yielding nothing, 3-6 runs in 20 lost an
    # update); a yield between the read and the write hands the CPU to the other thread (20 of 20)
    for every in (2, 10, 100):
        done = subprocess.run(
            [sys.executable, "-c", RACE_ON_ONE_CPU, str(every)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert int(done.stdout) >= 8, (every, done.stdout)


def _calls(count: int) -> None:
    for _ in range(count):
        len(())


YIELD_COUNTS = textwrap.dedent(
    """
    import threading
    from lanegate.lanes.flake import stress

    yields = []
    stress._yield_cpu = lambda: yields.append(1)

    def calls(count):
        for _ in range(count):
            len(())

    def in_thread(count):
        thread = threading.Thread(target=calls, args=(count,))
        thread.start()
        thread.join()

    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    with stress.Preemption(seed=1, every=1):
        calls(1000)  # the test's own thread, another thread alive: it never yields
    own = len(yields)
    del yields[:]
    with stress.Preemption(seed=1, every=10):
        in_thread(1000)  # a thousand calls of len in a thread the test starts
    tenth = len(yields)
    del yields[:]
    with stress.Preemption(seed=1, every=1):
        in_thread(2 * stress.MAX_YIELDS)
    capped = len(yields)
    stop.set()
    print(own, tenth, capped)
    """
)


def test_preemption_yields_only_in_threads_the_test_starts_and_at_most_max_yields() -> None:
    # a fresh interpreter: a pytest-xdist worker runs threads of its own
    done = subprocess.run(
        [sys.executable, "-c", YIELD_COUNTS],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    own, tenth, capped = (int(n) for n in done.stdout.split())
    assert own == 0
    assert 50 <= tenth <= 200  # about one in ten
    assert capped == MAX_YIELDS


def test_preemption_hooks_the_threads_it_starts_and_they_drop_the_hook_after_it() -> None:
    saved = sys.getswitchinterval()
    go, done = threading.Event(), threading.Event()
    seen: dict[str, object] = {}

    def lingering() -> None:
        seen["during"] = sys.getprofile()
        go.wait(10)
        len([])  # a call: the hook drops itself here
        seen["after"] = sys.getprofile()
        done.set()

    preemption = Preemption(seed=1, every=2)
    try:
        with preemption:
            assert sys.getswitchinterval() < saved
            thread = threading.Thread(target=lingering, daemon=True)
            thread.start()
            while "during" not in seen:
                time.sleep(0.001)
        assert sys.getprofile() is None and threading.getprofile() is None
        assert sys.getswitchinterval() == saved
    finally:
        go.set()
    assert done.wait(10)
    assert seen == {"during": preemption._hook, "after": None}


def test_a_test_that_profiles_itself_keeps_its_profiler() -> None:
    saved = sys.getswitchinterval()
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        with Preemption(seed=1, every=2) as preemption:
            inside = sys.getswitchinterval()
            _calls(10)
        after = sys.getprofile()
    finally:
        profiler.disable()
    assert not preemption.hooked and inside < saved  # the switch interval alone
    assert after is not None and after != preemption._hook  # cProfile's own, untouched
    assert sys.getswitchinterval() == saved


def test_the_switch_interval_is_restored_when_the_run_raises() -> None:
    saved = sys.getswitchinterval()
    with pytest.raises(ZeroDivisionError), Preemption(seed=1, every=2):
        _ = 1 / 0
    assert sys.getswitchinterval() == saved
    assert sys.getprofile() is None and threading.getprofile() is None
