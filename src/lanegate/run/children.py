"""Child processes of a run: keep orphans close, stop them all on interrupt, and time them.

Lanes start pytest processes that may start their own (and some put them in new sessions, out of reach
of the terminal's Ctrl-C). On Linux lanegate becomes a child subreaper, so an orphaned descendant is
re-parented to it instead of to init; on interrupt every descendant found in /proc is stopped. Elsewhere
only what the lanes' own `subprocess` calls kill is stopped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")


def become_subreaper() -> bool:
    """Ask Linux to re-parent orphaned descendants to this process; False where unsupported."""
    if not _PROC.is_dir():
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, int]:
    """pid -> parent pid of every visible process."""
    table: dict[int, int] = {}
    try:
        entries = list(os.scandir(_PROC))
    except OSError:
        return table
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # the command name sits in parentheses and may itself contain spaces or parentheses
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            table[int(entry.name)] = int(fields[1])
    return table


def descendants(root: int | None = None) -> list[int]:
    """Every live descendant of `root` (default: this process), parents before children."""
    top = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    queue = [top]
    while queue:
        pid = queue.pop(0)
        for child in sorted(children.get(pid, ())):
            found.append(child)
            queue.append(child)
    return found


def stop_descendants(grace_seconds: float = 1.0, *, reap: bool = True) -> int:
    """SIGTERM every descendant, then SIGKILL whoever is left after the grace period.

    With `reap`, exited children are collected too (orphans re-parented to us would stay zombies);
    without it their owners' `wait()` gets their real status. Returns how many were signalled.
    """
    signalled: set[int] = set()
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = descendants()
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
                signalled.add(pid)
        deadline = time.monotonic() + (grace_seconds if sig == signal.SIGTERM else 2.0)
        while time.monotonic() < deadline:
            if reap:
                reap_exited()
            if not _alive(pids):
                break
            time.sleep(0.02)
    if reap:
        reap_exited()
    return len(signalled)


def _alive(pids: list[int]) -> bool:
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_bytes()
        except OSError:
            continue
        if state[state.rfind(b")") + 2 : state.rfind(b")") + 3] != b"Z":
            return True
    return False


def reap_exited() -> None:
    """Collect exited children (ours, or orphans re-parented to us) so none lingers as a zombie.

    Reaping is also what adds an orphan's CPU to ours: a sandbox's init is re-parented to lanegate
    when bubblewrap's outer process exits without waiting for it. Call it only when no `subprocess`
    child is still being waited for, or its exit status is taken from its owner."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except (ChildProcessError, OSError):
            return
        if pid == 0:
            return


def _command_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


class ChildClock:
    """Measures the wall time during which this process had a child running other than lanegate's
    own `git` calls (those are lanegate's overhead, not the tests').

    It samples /proc every `interval` seconds (a scan costs ~2-3 ms), so its own cost stays near 1%
    of a core and the estimate is unbiased over a run of many seconds.
    """

    def __init__(self, interval: float = 0.2) -> None:
        self._interval = interval
        self._busy = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.available = _PROC.is_dir()

    def start(self) -> None:
        if self.available:
            self._thread = threading.Thread(target=self._loop, name="child-clock", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        me = os.getpid()
        last = time.monotonic()
        while not self._stop.wait(self._interval):
            now = time.monotonic()
            kids = [pid for pid, parent in _parents().items() if parent == me]
            if any(_command_name(pid) != "git" for pid in kids):
                self._busy += now - last
            last = now

    def stop(self) -> float:
        """Stop measuring; the seconds with a child alive."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        return self._busy
