"""Run a command under a real pseudo-terminal and collect everything it wrote to it."""

from __future__ import annotations

import os
import pty
import select
import signal
import time
from pathlib import Path


def run_in_pty(
    args: list[str], cwd: Path, env: dict[str, str], timeout: float = 240
) -> tuple[int, str]:
    """(exit code, terminal output); the child's stdin, stdout and stderr are the pty."""
    pid, fd = pty.fork()
    if pid == 0:  # the child
        try:
            os.chdir(cwd)
            os.execvpe(args[0], args, env)
        finally:
            os._exit(127)
    chunks = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    else:
        os.kill(pid, signal.SIGKILL)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "replace")
