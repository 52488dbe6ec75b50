"""Interrupts of a run: SIGINT and SIGTERM stop every child process first, then unwind the run."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

from lanegate.run import children


class RunInterrupted(KeyboardInterrupt):
    """The run was stopped by SIGINT (Ctrl-C) or SIGTERM; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_children_on_signal() -> Iterator[None]:
    """On SIGINT or SIGTERM, stop every child process first, then raise RunInterrupted.

    Stopping them inside the handler matters: a lane blocked in a wait (a thread pool joining its
    workers, a pytest process sleeping) would otherwise keep the interrupt from ever unwinding.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum: int, frame: object) -> None:
        if fired:  # already stopping: a second Ctrl-C must not cut the clean-up short
            return
        fired.append(signum)
        children.stop_descendants(reap=False)
        raise RunInterrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
