"""The fork server's wait for one mutant child: its exit code, its wall clock, its memory cap, the
same answers whether the pause between samples ends on the child's pidfd or sleeps it out."""

from __future__ import annotations

import contextlib
import os
import time

import pytest

from lanegate.lanes.property import fork_server


def _child(action: str) -> int:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the forked child
        try:
            os.setpgid(0, 0)  # as a mutant child does: the wait kills its process group
            if action == "exit-3":
                os._exit(3)
            if action == "hang":
                time.sleep(60)
            if action == "grow":
                blocks = [bytearray(16 * 2**20) for _ in range(24)]  # 384 MiB, touched
                time.sleep(60 + len(blocks))
        finally:
            os._exit(0)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.setpgid(pid, pid)  # whichever of the two runs first (a child that exited: no matter)
    return pid


@pytest.fixture(params=["pidfd", "sleep"])
def wait_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "sleep":  # a kernel without pidfd_open: the pause is slept out
        monkeypatch.setattr(fork_server, "_pidfd", lambda pid: None)
    elif fork_server._pidfd(os.getpid()) is None:
        pytest.fail("this kernel has no pidfd_open: the fast path is not tested here")
    return str(request.param)


def test_a_child_that_exits_gives_its_code(wait_mode: str) -> None:
    ended = fork_server._wait(_child("exit-3"), timeout=30.0)
    assert (ended.code, ended.timed_out, ended.over_memory) == (3, False, False)


def test_a_child_past_its_wall_clock_is_killed_as_a_timeout(wait_mode: str) -> None:
    ended = fork_server._wait(_child("hang"), timeout=0.3)
    assert (ended.code, ended.timed_out, ended.over_memory) == (None, True, False)


def test_a_child_past_its_memory_cap_is_killed_as_over_memory(wait_mode: str) -> None:
    ended = fork_server._wait(_child("grow"), timeout=30.0, memory_cap=64 * 2**20)
    assert (ended.code, ended.timed_out, ended.over_memory) == (None, False, True)
    assert ended.peak_rss > 64 * 2**20


def test_the_pidfd_is_closed_after_each_wait(wait_mode: str) -> None:
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(5):
        fork_server._wait(_child("exit-3"), timeout=30.0)
    assert len(os.listdir("/proc/self/fd")) == before
