"""Reading a pull request's body from a file (for lease expiries, SPEC 6): capped, UTF-8, one error."""

from __future__ import annotations

from pathlib import Path

from lanegate.errors import UsageError

MAX_PR_BODY_BYTES = 1_000_000


def read_pr_body(path: Path) -> str:
    """The text of a PR body file; a missing, oversized or non-UTF-8 file is a usage error."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_PR_BODY_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"--pr-body {path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_PR_BODY_BYTES:
        raise UsageError(f"--pr-body {path}: over the {MAX_PR_BODY_BYTES}-byte cap")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"--pr-body {path}: not UTF-8 text (byte {exc.start})") from None
