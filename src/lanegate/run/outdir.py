"""The output directory of `lanegate run`: claimed only when it is ours, filled only by a whole run.

A directory is ours when it carries the marker `.lanegate-run.json`, is new or empty, or holds only
ledgers a lane command wrote. Each run
removes the previous run's outputs first, lanes write into a staging directory inside it, and only a
finished run moves its files in (with SIGINT/SIGTERM deferred for those few renames). So an interrupted
or crashed run leaves no ledger behind that a later `lanegate score` could read as evidence.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from lanegate import treewalk
from lanegate.errors import UsageError
from lanegate.sharding.ledger_file import FILE_PATTERN, SHARD_KIND
from lanegate.sharding.plan import PLAN_KIND, PLAN_NAME

MARKER = ".lanegate-run.json"
GITIGNORE = ".gitignore"
LOCK = ".lock"
STAGING_PREFIX = ".staging-"
KNOWN_OUTPUTS = (
    "property.json",
    "fixture.json",
    "flake.json",
    "lint.json",
    "score-report.json",
    "score-summary.md",
    "mutation-report.json",
    "fixture-report.txt",
)
_OWN = frozenset({MARKER, GITIGNORE, LOCK})
MAX_SNIFF_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class OutDir:
    """A claimed output directory and the open lock that keeps a second run out of it."""

    path: Path
    lock: IO[bytes] | None

    def release(self) -> None:
        """Let go of the lock (the directory and its files stay)."""
        if self.lock is not None:
            self.lock.close()


def claim(path: Path) -> OutDir:
    """Make `path` the run's output directory, or refuse with a clear message if it is not ours."""
    if path.is_symlink():
        raise UsageError(
            f"{path}: is a symbolic link; lanegate run writes only into a real directory",
            hint="choose another --out DIR",
        )
    if path.exists():
        if not path.is_dir():
            raise UsageError(f"{path}: exists and is not a directory", hint="choose another --out")
        if not (path / MARKER).is_file() and not _only_lanegate_outputs(path):
            raise UsageError(
                f"{path}: exists and was not made by lanegate run (no {MARKER}); "
                "refusing to write into it",
                hint="move it away, or choose another --out DIR",
            )
    else:
        path.mkdir(parents=True)
    lock = _lock(path)
    try:
        _clear_previous(path)
        _write_text(path / GITIGNORE, "*\n")
        _write_manifest(path, [])
    except BaseException:
        if lock is not None:
            lock.close()
        raise
    return OutDir(path=path, lock=lock)


def _only_lanegate_outputs(path: Path) -> bool:
    """True for an empty directory, or one holding only what a lane command wrote (for example
    `lanegate flake` before a first `lanegate run`): known names, JSON ones carrying lanegate's
    version field. Anything else is the user's, and the directory is not ours to write into."""
    for entry in path.iterdir():
        sharded = entry.name == PLAN_NAME or FILE_PATTERN.fullmatch(entry.name) is not None
        if (
            (entry.name not in KNOWN_OUTPUTS and not sharded)
            or entry.is_symlink()
            or not entry.is_file()
        ):
            return False
        if entry.suffix == ".json":
            try:
                document = json.loads(entry.read_bytes()[:MAX_SNIFF_BYTES])
            except ValueError:
                return False
            if not isinstance(document, dict):
                return False
            # the plan and shard files of `lanegate plan` / `--shard` carry a kind, not a version
            ours = document.get("kind") in (PLAN_KIND, SHARD_KIND) if sharded else True
            if not ours or (not sharded and "lanegate_version" not in document):
                return False
    return True


def _lock(path: Path) -> IO[bytes] | None:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; a second run there is the user's business
        return None
    handle = (path / LOCK).open("ab")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise UsageError(f"{path}: another lanegate run is using this directory") from None
    return handle


def previous_outputs(path: Path) -> list[str]:
    """Names the last run wrote (from the marker), plus every name lanegate ever writes."""
    names = set(KNOWN_OUTPUTS)
    try:
        listed = json.loads((path / MARKER).read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        listed = []
    if isinstance(listed, list):
        names.update(n for n in listed if isinstance(n, str) and _plain_name(n))
    with contextlib.suppress(OSError):  # plan and shard files of `lanegate plan` / `--shard`
        names.update(
            e.name
            for e in path.iterdir()
            if e.name == PLAN_NAME or FILE_PATTERN.fullmatch(e.name) is not None
        )
    return sorted(names - _OWN)


def _plain_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and name not in {".", ".."}


def _clear_previous(path: Path) -> None:
    for name in previous_outputs(path):
        _remove(path / name)
    for entry in path.iterdir():
        if entry.name.startswith(STAGING_PREFIX):  # left by a run that was killed outright
            _remove(entry)


def _remove(target: Path) -> None:
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.is_dir():
        treewalk.rmtree(target)


def _write_text(target: Path, text: str) -> None:
    temp = target.with_name(f"{target.name}.{secrets.token_hex(4)}.tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, target)


def _write_manifest(path: Path, files: list[str]) -> None:
    payload = {"writer": "lanegate run", "files": sorted(files)}
    _write_text(path / MARKER, json.dumps(payload, indent=1) + "\n")


def new_staging(out: OutDir) -> Path:
    """A fresh staging directory inside the output directory (same filesystem: renames are atomic)."""
    staging = out.path / f"{STAGING_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
    staging.mkdir()
    return staging


@contextlib.contextmanager
def signals_held(*, reraise: bool = False) -> Iterator[None]:
    """Hold off SIGINT and SIGTERM until the block ends; with `reraise`, raise KeyboardInterrupt then
    if one came (else it is dropped: the block was short and finishing it is the right answer).

    Swapping the handlers (not masking) works whichever thread the kernel delivers the signal to.
    Outside the main thread handlers cannot be changed, and the block simply runs.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def defer(signum: int, frame: object) -> None:
        arrived.append(signum)

    held = (signal.SIGINT, signal.SIGTERM)
    previous = {sig: signal.signal(sig, defer) for sig in held}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if arrived and reraise:
        raise KeyboardInterrupt


def commit(out: OutDir, staging: Path) -> list[Path]:
    """Move every file of a finished run into place and record them in the marker."""
    names = sorted(entry.name for entry in staging.iterdir())
    with signals_held():
        for name in names:
            target = out.path / name
            if target.is_dir() and not target.is_symlink():
                treewalk.rmtree(target)
            os.replace(staging / name, target)
        _write_manifest(out.path, names)
        staging.rmdir()
    return [out.path / name for name in names]


def discard(staging: Path) -> None:
    """Delete a staging directory and everything a lane wrote into it."""
    treewalk.rmtree(staging, ignore_errors=True)
