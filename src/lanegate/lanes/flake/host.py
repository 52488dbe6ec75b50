"""The host a CI job runs on, varied in-process: the working directory, the terminal, the CPUs,
the environment variables, the order directories list in.

A CI job starts pytest from wherever its script `cd`-ed to, with no terminal (`shutil` then falls
back to 80 x 24) or a developer's, on a machine with one CPU or sixty-four; a test that reads a
path relative to the working directory, formats to the terminal width or sizes its work by the CPU
count passes where it was written and fails on another host. Each context here puts one run on
another host and puts everything back after it, leaving no thread, module state or file behind:
- an empty working directory of its own (made with `os.mkdir`, not `tempfile`, whose cached
  temporary directory a test may expect to follow its own `TMPDIR`), removed after the run;
- `COLUMNS` and `LINES` (what `shutil.get_terminal_size`, argparse and most CLI toolkits read);
- `os.cpu_count()` (and `os.process_cpu_count()` where it exists) reporting the run's count, and
  the CPU affinity narrowed to that many of the CPUs the process may use;
- the variables another machine's environment sets (`dimensions.ENV_SETS`: a CI runner's `CI`,
  `NO_COLOR`, `TERM=dumb`; a colour terminal's `TERM`, `COLORTERM`);
- `os.listdir` and `os.scandir` returning a directory's entries reversed or shuffled (what
  `Path.iterdir`, `glob` and `os.walk` call is theirs): a file system lists in an order of its own,
  the same on every run of one machine and another on the next machine.
A fixture that changes any of these itself still wins: the plugin enters the context before the
test's setup and leaves it after its teardown.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import random
from collections.abc import Callable, Iterator
from typing import Any

from lanegate import treewalk
from lanegate.lanes.flake.dimensions import RunPins

__all__ = ["applied", "cpus", "empty_cwd", "environment", "listing", "terminal"]

_BASE = os.environ.get("TMPDIR") or "/tmp"
_counter = itertools.count()


@contextlib.contextmanager
def empty_cwd() -> Iterator[str]:
    """The run's working directory is a fresh empty directory; the old one is restored after."""
    saved = os.getcwd()
    while True:
        path = os.path.join(_BASE, f"lanegate-cwd-{os.getpid()}-{next(_counter)}")
        try:
            os.mkdir(path, 0o700)
            break
        except FileExistsError:
            continue
    os.chdir(path)
    try:
        yield path
    finally:
        os.chdir(saved)
        treewalk.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def environment(variables: tuple[tuple[str, str], ...]) -> Iterator[None]:
    """`variables` set for the run; the old values (or their absence) restored after."""
    saved = {name: os.environ.get(name) for name, _ in variables}
    for name, value in variables:
        os.environ[name] = value
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def terminal(columns: int, lines: int) -> contextlib.AbstractContextManager[None]:
    """`COLUMNS` and `LINES` set for the run; the old values (or their absence) restored after."""
    return environment((("COLUMNS", str(columns)), ("LINES", str(lines))))


def _reporting(original: Callable[[], int | None], count: int) -> Callable[[], int | None]:
    @functools.wraps(original)
    def counted() -> int | None:
        return count

    return counted


@contextlib.contextmanager
def cpus(count: int) -> Iterator[None]:
    """`os.cpu_count()` reports `count` and the affinity is narrowed to at most `count` CPUs for
    the run; both restored after."""
    names = [n for n in ("cpu_count", "process_cpu_count") if hasattr(os, n)]
    saved = {name: getattr(os, name) for name in names}
    affinity: set[int] | None = None
    if hasattr(os, "sched_getaffinity"):
        with contextlib.suppress(OSError):
            affinity = os.sched_getaffinity(0)
            os.sched_setaffinity(0, sorted(affinity)[: max(1, count)])
    for name in names:
        setattr(os, name, _reporting(saved[name], count))
    try:
        yield
    finally:
        for name in names:
            setattr(os, name, saved[name])
        if affinity is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, affinity)


class _Listed:
    """What `os.scandir` returns (an iterator of entries that is its own context manager and has
    `close`) over entries already read: the directory is closed before the caller sees one."""

    def __init__(self, entries: list[os.DirEntry[Any]]) -> None:
        self._entries = iter(entries)

    def __iter__(self) -> _Listed:
        return self

    def __next__(self) -> os.DirEntry[Any]:
        return next(self._entries)

    def __enter__(self) -> _Listed:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._entries = iter(())


@contextlib.contextmanager
def listing(order: str, seed: int) -> Iterator[None]:
    """`os.listdir` and `os.scandir` return entries `reversed`, or `shuffled` by `seed` (each
    listing of the run drawn from one generator), for the run; both restored after."""
    saved_listdir, saved_scandir = os.listdir, os.scandir
    draw = random.Random(seed)

    def arranged(entries: list[Any]) -> list[Any]:
        if order == "reversed":
            entries.reverse()
        else:
            draw.shuffle(entries)
        return entries

    @functools.wraps(saved_listdir)
    def listdir(*args: Any, **kwargs: Any) -> Any:
        return arranged(saved_listdir(*args, **kwargs))

    @functools.wraps(saved_scandir)
    def scandir(*args: Any, **kwargs: Any) -> _Listed:
        with saved_scandir(*args, **kwargs) as entries:
            return _Listed(arranged(list(entries)))

    os.listdir, os.scandir = listdir, scandir  # type: ignore[assignment]
    try:
        yield
    finally:
        os.listdir, os.scandir = saved_listdir, saved_scandir


@contextlib.contextmanager
def applied(pins: RunPins) -> Iterator[None]:
    """Every host condition `pins` asks for, for the duration of one run."""
    with contextlib.ExitStack() as stack:
        if pins.empty_cwd:
            stack.enter_context(empty_cwd())
        if pins.terminal is not None:
            stack.enter_context(terminal(*pins.terminal))
        if pins.cpus is not None:
            stack.enter_context(cpus(pins.cpus))
        if pins.env:
            stack.enter_context(environment(pins.env))
        if pins.listing is not None:
            stack.enter_context(listing(pins.listing, pins.listing_seed))
        yield
