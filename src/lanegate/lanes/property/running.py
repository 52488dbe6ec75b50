"""The running-test marker: the file beside a test process's record naming the test it is in.

The property plugin appends each test's node id before it runs; when the lane kills a mutant child
(a hang, the memory cap), the record is never written and the marker's last line names the test.
This module imports only the standard library: every pytest child of the lane loads it.
"""

from __future__ import annotations

import os
from pathlib import Path

RUNNING_SUFFIX = ".running"  # appended to the record's path


def mark_running(out: str | None, node_id: str) -> None:
    """Append the test about to run to `<out>.running` (nothing without a record path)."""
    if out is None:
        return
    fd = os.open(out + RUNNING_SUFFIX, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (node_id + "\n").encode("utf-8", "surrogateescape"))
    finally:
        os.close(fd)


def running_test(record_path: Path) -> str | None:
    """The test a killed child was running (the last line its plugin appended)."""
    path = record_path.with_name(record_path.name + RUNNING_SUFFIX)
    try:
        lines = path.read_text("utf-8", "replace").splitlines()
    except OSError:
        return None
    return lines[-1] if lines else None
