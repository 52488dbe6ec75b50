"""Reads an input file only when it is a regular file, and never more than a byte cap: a FIFO, a device
or a symlink to one (`/dev/zero`, `/dev/urandom`) is refused without blocking or growing memory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lanegate.errors import WorkflowError


class InputFileError(WorkflowError):
    """An input file that is not a regular file, cannot be opened, or is larger than the cap."""

    def __init__(self, message: str, *, oversized: bool = False) -> None:
        super().__init__(message)
        self.oversized = oversized


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of `path`, at most `limit`; raises InputFileError for anything else.

    The file is opened non-blocking (a FIFO with no writer would block a plain open), checked on the
    open descriptor (no race between the check and the read), and read to at most `limit + 1` bytes so a
    size that `stat` under-reports (a device reads 0) still cannot grow memory.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputFileError(f"cannot open: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError("not a regular file (FIFO, device or socket): not read")
        if info.st_size > limit:
            raise InputFileError(
                f"{info.st_size} bytes, over the {limit}-byte cap: not checked", oversized=True
            )
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise InputFileError(f"over the {limit}-byte cap: not checked", oversized=True)
        return b"".join(chunks)
    except OSError as exc:
        raise InputFileError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
