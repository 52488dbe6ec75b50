"""Reading what a sandboxed process left in its writable directory: bounded, and never trusted blindly.

Everything in an outbox may have been written by head code, so a record is read with a size cap and
must be one JSON object; anything else is a `RunnerError` naming the file, never a traceback.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from lanegate.errors import RunnerError

MAX_RECORD_BYTES = 64 * 1024 * 1024


def read_record(path: Path, limit: int = MAX_RECORD_BYTES) -> dict[str, Any]:
    """The JSON object in `path`; `RunnerError` when it is oversized, not JSON, or not an object,
    or not a regular file (a link is not followed, and a FIFO is not waited on: it would never be
    written once the sandbox has ended)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        with open(path, "rb", opener=lambda p, _: os.open(p, flags)) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise RunnerError(f"{path.name}: the test process's record is not a regular file")
            data = handle.read(limit + 1)
    except OSError as exc:
        raise RunnerError(f"{path.name}: cannot read the test process's record: {exc}") from None
    if len(data) > limit:
        raise RunnerError(f"{path.name}: the test process's record exceeds {limit} bytes")
    try:
        value = json.loads(data)
    except ValueError as exc:
        raise RunnerError(f"{path.name}: the test process's record is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise RunnerError(f"{path.name}: the test process's record is not a JSON object")
    return value
