"""The stall thread shakes the test's threads but is invisible to a test that counts threads."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

from lanegate.lanes.flake.stress import Preemption, Stalls


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
            for _ in range(20000):
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
    for run in range(5):
        with Preemption(seed=run, every=int(sys.argv[1])):
            lost += race() != 40000
    print(lost)
    """
)


def test_preemption_shows_a_race_on_one_cpu() -> None:
    # one CPU: a thread waiting for the GIL cannot ask for it before the kernel runs it, so the
    # switch interval alone lets most runs of this 3 ms loop finish whole; a yield between the read
    # and the write loses an update
    for every in (2, 10, 100):
        done = subprocess.run(
            [sys.executable, "-c", RACE_ON_ONE_CPU, str(every)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert int(done.stdout) >= 4, (every, done.stdout)


def test_preemption_restores_the_process_and_leaves_no_hook_in_a_thread_it_outlived() -> None:
    saved = sys.getswitchinterval()
    go, seen = threading.Event(), []

    def lingering() -> None:
        go.wait()
        len([])  # a call: the hook drops itself here
        seen.append(sys.getprofile())

    def mine(frame: object, event: str, arg: object) -> None:
        return None

    sys.setprofile(mine)
    try:
        with Preemption(seed=1, every=2):
            assert sys.getswitchinterval() < saved
            thread = threading.Thread(target=lingering)
            thread.start()
    finally:
        after = sys.getprofile()
        sys.setprofile(None)
    assert after is mine and threading.getprofile() is None
    assert sys.getswitchinterval() == saved
    go.set()
    thread.join()
    assert seen == [None]
