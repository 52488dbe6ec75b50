"""The stall thread shakes the test's threads but is invisible to a test that counts threads."""

from __future__ import annotations

import sys
import threading
import time

from lanegate.lanes.flake.stress import Stalls


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
