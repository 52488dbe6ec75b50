"""A descheduled process for one test run: the whole replay process stopped for hundreds of ms.

A busy CI machine (a shared runner, a noisy neighbour, CPU steal on a cloud VM) takes a process
off the CPU for a hundred milliseconds or more at a time: every thread stops, C code included,
while the clocks run on. A sleep-based wait, a `wait_for` deadline, a TTL or a socket timeout then
expires before the work it waits for is done. The GIL stalls of the stress dimension cannot do
this: they stop only threads that release the GIL, never a C call that holds it (`json.loads`,
a regex, a hash), and last 5-30 ms. So each run forks a helper that waits a seeded share of the
test's own base-run time, stops the process (`SIGSTOP`), holds it for a seeded 100-300 ms, and
lets it go (`SIGCONT`): the scheduler's decision, taken in the open, at no CPU cost.

A busy machine slows the processes a test starts as much as the test: a child Python under
`subprocess.run(..., timeout=0.12)` that finishes while only its parent is stopped is waited for
without a timeout (`Popen.wait` reaps a child that exited before it looks at the clock). So the
stop reaches every process the test's process started, found through `/proc` when the stop
begins (children of children too), and each is continued after it.

The helper is cancelled through a pipe when the run ends before the stop is due, and always
reaped before the run is judged: no process is left behind, and a stop that began is always
ended by the process that began it (never killed between the stop and the continue).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from collections.abc import Iterator

__all__ = ["descheduled"]


def _helper(target: int, cancel: int, delay: float, hold: float) -> None:
    """In the forked child: stop `target` after `delay` seconds unless cancelled, hold, resume."""
    ready, _, _ = select.select([cancel], [], [], max(0.0, delay))
    if ready:
        return
    os.kill(target, signal.SIGSTOP)
    stopped = [target]
    for pid in descendants(target, exclude=os.getpid()):
        with contextlib.suppress(OSError):  # it may have exited since it was listed
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
    select.select([], [], [], max(0.0, hold))
    # the test's process first: it is the one that waits with a deadline, and a child that had
    # only a little left to do would otherwise finish before its waiter looked at the clock
    for pid in stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)


MAX_DESCENDANTS = 256


def descendants(root: int, exclude: int) -> list[int]:
    """The processes `root` started and theirs, breadth first (`/proc/PID/task/TID/children`),
    without `exclude` (the helper itself); none where `/proc` does not list children."""
    found: list[int] = []
    queue = [root]
    while queue and len(found) < MAX_DESCENDANTS:
        pid = queue.pop(0)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as listing:
                    text = listing.read()
            except OSError:
                continue
            for word in text.split():
                child = int(word)
                if child != exclude and child not in found:
                    found.append(child)
                    queue.append(child)
    return found[:MAX_DESCENDANTS]


@contextlib.contextmanager
def descheduled(delay: float, hold: float) -> Iterator[None]:
    """The block's process is stopped `delay` seconds into it for `hold` seconds (when it is still
    running then); the helper is reaped before the block's result is returned or raised."""
    target = os.getpid()
    cancel_read, cancel_write = os.pipe()
    child = os.fork()
    if child == 0:  # the helper: syscalls only, then leave without running any Python cleanup
        code = 0
        try:
            os.close(cancel_write)
            _helper(target, cancel_read, delay, hold)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(cancel_read)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.write(cancel_write, b"x")
        os.close(cancel_write)
        # a test that reaps every child (`os.wait()`) may have taken it already
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child, 0)
